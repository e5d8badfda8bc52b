#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 24 item 3 on Debian's 6.12.107 amd64 -common header tree: the
# function-like ioctl macros syzkaller uses are ioctl families, and the
# command each gives for a program's argument (show K ioctl 'NAME(N)') is
# the one gcc computes from the same headers.
. "$KD_SRCDIR/lib.sh"

r=6.12.107+deb12-amd64
k=${KABI_KERNELS:-/root/.cache/kabi-kernels}/$r/include
if [ ! -d "$k/arch/x86" ]; then
	skip "$r: no headers (fetch: ../shared/kernels/fetch --headers $r)"
	done_testing
fi
db=$KD_TMPDIR/$r-families.kabi
XDG_CACHE_HOME=$KD_TMPDIR/cache "$KABI_DIFF" extract -q --uapi "$k" -o "$db"
ok $? "$r: extract --uapi" || { done_testing; exit; }
is "$(q "$db" "SELECT count(*) FROM ioctl_families")" 59 "$r: 59 ioctl families"
is "$(q "$db" "SELECT name || '(' || params || ') ' || dir || ' ' || type || ' ' || nr || ' ' || size FROM ioctl_families
	WHERE name IN ('EVIOCGNAME', 'EVIOCGABS', 'HIDIOCGFEATURE', 'UI_GET_SYSNAME', 'JSIOCGNAME') ORDER BY name")" \
"EVIOCGABS(abs) r 69 0x40 + ( abs ) 24
EVIOCGNAME(len) r 69 6 len
HIDIOCGFEATURE(len) rw 72 7 len
JSIOCGNAME(len) r 106 19 len
UI_GET_SYSNAME(len) r 85 44 len" "  the families syzkaller uses, with their formulas"

calls="EVIOCGNAME(64) EVIOCGABS(3) EVIOCSABS(1) EVIOCGBIT(1,96) HIDIOCGFEATURE(256) HIDIOCSFEATURE(64)
HIDIOCGRAWNAME(128) UI_GET_SYSNAME(80) JSIOCGNAME(128)"
. "$KD_SRCDIR/real/common-tree.sh"
common_tree_wrap "$k" "$KD_TMPDIR/wrap"
{
	echo '#include <stdio.h>'
	echo '#include <sys/ioctl.h>'
	for h in linux/input.h linux/hidraw.h linux/uinput.h linux/joystick.h; do
		echo "#include <$h>"
	done
	echo 'int main(void) {'
	for c in $calls; do
		printf 'printf("%%08x\\n", (unsigned)(%s));\n' "$c"
	done
	echo 'return 0; }'
} >"$KD_TMPDIR/families.c"
# shellcheck disable=SC2086 # the flags are words
${CC:-gcc} $common_tree_cflags "$KD_TMPDIR/families.c" -o "$KD_TMPDIR/families"
ok $? "gcc computes the commands on the same headers"
got=$(for c in $calls; do "$KABI_DIFF" show "$db" ioctl "$c" | sed -n '1s/^ioctl .*: 0x//p'; done)
is "$got" "$("$KD_TMPDIR/families")" "  each call's command is gcc's: $(echo $calls)"
done_testing
