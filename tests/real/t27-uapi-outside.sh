#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 24 item 4 on Debian's linux-source-6.12 (apt-get download
# linux-source-6.12, its tarball unpacked outside the repository, the
# path in $KABI_LINUX_SOURCE): what the list of user ABI kept outside
# include/uapi (extract/uapi/outside.c) adds, per header, and known values
# (SG_IO 0x2285, XFS_IOC_GOINGDOWN _IOR('X', 125, __u32)). Figures:
# constants-issue24.md.
. "$KD_SRCDIR/lib.sh"

src=${KABI_LINUX_SOURCE:-}
if [ -z "$src" ] || [ ! -d "$src/fs/xfs/libxfs" ]; then
	skip "no kernel source tree (set KABI_LINUX_SOURCE to an unpacked linux-source-6.12)"
	done_testing
fi
db=$KD_TMPDIR/src.kabi
"$KABI_DIFF" extract -q --uapi "$src" -o "$db" 2>err.txt
ok $? "extract --uapi the source tree" || { done_testing; exit; }
list="'fs/xfs/libxfs/xfs_fs.h','include/scsi/sg.h','include/net/bluetooth/hci_sock.h',
'include/net/bluetooth/rfcomm.h','net/bluetooth/hidp/hidp.h','fs/bcachefs/bcachefs_ioctl.h'"
is "$(q "$db" "SELECT file || ' ' || count(*) FROM constants WHERE file IN ($list) GROUP BY file")" \
"fs/bcachefs/bcachefs_ioctl.h 10
fs/xfs/libxfs/xfs_fs.h 160
include/net/bluetooth/hci_sock.h 16
include/net/bluetooth/rfcomm.h 95
include/scsi/sg.h 73
net/bluetooth/hidp/hidp.h 38" "constants the list adds, per header (392)"
is "$(q "$db" "SELECT file || ' ' || count(*) || ' ' || sum(cmd IS NULL) FROM ioctls
	WHERE file IN ($list) GROUP BY file")" \
"fs/bcachefs/bcachefs_ioctl.h 20 19
fs/xfs/libxfs/xfs_fs.h 46 42
include/net/bluetooth/hci_sock.h 21 0
include/net/bluetooth/rfcomm.h 5 0
net/bluetooth/hidp/hidp.h 4 0" "ioctls it adds (96), and how many lack a number (struct of a header not compiled)"
is "$(q "$db" "SELECT value FROM constants WHERE name = 'SG_IO';
	SELECT printf('0x%08x', cmd) FROM ioctls WHERE name = 'XFS_IOC_GOINGDOWN'")" "8837
0x8004587d" "SG_IO 0x2285, XFS_IOC_GOINGDOWN _IOR('X', 125, __u32)"
is "$("$KABI_DIFF" show "$db" const SG_IO | grep defined | sed 's/:[0-9]* / /')" \
	"  defined at include/scsi/sg.h (outside include/uapi; used by sg3_utils)" "show names its origin"
done_testing
