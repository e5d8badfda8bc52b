#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabi-diff probe on Debian's real kernels: boots 6.1.0-47 and 6.12.107
# under QEMU (TCG) with the built-in cases and checks what each kernel
# answered, as stored in its .kabi.
#
# Reference facts (kernel sources, not outputs of kabi-diff):
# - syscall 451 is cachestat since 6.5 (syscall_64.tbl): 6.1 has no entry
#   (so no case); 6.12's cachestat(0, NULL, NULL, 0) faults copying the
#   range (EFAULT).
# - openat() drops unknown flag bits (build_open_flags: flags &=
#   VALID_OPEN_FLAGS); openat2() rejects them and unknown resolve bits
#   with EINVAL (build_open_flags: "flags & ~VALID_OPEN_FLAGS",
#   "how->resolve & ~VALID_RESOLVE_FLAGS"), in both releases.
# - close(-1) is EBADF; openat2 with usize 23 (< OPEN_HOW_SIZE_VER0) is
#   EINVAL; clone3 with size 63 (< CLONE_ARGS_SIZE_VER0) is EINVAL.
# - with spec/: 6.1 refuses MFD_EXEC (added in 6.3, memfd_create's
#   MFD_ALL_FLAGS), 6.12 accepts it.
# - the probe's files are on ext4 by default (mke2fs here, ext4 and loop in
#   the release's modules tree, fetch --modules), else on tmpfs;
# - with spec/: no mismatch; the known deviations of the starter contract
#   (on ext4 8 on 6.1, 12 on 6.12; on tmpfs 12 and 16) are listed with
#   their kernel source lines in probe/README.md ("Known deviations");
#   openat2 accepts __FMODE_NONOTIFY (build_open_flags strips it), 1 << 26
#   in 6.1, 1 << 25 in 6.12.
# Needs qemu-system-x86_64 and the bootable vmlinuz next to the vmlinux
# (../shared/kernels/fetch --image RELEASE); skipped otherwise.
. "$KD_SRCDIR/lib.sh"

q() { sqlite3 "$1" "SELECT status || ' ' || ifnull(errno_name, 'ok') FROM probe_results WHERE case_id = '$2'"; }
# The default file system of release $1's probe: ext4 where it can be made and mounted.
default_fs() {
	if command -v mke2fs >/dev/null 2>&1 &&
	   [ -r "${KABI_KERNELS:-/root/.cache/kabi-kernels}/$1/modules/fs/ext4/ext4.ko" ]; then
		echo ext4
	else
		echo tmpfs
	fi
}

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
	# A copy: the shared real_db stays as extracted (t08 compares a package
	# pair with it, and probe results would be changes of their own).
	db=probe-$r.kabi
	cp "$(real_db "$r")" "$db"
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
	fs=$(default_fs "$r")
	is "$(sqlite3 "$db" "SELECT value FROM meta WHERE key = 'probe_fs'")" "$fs" \
		"$r: the probe's file is on $fs by default, and the report says so"
	grep -q "the probe's file on $fs: default" "probe-$r.out"
	ok $? "$r: the summary line names the file system and how it was chosen"
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
	# Cases only for calls the kernel's table implements: none for 451 on 6.1.
	case $r in
	6.1.*) want="" ;;
	*) want="ret EFAULT" ;;
	esac
	is "$(q "$db" cachestat.null)" "$want" "$r: syscall 451 with NULL arguments"
	is "$(sqlite3 "$db" "SELECT count(*) FROM probe_cases c WHERE NOT EXISTS (SELECT 1 FROM
		syscalls s WHERE s.abi = 'x64' AND s.name = c.call AND s.implemented)")" 0 \
		"$r: no case for a call the kernel's table lacks"
done

# The contract's cases: each kernel extracted with its UAPI headers and
# spec/contract/ (stored in the .kabi, so probe converts it without --spec), probed,
# then diffed: the observed changes are in the report with their rules.
spec_db() {
	k=${KABI_KERNELS:-/root/.cache/kabi-kernels}/$1
	[ -r "$k/vmlinuz" ] && [ -d "$k/include" ] || return 1
	"$KABI_DIFF" extract -q "$k/vmlinux" --uapi "$k/include" --spec "$KD_SRCDIR/../spec/contract" \
		-o "spec-$1.kabi" >&2 && echo "spec-$1.kabi"
}
set -- $KD_REAL_RELEASES
old=$(spec_db "$1") && new=$(spec_db "$2")
if [ -n "$old" ] && [ -n "$new" ]; then
	for db in "$old" "$new"; do
		r=${db#spec-}; r=${r%.kabi}
		start=$(date +%s)
		"$KABI_DIFF" probe "$db" --kernel "${KABI_KERNELS:-/root/.cache/kabi-kernels}/$r/vmlinuz" \
			--timeout 300 >"$db.out" 2>&1
		rc=$?
		secs=$(($(date +%s) - start))
		echo "# $r with spec/: $(head -1 "$db.out") in $secs s wall (load $(cut -d' ' -f1 /proc/loadavg))"
		{ [ "$rc" -eq 0 ] || [ "$rc" -eq 4 ]; }
		ok $? "$r: probe with the contract ran (exit $rc)" || sed 's/^/#   /' "$db.out" | head -20
		n=$(sqlite3 "$db" "SELECT count(*) FROM probe_cases WHERE origin LIKE '%.kabispec:%'")
		[ "$n" -ge 1000 ]
		ok $? "$r: at least 1000 cases from the contract ($n)"
		# openat2(2): usize 23 < OPEN_HOW_SIZE_VER0 and a bit above open_how_flags.
		is "$(q "$db" openat2.EINVAL)" "ret EINVAL" "$r: spec openat2 usize < OPEN_HOW_SIZE_VER0"
		is "$(sqlite3 "$db" "SELECT args FROM probe_cases WHERE id = 'openat2.EINVAL'")" \
			'-100, "/", buf[24]{0:8=0x0,16:8=0x0,8:8=0x0}, 23' "$r: usize 23, a valid how"
		is "$(q "$db" openat2.E2BIG)" "ret E2BIG" "$r: spec openat2 usize > PAGE_SIZE"
		is "$(q "$db" openat.flags.unknown)" "ret ok" "$r: openat ignores an unknown bit (unknown ignore)"
		is "$(q "$db" openat2.flags.unknown)" "ret EINVAL" "$r: openat2 rejects it (unknown reject)"
		# Every case the kernel answers otherwise than the contract is a known
		# deviation of the contract, with its kernel source line (probe/README.md,
		# "Known deviations"): 0 mismatches.
		is "$(sqlite3 "$db" "SELECT value FROM meta WHERE key = 'probe_mismatches'")" 0 \
			"$r: no mismatch with the starter contract" || grep MISMATCH "$db.out" | sed 's/^/#   /'
		case $r:$(default_fs "$r") in
		6.1.*:ext4) want="fallocate.mode.FALLOC_FL_UNSHARE_RANGE io_uring_setup.flags.IORING_SETUP_ATTACH_WQ mprotect.prot.PROT_GROWSDOWN openat.flags.O_DIRECT openat2.flags.O_DIRECT openat2.flags.bit26 pkey_alloc.init_val.PKEY_DISABLE_ACCESS pwritev2.flags.RWF_NOWAIT " ;;
		*:ext4) want="fallocate.mode.FALLOC_FL_UNSHARE_RANGE futex_requeue.waiters.flags.FUTEX2_NUMA futex_requeue.waiters.flags.FUTEX2_PRIVATE futex_requeue.waiters.flags.FUTEX2_SIZE_U32 io_uring_setup.flags.IORING_SETUP_ATTACH_WQ mprotect.prot.PROT_GROWSDOWN openat.flags.O_DIRECT openat2.flags.O_DIRECT openat2.flags.bit25 pkey_alloc.init_val.PKEY_DISABLE_ACCESS pwritev2.flags.RWF_ATOMIC pwritev2.flags.RWF_NOWAIT " ;;
		6.1.*) want="fallocate.mode.FALLOC_FL_COLLAPSE_RANGE fallocate.mode.FALLOC_FL_INSERT_RANGE fallocate.mode.FALLOC_FL_UNSHARE_RANGE fallocate.mode.FALLOC_FL_ZERO_RANGE io_uring_setup.flags.IORING_SETUP_ATTACH_WQ mprotect.prot.PROT_GROWSDOWN openat.flags.O_DIRECT openat2.flags.O_DIRECT openat2.flags.bit26 pkey_alloc.init_val.PKEY_DISABLE_ACCESS preadv2.flags.RWF_NOWAIT pwritev2.flags.RWF_NOWAIT " ;;
		*) want="fallocate.mode.FALLOC_FL_COLLAPSE_RANGE fallocate.mode.FALLOC_FL_INSERT_RANGE fallocate.mode.FALLOC_FL_UNSHARE_RANGE fallocate.mode.FALLOC_FL_ZERO_RANGE futex_requeue.waiters.flags.FUTEX2_NUMA futex_requeue.waiters.flags.FUTEX2_PRIVATE futex_requeue.waiters.flags.FUTEX2_SIZE_U32 io_uring_setup.flags.IORING_SETUP_ATTACH_WQ mprotect.prot.PROT_GROWSDOWN openat.flags.O_DIRECT openat2.flags.O_DIRECT openat2.flags.bit25 pkey_alloc.init_val.PKEY_DISABLE_ACCESS preadv2.flags.RWF_NOWAIT pwritev2.flags.RWF_ATOMIC pwritev2.flags.RWF_NOWAIT " ;;
		esac
		"$KABI_DIFF" check "$db" >"$db.check" 2>&1
		is "$(sed -n 's/^probe\.known-deviation: \([^:]*\):.*/\1/p' "$db.check" | sort | tr '\n' ' ')" \
			"$want" "$r: check reports the known deviations, with their reasons"
		is "$(sqlite3 "$db" "SELECT value FROM meta WHERE key = 'probe_known'")" \
			"$(echo $want | wc -w)" "$r: counted apart (probe_known)"
	done
	"$KABI_DIFF" diff --full "$old" "$new" >diff-probe.out 2>&1
	is "$?" 28 "diff of the probed kernels: breaking and source-level changes (exit 28)"
	# cachestat has cases on 6.12 only: the table diff says it was added.
	grep -q 'syscall.added  *cachestat (x64): (none) -> 451  \[syscall-added\]' diff-probe.out
	ok $? "diff: syscall 451 added (syscall-added)" || grep cachestat diff-probe.out | sed 's/^/#   /'
	grep -q 'probe.*cachestat' diff-probe.out
	is "$?" 1 "diff: no probe change for cachestat (no case on 6.1)"
	# Same outcome on both kernels: no change reported for those cases.
	grep -q 'openat\.flags\.unknown\|openat2\.flags\.unknown\|openat2\.EINVAL:' diff-probe.out
	is "$?" 1 "diff: openat ignores / openat2 rejects unknown bits on both: no change"
	grep -q 'probe.flag  *memfd_create.flags: EINVAL -> ok  \[probe-flag-accepted\]' diff-probe.out
	ok $? "diff: MFD_EXEC and MFD_NOEXEC_SEAL (6.3) rejected by 6.1, accepted by 6.12: one change"
	grep -q '^        2 bits: MFD_EXEC, MFD_NOEXEC_SEAL; ' diff-probe.out
	ok $? "diff: the change lists its bits"
	# The observed changes, each a real difference (probe/README.md): new
	# flags accepted or known, the __FMODE_NONOTIFY bit that moved; none
	# breaking, none caused by the probe's arguments, each input once.
	is "$(sed -n 's/^    probe\.[a-z]*  *\([^:]*\): .*\[\(probe-[a-z-]*\)\]$/\1 \2/p' diff-probe.out | sort | tr '\n' ';')" \
		"fanotify_init.flags.FAN_REPORT_FD_ERROR probe-flag-accepted;io_uring_setup.flags.IORING_SETUP_NO_MMAP probe-flag-known;io_uring_setup.flags.IORING_SETUP_NO_SQARRAY probe-flag-accepted;landlock_create_ruleset.handled_access_fs probe-flag-accepted;memfd_create.flags probe-flag-accepted;name_to_handle_at.flag probe-flag-known;openat2.flags.bit25 probe-deviation-accepts;openat2.flags.bit26 probe-deviation-gone;pidfd_open.flags.PIDFD_THREAD probe-flag-known;pidfd_send_signal.flags probe-flag-known;preadv2.flags.RWF_NOAPPEND probe-flag-accepted;pwritev2.flags.RWF_NOAPPEND probe-flag-accepted;" \
		"diff: the 12 observed changes with their rules"
	# The vmlinux itself boots too (its PVH entry, CONFIG_PVH): the same answers.
	r=${new#spec-}; r=${r%.kabi}
	cp "$new" pvh.kabi
	"$KABI_DIFF" probe pvh.kabi --kernel "${KABI_KERNELS:-/root/.cache/kabi-kernels}/$r/vmlinux" \
		--timeout 300 >pvh.out 2>&1
	is "$?" 0 "$r: the vmlinux boots (PVH entry), no mismatch (exit 0)" || tail -5 pvh.out | sed 's/^/#   /'
	echo "# $r booting the vmlinux: $(head -1 pvh.out)"
	results() { sqlite3 "$1" "SELECT case_id || ' ' || status || ' ' || ifnull(errno_name, 'ok')
		FROM probe_results ORDER BY case_id" | md5sum; }
	is "$(results pvh.kabi)" "$(results "$new")" "$r: the same results as with the vmlinuz"
else
	skip "spec probe: no vmlinuz or include/ for $1 and $2"
fi

# An image that is no kernel is an error, and the .kabi is left as it was.
r=${KD_REAL_RELEASES%% *}
db=probe-$r.kabi img=${KABI_KERNELS:-/root/.cache/kabi-kernels}/$r/vmlinuz
if [ -r "$db" ] && [ -r "$img" ]; then
	head -c 4096 /dev/urandom >not-a-kernel
	before=$(sqlite3 "$db" "SELECT count(*) FROM probe_results")
	"$KABI_DIFF" probe "$db" --kernel not-a-kernel --timeout 60 >bad.out 2>&1
	is "$?" 1 "not a kernel: exit 1"
	# Refused before any boot since the image is checked (probe/kernel-check.c, extract/image.c).
	is "$(cat bad.out)" "kabi-diff: not-a-kernel: neither an ELF vmlinux, an x86 bzImage nor an arm64 Image" \
		"not a kernel: refused before the boot, in one line"
	is "$(sqlite3 "$db" "SELECT count(*) FROM probe_results")" "$before" "not a kernel: DB untouched"
fi
done_testing
