#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabi-diff probe --fs ext4 on Debian's kernels (issue 13): the probe's
# root, directory and file on an ext4 image (mke2fs, 8 MiB, 4 KiB blocks,
# a journal) mounted through a loop device, after the probe loaded ext4,
# jbd2, mbcache, crc16, crc32c_generic and loop from the release's modules
# (fetch --modules). With the starter contract, what changes against
# tmpfs (t06, t16) is what the contract's tmpfs deviations say:
# - preadv2 RWF_NOWAIT is accepted: ext4_file_open() (fs/ext4/file.c) sets
#   FMODE_NOWAIT, which tmpfs files lack (kiocb_set_rw_flags());
# - fallocate COLLAPSE_RANGE, INSERT_RANGE and ZERO_RANGE are accepted:
#   ext4_fallocate() takes them, shmem_fallocate() only KEEP_SIZE and
#   PUNCH_HOLE; UNSHARE_RANGE stays EOPNOTSUPP (not in ext4_fallocate's
#   mask either);
# - pwritev2 RWF_NOWAIT stays EOPNOTSUPP: ext4_buffered_write_iter()
#   refuses IOCB_NOWAIT (6.1 and 6.12); RWF_ATOMIC too on 6.12 (ext4's
#   atomic writes came in 6.13);
# - O_DIRECT on "/" stays EINVAL: an ext4 directory has no direct_IO
#   (do_dentry_open(), fs/open.c).
# Those four cases are reported as probe.deviation-not-seen (the contract's
# deviation is tmpfs's), not as mismatches; the mismatches are tmpfs's.
# Needs QEMU, mke2fs, the release's vmlinuz and modules; skipped otherwise.
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
	start=$(date +%s)
	"$KABI_DIFF" probe "$r.kabi" --kernel "$img" --fs ext4 --timeout 300 >"$r.out" 2>&1
	rc=$?
	echo "# $r --fs ext4: $(head -1 "$r.out") in $(($(date +%s) - start)) s wall"
	case $r in
	*-arm64) want_rc=4 want_mm=1 ;;	# PROT_BTI (t16)
	*) want_rc=0 want_mm=0 ;;
	esac
	is "$rc" "$want_rc" "$r: probe --fs ext4 (exit $want_rc)" || { sed 's/^/#   /' "$r.out" | head -20; continue; }
	is "$(sqlite3 "$r.kabi" "SELECT value FROM meta WHERE key = 'probe_fs'")" ext4 \
		"$r: the probe's file on ext4 (meta probe_fs)"
	grep -q "the probe's file on ext4)\$" "$r.out"
	ok $? "$r: the summary says ext4"
	is "$(sqlite3 "$r.kabi" "SELECT value FROM meta WHERE key = 'probe_mismatches'")" "$want_mm" \
		"$r: $want_mm mismatches, as on tmpfs"
	"$KABI_DIFF" check "$r.kabi" >"$r.check" 2>&1
	is "$(sed -n 's/^probe\.deviation-not-seen: \([^:]*\):.*/\1/p' "$r.check" | sort | tr '\n' ' ')" \
		"fallocate.mode.FALLOC_FL_COLLAPSE_RANGE fallocate.mode.FALLOC_FL_INSERT_RANGE fallocate.mode.FALLOC_FL_ZERO_RANGE preadv2.flags.RWF_NOWAIT " \
		"$r: ext4 accepts what tmpfs refused (the contract's tmpfs deviations not seen)"
	q() { sqlite3 "$r.kabi" "SELECT ifnull(errno_name, 'ok') FROM probe_results WHERE case_id = '$1'"; }
	is "$(q pwritev2.flags.RWF_NOWAIT) $(q fallocate.mode.FALLOC_FL_UNSHARE_RANGE) $(q openat.flags.O_DIRECT)" \
		"EOPNOTSUPP EOPNOTSUPP EINVAL" "$r: what ext4 refuses too"
done
done_testing
