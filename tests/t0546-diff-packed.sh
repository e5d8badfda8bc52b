#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Alignment comes from what the compiler says (diff/RULES.md "Alignment"):
# two header trees (tests/fixtures/packed/) with packed structs like x86_64's
# struct epoll_event. A packed struct whose members widen or narrow has its
# size, members and ioctl numbers reported, never an alignment change
# between a proven-packed layout and one that only looks natural; an
# alignment DWARF states (aligned(8): DW_AT_alignment) that changed is
# type-align, breaking, in both directions, for a struct another one
# holds (kdp_slot, an array's element), and type-align-unembedded, source,
# for one no type embeds (kdp_plain, an ioctl's argument; kdp_table).
. "$KD_SRCDIR/lib.sh"

fx=$KD_SRCDIR/fixtures
XDG_CACHE_HOME=$PWD/cache
export XDG_CACHE_HOME
for v in v1 v2; do header_tree $v "$fx/packed/$v.h" linux/kdp.h; done

"$KABI_DIFF" extract -q --uapi v1 -o v1.kabi && "$KABI_DIFF" extract -q --uapi v2 -o v2.kabi
ok $? "both trees extracted"
is "$(q v1.kabi "SELECT name || ' ' || size || ' ' || align || ' ' || (flags & 8) FROM types WHERE name LIKE 'kdp_%' AND kind = 'struct' ORDER BY name")" \
"kdp_event 12 1 8
kdp_pair 16 8 0
kdp_plain 8 4 0
kdp_slot 8 4 0
kdp_table 16 4 0" "old: kdp_event proven packed (align 1); kdp_pair looks natural (8)"
is "$(q v2.kabi "SELECT name || ' ' || size || ' ' || align || ' ' || (flags & 8) FROM types WHERE name LIKE 'kdp_%' AND kind = 'struct' ORDER BY name")" \
"kdp_event 16 8 0
kdp_pair 12 1 8
kdp_plain 8 8 0
kdp_slot 8 8 0
kdp_table 16 8 0" "new: kdp_event looks natural, kdp_pair proven packed, kdp_plain aligned(8) as DWARF states"

# rows FILE: "rule verdict subject old -> new" of the type changes
rows() { jq -r '.changes[] | select(.category == "types") | "\(.rule) \(.verdict) \(.subject) \(.old) -> \(.new)"' "$1" | sort; }
"$KABI_DIFF" v1.kabi v2.kabi -q --no-spec -f json >fwd.json
is "$?" 28 "v1 -> v2: exit 28"
fwd="member-moved breaking struct kdp_event.data 4 -> 8
member-moved breaking struct kdp_pair.b 8 -> 4
member-type breaking struct kdp_event.events __u32 -> __u64
member-type breaking struct kdp_pair.a __u64 -> __u32
type-align breaking struct kdp_slot 4 -> 8
type-align-unembedded source struct kdp_plain 4 -> 8
type-align-unembedded source struct kdp_table 4 -> 8
type-size breaking struct kdp_event 12 -> 16
type-size breaking struct kdp_pair 16 -> 12"
is "$(rows fwd.json)" "$fwd" \
	"  packed structs: size, members; no type.align between packed and natural-looking; stated 8: type-align when an array holds it, else unembedded"
is "$(jq -r '[.changes[] | select(.kind == "ioctl.cmd") | .subject] | join(",")' fwd.json)" \
	"KDP_IOC_EVENT,KDP_IOC_PAIR" "  the size changes renumber their ioctls"

"$KABI_DIFF" v2.kabi v1.kabi -q --no-spec -f json >back.json
is "$?" 28 "v2 -> v1: exit 28"
# The same rows with old and new swapped (8 -> 4: the same rules both ways).
is "$(rows back.json)" "$(echo "$fwd" | sed -E 's/ ([^ ]+) -> ([^ ]+)$/ \2 -> \1/' | sort)" \
	"  the reverse: the same changes the other way, 8 -> 4"
done_testing
