#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Runs one fuzz harness (make fuzz) and, when it finds something, ends its
# output with what reproduces the finding elsewhere: a CI log often shows
# only its last lines, so those are the summary, the first frames of the
# failing stack, the seed, and the input itself (xz, then base64 on one line:
# `base64 -d | xz -d > input`, then `build-fuzz/fuzz-NAME input`).
# usage: run-harness.sh OUT NAME SECONDS SEED RUNS TIMEOUT [libFuzzer args...]
set -u
out=$1 name=$2 seconds=$3 seed=$4 runs=$5 timeout=$6
shift 6
log=$out/fuzz-$name.log
mkdir -p "$out/corpus/$name" "tests/fuzz/regress/$name"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	"$out/fuzz-$name" -max_total_time="$seconds" -timeout="$timeout" -seed="$seed" \
	-runs="$runs" -rss_limit_mb=4096 -print_final_stats=1 \
	-artifact_prefix="$out/crash-$name-" "$@" \
	"$out/corpus/$name" "tests/fuzz/regress/$name" >"$log" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then
	grep -E '^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb)' \
		"$log" | sed "s/^/  $name: /"
	exit 0
fi
tail -60 "$log"
echo "== fuzz-$name failed (exit $rc); to reproduce:"
grep -m1 -E '^INFO: Seed:' "$log"
grep -m1 -E 'ERROR: |runtime error:|ALARM:' "$log"
grep -m1 -E '^SUMMARY:' "$log"
# The first frames of the first stack: where it failed, not libFuzzer's own.
grep -E '^ +#[0-9]+ ' "$log" | grep -v -E 'in (fuzzer::|__sanitizer|__asan|__ubsan|__interceptor|_start|__libc_start)' |
	head -12
artifact=$(sed -n 's/.*Test unit written to \([^ ]*\).*/\1/p' "$log" | head -1)
if [ -n "$artifact" ] && [ -f "$artifact" ]; then
	echo "input $artifact ($(wc -c <"$artifact") bytes), xz | base64:"
	xz -9 -c "$artifact" | base64 -w0
	echo
fi
exit 1
