#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A .kabi whose function type's parameters point back to the function
# (issue 12): printing a declaration visited N^64 types (8 parameters:
# show and diff never ended). The printer visits at most 4,096 types per
# declaration and prints "..." past that; the member keeps its name.
. "$KD_SRCDIR/lib.sh"

good=$(fixture_db v1-dwarf5 -gdwarf-5) || { ok 1 "fixture"; done_testing; }
scratch hostile-func

# struct fx_node's member callback: void (*)(struct fx_node *, int).
ptr=$(q "$good" "SELECT m.member_type FROM members m JOIN types t ON t.id = m.type_id
	WHERE t.name = 'fx_node' AND m.name = 'callback'")
fn=$(q "$good" "SELECT ref FROM types WHERE id = $ptr")
is "$(q "$good" "SELECT kind FROM types WHERE id = $fn")" func "the fixture's callback points to a function type"
cp "$good" loop.kabi
q loop.kabi "DELETE FROM members WHERE type_id = $fn;
	WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 7)
	INSERT INTO members (type_id, idx, name, member_type, offset) SELECT $fn, i, NULL, $ptr, NULL FROM r"

timeout 60 "$KABI_DIFF" show loop.kabi struct fx_node >show.txt 2>err.txt
is "$?|$(cat err.txt)" "0|" "show: a function whose 8 parameters point back to it: exit 0"
line=$(grep '/\*    16     8 \*/' show.txt)
want=$(printf '\t... (*callback)(... (*)(... (*)(')
is "$(echo "$line" | cut -c1-${#want})" "$want" \
	"  the member keeps its name; the unbounded part is '...'"
is "$(echo "$line" | grep -o '(\*)' | wc -l)" 3259 "  4,096 types visited, no more"
timeout 60 "$KABI_DIFF" diff "$good" loop.kabi -f json >diff.json 2>err.txt
is "$?|$(cat err.txt)" "12|" "diff against it: exit 12"
is "$(jq -r '[.changes[] | "\(.kind) \(.name)"] | join(", ")' diff.json)" \
	"type.func.params struct fx_node.callback(), type.member.type struct fx_node.callback(), type.member.type struct fx_node.callback()" \
	"  the callback's parameters changed"

done_testing
