#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A .kabi is data, not code (issue 12): a view in place of a table (a
# recursive one hung every reader), a trigger (one rewrote meta.release
# during `spec load`), a table re-created without its NOT NULLs, an extra
# index, NULLs written past the schema: every reader (show, diff, check,
# probe --list, spec load) refuses each in one line, within seconds, and
# leaves the file as it was. A WAL-mode input is read without creating
# -wal or -shm beside it, and refused while its -wal holds changes.
. "$KD_SRCDIR/lib.sh"

good=$(fixture_db v1-dwarf5 -gdwarf-5)
scratch hostile-kabi
mkdir -p spec && printf 'flags one_flags {\n\tA = 1;\n}\n' > spec/one.kabispec

# refused FILE DESCRIPTION MESSAGE: every reader refuses FILE with MESSAGE, in one
# line, exit 1, nothing on stdout, and FILE is left byte for byte as it was.
refused() {
	sum=$(cksum < "$1")
	for cmd in "show $1 info" "show $1 syscalls" "show $1 struct open_how" "diff $good $1" \
		   "diff $1 $good" "check $1" "probe $1 --list" "spec load $1 spec"; do
		label=$(echo "$cmd" | sed "s|$good|GOOD|")
		# shellcheck disable=SC2086
		timeout 20 "$KABI_DIFF" $cmd > out.txt 2> err.txt
		is "$?|$(cat err.txt)|$(wc -c < out.txt)" "1|kabi-diff: $1: $3|0" "$2: '$label' refuses it"
	done
	is "$(cksum < "$1")" "$sum" "$2: the file is untouched"
}

cp "$good" view.kabi
q view.kabi "DROP TABLE syscalls; CREATE VIEW syscalls AS WITH RECURSIVE r(x) AS
	(SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT 'x64' AS abi, x AS nr, 'a' AS name,
	NULL AS entry, NULL AS func_id, 1 AS implemented FROM r"
refused view.kabi "a recursive view for a table" \
	"not a kabi-diff schema: view syscalls is not one this kabi-diff writes; re-extract the kernel"

cp "$good" trigger.kabi
q trigger.kabi "CREATE TRIGGER rewrite AFTER INSERT ON spec_files BEGIN
	UPDATE meta SET value = 'pwned' WHERE key = 'release'; END"
refused trigger.kabi "a trigger" \
	"not a kabi-diff schema: trigger rewrite is not one this kabi-diff writes; re-extract the kernel"
is "$(q trigger.kabi "SELECT value FROM meta WHERE key = 'release'")" "6.99.1-fixture" \
	"a trigger: spec load ran none"

cp "$good" nulls.kabi
q nulls.kabi "CREATE TABLE t2 AS SELECT * FROM types; DROP TABLE types; ALTER TABLE t2 RENAME TO types;
	UPDATE types SET hash = NULL"
refused nulls.kabi "types without NOT NULL, hash NULL" \
	"not a kabi-diff schema: table types is not one this kabi-diff writes; re-extract the kernel"

cp "$good" index.kabi
q index.kabi "CREATE INDEX extra ON types(kind)"
refused index.kabi "an extra index" \
	"not a kabi-diff schema: index extra is not one this kabi-diff writes; re-extract the kernel"

# NULLs where the stored schema says NOT NULL (written with writable_schema).
cp "$good" past.kabi
q past.kabi "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql =
	replace(sql, 'abi TEXT NOT NULL', 'abi TEXT') WHERE name = 'syscalls'"
q past.kabi "UPDATE syscalls SET abi = NULL"
q past.kabi "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql =
	replace(sql, 'abi TEXT,', 'abi TEXT NOT NULL,') WHERE name = 'syscalls'"
is "$(q past.kabi "SELECT count(*) FROM sqlite_master WHERE name = 'syscalls' AND sql LIKE '%abi TEXT NOT NULL%'")" 1 \
	"NULLs past the schema: the stored schema is the original again"
refused past.kabi "NULLs past the schema" \
	"damaged database (NULL value in syscalls.abi); re-extract the kernel"

# A file without the contract and probe tables (written before they existed) still reads.
cp "$good" older.kabi
q older.kabi "$(q older.kabi "SELECT 'DROP TABLE ' || name || ';' FROM sqlite_master
	WHERE type = 'table' AND (name LIKE 'spec%' OR name LIKE 'probe%')")"
"$KABI_DIFF" show older.kabi info > out.txt
is "$?|$(grep -c '^release *6.99.1-fixture' out.txt)" "0|1" "without the optional tables: show reads it"
"$KABI_DIFF" spec load older.kabi spec > /dev/null
is "$?" 0 "without the optional tables: spec load adds them"

# --- WAL mode ---------------------------------------------------------------------
cp "$good" wal.kabi
q wal.kabi "PRAGMA journal_mode = WAL" > /dev/null
"$KABI_DIFF" show wal.kabi syscalls > out.txt
is "$?|$(ls wal.kabi-* 2>/dev/null)" "0|" "a WAL-mode file: show reads it, no -wal or -shm created"
"$KABI_DIFF" show "$good" syscalls > want.txt
is "$(cat out.txt)" "$(cat want.txt)" "  and reads it all"
"$KABI_DIFF" diff wal.kabi "$good" > /dev/null
is "$?|$(ls wal.kabi-* 2>/dev/null)" "0|" "  diff neither"
# A -wal holding a change (copied while the writer had it open).
sqlite3 -batch wal.kabi "INSERT INTO meta VALUES ('late', 'x');" ".shell cp wal.kabi-wal held-wal" > /dev/null
mv held-wal wal.kabi-wal
"$KABI_DIFF" show wal.kabi info > out.txt 2> err.txt
is "$?|$(cat err.txt)" "1|kabi-diff: wal.kabi: a WAL-mode database with changes in wal.kabi-wal; checkpoint it first (sqlite3 wal.kabi 'PRAGMA wal_checkpoint')" \
	"a WAL-mode file with changes in its -wal: refused, not read without them"
done_testing
