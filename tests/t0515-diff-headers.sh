#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Headers alone, no kernel built: `extract --uapi DIR -o K.kabi` without a
# vmlinux, and `kabi-diff OLD NEW` on two header trees (headers_install
# layout). A patch that moves a struct member into a hole, changes a flag
# value and an ioctl number is reported change by change; a patch that only
# reformats (comments, spacing, parentheses, order) reports nothing; the
# second run comes from the cache; what is neither a kernel nor a header
# tree is an error.
. "$KD_SRCDIR/lib.sh"

fx=$KD_SRCDIR/fixtures
XDG_CACHE_HOME=$PWD/cache
export XDG_CACHE_HOME
# tree NAME HEADER: a headers_install tree whose linux/kdh.h is HEADER.
tree() { header_tree "$1" "$fx/headers/$2.h" linux/kdh.h; }
tree v1 v1; tree reformat reformat; tree v2 v2

# --- extract, headers alone ----------------------------------------------
"$KABI_DIFF" extract -q --uapi v1 -o v1.kabi
is "$?" 0 "extract --uapi DIR -o K.kabi: no vmlinux needed"
is "$(q v1.kabi "SELECT key || '=' || value FROM meta WHERE key IN ('input', 'arch', 'release') ORDER BY key")" \
"arch=x86_64
input=headers
release=v1" "identity: headers, x86_64, the tree as its release"
is "$(q v1.kabi "SELECT count(*) FROM syscalls")" 0 "no syscall table"
is "$(q v1.kabi "SELECT name || ' ' || printf('0x%08x', cmd) || ' ' || size FROM ioctls ORDER BY name")" \
"KDH_IOC_GET 0x80046b02 4
KDH_IOC_SET 0x40106b01 16" "ioctl numbers sized from the compiled header"
"$KABI_DIFF" show v1.kabi struct kdh_args >show.txt
is "$?" 0 "show struct kdh_args"
is "$(layout <show.txt)" "1 flags 0 4
1 value 8 8" "its layout from the header view"
"$KABI_DIFF" extract -q --uapi v1 >/dev/null 2>err.txt
is "$?" 2 "headers alone without -o: usage error"
"$KABI_DIFF" extract -q --uapi v1 --modules . -o x.kabi 2>err.txt
is "$?" 2 "--modules without a vmlinux: usage error"

# --- diff of two header trees ----------------------------------------------
"$KABI_DIFF" v1 reformat -f json >reformat.json 2>err.txt
is "$?" 0 "a reformatting patch: exit 0"
is "$(jq -c '[(.changes | length), .summary.total.info]' reformat.json)" "[0,0]" "  no change at all"
"$KABI_DIFF" v1 v2 -f json >v2.json 2>err.txt
is "$?" 12 "a patch changing the ABI: exit 12 (breaking)"
is "$(jq -r '.changes[] | [.kind, .subject, (.old // "-"), (.new // "-"), .verdict] | join(" | ")' v2.json | sort)" \
"constant.value | KDH_FLAG_B | 2 | 4 | breaking
ioctl.cmd | KDH_IOC_GET | 0x80046b02 | 0x80046b03 | breaking
type.member.added | struct kdh_args.mode | - | __u32 mode at 4 | breaking" \
	"  the member, the flag value and the ioctl number, nothing else"
grep -q 'reading the UAPI header tree' err.txt
ok "$?" "  the trees were read"
"$KABI_DIFF" v1 v2 -f json >v2b.json 2>err.txt
is "$?" 12 "second run: same exit"
cmp -s v2.json v2b.json
ok "$?" "  same report"
grep -q 'reading the UAPI header tree' err.txt
ok "$((!$?))" "  from the cache: no header read again"
is "$(ls cache/kabi-diff | grep -c '^headers-u-.*\.kabi$')" 3 "  one cache entry per tree (v1, reformat, v2)"
# An edit is a new tree for the cache.
sed 's/0x4$/0x8/' "$fx/headers/v2.h" >v2/linux/kdh.h
"$KABI_DIFF" v1 v2 -f json >v2c.json 2>err.txt
is "$(jq -r '.changes[] | select(.kind == "constant.value") | .new' v2c.json)" 8 "an edited header is read again"

# --- verdicts of header changes no ioctl reaches ---------------------------
# linux/kdv.h: an enumerator removed, one renamed (same value), a struct
# that shrinks, a mask that grows (diff/RULES.md).
tree vv1 v1; cp "$fx/headers/verdicts-v1.h" vv1/linux/kdv.h
tree vv2 v1; cp "$fx/headers/verdicts-v2.h" vv2/linux/kdv.h
"$KABI_DIFF" vv1 vv2 -f json >vv.json 2>err.txt
is "$?" 12 "header types no ioctl reaches: exit 12 (breaking changes)"
is "$(jq -r '.changes[] | [.kind, .subject, (.old // "-"), (.new // "-"), .verdict, .rule] | join(" | ")' vv.json | sort)" \
"constant.value | KDV_F_ALL | 3 | 7 | compatible | constant-mask-grown
constant.value | KDV_TYPE_MAX | 2 | 3 | info | constant-count
type.enumerator.added | enum kdv_attr.KDV_ATTR_ADDR | - | 3 | compatible | enumerator-added
type.enumerator.added | enum kdv_type.KDV_TYPE_C | - | 2 | compatible | enumerator-added
type.enumerator.added | enum kdv_type.__KDV_TYPE_MAX | - | 3 | compatible | enumerator-added
type.enumerator.removed | enum kdv_attr.KDV_ATTR_MAX_MTU | 1 | - | breaking | enumerator-removed
type.enumerator.removed | enum kdv_mode.KDV_MODE_AUTO | 2 | - | breaking | enumerator-removed
type.enumerator.removed | enum kdv_type.KDV_TYPE_MAX | 2 | - | info | enumerator-count
type.enumerator.renamed | enum kdv_mode.KDV_MODE_ON | KDV_MODE_ON | KDV_MODE_ENABLED | info | enumerator-renamed
type.enumerator.value | enum kdv_attr.__KDV_ATTR_MAX | 3 | 4 | info | enumerator-count
type.member.removed | struct kdv_small.b | __u32 b at 4 | - | breaking | member-removed
type.size | struct kdv_small | 8 | 4 | breaking | type-size" \
	"  removed enumerator breaking, renamed with the old name kept info (not an end marker whose value a new one took), end markers that move or leave info (a MAX name mid-enum is no marker), shrunk struct breaking, grown mask compatible; as a constant, the end marker that became a #define grew (info); the renamed one is the enum's report only"
is "$(jq -r '.changes[] | select(.subject == "enum kdv_type.KDV_TYPE_MAX") | .evidence | [.kind, .text] | join(": ")' vv.json)" \
	"convention: naming convention: KDV_TYPE_MAX is named like a count or end marker and its value 2 ends enum kdv_type" \
	"  the marker's evidence: the naming convention and its place"
is "$(jq -r '[.changes[].evidence.text | select(test("DWARF"))] | length' vv.json)" 0 \
	"  two header trees: no evidence says DWARF"
is "$(jq -r '.changes[] | select(.subject == "struct kdv_small") | .evidence.text' vv.json)" \
	"the layouts both header trees declare, compiled as user space compiles them" "  but the compiled headers"
is "$(jq -r '[.changes[] | select(.subject == "struct kdv_small") | .impact[].path] | join(",")' vv.json)" \
	"linux/kdv.h -> struct kdv_small" "  reached from the header that declares it"

mkdir empty
"$KABI_DIFF" v1 empty >out.txt 2>err.txt
is "$?" 1 "a directory with neither a vmlinux nor headers: error"
grep -q 'empty: no vmlinux.*nor a UAPI header tree' err.txt
ok "$?" "  saying what was looked for"
done_testing
