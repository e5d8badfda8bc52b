#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabi-diff probe on Debian's 6.1.0-47-arm64 (issue 14): its Image booted
# by qemu-system-aarch64 (TCG, -M virt -cpu max,pauth-impdef=on), the probe
# cross-built static by aarch64-linux-gnu-gcc, the cases numbered by the
# kernel's arm64 table; first with the built-in cases, then with the
# starter contract (spec/contract, stored in the .kabi at extraction).
#
# Reference facts (kernel sources, not outputs of kabi-diff):
# - include/uapi/asm-generic/unistd.h: close 57, openat 56, openat2 437,
#   clone3 435 on arm64 (x86_64: 3, 257, 437, 435); no open(2), no
#   arch_prctl, no epoll_create on arm64, so no case for them.
# - arch/arm64/include/uapi/asm/fcntl.h: O_DIRECTORY 040000, O_NOFOLLOW
#   0100000, O_DIRECT 0200000, O_LARGEFILE 0400000 (x86_64: 0200000,
#   0400000, 040000, 0100000); the probe opens "/" (tmpfs), so O_DIRECT is
#   refused (do_dentry_open(), fs/open.c: no a_ops->direct_IO), a known
#   deviation of the contract, and O_DIRECTORY on "/" opens it.
# - the built-in and the contract's openat/openat2 answers are those of
#   x86_64 (t06): build_open_flags() is generic.
# - arm64 has no ARCH_HAS_PKEYS in 6.1 (its POE arrived in 6.12), so
#   mm/mprotect.c builds no pkey_*: the table's slots point at
#   kernel/sys_ni.c's weak COND_SYSCALL stubs (System.map: "W
#   __arm64_sys_pkey_alloc"), which return -ENOSYS; no case for them.
# - with the contract, 1 mismatch, a kernel fact:
#   mprotect.prot.bit4 is accepted: bit 4 is arm64's PROT_BTI
#     (arch/arm64/include/uapi/asm/mman.h), which arch_validate_prot()
#     (arch/arm64/include/asm/mman.h) accepts when the CPU has BTI, and
#     QEMU's max CPU has it; the contract's prot_flags has no arm64 member.
# Needs qemu-system-aarch64 (Debian: qemu-system-arm), aarch64-linux-gnu-gcc
# with a static libc, and the Image (../shared/kernels/fetch --image
# 6.1.0-47-arm64); skipped otherwise.
. "$KD_SRCDIR/lib.sh"

r=6.1.0-47-arm64
k=${KABI_KERNELS:-/root/.cache/kabi-kernels}/$r
if ! command -v qemu-system-aarch64 >/dev/null 2>&1; then
	skip "qemu-system-aarch64 not installed (Debian: qemu-system-arm; make -f tests/probe.mk probe-deps)"
	done_testing
fi
if ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
	skip "no aarch64-linux-gnu-gcc (Debian: gcc-aarch64-linux-gnu libc6-dev-arm64-cross)"
	done_testing
fi
if [ ! -r "$k/vmlinuz" ] || [ ! -r "$k/vmlinux" ]; then
	skip "$r: no vmlinux or vmlinuz (fetch: ../shared/kernels/fetch --image $r)"
	done_testing
fi

q() { sqlite3 "$1" "SELECT status || ' ' || ifnull(errno_name, 'ok') FROM probe_results WHERE case_id = '$2'"; }
nr() { sqlite3 "$1" "SELECT nr FROM probe_cases WHERE id = '$2'"; }
# probe DB OUT: probe DB with the Image; prints the summary line as a comment.
probe() {
	start=$(date +%s)
	"$KABI_DIFF" probe "$1" --kernel "$k/vmlinuz" --fs tmpfs --timeout 300 >"$2" 2>&1
	rc=$?
	echo "# $r: $(head -1 "$2") in $(($(date +%s) - start)) s wall"
	return $rc
}

# --- the built-in cases -------------------------------------------------------------
# A copy: the shared real_db stays as extracted, without probe results.
db=probe-$r.kabi
cp "$(real_db "$r")" "$db"
ok $? "$r: extract" || done_testing
probe "$db" builtin.out
rc=$?
# 4: stored, with mismatches against the built-in expectations.
{ [ "$rc" -eq 0 ] || [ "$rc" -eq 4 ]; }
ok $? "$r: probe ran (exit $rc)" || { sed 's/^/#   /' builtin.out | head -30; done_testing; }
is "$(sqlite3 "$db" "SELECT value FROM meta WHERE key IN ('probe_release', 'probe_fs') ORDER BY key")" \
	"tmpfs
$r" "the booted kernel is the release; the probe's file on tmpfs"
is "$(sqlite3 "$db" "SELECT count(*) FROM probe_results WHERE status <> 'ret'")" 0 \
	"no timeout, signal or missing result"
is "$(nr "$db" close.badfd) $(nr "$db" openat.nonexistent) $(nr "$db" openat2.size23) $(nr "$db" clone3.size63)" \
	"57 56 437 435" "numbered by the arm64 table (asm-generic/unistd.h)"
is "$(sqlite3 "$db" "SELECT count(*) FROM probe_cases WHERE call IN ('open', 'arch_prctl', 'epoll_create', 'epoll_wait', 'dup2')")" \
	0 "no case for calls arm64 lacks (open, arch_prctl, epoll_create, epoll_wait, dup2)"
is "$(sqlite3 "$db" "SELECT count(*) FROM probe_cases c WHERE NOT EXISTS (SELECT 1 FROM
	syscalls s WHERE s.abi = 'arm64' AND s.name = c.call AND s.nr = c.nr AND s.implemented)")" 0 \
	"every case's call and number in the kernel's arm64 table"
is "$(q "$db" close.badfd)" "ret EBADF" "close(-1)"
is "$(q "$db" openat.flags.unknown)" "ret ok" "openat ignores an unknown flag bit"
is "$(q "$db" openat2.flags.unknown)" "ret EINVAL" "openat2 rejects an unknown flag bit"
is "$(q "$db" openat2.resolve.unknown)" "ret EINVAL" "openat2 rejects an unknown resolve bit"
is "$(q "$db" openat2.size23)" "ret EINVAL" "openat2 with usize 23"
is "$(q "$db" clone3.size63)" "ret EINVAL" "clone3 with size 63"
is "$(sqlite3 "$db" "SELECT args FROM probe_cases WHERE id IN ('openat.flags.O_DIRECT', 'openat.flags.O_DIRECTORY') ORDER BY id")" \
	'-100, "/", 0x10000, 0
-100, "/", 0x4000, 0' "O_DIRECT and O_DIRECTORY with arm64's values"
is "$(q "$db" openat.flags.O_DIRECT) $(q "$db" openat.flags.O_DIRECTORY)" "ret EINVAL ret ok" \
	"O_DIRECT on tmpfs' / refused, O_DIRECTORY on / opens it"
# The built-in expectations know no deviation: their 10 misses are the
# probe's tmpfs (O_DIRECT), __FMODE_NONOTIFY (bit 26, stripped by
# build_open_flags()), flags that need a companion (AT_RECURSIVE without
# OPEN_TREE_CLONE; IORING_SETUP_SQ_AFF without SQPOLL, CQSIZE without
# entries, ATTACH_WQ without a ring fd, TASKRUN_FLAG without COOP_TASKRUN,
# DEFER_TASKRUN without SINGLE_ISSUER) and landlock's bit 1, probed as
# unused on 6.1: LANDLOCK_CREATE_RULESET_ERRATA (mainline 6.15) is in
# Debian's 6.1.170 as a stable backport and answers 0 (no errata).
is "$(sqlite3 "$db" "SELECT case_id FROM probe_results WHERE NOT matches ORDER BY case_id" | tr '\n' ' ')" \
	"io_uring_setup.flags.IORING_SETUP_ATTACH_WQ io_uring_setup.flags.IORING_SETUP_CQSIZE io_uring_setup.flags.IORING_SETUP_DEFER_TASKRUN io_uring_setup.flags.IORING_SETUP_SQ_AFF io_uring_setup.flags.IORING_SETUP_TASKRUN_FLAG landlock_create_ruleset.flags.unknown open_tree.flags.AT_RECURSIVE openat.flags.O_DIRECT openat2.flags.O_DIRECT openat2.flags.bit26 " \
	"the built-in cases' 10 misses"

# --- the starter contract ----------------------------------------------------------------
"$KABI_DIFF" extract -q "$k/vmlinux" --uapi "$k/include" --spec "$KD_SRCDIR/../spec/contract" \
	-o spec.kabi
ok $? "$r: extract with its UAPI headers and the contract" || done_testing
probe spec.kabi spec.out
is "$?" 4 "probe with the contract: stored, with mismatches (exit 4)" || sed 's/^/#   /' spec.out | head -20
n=$(sqlite3 spec.kabi "SELECT count(*) FROM probe_cases WHERE origin LIKE '%.kabispec:%'")
[ "$n" -ge 1000 ]
ok $? "at least 1000 cases from the contract ($n)"
is "$(sqlite3 spec.kabi "SELECT count(*) FROM probe_results WHERE status <> 'ret'")" 0 \
	"no timeout, signal or missing result"
is "$(q spec.kabi openat2.EINVAL) $(q spec.kabi openat2.E2BIG)" "ret EINVAL ret E2BIG" \
	"openat2 usize < OPEN_HOW_SIZE_VER0, > PAGE_SIZE"
is "$(sqlite3 spec.kabi "SELECT value FROM meta WHERE key = 'probe_mismatches'")" 1 "1 mismatch"
is "$(sqlite3 spec.kabi "SELECT count(*) FROM probe_cases WHERE call LIKE 'pkey_%'")" 0 \
	"no case for pkey_* (COND_SYSCALL stubs: ENOSYS)"
# The mismatch by its cause (see the top): PROT_BTI accepted.
is "$(sqlite3 spec.kabi "SELECT what || ' ' || count(*) FROM (SELECT CASE WHEN c.call IN
	('pkey_alloc', 'pkey_free') THEN c.call ELSE c.id END || ' ' || r.status || ' ' ||
	ifnull(r.errno_name, 'ok') AS what FROM probe_results r JOIN probe_cases c ON c.id = r.case_id
	WHERE NOT r.matches AND (c.deviation IS NULL OR c.deviation <> ifnull(r.errno_name, 'ok')))
	GROUP BY what ORDER BY what")" \
	"mprotect.prot.bit4 ret ok 1" "PROT_BTI accepted"
"$KABI_DIFF" check spec.kabi >spec.check 2>&1
is "$(sed -n 's/^probe\.known-deviation: \([^:]*\):.*/\1/p' spec.check | sort | tr '\n' ' ')" \
	"fallocate.mode.FALLOC_FL_COLLAPSE_RANGE fallocate.mode.FALLOC_FL_INSERT_RANGE fallocate.mode.FALLOC_FL_UNSHARE_RANGE fallocate.mode.FALLOC_FL_ZERO_RANGE io_uring_setup.flags.IORING_SETUP_ATTACH_WQ mprotect.prot.PROT_GROWSDOWN openat.flags.O_DIRECT openat2.flags.O_DIRECT openat2.flags.bit26 preadv2.flags.RWF_NOWAIT pwritev2.flags.RWF_NOWAIT " \
	"the known deviations of x86_64's 6.1 but pkey_alloc's (arm64 has no pkeys)"
is "$(sqlite3 spec.kabi "SELECT value FROM meta WHERE key = 'probe_known'")" 11 "11, counted apart"
done_testing
