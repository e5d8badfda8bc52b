#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The UAPI compile cache per header (compile-cache-unit.c, issue 24): a
# tree that differs from a cached one in a few headers compiles exactly
# those and the headers that include them (meta uapi_units), the others
# are taken from their unit entries; the result is the one an uncached
# compile gives; a cached failure stays that failure; a unit entry that is
# not a regular file, or whose object is another's, is a miss.
. "$KD_SRCDIR/lib.sh"

export XDG_CACHE_HOME=$PWD/cache
units=$XDG_CACHE_HOME/kabi-diff/uapi/units

# mk DIR: five roots: a.h includes b.h, c.h alone, bad.h fails, asm/types.h.
mk() {
	mkdir -p "$1/linux" "$1/asm"
	printf '#define ASMX 2\n' >"$1/asm/types.h"
	printf '#include <linux/b.h>\nstruct sa { struct sb b; int a; };\n' >"$1/linux/a.h"
	printf 'struct sb { int x; };\n' >"$1/linux/b.h"
	printf 'struct sc { int c; };\n' >"$1/linux/c.h"
	printf '#error no such ABI\n' >"$1/linux/bad.h"
}
# ex TREE NAME: extract; the exit status, uapi_compiled and uapi_units.
ex() {
	timeout 120 "$KABI_DIFF" extract -q --uapi "$1" -o "$2.kabi"
	echo "$?|$(q "$2.kabi" "SELECT value FROM meta WHERE key = 'uapi_compiled'")|$(
		q "$2.kabi" "SELECT value FROM meta WHERE key = 'uapi_units'")"
}
size() {
	q "$1.kabi" "SELECT group_concat(DISTINCT size) FROM types WHERE name = '$2' AND kind = 'struct'"
}
# tables NAME: the header view's rows, for comparing a cached result with an uncached one.
tables() {
	q "$1.kabi" "SELECT name, kind, size FROM types ORDER BY 1, 2, 3;
		SELECT location, message FROM problems ORDER BY 1, 2"
}

mk t1
cp -r t1 t2 && printf 'struct sb { long x; };\n' >t2/linux/b.h
cp -r t1 t3 && printf 'struct sc { long c; };\n' >t3/linux/c.h
cp -r t1 t4 && printf 'struct sc { long c; };\n#error gone\n' >t4/linux/c.h

is "$(ex t1 t1)" "0|4 of 5|5 compiled, 0 cached" "cold: every header compiled"
is "$(ls "$units" | grep -c '\.idx$')" 5 "  five unit entries, the failure's too"
is "$(ex t2 t2)|$(size t2 sa)" "0|4 of 5|2 compiled, 3 cached|16" \
	"linux/b.h changed: b.h and a.h, which includes it, compiled; the other 3 cached"
is "$(ex t3 t3)|$(size t3 sc)" "0|4 of 5|1 compiled, 4 cached|8" \
	"linux/c.h changed from t1: only c.h (a.h and b.h: t1's recorded set)"
is "$(q t3.kabi "SELECT location FROM problems WHERE message LIKE 'does not compile%'")" \
	"linux/bad.h" "  the cached failure stays a failure"
is "$(q t3.kabi "SELECT message FROM problems WHERE location = 'linux/bad.h'")" \
	"does not compile on its own, so its types have no header view: linux/bad.h:1:2: error: #error no such ABI" \
	"  with its message"
is "$(ex t4 t4)" "0|3 of 5|1 compiled, 4 cached" "c.h stops compiling: a failure, compiled"
is "$(ex t4 t4b)" "0|3 of 5 (cached)|" "  again: the tree's entry"

# The same result as an uncached compile.
XDG_CACHE_HOME=$PWD/nocache timeout 120 "$KABI_DIFF" extract -q --uapi t2 -o t2u.kabi
rm -f "$XDG_CACHE_HOME"/kabi-diff/uapi/*.idx
is "$(ex t2 t2c)" "0|4 of 5|0 compiled, 5 cached" "t2 without its tree entry: all from units"
tables t2u >want && tables t2c >got
same_rows want got 5 "  the same types and problems as t2 compiled without a cache"

# Hostile unit entries: a miss, never a hang or another header's object.
rm -f "$XDG_CACHE_HOME"/kabi-diff/uapi/*.idx
for f in "$units"/*.idx; do rm -f "$f" && mkfifo "$f"; done
is "$(ex t2 t2f)" "0|4 of 5|5 compiled, 0 cached" "unit indexes that are FIFOs: misses, compiled"
rm -f "$XDG_CACHE_HOME"/kabi-diff/uapi/*.idx
for f in "$units"/*.o; do : >"$f"; done
is "$(ex t1 t1o)" "0|4 of 5|4 compiled, 1 cached" \
	"unit objects emptied: misses (only the failure, which has no object, cached)"
rm -f "$XDG_CACHE_HOME"/kabi-diff/uapi/*.idx
for f in "$units"/*.o; do rm -f "$f" && ln -s /dev/zero "$f"; done
is "$(ex t1 t1z)" "0|4 of 5|4 compiled, 1 cached" "unit objects linked to /dev/zero: misses"

# cache list counts the units as one entry, and prune --all removes it.
"$KABI_DIFF" cache list >list.txt
is "$(grep -c ' compiled units   uapi/units$' list.txt)" 1 "cache list: the units are one entry, 'compiled units'"
"$KABI_DIFF" cache prune --all >prune.txt
[ ! -e "$units" ]
ok $? "  prune --all removes them"
done_testing
