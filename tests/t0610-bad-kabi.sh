#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Readers of .kabi files (show, diff) on files that are not what they
# should be: another schema version, a SQLite file of another program, not
# SQLite, empty, truncated, a damaged page in the middle. Each: one line
# naming the file and the cause, exit 1, nothing printed on stdout first.
. "$KD_SRCDIR/lib.sh"

good=$(fixture_db v1-dwarf5 -gdwarf-5)
scratch bad-kabi

# refused FILE DESCRIPTION MESSAGE_PATTERN: every reader refuses it.
refused() {
	for cmd in "show $1 info" "show $1 syscalls" "show $1 struct open_how" "show $1 problems" \
		   "diff $good $1" "diff $1 $good"; do
		label=$(echo "$cmd" | sed "s|$good|GOOD|")
		want=$3
		# diff also takes vmlinux images: a file neither SQLite nor ELF is "not an ELF file".
		case "$cmd" in diff*) want="($3|not an ELF file)" ;; esac
		# shellcheck disable=SC2086
		"$KABI_DIFF" $cmd > out.txt 2> err.txt
		rc=$?
		is "$rc|$(wc -l < err.txt)|$(wc -c < out.txt)" "1|1|0" \
			"$2: '$label' exits 1 with one line and no output" || sed 's/^/#   /' err.txt
		grep -Eq "^kabi-diff: $1: $want" err.txt
		ok $? "$2: '$label' says why" || sed 's/^/#   /' err.txt
	done
}

cp "$good" v99.kabi && sqlite3 v99.kabi 'PRAGMA user_version = 99'
refused v99.kabi "schema version 99" "schema version 99, this kabi-diff reads 10; re-extract the kernel"

sqlite3 other.kabi 'CREATE TABLE x(a); INSERT INTO x VALUES (1)'
refused other.kabi "another program's SQLite file" "schema version 0"

echo "not a database" > text.kabi
refused text.kabi "not SQLite" "not a \.kabi database \(not SQLite\)"

: > empty.kabi
refused empty.kabi "empty file" "not a \.kabi database"

# A copy with 512-byte pages, so that the damage below lands inside the tables.
cp "$good" small.kabi && sqlite3 small.kabi 'PRAGMA page_size = 512; VACUUM'
pages=$(sqlite3 small.kabi 'PRAGMA page_count')
head -c $((512 * pages / 2)) small.kabi > half.kabi
refused half.kabi "truncated to half" "(not a readable database|damaged database)"

# Overwrite one page in the middle of the file with garbage (deterministic).
awk 'BEGIN { for (i = 0; i < 512; i++) printf "%c", (i * 37 + 11) % 256 }' > garbage
for p in 2 $((pages / 2)) $((pages - 1)); do
	cp small.kabi "page$p.kabi"
	dd if=garbage of="page$p.kabi" bs=512 seek=$((p - 1)) count=1 conv=notrunc 2>/dev/null
	refused "page$p.kabi" "page $p of $pages damaged" "(not a readable database|damaged database|reading)"
done

# The good file still reads, in its small-page copy too.
"$KABI_DIFF" show small.kabi info > /dev/null
is "$?" "0" "the undamaged copy reads"
done_testing
