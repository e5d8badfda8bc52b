#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# extract --uapi --modules on Debian's 6.1.0-47 (about 20 s): the issue's
# reference ioctls. The command numbers and sizes below are what gcc
# computes from the same headers (tests/real/t03-uapi-probe.sh compiles
# and compares all of them; these are spot facts from that probe).
. "$KD_SRCDIR/lib.sh"

rel=6.1.0-47-amd64
k=${KABI_KERNELS:-/root/.cache/kabi-kernels}/$rel
if [ ! -d "$k/modules" ] || [ ! -d "$k/include/uapi" ]; then
	skip "$rel: no modules/ or include/ in the cache (fetch --modules --headers $rel)"
	done_testing
fi
db=$KD_TMPDIR/real-ioctls.kabi
"$KABI_DIFF" extract -q "$k/vmlinux" --uapi "$k/include" --modules "$k/modules" -o "$db"
is "$?" "0" "$rel: extract with --uapi and --modules"

ioctl() {
	q "$db" "SELECT printf('0x%08x', i.cmd) || ' ' || i.dir || ' ' || i.size || ' ' || ifnull(m.name, 'vmlinux')
		FROM ioctls i LEFT JOIN modules m ON m.id = i.module_id WHERE i.name = '$1'"
}
is "$(ioctl DRM_IOCTL_MODE_CREATE_DUMB)" "0xc02064b2 rw 32 drm" "DRM_IOCTL_MODE_CREATE_DUMB"
is "$(q "$db" "SELECT count(*) FROM members WHERE type_id = (SELECT arg_type FROM ioctls WHERE name = 'DRM_IOCTL_MODE_CREATE_DUMB')")" \
	"7" "struct drm_mode_create_dumb has 7 members"
is "$(ioctl FS_IOC_GETFLAGS)" "0x80086601 r 8 vmlinux" "FS_IOC_GETFLAGS (long)"
is "$(ioctl KVM_CREATE_VM)" "0x0000ae01 none 0 vmlinux" "KVM_CREATE_VM"
is "$(ioctl BTRFS_IOC_SNAP_CREATE_V2)" "0x50009417 w 4096 btrfs" "BTRFS_IOC_SNAP_CREATE_V2"
is "$(q "$db" "SELECT value FROM constants WHERE name = 'TIOCGWINSZ'")" "21523" \
	"TIOCGWINSZ is a plain number on x86 (0x5413)"
is "$(q "$db" "SELECT value || ' ' || ctype FROM constants WHERE name = 'O_TMPFILE'")" "4259840 int" "O_TMPFILE"
n=$(q "$db" "SELECT count(*) FROM modules")
ok "$([ "$n" -gt 4000 ]; echo $?)" "every module listed ($n)"
n=$(q "$db" "SELECT count(*) FROM ioctls WHERE size_trusted = 1")
ok "$([ "$n" -gt 1200 ]; echo $?)" "most ioctls sized from DWARF or C types ($n)"
done_testing
