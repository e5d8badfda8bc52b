#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# An extraction killed midway (SIGINT, SIGTERM) leaves no temporary file and
# the previous output untouched. KABI_DIFF_TEST_PAUSE holds extract just
# before its commit, with the temporary .kabi written, so the kill lands
# there every time.
. "$KD_SRCDIR/lib.sh"

k=$(fixture_kernel v1-dwarf5 -gdwarf-5)
scratch killed

for sig in INT:2 TERM:15; do
	sig_nr=${sig#*:} sig=${sig%:*}
	echo OLD > out.kabi
	KABI_DIFF_TEST_PAUSE=30 "$KABI_DIFF" extract -q "$k" -o out.kabi &
	pid=$!
	n=0
	while [ -z "$(ls out.kabi.tmp.* 2>/dev/null)" ] && [ $n -lt 100 ]; do
		sleep 0.1; n=$((n + 1))
	done
	ok "$([ -n "$(ls out.kabi.tmp.* 2>/dev/null)" ]; echo $?)" "SIG$sig: the temporary output exists while extracting"
	kill -$sig $pid
	wait $pid
	rc=$?
	is "$rc" "$((128 + sig_nr))" "SIG$sig: extract dies of the signal"
	is "$(ls out.kabi.tmp.* 2>/dev/null)" "" "SIG$sig: no temporary file left"
	is "$(cat out.kabi)" "OLD" "SIG$sig: the old output is untouched"
done
done_testing
