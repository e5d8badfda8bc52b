#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# User ABI outside include/uapi (issue 24): given a kernel source tree,
# extract --uapi also reads the headers of the list in extract/uapi/
# outside.c that the tree has (here an xfs_fs.h-like header), by their
# path in the source tree, for #defines and ioctls: exact values, command
# numbers and the file; a tree without fs/ and drivers/ reads none.
. "$KD_SRCDIR/lib.sh"

src=$KD_SRCDIR/fixtures/uapi/source/include
XDG_CACHE_HOME=$PWD/cache
export XDG_CACHE_HOME

# tree DIR: a miniature kernel source tree (include/uapi, arch/x86, fs/, drivers/).
tree() {
	mkdir -p "$1/include/uapi/linux" "$1/arch/x86/include/uapi/asm" "$1/fs/xfs/libxfs" \
		"$1/drivers/usb/mon"
	cp -L "$src/uapi/linux/types.h" "$1/include/uapi/linux/"
	cp -rL "$src/uapi/asm-generic" "$1/include/uapi/"
	cp -L "$src/arch/x86/include/uapi/asm/bitsperlong.h" "$1/arch/x86/include/uapi/asm/"
	# As x86's: <sys/ioctl.h> gives _IOR through asm/ioctls.h -> asm/ioctl.h.
	echo '#include <asm/ioctl.h>' >"$1/include/uapi/asm-generic/ioctls.h"
	echo 'mandatory-y += ioctls.h' >>"$1/include/uapi/asm-generic/Kbuild"
	cat >"$1/include/uapi/linux/kx.h" <<'H'
#ifndef _KX_H
#define _KX_H
#define KX_INSIDE 3
#endif
H
	cat >"$1/fs/xfs/libxfs/xfs_fs.h" <<'H'
#ifndef __XFS_FS_H__
#define __XFS_FS_H__
#include "xfs_internal_only.h"
struct xfs_fsop_geom { __u32 blocksize; __u32 rtextsize; __u64 datablocks; };
#define XFS_MAX_LOG_BLOCKS	(1024 * 1024ULL)
#define XFS_IOC_GETVERSION	_IOR('v', 1, long)
#define XFS_IOC_FSGEOMETRY	_IOR('X', 126, struct xfs_fsop_geom)
#define XFS_IOC_GOINGDOWN	_IOR('X', 125, __u32)
#endif
H
}

tree v1
"$KABI_DIFF" extract -q --uapi v1 -o v1.kabi 2>err.txt
is "$?" 0 "extract a source tree with fs/xfs/libxfs/xfs_fs.h: exit 0"
is "$(q v1.kabi "SELECT name || '=' || value || ' ' || ctype || ' ' || file FROM constants
	WHERE name LIKE 'XFS%' OR name LIKE 'KX%' ORDER BY name")" \
"KX_INSIDE=3 int linux/kx.h
XFS_MAX_LOG_BLOCKS=1048576 unsigned long long fs/xfs/libxfs/xfs_fs.h" \
	"  its constants, by their path in the source tree, beside include/uapi's"
is "$(q v1.kabi "SELECT name || ' ' || CASE WHEN cmd IS NULL THEN 'NULL' ELSE printf('0x%08x', cmd) END || ' ' || file FROM ioctls
	WHERE name LIKE 'XFS_IOC%' ORDER BY name")" \
"XFS_IOC_FSGEOMETRY NULL fs/xfs/libxfs/xfs_fs.h
XFS_IOC_GETVERSION 0x80087601 fs/xfs/libxfs/xfs_fs.h
XFS_IOC_GOINGDOWN 0x8004587d fs/xfs/libxfs/xfs_fs.h" \
	"  its ioctls with <sys/ioctl.h>'s _IOR; a struct of the header itself has no size"
is "$(q v1.kabi "SELECT location || ': ' || message FROM problems")" \
"fs/xfs/libxfs/xfs_fs.h:7: XFS_IOC_FSGEOMETRY: type 'struct xfs_fsop_geom' is declared by no header that compiles for this architecture and is in no DWARF of the kernel; size and command number unknown" \
	"  which is a problem row naming the type"

is "$("$KABI_DIFF" show v1.kabi const XFS_MAX_LOG_BLOCKS | grep defined)" \
	"  defined at fs/xfs/libxfs/xfs_fs.h:5 (outside include/uapi; used by xfsprogs)" \
	"  show names a constant's origin and its user"
is "$("$KABI_DIFF" show v1.kabi ioctl XFS_IOC_GOINGDOWN | grep defined)" \
	"  defined    fs/xfs/libxfs/xfs_fs.h:8 (outside include/uapi; used by xfsprogs)" \
	"  and an ioctl's"
is "$("$KABI_DIFF" show v1.kabi const KX_INSIDE | grep defined)" "  defined at linux/kx.h:3" \
	"  an include/uapi header's has none"
is "$("$KABI_DIFF" show v1.kabi info | grep '^uapi_outside')" \
	"uapi_outside    fs/xfs/libxfs/xfs_fs.h: xfsprogs" "  show info lists the headers read and their users"

# One XFS_IOC number changed: breaking, the finding naming the header's origin.
tree v2
sed -i "s/'X', 125/'X', 127/" v2/fs/xfs/libxfs/xfs_fs.h
"$KABI_DIFF" v1 v2 -f json >v12.json 2>err.txt
is "$?" 12 "v1 -> v2: exit 12 (breaking)"
is "$(jq -r '.changes[] | [.kind, .verdict, .subject, .old, .new, .cause] | join("|")' v12.json)" \
"ioctl.cmd|breaking|XFS_IOC_GOINGDOWN|0x8004587d|0x8004587f|fs/xfs/libxfs/xfs_fs.h (outside include/uapi; used by xfsprogs)" \
	"  the one change: XFS_IOC_GOINGDOWN's number, from outside include/uapi"
"$KABI_DIFF" v1 v2 >v12.txt 2>err.txt
is "$(grep 'outside' v12.txt)" \
	"  fs/xfs/libxfs/xfs_fs.h (outside include/uapi; used by xfsprogs) (1 ioctl.cmd)" \
	"  the text report says so"
sed -i 's/(1024 \* 1024ULL)/(2048 * 1024ULL)/' v2/fs/xfs/libxfs/xfs_fs.h
"$KABI_DIFF" v1 v2 -f json >v12c.json 2>err.txt
is "$(jq -r '.changes[] | select(.kind == "constant.value") | [.subject, .old, .new, .cause] | join("|")' v12c.json)" \
"XFS_MAX_LOG_BLOCKS|1048576|2097152|fs/xfs/libxfs/xfs_fs.h (outside include/uapi; used by xfsprogs)" \
	"  a constant's change, the same origin"

# Not a source tree (no fs/, drivers/): the list is not read.
tree v0
rm -r v0/drivers
"$KABI_DIFF" extract -q --uapi v0 -o v0.kabi 2>err.txt
is "$?" 0 "a tree without drivers/: exit 0"
is "$(q v0.kabi "SELECT count(*) FROM constants WHERE file LIKE 'fs/%'")" 0 "  nothing from fs/"
done_testing
