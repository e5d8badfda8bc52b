#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabi-diff probe on Debian's real kernels: boots 6.1.0-47 and 6.12.107
# under QEMU (TCG) with the built-in cases and checks what each kernel
# answered, as stored in its .kabi.
#
# Reference facts (kernel sources, not outputs of kabi-diff):
# - syscall 451 is cachestat since 6.5 (syscall_64.tbl): 6.1 has no entry
#   (ENOSYS); 6.12's cachestat(0, NULL, NULL, 0) faults copying the range
#   (EFAULT).
# - openat() drops unknown flag bits (build_open_flags: flags &=
#   VALID_OPEN_FLAGS); openat2() rejects them and unknown resolve bits
#   with EINVAL (build_open_flags: "flags & ~VALID_OPEN_FLAGS",
#   "how->resolve & ~VALID_RESOLVE_FLAGS"), in both releases.
# - close(-1) is EBADF; openat2 with usize 23 (< OPEN_HOW_SIZE_VER0) is
#   EINVAL; clone3 with size 63 (< CLONE_ARGS_SIZE_VER0) is EINVAL.
# Needs qemu-system-x86_64 and the bootable vmlinuz next to the vmlinux
# (../shared/kernels/fetch --image RELEASE); skipped otherwise.
. "$KD_SRCDIR/lib.sh"

q() { sqlite3 "$1" "SELECT status || ' ' || ifnull(errno_name, 'ok') FROM probe_results WHERE case_id = '$2'"; }

if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
	skip "qemu-system-x86_64 not installed (make -f tests/probe.mk probe-deps)"
	done_testing
fi
for r in $KD_REAL_RELEASES; do
	img=${KABI_KERNELS:-/root/.cache/kabi-kernels}/$r/vmlinuz
	if [ ! -r "$img" ]; then
		skip "$r: no vmlinuz (fetch: ../shared/kernels/fetch --image $r)"
		continue
	fi
	db=$(real_db "$r")
	ok $? "$r: extract" || continue
	start=$(date +%s)
	"$KABI_DIFF" probe "$db" --kernel "$img" --timeout 300 >"probe-$r.out" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	echo "# $r: $(head -1 "probe-$r.out") in $secs s"
	# 4: stored, with mismatches against the built-in expectations.
	{ [ "$rc" -eq 0 ] || [ "$rc" -eq 4 ]; }
	ok $? "$r: probe ran (exit $rc)" || { sed 's/^/#   /' "probe-$r.out" | head -30; continue; }
	is "$(sqlite3 "$db" "SELECT value FROM meta WHERE key = 'probe_release'")" "$r" \
		"$r: the booted kernel is the release"
	n=$(sqlite3 "$db" "SELECT count(*) FROM probe_results WHERE status = 'ret'")
	[ "$n" -ge 300 ]
	ok $? "$r: at least 300 cases returned ($n)"
	is "$(sqlite3 "$db" "SELECT count(*) FROM probe_results WHERE status <> 'ret'")" 0 \
		"$r: no timeout, signal or missing result"
	is "$(q "$db" close.badfd)" "ret EBADF" "$r: close(-1)"
	is "$(q "$db" openat.flags.unknown)" "ret ok" "$r: openat ignores an unknown flag bit"
	is "$(q "$db" openat2.flags.unknown)" "ret EINVAL" "$r: openat2 rejects an unknown flag bit"
	is "$(q "$db" openat2.resolve.unknown)" "ret EINVAL" "$r: openat2 rejects an unknown resolve bit"
	is "$(q "$db" openat2.size23)" "ret EINVAL" "$r: openat2 with usize 23"
	is "$(q "$db" clone3.size63)" "ret EINVAL" "$r: clone3 with size 63"
	case $r in
	6.1.*) want="ret ENOSYS" ;;
	*) want="ret EFAULT" ;;
	esac
	is "$(q "$db" cachestat.null)" "$want" "$r: syscall 451 with NULL arguments"
done

# A kernel that does not boot is an error with the console's tail, and
# the .kabi is left as it was.
r=${KD_REAL_RELEASES%% *}
db=$(real_db "$r") && img=${KABI_KERNELS:-/root/.cache/kabi-kernels}/$r/vmlinuz
if [ -n "$db" ] && [ -r "$img" ]; then
	head -c 4096 /dev/urandom >not-a-kernel
	before=$(sqlite3 "$db" "SELECT count(*) FROM probe_results")
	"$KABI_DIFF" probe "$db" --kernel not-a-kernel --timeout 60 >bad.out 2>&1
	is "$?" 1 "not a kernel: exit 1"
	grep -q "probe failed: QEMU failed" bad.out
	ok $? "not a kernel: says QEMU failed" || sed 's/^/#   /' bad.out
	is "$(sqlite3 "$db" "SELECT count(*) FROM probe_results")" "$before" "not a kernel: DB untouched"
fi
done_testing
