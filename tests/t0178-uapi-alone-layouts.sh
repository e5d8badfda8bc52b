#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Every header's layouts are what it gives alone (extract/uapi/
# compile-alone.c: a translation unit per header), not what the headers
# before it in a compiler run leave behind without an error: a
# `#pragma pack(1)` never popped (linux/a.h), a `#define int long`
# (linux/c.h) and a macro another header's #ifndef answers (linux/e.h)
# changed, in one shared unit, the layouts of linux/b.h, linux/d.h and
# linux/f.h. Each is stored as gcc gives it for the header alone, for runs
# of 1 and of 64 units alike; and a diff that drops packed from struct
# b_t (5 -> 8 bytes) while linux/a.h gains the pragma reports the growth
# as breaking (it said "No changes", exit 0: redteam R39).
. "$KD_SRCDIR/lib.sh"

KABI_DIFF_NO_UAPI_CACHE=1
export KABI_DIFF_NO_UAPI_CACHE
for side in old new; do
	mkdir -p $side/linux $side/asm
	echo '#define KX_ARCH 1' >$side/asm/kxarch.h
	cat >$side/linux/c.h <<'EOF'
#define int long
EOF
	cat >$side/linux/d.h <<'EOF'
struct d_t { char c; int x; };
EOF
	cat >$side/linux/e.h <<'EOF'
#define F_NAME_LEN 64
EOF
	cat >$side/linux/f.h <<'EOF'
#ifndef F_NAME_LEN
#define F_NAME_LEN 4
#endif
struct f_t { char name[F_NAME_LEN]; };
EOF
done
printf 'struct a_t { int q; };\n' >old/linux/a.h
printf 'struct b_t { char c; int x; } __attribute__((packed));\n' >old/linux/b.h
printf 'struct a_t { int q; };\n#pragma pack(1)\n' >new/linux/a.h
printf 'struct b_t { char c; int x; };\n' >new/linux/b.h

layouts() {
	q "$1" "SELECT t.name || ' ' || t.size || ' ' || group_concat(m.name || ':' || m.offset || ':' || ifnull(mt.name, '-'), ' ')
		FROM uapi_types u JOIN types t ON t.id = u.type_id JOIN members m ON m.type_id = t.id
		JOIN types mt ON mt.id = m.member_type WHERE t.kind = 'struct' GROUP BY t.id ORDER BY t.name"
}
want="a_t 4 q:0:int
b_t 8 c:0:char x:4:int
d_t 8 c:0:char x:4:int
f_t 4 name:0:-"
for n in 1 64; do
	KABI_DIFF_UAPI_BATCH=$n "$KABI_DIFF" extract -q --uapi new -o new$n.kabi 2>err$n.txt
	is "$?" 0 "runs of $n units: exit 0"
	is "$(layouts new$n.kabi)" "$want" \
		"  b_t, d_t and f_t as each header gives them alone (no pack, no int -> long, F_NAME_LEN 4)"
	is "$(q new$n.kabi "SELECT value FROM meta WHERE key = 'uapi_compiled'")" "7 of 7" "  every header compiled"
done

"$KABI_DIFF" diff -q old new --no-spec >out.txt
is "$?" 12 "diff: b_t dropping packed (5 -> 8 bytes) is breaking, whatever a.h's pragma does (exit 12)"
grep -q 'struct b_t' out.txt
ok $? "  the report names struct b_t"
done_testing
