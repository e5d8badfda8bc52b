#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Ioctls whose command is a plain number (LOOP_CONFIGURE 0x4C0A, TCGETS):
# recorded from the contract, which gives the argument type; the diff
# compares that type's layout, so a member inserted into the argument
# struct is a breaking change of the ioctl although its number stays;
# check reports a contract ioctl whose argument type the kernel lacks.
. "$KD_SRCDIR/lib.sh"

k=$(fixture_kernel v1)
XDG_CACHE_HOME=$PWD/cache
export XDG_CACHE_HOME
fx=$KD_SRCDIR/fixtures/uapi
spec=$fx/loop-spec
tree() { header_tree "$1" && cp -r "$fx/compiled/." "$1/"; }
tree v1
tree v2
# v2: a member inserted at the front of the argument; the number is the same.
sed -i 's/^\t__u32 fd;$/\t__u32 fd;\n\t__u32 flags;/' v2/linux/fxc_loop.h
grep -q '__u32 flags;' v2/linux/fxc_loop.h
ok $? "v2 has the inserted member"

"$KABI_DIFF" extract -q "$k" --uapi v1 --spec "$spec" -o v1.kabi && \
	"$KABI_DIFF" extract -q "$k" --uapi v2 --spec "$spec" -o v2.kabi
is "$?" "0" "both extracted with the contract"
is "$(q v1.kabi "SELECT i.name, printf('0x%08x', i.cmd), i.dir, i.type_char, i.nr, i.source,
	ifnull(i.arg_type_text, '-'), ifnull(t.kind || ' ' || t.name, '-'), ifnull(i.size, '-'), i.size_trusted
	FROM ioctls i LEFT JOIN types t ON t.id = i.arg_type WHERE i.source = 'number' ORDER BY i.name")" \
"FXC_LOOP_CONFIGURE|0x00004c0a|w|76|10|number|struct fxc_loop_config|struct fxc_loop_config|24|1
FXC_LOOP_GHOST|0x00004c0b|r|76|11|number|struct fxc_loop_ghost|-|-|0" \
	"plain numbers as ioctls: direction and argument from the contract, size from the header view"
is "$(q v2.kabi "SELECT size FROM ioctls WHERE name = 'FXC_LOOP_CONFIGURE'")" "32" "v2: the argument is 32 bytes"

is "$("$KABI_DIFF" show v1.kabi ioctl FXC_LOOP_CONFIGURE | sed -n '1,6p')" \
"ioctl FXC_LOOP_CONFIGURE: 0x00004c0a (a plain number: it encodes no direction and no size)
  direction  w (the contract's)
  type       'L' (0x4c)
  nr         10 (0x0a)
  argument   struct fxc_loop_config (the contract's)
  size       24 bytes (header view, linux/fxc_loop.h:11)" "show ioctl: a plain number, the contract's argument"
is "$("$KABI_DIFF" show v1.kabi ioctl FXC_LOOP_GHOST | sed -n 6p)" \
	"  size       unknown: no header and no DWARF of this kernel has struct fxc_loop_ghost" \
	"show ioctl: an argument type the kernel lacks"

"$KABI_DIFF" v1.kabi v2.kabi --no-spec -f json >diff.json
is "$?" "12" "diff: breaking (exit 12)"
is "$(jq -r '.changes[] | [.kind, .subject, .old // "-", .new // "-", .rule, (.impact | map(.root) | join(","))] | join(" ")' diff.json)" \
"type.size struct fxc_loop_config 24 32 type-size FXC_LOOP_CONFIGURE
type.member.offset struct fxc_loop_config.block_size 4 8 member-moved FXC_LOOP_CONFIGURE
type.member.added struct fxc_loop_config.flags - __u32 flags at 4 member-added FXC_LOOP_CONFIGURE
type.member.offset struct fxc_loop_config.reserved 8 16 member-moved FXC_LOOP_CONFIGURE" \
	"the argument's layout changes, each reached from FXC_LOOP_CONFIGURE (header types no ioctl reaches are compared between header trees only); no ioctl.cmd change"
is "$(jq -r '[.changes[] | select(.category == "ioctls")] | length' diff.json)" "0" \
	"the number did not change: no ioctl change"

out=$("$KABI_DIFF" check v1.kabi)
echo "$out" | grep -qx "loop.kabispec:11: ioctl-arg-unknown: FXC_LOOP_GHOST: the spec's argument type struct fxc_loop_ghost is in no compiled header and no DWARF of this kernel: its layout cannot be checked or compared"
ok $? "check: the contract ioctl whose argument type the kernel lacks"
is "$(echo "$out" | grep -c 'ioctl-arg-unknown')" "1" "check: only that one"

# Loading another contract replaces the plain-number ioctls of the first.
mkdir -p other-spec
sed '/^ioctl FXC_LOOP_GHOST/,/^}/d' "$spec/loop.kabispec" >other-spec/loop.kabispec
"$KABI_DIFF" spec load v1.kabi other-spec >/dev/null
is "$?" "0" "spec load"
is "$(q v1.kabi "SELECT name FROM ioctls WHERE source = 'number'")" "FXC_LOOP_CONFIGURE" \
	"spec load: the plain-number ioctls follow the new contract"
done_testing
