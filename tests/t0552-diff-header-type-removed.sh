#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A named struct, union or enum the old header views declare and no
# header of the new ones does is a change (issue 25, R33): before, header
# types were compared only as pairs, so a deleted struct was "No changes"
# while a removed constant was reported. header-type-removed is source
# (old source that names it no longer builds; old binaries keep their
# layout), reached from the header that declared it. A type moved to
# another header, one left as it was, and the types the new tree adds
# (the other direction) are no change; a header deleted with its types
# reports each; a side without a header view (no compiler) reports none
# removed but says what it could not compare.
. "$KD_SRCDIR/lib.sh"

scratch header-type-removed
XDG_CACHE_HOME=$PWD/cache
export XDG_CACHE_HOME
for t in old new; do header_tree $t; done
cat >old/linux/pq.h <<'HDR'
#define PQ_X 1
struct keep_t { int k; };
struct gone_t { int g; };
union gone_u { int a; long b; };
enum gone_e { GONE_A = 1 };
struct moved_t { int m; };
HDR
printf '#define PQ_OTHER 2\nstruct other_t { int o; };\n' >old/linux/pq_other.h
printf '#define PQ_X 1\nstruct keep_t { int k; };\n' >new/linux/pq.h
printf '#define PQ_OTHER 2\nstruct other_t { int o; };\nstruct moved_t { int m; };\n' >new/linux/pq_other.h
for t in old new; do "$KABI_DIFF" extract -q --uapi $t -o $t.kabi || ok 1 "extract $t"; done
line_of() { grep -n "$1" "$2" | head -1 | cut -d: -f1; }

"$KABI_DIFF" old.kabi new.kabi -q -f json >out.json
is "$?" 20 "three types removed from linux/pq.h: source-level, exit 20"
is "$(jq -r '.changes[] | "\(.rule) \(.verdict) \(.kind) \(.subject) \(.old) \(.new) \([.impact[].path] | join(","))"' out.json)" \
"header-type-removed source type.removed enum gone_e linux/pq.h:$(line_of '^enum gone_e' old/linux/pq.h) null linux/pq.h -> enum gone_e
constant-removed source constant.removed GONE_A 1 null 
header-type-removed source type.removed struct gone_t linux/pq.h:$(line_of '^struct gone_t' old/linux/pq.h) null linux/pq.h -> struct gone_t
header-type-removed source type.removed union gone_u linux/pq.h:$(line_of '^union gone_u' old/linux/pq.h) null linux/pq.h -> union gone_u" \
	"  each removed type, where the old header declared it, reached from that header; moved_t (now in pq_other.h) and keep_t: no change; the removed enum's enumerator is a constant removed"
is "$(jq -r '.changes[] | select(.subject == "struct gone_t") | .evidence.text' out.json)" \
	"the header views of both sides (compiled as user space compiles them): linux/pq.h:3 declares struct gone_t in the old headers, no header of the new ones does" \
	"  the evidence"
is "$(jq -r '.coverage.headers_not_compared // "absent"' out.json)" "absent" "  every header's types compared"
"$KABI_DIFF" old.kabi new.kabi -q >out.txt
grep -q '^  struct gone_t: 1 type.removed$' out.txt
ok $? "  text: a finding per removed type"
printf 'header-type-removed struct\\ gone_t reviewed: nobody used it\n' >sup.txt
"$KABI_DIFF" old.kabi new.kabi -q -s sup.txt -f json >sup.json
is "$?|$(jq -c '[.summary.total.source, .summary.total.suppressed]' sup.json)" "20|[3,1]" \
	"  a suppression names the rule and the type"

"$KABI_DIFF" old.kabi old.kabi -q >same.txt
is "$?|$(tail -1 same.txt)" "0|No changes." "the same tree: no change"
"$KABI_DIFF" new.kabi old.kabi -q -f json >back.json
is "$?|$(jq -r '[.changes[] | "\(.rule) \(.subject)"] | join(",")' back.json)" "4|constant-added GONE_A" \
	"the other direction: the types added are no change, the enum's enumerator a constant added"

# A header deleted with its types: each type, as its constant, is removed.
rm new/linux/pq_other.h
"$KABI_DIFF" extract -q --uapi new -o del.kabi
"$KABI_DIFF" old.kabi del.kabi -q -f json >del.json
is "$(jq -r '[.changes[] | "\(.rule) \(.subject)"] | sort | join(",")' del.json)" \
	"constant-removed GONE_A,constant-removed PQ_OTHER,header-type-removed enum gone_e,header-type-removed struct gone_t,header-type-removed struct moved_t,header-type-removed struct other_t,header-type-removed union gone_u" \
	"linux/pq_other.h deleted: its constant and its types removed (moved_t too, in no header now)"

# No header view on the new side (no compiler): nothing concluded from its absence.
KABI_DIFF_CC=/nonexistent/cc "$KABI_DIFF" extract -q --uapi new -o nocc.kabi 2>/dev/null
"$KABI_DIFF" old.kabi nocc.kabi -q -f json >nocc.json
is "$(jq -r '[.changes[] | select(.kind == "type.removed")] | length' nocc.json)" 0 \
	"a new side without a header view: no type reported removed"
is "$(jq -c '.coverage.headers_not_compared' nocc.json)" \
	'[{"header":null,"why":"the new side has no header view: its headers were not compiled","types":[]}]' \
	"  the coverage says why its types were not compared"
is "$("$KABI_DIFF" old.kabi nocc.kabi -q | grep '^not compared: the header')" \
	"not compared: the header views' types (the new side has no header view: its headers were not compiled)" \
	"  and so does the text report"
done_testing
