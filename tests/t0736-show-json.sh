#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# show --format json (issue 29, item 9: show had no --format json): info
# an object, every other item a list; the fixture's values as `show`
# prints them in text (t0120), nothing written when nothing is found.
. "$KD_SRCDIR/lib.sh"

db=$(fixture_db v1-dwarf5 -gdwarf-5) || { ok 1 "fixture"; done_testing; }
scratch show-json
cp "$db" k.kabi
sj() { "$KABI_DIFF" show k.kabi "$@" -f json; }

is "$(sj info | jq -r '[.release, .arch, (.rows.syscalls | tostring)] | join(" ")')" "6.99.1-fixture x86_64 8" \
	"info: an object, the identity and the rows"
is "$(sj syscalls | jq -c '[.[] | [.abi, .nr, .name, .implemented]][0:2]')" \
	'[["x64",0,"read",true],["x64",1,null,false]]' "syscalls: a list of slots, a not-implemented one with no name"
is "$(sj syscalls | jq -r '.[] | select(.name == "openat2") | .signature')" \
	"long int sys_openat2(int dfd, const char *filename, struct open_how *how, size_t usize)" "  with signatures"
is "$(sj syscall openat2 | jq -c '.[0] | [.slots, [.params[] | .type]]')" \
	'[[{"abi":"x64","nr":6,"entry":"__x64_sys_openat2"}],["int","const char *","struct open_how *","size_t"]]' \
	"syscall NAME: its slots and parameters"
is "$(sj struct fx_bits | jq -c '.[0] | [.size, .align, [.members[] | [.name, .type, .offset, .bit_offset, .bit_size]]]')" \
	'[4,4,[["ready","unsigned int",0,0,1],["kind","unsigned int",0,1,3],["level","unsigned int",0,4,4],["prio","unsigned int",0,8,4],["tag","short unsigned int",2,null,null]]]' \
	"struct NAME: members with type, offset and bit-fields (as in text: 0:1 4, 2 2)"
is "$(sj enum fx_mode | jq -c '.[0].enumerators')" \
	'[{"name":"FX_MODE_OFF","value":0},{"name":"FX_MODE_ON","value":1},{"name":"FX_MODE_AUTO","value":2}]' "enum NAME: enumerators"
is "$(sj struct 'fx_*' | jq -c '[.[].name]')" '["fx_bits","fx_legacy","fx_node","fx_stat"]' \
	"a glob: one list of its matches"
is "$(sj problems | jq -c 'type')" '"array"' "problems: a list"
"$KABI_DIFF" show k.kabi struct nosuch -f json >out.txt 2>err.txt
is "$?|$(wc -c <out.txt)|$(cat err.txt)" \
	"1|0|kabi-diff: k.kabi: no struct named 'nosuch' (only types reachable from syscalls and ioctls are recorded)" \
	"nothing found: exit 1, the text's error, nothing on standard output"
"$KABI_DIFF" show k.kabi info -f xml >out.txt 2>err.txt
is "$?|$(head -1 err.txt)" "2|kabi-diff: show: unknown format 'xml' (text or json)" "-f xml: usage error"

done_testing
