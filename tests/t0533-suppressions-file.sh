#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The suppressions file (-s; kabi-gate's .kabi-suppressions, committed in
# the merge request it gates) is read as the spec reader reads its files
# (issue 25, R32): a regular file of at most 1 MiB. A link to /dev/zero
# grew one line until memory ran out and the failed read counted as an
# empty file (exit 12, no message); a FIFO hung the run. Each is now one
# error naming the file, exit 1, within seconds; a NUL byte is an error
# naming its line, and a line of another file a link names is not quoted.
. "$KD_SRCDIR/lib.sh"

old=$(fixture_db v1-dwarf5 -gdwarf-5) && new=$(fixture_db v2-dwarf5 -gdwarf-5 -DKABI_V2) ||
	{ ok 1 "the fixture pair"; done_testing; }
scratch suppressions-file

# run FILE: the diff with -s FILE; "EXIT|stderr".
run() {
	timeout 20 "$KABI_DIFF" diff "$old" "$new" -q -s "$1" >out.txt 2>err.txt
	echo "$?|$(cat err.txt)"
}

printf 'syscall-renumbered openat2 moved on purpose\n' >ok.supp
is "$(run ok.supp)" "12|" "a regular file: read, the diff runs (exit 12)"
ln -s /dev/zero zero.supp
is "$(run zero.supp)" "1|kabi-diff: zero.supp: cannot read: not a regular file" \
	"a link to /dev/zero: refused unread, exit 1"
mkfifo fifo.supp
is "$(run fifo.supp)" "1|kabi-diff: fifo.supp: cannot read: not a regular file" \
	"a FIFO: refused, no hang"
mkdir dir.supp
is "$(run dir.supp)" "1|kabi-diff: dir.supp: cannot read: not a regular file" "a directory: refused"
is "$(run missing.supp)" "1|kabi-diff: missing.supp: cannot read: No such file or directory" \
	"a missing file: its errno"

# 1 MiB exactly is read (comment lines), one byte more is refused.
awk 'BEGIN { while (n < 1048576 - 64) { print "# reviewed"; n += 11 } }' >big.supp
pad=$((1048576 - $(wc -c <big.supp) - 2))
printf "#%${pad}s\n" '' | tr ' ' x >>big.supp
is "$(wc -c <big.supp)" 1048576 "  a file of 1 MiB"
is "$(run big.supp)" "12|" "1 MiB exactly: read (comments only: exit 12, as without)"
printf 'x' >>big.supp
is "$(run big.supp)" "1|kabi-diff: big.supp: cannot read: larger than 1024 KiB, the limit of a suppressions file" \
	"1 MiB + 1 byte: refused"

printf 'syscall-renumbered openat2 moved\nmember-moved \000 x y\n' >nul.supp
is "$(run nul.supp)" "1|kabi-diff: nul.supp:2: a NUL byte: not a text file" \
	"a NUL byte: an error naming its line, not a shorter file"

# A link to a file outside: its first word is not quoted back.
printf 'root:x:0:0:root:/root:/bin/sh x y\n' >secret
ln -s "$PWD/secret" leak.supp
is "$(run leak.supp)" "1|kabi-diff: leak.supp:1: not a rule id (see diff/RULES.md)" \
	"a word that cannot be a rule id: not quoted"
printf 'no-such-rule x y\n' >typo.supp
is "$(run typo.supp)" "1|kabi-diff: typo.supp:1: unknown rule 'no-such-rule' (see diff/RULES.md)" \
	"  a mistyped rule id still is"
done_testing
