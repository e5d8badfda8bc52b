#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# extract on the sample kernel, DWARF 5 and DWARF 4: the syscall table,
# signatures, and exact layouts (offsets, bitfields, anonymous unions,
# flexible and zero-length arrays, enums, self-reference, dedup).
. "$KD_SRCDIR/lib.sh"

for dw in 5 4; do
	db=$(fixture_db v1-dwarf$dw -gdwarf-$dw) || { ok 1 "extract DWARF $dw"; continue; }
	t="DWARF $dw:"
	is "$(q "$db" "SELECT value FROM meta WHERE key='dwarf_version'")" "$dw" "$t dwarf_version recorded"
	is "$(q "$db" "SELECT value FROM meta WHERE key='release'")" "6.99.1-fixture" "$t release from linux_banner"
	is "$(q "$db" "SELECT value FROM meta WHERE key='arch'")" "x86_64" "$t arch"
	is "$(q "$db" "SELECT length(value) FROM meta WHERE key='build_id'")" "40" "$t sha1 build-id"
	is "$(q "$db" "PRAGMA user_version")" "10" "$t schema version"

	is "$(q "$db" "SELECT nr, ifnull(name,'-'), ifnull(entry,'-'), implemented FROM syscalls WHERE abi='x64' ORDER BY nr")" \
"0|read|__x64_sys_read|1
1|-|__x64_sys_ni_syscall|0
2|openat|__x64_sys_openat|1
3|getpid|__x64_sys_getpid|1
4|fxstat|__x64_sys_fxstat|1
5|fxlegacy|__x64_sys_fxlegacy|1
6|openat2|__x64_sys_openat2|1
7|fxold|__x64_sys_fxold|1" "$t x64 table: numbers, names, entries, ni slot kept"

	sig() {
		q "$db" "SELECT group_concat(d, ', ') FROM (SELECT p.type_text || ' ' || p.name AS d
			FROM syscalls s JOIN params p ON p.func_id = s.func_id
			WHERE s.abi='x64' AND s.name='$1' ORDER BY p.pos)"
	}
	is "$(sig openat)" "int dfd, const char * filename, int flags, umode_t mode" "$t openat signature"
	is "$(sig openat2)" "int dfd, const char * filename, struct open_how * how, size_t usize" "$t openat2 signature"
	is "$(sig read)" "unsigned int fd, char * buf, long unsigned int count" "$t read signature"
	is "$(q "$db" "SELECT count(*) FROM syscalls s JOIN params p ON p.func_id=s.func_id WHERE s.name='getpid'")" \
		"0" "$t SYSCALL_DEFINE0: no parameters (pt_regs dropped)"
	is "$(q "$db" "SELECT f.source, t.name FROM functions f JOIN types t ON t.id=f.ret_type WHERE f.name='sys_openat'")" \
		"dwarf|long int" "$t return type from __do_sys_openat"
	is "$(q "$db" "SELECT count(*) FROM types WHERE name='pt_regs'")" "0" "$t pt_regs not recorded as reachable"

	layout() {
		q "$db" "SELECT m.idx, ifnull(m.name,'(anon)'), m.offset, m.bit_offset, m.bit_size, mt.kind
			FROM types t JOIN members m ON m.type_id=t.id JOIN types mt ON mt.id=m.member_type
			WHERE t.name='$1' AND t.kind='$2' ORDER BY m.idx"
	}
	is "$(q "$db" "SELECT size, align FROM types WHERE kind='struct' AND name='fx_stat'")" "64|8" "$t fx_stat size/align"
	is "$(layout fx_stat struct)" \
"0|mask|0|0|0|typedef
1|blksize|4|0|0|typedef
2|(anon)|8|0|0|union
3|mode|16|0|0|enum
4|bits|20|0|0|struct
5|times|24|0|0|array
6|nr_extra|56|0|0|typedef
7|extra|60|0|0|array" "$t fx_stat members"
	anon_union=$(q "$db" "SELECT m.member_type FROM types t JOIN members m ON m.type_id=t.id WHERE t.name='fx_stat' AND m.idx=2")
	is "$(q "$db" "SELECT kind, ifnull(name,'-'), size FROM types WHERE id=$anon_union")" "union|-|8" \
		"$t anonymous union kept as its own node"
	is "$(q "$db" "SELECT group_concat(d, ' ') FROM (SELECT ifnull(m.name,'(anon)') || '@' || m.offset AS d FROM members m WHERE m.type_id=$anon_union ORDER BY idx)")" \
		"ino@0 (anon)@0" "$t anonymous union members"
	is "$(q "$db" "SELECT group_concat(d, ' ') FROM (SELECT m.name || '@' || m.offset AS d FROM members m WHERE m.type_id=(SELECT member_type FROM members WHERE type_id=$anon_union AND idx=1) ORDER BY m.idx)")" \
		"ino_lo@0 ino_hi@4" "$t anonymous struct inside it (offsets relative)"
	is "$(layout fx_bits struct)" \
"0|ready|0|0|1|base
1|kind|0|1|3|base
2|level|0|4|4|base
3|prio|0|8|4|base
4|tag|2|0|0|base" "$t bitfields: storage unit, bit position, width"
	is "$(q "$db" "SELECT a.count, a.size FROM types t JOIN members m ON m.type_id=t.id JOIN types a ON a.id=m.member_type WHERE t.name='fx_stat' AND m.name='extra'")" \
		"-1|0" "$t flexible array member []"
	is "$(q "$db" "SELECT a.count, a.size FROM types t JOIN members m ON m.type_id=t.id JOIN types a ON a.id=m.member_type WHERE t.name='fx_legacy' AND m.name='name'")" \
		"0|0" "$t zero-length array [0]"
	is "$(q "$db" "SELECT a.count, a.size FROM types t JOIN members m ON m.type_id=t.id JOIN types a ON a.id=m.member_type WHERE t.name='fx_stat' AND m.name='times'")" \
		"4|32" "$t fixed array bound and size"
	is "$(q "$db" "SELECT group_concat(d, ' ') FROM (SELECT e.name || '=' || e.value AS d FROM types t JOIN enumerators e ON e.type_id=t.id WHERE t.name='fx_mode' ORDER BY e.idx)")" \
		"FX_MODE_OFF=0 FX_MODE_ON=1 FX_MODE_AUTO=2" "$t enumerators"
	is "$(q "$db" "SELECT p.ref = t.id FROM types t JOIN members m ON m.type_id=t.id JOIN types p ON p.id=m.member_type WHERE t.name='fx_node' AND m.name='next'")" \
		"1" "$t self-referencing pointer points at its struct"
	is "$(q "$db" "SELECT count(*) - count(DISTINCT hash) FROM types")" "0" "$t every type row is unique"
	is "$(q "$db" "SELECT count(*) FROM types WHERE kind='struct' AND name='open_how'")" "1" "$t open_how stored once"
	is "$(q "$db" "SELECT decl_line FROM types WHERE kind='struct' AND name='fx_stat'")" "59" "$t declaration line"
	q "$db" "SELECT decl_file FROM types WHERE kind='struct' AND name='fx_stat'" | grep -q 'fixtures/kernel.c$'
	ok $? "$t declaration file"
	is "$(q "$db" "SELECT count(*) FROM problems")" "0" "$t no problems"
done

db2=$(fixture_db v2 -DKABI_V2)
is "$(q "$db2" "SELECT nr || ':' || ifnull(name,'-') FROM syscalls WHERE abi='x64' AND nr >= 6 ORDER BY nr" | tr '\n' ' ')" \
	"6:- 7:openat2 8:fxnew " "v2: renumbered and added syscalls"
is "$(q "$db2" "SELECT m.offset || ':' || m.bit_offset || ':' || m.bit_size FROM types t JOIN members m ON m.type_id=t.id WHERE t.name='fx_bits' AND m.name='prio'")" \
	"0:8:5" "v2: widened bitfield"
is "$(q "$db2" "SELECT size FROM types WHERE name='open_how'")" "32" "v2: open_how grew"
done_testing
