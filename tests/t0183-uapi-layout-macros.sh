#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Macros whose value is a fact of a layout (issue 24): offsetof (wireless.h's
# IW_EV_POINT_OFF, nested and indexed designators, anonymous members), a
# member's address through a null pointer under an integer cast
# (nilfs2_ondisk.h's NILFS_SB_BYTES), a cast to __typeof__ (const.h's
# __ALIGN_KERNEL, netlink.h's NL_MMAP_HDRLEN) and __alignof__ / _Alignof
# (siginfo.h's __ADDR_BND_PKEY_PAD, x_tables.h's XT_ALIGN). Each value and
# C type is gcc's on the same header; what has no layout (a bitfield, a
# member no struct has, an undeclared type) is a problem row; a member that
# grows is reported both ways; the i386 view takes i386's offsets.
. "$KD_SRCDIR/lib.sh"

XDG_CACHE_HOME=$PWD/cache
export XDG_CACHE_HOME
CC=${CC:-cc}
fx=$KD_SRCDIR/fixtures/uapi/layout
header_tree v1 "$fx/kxl-v1.h" linux/kxl.h
header_tree v2 "$fx/kxl-v2.h" linux/kxl.h

names="KXL_LCP_LEN KXL_POINT_OFF KXL_POINT_LEN KXL_DATA_FLAGS KXL_TAIL_AT KXL_SB_BYTES KXL_SB_INNER
KXL_SB_RES2 KXL_HDRLEN KXL_NARROW KXL_PAD KXL_U64_ALIGN KXL_U64_ABI KXL_ALIGN KXL_XT_SIZE KXL_GET_HEAD"
# oracle DIR: gcc's value and _Generic type of each name, as "NAME|VALUE|TYPE" lines.
oracle() {
	{
		echo '#include <stddef.h>'
		echo '#include <stdio.h>'
		echo '#include <linux/kxl.h>'
		echo '#define T(x) _Generic((x), int: "int", unsigned int: "unsigned int", long: "long", unsigned long: "unsigned long", long long: "long long", unsigned long long: "unsigned long long", short: "short", unsigned short: "unsigned short", char: "char", signed char: "signed char", unsigned char: "unsigned char")'
		echo 'int main(void) {'
		for n in $names; do
			printf 'printf("%s|%%lld|%%s\\n", (long long)(%s), T(%s));\n' "$n" "$n" "$n"
		done
		echo 'return 0; }'
	} >gcc.c
	$CC -w -I"$1" gcc.c -o gcc.out && ./gcc.out | sort
}
for v in v1 v2; do
	oracle $v >want-$v.txt
	ok "$?" "$v: gcc computes every macro"
	"$KABI_DIFF" extract -q --uapi $v -o $v.kabi 2>err.txt
	is "$?" 0 "$v: extract the tree"
	for n in $names; do
		q $v.kabi "SELECT name || '|' || value || '|' || ctype FROM constants WHERE name = '$n'
			UNION ALL SELECT name || '|' || cmd || '|unsigned long' FROM ioctls WHERE name = '$n'"
	done | sort >got-$v.txt
	is "$(cat got-$v.txt)" "$(cat want-$v.txt)" "  $v: each value and C type is gcc's"
done
# Pinned apart from gcc too: the offsets this fixture is about.
is "$(q v1.kabi "SELECT group_concat(name || '=' || value, ' ') FROM (SELECT * FROM constants
	WHERE name IN ('KXL_POINT_OFF', 'KXL_SB_BYTES', 'KXL_SB_INNER', 'KXL_TAIL_AT', 'KXL_PAD') ORDER BY name)")" \
	"KXL_PAD=8 KXL_POINT_OFF=8 KXL_SB_BYTES=32 KXL_SB_INNER=16 KXL_TAIL_AT=24" \
	"  x86_64: the offsets through anonymous members, indices and a null pointer"
is "$(q v1.kabi "SELECT location || ': ' || message FROM problems WHERE message LIKE 'KXL%' ORDER BY location")" \
"linux/kxl.h:54: KXL_BITS_OFF: not an integer constant: offsetof of a member of unknown layout
linux/kxl.h:55: KXL_NO_MEMBER: not an integer constant: offsetof of a member of unknown layout
linux/kxl.h:56: KXL_NO_TYPE: not an integer constant: offsetof of a member of unknown layout" \
	"  no layout, no value: a problem row each"

# length grows from __u16 to __u32: flags moves, the struct keeps its size (padding), so only
# the offset through it changes, both ways (KXL_POINT_LEN stays, as gcc says above).
"$KABI_DIFF" v1 v2 -f json >v12.json 2>err.txt
is "$(jq -r '.changes[] | select(.kind == "constant.value") | [.subject, .old, .new] | join(" ")' v12.json | sort)" \
"KXL_DATA_FLAGS 18 20" "v1 -> v2: the constants that moved"
"$KABI_DIFF" v2 v1 -f json >v21.json 2>err.txt
is "$(jq -r '.changes[] | select(.kind == "constant.value") | [.subject, .old, .new] | join(" ")' v21.json | sort)" \
"KXL_DATA_FLAGS 20 18" "v2 -> v1: the same, reversed"

# i386 programs: pointers are 4 bytes, so the ioctl's offset and number differ.
need_ia32_libc
KABI_DIFF_NO_COMPAT= "$KABI_DIFF" extract -q --uapi v1 -o v1-32.kabi 2>err.txt
is "$?" 0 "extract the tree with its i386 view"
{ printf '#include <stddef.h>\n#include <linux/kxl.h>\nunsigned int kd_KXL_GET_HEAD = KXL_GET_HEAD;\n'; } >o.c
$CC -m32 -S -Iv1 -o o.s o.c
is "$?" 0 "the i386 oracle compiles with -m32"
is "$(awk '/^kd_/ { n = 1 } /\.long/ && n { v = $2 < 0 ? $2 + 4294967296 : $2; printf "0x%08x\n", v; exit }' o.s)" \
	"$(q v1-32.kabi "SELECT printf('0x%08x', cmd) FROM compat_ioctls WHERE abi = 'ia32' AND name = 'KXL_GET_HEAD'")" \
	"  ia32: KXL_GET_HEAD is gcc -m32's"
is "$(q v1-32.kabi "SELECT printf('0x%08x', i.cmd) || ' ' || printf('0x%08x', c.cmd) FROM ioctls i
	JOIN compat_ioctls c ON c.name = i.name WHERE i.name = 'KXL_GET_HEAD'")" \
	"0x80106b01 0x80086b01" "  x86_64 offset 16, i386 8: the union and the pointer each 4-aligned, 4 bytes"
done_testing
