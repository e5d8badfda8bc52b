#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A syscall whose code has no DWARF (tests/fixtures/meta.c, built without
# -g): its signature comes from the ftrace metadata strings, and the
# extern prototype other code sees is not mistaken for a definition.
# Also: an empty table slot between entries is kept, not skipped.
. "$KD_SRCDIR/lib.sh"

meta=$KD_TMPDIR/meta.o
gcc -O2 -ffreestanding -c "$KD_SRCDIR/fixtures/meta.c" -o "$meta"
k=$KD_TMPDIR/kernel-meta
"$KD_SRCDIR/fixtures/build-kernel.sh" "$k" -DKABI_META "$meta"
db=$KD_TMPDIR/meta.kabi
"$KABI_DIFF" extract -q "$k" -o "$db"
is "$?" "0" "extract"
is "$(q "$db" "SELECT s.nr, s.name, f.source FROM syscalls s JOIN functions f ON f.id = s.func_id WHERE s.name = 'metaonly'")" \
	"9|metaonly|metadata" "signature from metadata"
is "$(q "$db" "SELECT group_concat(d, ', ') FROM (SELECT p.type_text || ' ' || p.name || ' ' || ifnull(p.type_id, 'NULL') AS d
	FROM params p JOIN functions f ON f.id = p.func_id WHERE f.name = 'sys_metaonly' ORDER BY p.pos)")" \
	"unsigned int fd NULL, const char * name NULL" "parameters as the metadata spells them, no type rows"
is "$(q "$db" "SELECT nr || ':' || ifnull(entry, '-') || ':' || implemented FROM syscalls WHERE abi = 'x64' AND nr = 8")" \
	"8:-:0" "an empty slot is kept as not implemented"
is "$(q "$db" "SELECT count(*) FROM problems")" "0" "no problems"
is "$("$KABI_DIFF" show "$db" syscalls --abi x64 | grep metaonly)" \
	"x64      9  metaonly                 long sys_metaonly(unsigned int fd, const char *name)" "show prints it"
done_testing
