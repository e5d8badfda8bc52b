#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Between two kernel directories, the types only the UAPI headers reach
# (no syscall or ioctl passes them: a netlink payload, a device's config
# space) are compared too, from the header that declares them
# (linux/fxhdr.h -> struct fxh_msg), with the verdict their layout gives
# and where both headers declare them as the evidence (resvd1 given a
# name: reserved-reuse; a pad0 in a hole: padding-named); an enumerator
# removed is source, as a constant removed is, unless another took its
# value; a type of a header whose ioctls the old kernel did not serve
# (linux/fxgh.h) is source-level (type-unbuilt); a [1] array made
# flexible keeps its element's bytes (an alias over them is compatible),
# as a union alternative naming kept members and their holes is; an
# anonymous union given a tag is a spelling; a type an ioctl
# passes and the header declares too (struct fxmod_create) is reported
# once, from the ioctl. tests/fixtures/dir-header-types/v1.h -> v2.h, in
# both directions.
. "$KD_SRCDIR/lib.sh"

k1=$(fixture_kernel v1-dwarf5 -gdwarf-5) || { ok 1 "fixture kernel"; done_testing; }
fx=$KD_SRCDIR/fixtures
export XDG_CACHE_HOME=$PWD/cache
mod() { gcc -g -O2 -c -DFXMOD_NAME='"fxmod"' "$1" -o "$2"; }

sed 's/^\t__u64 size;$/&\n\t__u64 extra;/' "$fx/module.c" >module-v2.c
# The header declares struct fxmod_create as each module lays it out.
for v in v1 v2; do
	src=$fx/module.c; [ $v = v2 ] && src=module-v2.c
	mkdir -p $v/modules && cp "$k1" $v/vmlinux && cp -R "$fx/kernel-uapi" $v/include &&
		{ cat "$fx/dir-header-types/$v.h"; sed -n '/^typedef/p; /^struct fxmod_create {/,/^};/p' "$src"; } \
			>$v/include/uapi/linux/fxhdr.h &&
		cp "$fx/dir-header-types/gh-$v.h" $v/include/uapi/linux/fxgh.h || exit 1
done
mod "$fx/module.c" v1/modules/fxmod.ko && mod module-v2.c v2/modules/fxmod.ko
ok $? "two kernel directories, v2's module and header grown"

rows() {
	jq -r '.changes[] | select(.category == "types") |
		"\(.rule) \(.verdict) \(.subject) \([.impact[].root] | join(","))"' "$1" | sort
}
"$KABI_DIFF" v1 v2 -q -f json >fwd.json
is "$?" 28 "v1 -> v2: exit 28 (breaking and source bits)"
is "$(rows fwd.json)" \
"array-one-element info struct fxh_str.data linux/fxhdr.h
enumerator-added compatible enum fxh_attr.FXH_ATTR_NEW linux/fxhdr.h
enumerator-removed breaking enum fxh_attr.FXH_ATTR_OLD linux/fxhdr.h
enumerator-removed-header source enum fxh_type.FXH_TYPE_AMP linux/fxhdr.h
member-added-alias compatible struct fxh_sel.hdr linux/fxhdr.h
member-added-alias compatible struct fxh_str.legacy_padding linux/fxhdr.h
member-added-empty info struct fxh_str.__empty_data linux/fxhdr.h
member-moved breaking struct fxh_msg.a linux/fxhdr.h
member-moved breaking struct fxh_msg.b linux/fxhdr.h
padding-named info struct fxh_pad.pad0 linux/fxhdr.h
padding-reuse-uncontracted breaking struct fxh_pad.used linux/fxhdr.h
reserved-reuse compatible struct fxh_grp.resvd1 linux/fxhdr.h
tail-growth-uncontracted breaking struct fxmod_create FXK_IOC_CREATE
tail-growth-uncontracted breaking struct fxmod_create.extra FXK_IOC_CREATE
type-spelling info struct fxh_ev.data linux/fxhdr.h
type-unbuilt source struct fxg_info.a linux/fxgh.h
type-unbuilt source struct fxg_info.b linux/fxgh.h" \
	"  the header's own types compared from it; fxmod_create once, from its ioctl"
is "$(jq -r '.changes[] | select(.subject == "struct fxh_msg.a") | "\(.evidence.kind): \(.evidence.text)"' fwd.json)" \
	"layout: the layouts both header views give (compiled as user space compiles them): struct fxh_msg at linux/fxhdr.h:22 in the old headers, linux/fxhdr.h:20 in the new; no syscall or ioctl of either kernel reaches it" \
	"  the evidence says where both headers declare it"
is "$(jq -r '.changes[] | select(.subject == "struct fxmod_create") | .evidence.text' fwd.json)" \
	"the layouts of both kernels (DWARF)" "  the ioctl's type: the kernels' evidence"
is "$(jq -r '.changes[] | select(.subject == "struct fxh_pad.pad0") | "\(.evidence.kind): \(.evidence.text)"' fwd.json)" \
	"convention: the name pad0 says padding, which promises nothing about its value, by the naming convention only: no contract line or kernel fact says the kernel zero-checks or ignores struct fxh_pad.pad0" \
	"  padding named: what names it is the evidence"
is "$(jq -r '.changes[] | select(.subject == "enum fxh_attr.FXH_ATTR_OLD") | .evidence.text' fwd.json)" \
	"the new headers give its value 1 to FXH_ATTR_NEW" "  a value given to another enumerator: why it breaks"
is "$(jq -r '.changes[] | select(.subject == "struct fxg_info.a") | "\(.evidence.kind): \(.evidence.text)"' fwd.json)" \
	"kernel: no binary of the old kernel (vmlinux and 1 modules) defines a type of linux/fxgh.h's ioctls: nothing in it was served; struct fxg_info is declared there and no syscall or ioctl of either kernel reaches it" \
	"  an unserved header's type: what the kernel built is the evidence"

# Text: fxh_msg's two moves share rule and evidence, said once.
"$KABI_DIFF" v1 v2 -q >fwd.txt
is "$(grep -c 'member.offset  *struct fxh_msg' fwd.txt)|$(grep -c 'old binaries read and write it at the old offset' fwd.txt)|$(grep -c 'fxh_msg at linux/fxhdr.h:22' fwd.txt)" \
	"2|1|1" "text: two changes of struct fxh_msg, their why and evidence once"

"$KABI_DIFF" v2 v1 -q -f json >back.json
is "$?" 28 "v2 -> v1: exit 28"
rows fwd.json >fwd.rows
is "$(rows back.json | comm -23 - fwd.rows)" \
"enumerator-added compatible enum fxh_attr.FXH_ATTR_OLD linux/fxhdr.h
enumerator-added compatible enum fxh_type.FXH_TYPE_AMP linux/fxhdr.h
enumerator-removed breaking enum fxh_attr.FXH_ATTR_NEW linux/fxhdr.h
header-type-removed source struct fxh_sel_hdr linux/fxhdr.h
header-type-removed source union fxh_ev_data linux/fxhdr.h
member-removed breaking struct fxh_pad.used linux/fxhdr.h
member-removed breaking struct fxh_sel.hdr linux/fxhdr.h
member-removed breaking struct fxh_str.__empty_data linux/fxhdr.h
member-removed breaking struct fxh_str.legacy_padding linux/fxhdr.h
member-removed breaking struct fxmod_create.extra FXK_IOC_CREATE
member-renamed info struct fxh_grp.weight_high linux/fxhdr.h
member-type breaking struct fxh_ev.data linux/fxhdr.h
type-size breaking struct fxmod_create FXK_IOC_CREATE" \
	"  backwards (the rows v1 -> v2 has not): the enumerators added are compatible, the rest as the layouts say (an alias or a tag removed: a removal, conservatively; the tags no header declares any more: header-type-removed)"

# A vmlinux alone covers no headers: nothing of theirs is compared.
"$KABI_DIFF" v1/vmlinux v2 -q -f json >vm.json
is "$?|$(rows vm.json | wc -l)" "0|0" "a side without headers: no header type compared"
done_testing
