#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Enumerators and #defines are one namespace of constants (diff/RULES.md
# "Constants: #defines and enumerators"): every enumerator of the compiled
# headers, of a named or an anonymous enum, is a constants row; two header
# trees are compared name by name in both directions: an anonymous enum's
# enumerator removed or renamed is reported (source; breaking when the
# contract lists it in a set), a #define turned enumerator of the same
# value or back is info, another value is the value rules; an enumerator
# whose header the other tree does not compile is not compared; names
# that two headers give two values are problems.
. "$KD_SRCDIR/lib.sh"

fx=$KD_SRCDIR/fixtures/enumconst
XDG_CACHE_HOME=$PWD/cache
export XDG_CACHE_HOME
header_tree v1 "$fx/kde-v1.h" linux/kde.h
header_tree v2 "$fx/kde-v2.h" linux/kde.h

# --- extract: the enumerators are constants --------------------------------
"$KABI_DIFF" extract -q --uapi v1 -o v1.kabi
is "$?" 0 "extract --uapi"
is "$(q v1.kabi "SELECT name, value, ctype, ifnull(expr, '-'), file, line, source FROM constants
	WHERE name GLOB 'KDE_CMD_*' OR name GLOB 'KDE_FLAG_*' ORDER BY name")" \
"KDE_CMD_ID_GET_POISON|2|int|-|linux/kde.h|21|enumerator
KDE_CMD_ID_IDENTIFY|1|int|-|linux/kde.h|21|enumerator
KDE_CMD_ID_INVALID|0|int|-|linux/kde.h|21|enumerator
KDE_CMD_ID_MAX|5|int|-|linux/kde.h|21|enumerator
KDE_CMD_ID_RESET|4|int|-|linux/kde.h|21|enumerator
KDE_CMD_ID_SCAN_MEDIA|3|int|-|linux/kde.h|21|enumerator
KDE_FLAG_COMPACT|1|int|(1 << 0)|linux/kde.h|24|macro
KDE_FLAG_OMIT_REPLY|2|int|(1 << 1)|linux/kde.h|25|macro
KDE_FLAG_STATS|4|unsigned int|(1U << 2)|linux/kde.h|26|macro" \
	"  an anonymous enum's enumerators are constants (its line), beside the #defines"
is "$("$KABI_DIFF" show v1.kabi const KDE_CMD_ID_RESET)" "KDE_CMD_ID_RESET = 4 (0x4, int)
  defined at linux/kde.h:21
  an enumerator of an anonymous enum" "  show const: an enumerator"

# One name, one value: #define FOO FOO is one constant; two values are problems.
header_tree c
printf '%s\n' '#ifndef KDC1_H' '#define KDC1_H' 'enum { KDC_A = 1 };' 'enum kdc_self { KDC_C = 7 };' \
	'#define KDC_C KDC_C' '#endif' >c/linux/kdc1.h
printf '%s\n' '#ifndef KDC2_H' '#define KDC2_H' 'enum { KDC_A = 2 };' '#endif' >c/linux/kdc2.h
printf '%s\n' '#define KDC_B 5' >c/linux/kdc3.h
printf '%s\n' 'enum { KDC_B = 6, KDC_D = 0x80000000U };' \
	'enum kdc_big { KDC_E = 0x100000000ULL, KDC_F = -1 };' >c/linux/kdc4.h
"$KABI_DIFF" extract -q --uapi c -o c.kabi
is "$?" 0 "extract a tree whose headers disagree"
is "$(q c.kabi "SELECT name, value, ctype, file, source FROM constants WHERE name GLOB 'KDC_*' ORDER BY name")" \
"KDC_A|1|int|linux/kdc1.h|enumerator
KDC_B|5|int|linux/kdc3.h|macro
KDC_C|7|int|linux/kdc1.h|macro
KDC_D|2147483648|unsigned int|linux/kdc4.h|enumerator
KDC_E|4294967296|long|linux/kdc4.h|enumerator
KDC_F|-1|int|linux/kdc4.h|enumerator" \
	"  the first header's value kept, the #define's kept, #define FOO FOO one row; C types of wide enumerators"
is "$(q c.kabi "SELECT location || ': ' || message FROM problems ORDER BY id")" \
"linux/kdc2.h:3: KDC_A: enumerator 0x2 here but 0x1 in linux/kdc1.h (kept)
linux/kdc4.h:1: KDC_B: enumerator 0x6 here but the #define in linux/kdc3.h gives 0x5 (kept)" \
	"  each disagreement a problem"

# --- diff, both directions --------------------------------------------------
# changes FILE: every change of the report, one line each.
changes() {
	jq -r '.changes[] | [.kind, .subject, (.old // "-"), (.new // "-"), .verdict, .rule] | join(" | ")' "$1" | sort
}
"$KABI_DIFF" v1 v2 -q --no-spec -f json >fwd.json
is "$?" 28 "old -> new: exit 28 (breaking and source-level changes)"
is "$(changes fwd.json)" \
"constant.added | KDE_CMD_ID_CLEAR_LOG | - | 5 | compatible | constant-added
constant.added | KDE_CMD_ID_GET_TIMESTAMP | - | 4 | compatible | constant-added
constant.added | KDE_DEPRECATED_ID_GET_POISON | - | 2 | compatible | constant-added
constant.added | KDE_DEPRECATED_ID_SCAN_MEDIA | - | 3 | compatible | constant-added
constant.added | KDE_STAT_OUTREQUESTS | - | 2 | compatible | constant-added
constant.definition | KDE_FLAG_COMPACT | #define (1 << 0) | enumerator of enum kde_header_flags | info | constant-now-enumerator
constant.definition | KDE_FLAG_STATS | #define (1U << 2) | enumerator of enum kde_header_flags | info | constant-now-enumerator
constant.definition | KDE_MODE_OFF | enumerator of an anonymous enum | #define 0 | info | constant-now-macro
constant.definition | KDE_MODE_ON | enumerator of an anonymous enum | #define 1 | info | constant-now-macro
constant.removed | KDE_CMD_ID_GET_POISON | 2 | - | source | constant-removed
constant.removed | KDE_CMD_ID_RESET | 4 | - | source | constant-removed
constant.removed | KDE_CMD_ID_SCAN_MEDIA | 3 | - | source | constant-removed
constant.value | KDE_ATTR_MAX | 2 | 3 | info | constant-count
constant.value | KDE_CMD_ID_MAX | 5 | 6 | info | constant-count
constant.value | KDE_FLAG_OMIT_REPLY | 2 | 8 | breaking | constant-value
constant.value | KDE_MODE_SLOW | 2 | 3 | breaking | constant-value
constant.value | KDE_STAT_OUT | 2 | 3 | source | constant-renumbered
constant.value | __KDE_STAT_MAX | 3 | 4 | info | constant-count
type.enumerator.added | enum kde_attr.KDE_ATTR_PORT | - | 3 | compatible | enumerator-added
type.enumerator.value | enum kde_attr.__KDE_ATTR_MAX | 3 | 4 | info | enumerator-count" \
	"  anonymous ids removed (source) and added, #defines now enumerators and back (info), values by their role; a named enum's own changes once, as its type's"
# evidence NAME FILE: the change's evidence text.
evidence() {
	jq -r --arg s "$1" '.changes[] | select(.subject == $s) | .evidence.text' "$2"
}
is "$(evidence KDE_CMD_ID_GET_POISON fwd.json)" \
	"KDE_CMD_ID_GET_POISON, an enumerator of an anonymous enum in linux/kde.h, is in the old headers only; the enum that continues it gives its value 2 to KDE_DEPRECATED_ID_GET_POISON; the contract lists it in no set" \
	"  a removed id: where its value went, a rename or a reuse the headers cannot tell"
is "$(evidence KDE_STAT_OUT fwd.json)" \
	"the enum that continues KDE_STAT_OUT's gives its old value 2 to KDE_STAT_OUTREQUESTS, a name new to it" \
	"  a slot renamed and its name moved: old binaries' number is still defined"
is "$(evidence KDE_CMD_ID_MAX fwd.json)" \
	"naming convention: KDE_CMD_ID_MAX is named like a count or end marker and its value 5 ends its enum in the old headers" \
	"  an anonymous enum's end marker: a count"
is "$(jq -r '.changes[] | select(.subject == "KDE_FLAG_OMIT_REPLY" or .subject == "KDE_FLAG_STATS") | .note' fwd.json)" \
"#define (1 << 1) -> enumerator of enum kde_header_flags
value 4 kept" "  notes: what each side is, or the value kept"

"$KABI_DIFF" v2 v1 -q --no-spec -f json >back.json
is "$?" 28 "new -> old: exit 28"
is "$(changes back.json)" \
"constant.added | KDE_CMD_ID_GET_POISON | - | 2 | compatible | constant-added
constant.added | KDE_CMD_ID_RESET | - | 4 | compatible | constant-added
constant.added | KDE_CMD_ID_SCAN_MEDIA | - | 3 | compatible | constant-added
constant.definition | KDE_FLAG_COMPACT | enumerator of enum kde_header_flags | #define (1 << 0) | info | constant-now-macro
constant.definition | KDE_FLAG_STATS | enumerator of enum kde_header_flags | #define (1U << 2) | info | constant-now-macro
constant.definition | KDE_MODE_OFF | #define 0 | enumerator of an anonymous enum | info | constant-now-enumerator
constant.definition | KDE_MODE_ON | #define 1 | enumerator of an anonymous enum | info | constant-now-enumerator
constant.removed | KDE_CMD_ID_CLEAR_LOG | 5 | - | source | constant-removed
constant.removed | KDE_CMD_ID_GET_TIMESTAMP | 4 | - | source | constant-removed
constant.removed | KDE_DEPRECATED_ID_GET_POISON | 2 | - | source | constant-removed
constant.removed | KDE_DEPRECATED_ID_SCAN_MEDIA | 3 | - | source | constant-removed
constant.removed | KDE_STAT_OUTREQUESTS | 2 | - | source | constant-removed
constant.value | KDE_ATTR_MAX | 3 | 2 | info | constant-count
constant.value | KDE_CMD_ID_MAX | 6 | 5 | info | constant-count
constant.value | KDE_FLAG_OMIT_REPLY | 8 | 2 | breaking | constant-value
constant.value | KDE_MODE_SLOW | 3 | 2 | breaking | constant-value
constant.value | KDE_STAT_OUT | 3 | 2 | breaking | constant-value
constant.value | __KDE_STAT_MAX | 4 | 3 | info | constant-count
type.enumerator.removed | enum kde_attr.KDE_ATTR_PORT | 3 | - | breaking | enumerator-removed
type.enumerator.value | enum kde_attr.__KDE_ATTR_MAX | 4 | 3 | info | enumerator-count
type.removed | enum kde_header_flags | linux/kde.h:32 | - | source | header-type-removed" \
	"  the mirror: enumerators back to #defines (info), their enum's tag gone (source); a slot whose old number another old name holds is a value that changed"

# --- a name that leaves or joins a named enum ----------------------------------
# Its value kept, it is the same constant: only how it is defined changed
# (constant-now-*, info), never an enumerator removed or added as well; a
# rename whose old name stays a #define is the enum's report only; another
# value is a constant's value change (and the enum's addition or removal).
header_tree m1 "$fx/kdm-v1.h" linux/kdm.h
header_tree m2 "$fx/kdm-v2.h" linux/kdm.h
"$KABI_DIFF" m1 m2 -q --no-spec -f json >m.json
is "$?" 12 "names leaving and joining an enum: exit 12 (KDM_F_TWO's value)"
is "$(changes m.json)" \
"constant.definition | KDM_F_ONE | #define 8 | enumerator of enum kdm_op | info | constant-now-enumerator
constant.definition | KDM_MODE_B | enumerator of enum kdm_mode | enumerator of enum kdm_speed | info | constant-now-enumerator
constant.definition | KDM_OP_TRIM | enumerator of enum kdm_op | #define 4 | info | constant-now-macro
constant.value | KDM_F_TWO | 16 | 32 | breaking | constant-value
type.enumerator.added | enum kdm_op.KDM_F_TWO | - | 32 | compatible | enumerator-added
type.enumerator.renamed | enum kdm_op.KDM_OP_SYNC | KDM_OP_SYNC | KDM_OP_FLUSH | info | enumerator-renamed" \
	"  value kept: how it is defined (info), once; a rename the enum's; another value the value rules"
"$KABI_DIFF" m2 m1 -q --no-spec -f json >m-back.json
is "$?" 28 "the mirror: exit 28 (values lost, enum kdm_speed gone)"
is "$(changes m-back.json)" \
"constant.definition | KDM_F_ONE | enumerator of enum kdm_op | #define 8 | info | constant-now-macro
constant.definition | KDM_MODE_B | enumerator of enum kdm_speed | enumerator of enum kdm_mode | info | constant-now-enumerator
constant.definition | KDM_OP_SYNC | #define KDM_OP_FLUSH | enumerator of enum kdm_op | info | constant-now-enumerator
constant.definition | KDM_OP_TRIM | #define 4 | enumerator of enum kdm_op | info | constant-now-enumerator
constant.value | KDM_F_TWO | 32 | 16 | breaking | constant-value
type.enumerator.removed | enum kdm_op.KDM_F_TWO | 32 | - | breaking | enumerator-removed
type.enumerator.removed | enum kdm_op.KDM_OP_FLUSH | 3 | - | breaking | enumerator-removed
type.removed | enum kdm_speed | linux/kdm.h:12 | - | source | header-type-removed" \
	"  the mirror: the same names defined back (info); KDM_OP_FLUSH, whose name the old headers lack, removed"

# --- the contract decides a removal ------------------------------------------
"$KABI_DIFF" v1 v2 -q --spec "$fx/contract" -f json >contract.json
is "$(jq -r '.changes[] | select(.kind == "constant.removed") | "\(.rule) \(.subject) \(.evidence.text | sub("^.*/contract/"; ""))"' contract.json | sort)" \
"constant-removed KDE_CMD_ID_RESET KDE_CMD_ID_RESET, an enumerator of an anonymous enum in linux/kde.h, is in the old headers only; the enum that continues it gives its value 4 to KDE_CMD_ID_GET_TIMESTAMP; the contract lists it in no set
constant-removed-set-value KDE_CMD_ID_GET_POISON kde.kabispec:5: KDE_CMD_ID_GET_POISON is a value of kde_cmd_id (unknown values refused)
constant-removed-set-value KDE_CMD_ID_SCAN_MEDIA kde.kabispec:5: KDE_CMD_ID_SCAN_MEDIA is a value of kde_cmd_id (unknown values refused)" \
	"  ids the contract lists in a set the kernel checks: breaking, the contract line as evidence"

# --- a header the other tree does not compile --------------------------------
header_tree v3 "$fx/kde-v1.h" linux/kde.h
printf '%s\n' 'struct kde_broken { kde_unknown_t x; };' >>v3/linux/kde.h
"$KABI_DIFF" v1 v3 -q --no-spec -f json >broken.json
is "$(q v1.kabi "SELECT name FROM constants WHERE source = 'enumerator' ORDER BY name" >enumerators.txt &&
	jq -r '.changes[].subject' broken.json | grep -Fxf enumerators.txt)" "" \
	"  its enumerators are not compared: they are not called removed"
"$KABI_DIFF" v3 v1 -q --no-spec -f json >broken-back.json
is "$(jq -r '.changes[].subject' broken-back.json | grep -Fxf enumerators.txt)" "" "  nor added"
done_testing
