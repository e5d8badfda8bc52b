#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabi-diff probe on Debian's kernels with the probe's files on ext4 (the
# default where mke2fs and the release's modules are: an 8 MiB image with
# 4 KiB blocks and a journal, mounted through a loop device after the probe
# loaded ext4, jbd2, mbcache, crc16, crc32c_generic and loop) and on tmpfs
# (--fs tmpfs, the initramfs), the starter contract stored in the .kabi.
# Reference facts (kernel sources):
# - on ext4, preadv2 RWF_NOWAIT is accepted: ext4_file_open() (fs/ext4/
#   file.c) sets FMODE_NOWAIT, which tmpfs files lack (kiocb_set_rw_flags());
#   fallocate ZERO_RANGE is accepted, COLLAPSE_RANGE and INSERT_RANGE pass
#   ext4_fallocate()'s mode check and are refused with EINVAL for the
#   probe's range (offset 0, len 1: ext4_collapse_range() and
#   ext4_insert_range() take whole blocks only), where shmem_fallocate()
#   refuses all three modes (EOPNOTSUPP: only KEEP_SIZE and PUNCH_HOLE);
# - on ext4 still refused, each a deviation `on ext4` of the contract:
#   pwritev2 RWF_NOWAIT (ext4_buffered_write_iter() refuses IOCB_NOWAIT),
#   RWF_ATOMIC on 6.12 (ext4 sets FMODE_CAN_ATOMIC_WRITE since 6.13),
#   fallocate UNSHARE_RANGE (not in ext4_fallocate's modes), O_DIRECT on
#   the root directory (`on tmpfs, ext4`: do_dentry_open(), fs/open.c);
# - so with the contract's deviations qualified by file system, both file
#   systems give 0 mismatches (arm64: 1, PROT_BTI, t16) and no deviation
#   "not seen";
# - diffing the tmpfs probe against the ext4 probe of one kernel: every
#   observed change is the file system's (probe-fs-differs, info), each
#   saying the two file systems; nothing breaking.
# Needs QEMU, mke2fs, the release's vmlinuz, modules and headers; skipped otherwise.
. "$KD_SRCDIR/lib.sh"

if ! command -v mke2fs >/dev/null 2>&1; then
	skip "mke2fs not installed (Debian: e2fsprogs)"
	done_testing
fi
kk=${KABI_KERNELS:-/root/.cache/kabi-kernels}
for r in 6.1.0-47-amd64 6.12.107+deb12-amd64 6.1.0-47-arm64; do
	k=$kk/$r
	case $r in
	*-arm64) qemu=qemu-system-aarch64 img=$k/vmlinuz ;;
	*) qemu=qemu-system-x86_64 img=$k/vmlinux ;;
	esac
	if ! command -v $qemu >/dev/null 2>&1; then
		skip "$r: $qemu not installed (make -f tests/probe.mk probe-deps)"
		continue
	fi
	if [ ! -r "$k/vmlinuz" ] || [ ! -r "$k/modules/fs/ext4/ext4.ko" ] || [ ! -d "$k/include" ]; then
		skip "$r: no vmlinuz, modules or headers (fetch --image --modules --headers $r)"
		continue
	fi
	"$KABI_DIFF" extract -q "$k/vmlinux" --uapi "$k/include" --spec "$KD_SRCDIR/../spec/contract" \
		-o "$r.kabi"
	ok $? "$r: extract with the contract" || continue
	cp "$r.kabi" "$r-tmpfs.kabi"
	case $r in
	*-arm64) want_rc=4 want_mm=1 ;;	# PROT_BTI (t16)
	*) want_rc=0 want_mm=0 ;;
	esac
	for fs in ext4 tmpfs; do
		db=$r.kabi opt=
		[ $fs = tmpfs ] && db=$r-tmpfs.kabi opt="--fs tmpfs"
		start=$(date +%s)
		"$KABI_DIFF" probe "$db" --kernel "$img" $opt --timeout 300 >"$db.out" 2>&1
		rc=$?
		echo "# $r on $fs: $(head -1 "$db.out") in $(($(date +%s) - start)) s wall (load $(cut -d' ' -f1 /proc/loadavg))"
		is "$rc" "$want_rc" "$r on $fs: probe (exit $want_rc)" || { sed 's/^/#   /' "$db.out" | head -20; continue 2; }
		is "$(sqlite3 "$db" "SELECT value FROM meta WHERE key IN ('probe_fs', 'probe_fs_choice') ORDER BY key" | tr '\n' ' ')" \
			"$fs $([ $fs = ext4 ] && echo default || echo "--fs tmpfs") " \
			"$r on $fs: meta probe_fs and probe_fs_choice"
		is "$(sqlite3 "$db" "SELECT value FROM meta WHERE key = 'probe_mismatches'")" "$want_mm" \
			"$r on $fs: $want_mm mismatches" || grep MISMATCH "$db.out" | sed 's/^/#   /'
		"$KABI_DIFF" check "$db" >"$db.check" 2>&1
		is "$(grep -c '^probe\.deviation-not-seen' "$db.check")" 0 \
			"$r on $fs: every deviation of the contract that holds on $fs seen" ||
			grep '^probe\.deviation-not-seen' "$db.check" | sed 's/^/#   /'
	done
	# The known deviations of each file system (probe/README.md, "Known deviations").
	common="io_uring_setup.flags.IORING_SETUP_ATTACH_WQ mprotect.prot.PROT_GROWSDOWN openat.flags.O_DIRECT openat2.flags.O_DIRECT"
	case $r in
	6.1.*) common="$common openat2.flags.bit26" ;;
	*) common="$common futex_requeue.waiters.flags.FUTEX2_NUMA futex_requeue.waiters.flags.FUTEX2_PRIVATE futex_requeue.waiters.flags.FUTEX2_SIZE_U32 openat2.flags.bit25 pwritev2.flags.RWF_ATOMIC" ;;
	esac
	case $r in *-amd64) common="$common pkey_alloc.init_val.PKEY_DISABLE_ACCESS" ;; esac
	known() { sed -n 's/^probe\.known-deviation: \([^:]*\):.*/\1/p' "$1.check" | sort | tr '\n' ' '; }
	sorted() { echo "$@" | tr ' ' '\n' | sort | tr '\n' ' '; }
	is "$(known "$r.kabi")" "$(sorted $common fallocate.mode.FALLOC_FL_UNSHARE_RANGE pwritev2.flags.RWF_NOWAIT)" \
		"$r on ext4: the known deviations (ext4's: pwritev2 RWF_NOWAIT, UNSHARE_RANGE)"
	is "$(known "$r-tmpfs.kabi")" "$(sorted $common fallocate.mode.FALLOC_FL_COLLAPSE_RANGE fallocate.mode.FALLOC_FL_INSERT_RANGE fallocate.mode.FALLOC_FL_UNSHARE_RANGE fallocate.mode.FALLOC_FL_ZERO_RANGE preadv2.flags.RWF_NOWAIT pwritev2.flags.RWF_NOWAIT)" \
		"$r on tmpfs: the known deviations (tmpfs's: RWF_NOWAIT, four fallocate modes)"
	is "$(sqlite3 "$r.kabi" "SELECT group_concat(case_id || '=' || fs, ' ') FROM (SELECT * FROM probe_deviation_fs ORDER BY case_id)")" \
		"fallocate.mode.FALLOC_FL_UNSHARE_RANGE=ext4 openat.flags.O_DIRECT=ext4 openat2.flags.O_DIRECT=ext4$(case $r in 6.12*) echo " pwritev2.flags.RWF_ATOMIC=ext4" ;; esac) pwritev2.flags.RWF_NOWAIT=ext4" \
		"$r on ext4: the cases whose deviation is a file system's, stored with it"
	q() { sqlite3 "$r.kabi" "SELECT ifnull(errno_name, 'ok') FROM probe_results WHERE case_id = '$1'"; }
	is "$(q preadv2.flags.RWF_NOWAIT) $(q fallocate.mode.FALLOC_FL_ZERO_RANGE) $(q pwritev2.flags.RWF_NOWAIT) $(q fallocate.mode.FALLOC_FL_UNSHARE_RANGE) $(q openat.flags.O_DIRECT)" \
		"ok ok EOPNOTSUPP EOPNOTSUPP EINVAL" "$r on ext4: what ext4 accepts and refuses"
	# One kernel, two file systems: the diff says so, and nothing breaks.
	"$KABI_DIFF" diff --full "$r-tmpfs.kabi" "$r.kabi" >"$r.diff" 2>&1
	is "$(sed -n 's/^    probe\.[a-z]*  *\([^:]*\): .*\[\(probe-[a-z-]*\)\]$/\1 \2/p' "$r.diff" | sort | tr '\n' ';')" \
		"fallocate.mode probe-fs-differs;fallocate.mode.FALLOC_FL_ZERO_RANGE probe-fs-differs;preadv2.flags.RWF_NOWAIT probe-fs-differs;" \
		"$r tmpfs vs ext4: the file system's changes, probe-fs-differs (info)" ||
		grep 'probe' "$r.diff" | sed 's/^/#   /'
	grep -q 'the old kernel probed on tmpfs, the new on ext4' "$r.diff"
	ok $? "$r tmpfs vs ext4: the changes name both file systems"
	grep -q 'fallocate.mode: EOPNOTSUPP -> EINVAL  \[probe-fs-differs\]' "$r.diff" &&
		grep -q '2 bits: FALLOC_FL_COLLAPSE_RANGE, FALLOC_FL_INSERT_RANGE; ' "$r.diff"
	ok $? "$r tmpfs vs ext4: COLLAPSE_RANGE and INSERT_RANGE (EINVAL on ext4) one change" ||
		grep fallocate "$r.diff" | sed 's/^/#   /'
done
done_testing
