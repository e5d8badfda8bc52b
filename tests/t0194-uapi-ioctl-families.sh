#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Ioctl families (issue 24): function-like ioctl macros, EVIOCGNAME(len)
# style, recorded with each field a value or the formula of the
# parameters, and compared between two header trees: a family removed and
# a formula changed are breaking, one added compatible; the same macro
# spaced otherwise, and one unchanged, are no change; a function-like macro
# that is no ioctl is no family.
. "$KD_SRCDIR/lib.sh"

fx=$KD_SRCDIR/fixtures/families
export XDG_CACHE_HOME=$PWD/cache
header_tree v1 "$fx/v1.h" linux/fxf.h
header_tree v2 "$fx/v2.h" linux/fxf.h

"$KABI_DIFF" extract -q --uapi v1 -o v1.kabi
is "$?" 0 "extract --uapi: a tree with function-like ioctl macros"
is "$(q v1.kabi "SELECT name || '(' || params || ') ' || dir || ' ' || type || ' ' || nr || ' ' || size || ' ' || file || ':' || line
	FROM ioctl_families ORDER BY name")" \
"FXF_IOC_GABS(abs) r 70 0x40 + ( abs ) 24 linux/fxf.h:13
FXF_IOC_GBIT(ev,len) r 70 0x20 + ( ev ) len linux/fxf.h:14
FXF_IOC_GNAME(len) r 70 6 len linux/fxf.h:12
FXF_IOC_GONE(len) r 70 7 len linux/fxf.h:15
FXF_IOC_NR(n) none 70 n 0 linux/fxf.h:17
FXF_IOC_SPACED(len) w 70 8 len linux/fxf.h:16" \
	"each family: its parameters, the values, the formulas (the type's size for _IOR)"
is "$(q v1.kabi "SELECT count(*) FROM ioctl_families WHERE name = 'FXF_NOT_AN_IOCTL'"):$(q v1.kabi "SELECT count(*) FROM ioctls")" \
	"0:0" "  a function-like macro that is no ioctl is no family; no object-like ioctl rows"

is "$("$KABI_DIFF" show v1.kabi info | grep '^ioctl_families')" "ioctl_families  6" "  show info counts them"
"$KABI_DIFF" v1 v2 -f json >d.json 2>err.txt
is "$?" 12 "diff of the two trees: breaking (exit 12)"
is "$(jq -r '.changes[] | select(.kind | startswith("ioctl.family")) | "\(.kind) \(.subject) \(.verdict) \(.old // "-") -> \(.new // "-")"' d.json)" \
"ioctl.family.changed FXF_IOC_GABS(abs) breaking _IOC(r, 70, 0x40 + ( abs ), 24) -> _IOC(r, 70, 0x41 + ( abs ), 24)
ioctl.family.removed FXF_IOC_GONE(len) breaking _IOC(r, 70, 7, len) -> -
ioctl.family.added FXF_IOC_NEW(len) compatible - -> _IOC(rw, 70, 9, len)" \
	"  a formula changed and a family removed are breaking, one added compatible; the rest no change"
is "$(jq -r '.changes[] | select(.subject == "FXF_IOC_GABS(abs)") | .evidence.text' d.json)" \
	"linux/fxf.h:13 defines FXF_IOC_GABS(abs) as _IOC(r, 70, 0x40 + ( abs ), 24); linux/fxf.h:13 as _IOC(r, 70, 0x41 + ( abs ), 24)" \
	"  the evidence names both formulas and where each is defined"
"$KABI_DIFF" v2 v1 -f json >r.json 2>/dev/null
is "$(jq -r '[.changes[] | select(.kind | startswith("ioctl.family")) | "\(.kind) \(.subject)"] | join(", ")' r.json)" \
	"ioctl.family.changed FXF_IOC_GABS(abs), ioctl.family.removed FXF_IOC_NEW(len), ioctl.family.added FXF_IOC_GONE(len)" \
	"  the other way round: the added one removed, the removed one added"
"$KABI_DIFF" v1 v1 -f json >s.json 2>/dev/null
is "$?:$(jq '.changes | length' s.json)" "0:0" "a tree against itself: no change, exit 0"

# show: a family as its formula, and as the command a program computes.
is "$("$KABI_DIFF" show v1.kabi ioctl FXF_IOC_GNAME)" "ioctl family FXF_IOC_GNAME(len): _IOC(r, 70, 6, len)
  defined at linux/fxf.h:12
  its commands: show K.kabi ioctl 'FXF_IOC_GNAME(NUMBER...)'" "show ioctl NAME: a family's formula"
is "$("$KABI_DIFF" show v1.kabi ioctls | grep -c '^family ')" 6 "  show ioctls lists the 6 families"
cat >oracle.c <<'EOC'
#include <stdio.h>
#include <linux/fxf.h>
int main(void)
{
	printf("%08x %08x %08x %08x\n", (unsigned)FXF_IOC_GNAME(64), (unsigned)FXF_IOC_GABS(3),
	       (unsigned)FXF_IOC_GBIT(2, 16), (unsigned)FXF_IOC_NR(5));
	printf("%08x\n", (unsigned)FXF_IOC_GBIT(FXF_EV_KEY, 16));
	return 0;
}
EOC
gcc -I v1 oracle.c -o oracle && ./oracle >gcc.txt
ok $? "gcc computes the commands from the same header"
for call in 'FXF_IOC_GNAME(64)' 'FXF_IOC_GABS(3)' 'FXF_IOC_GBIT(2, 16)' 'FXF_IOC_NR(5)'; do
	"$KABI_DIFF" show v1.kabi ioctl "$call" | sed -n '1s/^ioctl .*: 0x//p'
done | tr '\n' ' ' >show.txt
is "$(cat show.txt)" "$(head -1 gcc.txt) " "  show ioctl 'NAME(ARGS)': gcc's command numbers"
is "$("$KABI_DIFF" show v1.kabi ioctl 'FXF_IOC_GBIT(FXF_EV_KEY, 16)' | sed -n '1s/^ioctl .*: 0x//p')" \
	"$(sed -n 2p gcc.txt)" "  an argument named by a constant of the .kabi, as a program writes it"
"$KABI_DIFF" show v1.kabi ioctl 'FXF_IOC_GBIT(FXF_EV_NONE, 16)' >/dev/null 2>err.txt
is "$?:$(cat err.txt)" "1:kabi-diff: FXF_IOC_GBIT(FXF_EV_NONE, 16): FXF_EV_NONE is neither a number nor a constant of the .kabi" \
	"  a name the .kabi does not hold: one line naming it, exit 1"
"$KABI_DIFF" show v1.kabi ioctl 'FXF_IOC_GNAME(64' >/dev/null 2>err.txt
is "$?:$(cat err.txt)" "1:kabi-diff: FXF_IOC_GNAME(64: not a call of an ioctl family with numbers or constants, as 'EVIOCGNAME(64)'" \
	"  a call that is not one: one line, exit 1"
is "$("$KABI_DIFF" show v1.kabi ioctl FXF_IOC_GABS -f json | jq -c '.[0] | [.name, .family, .dir, .type, .nr, .size, .line]')" \
	'["FXF_IOC_GABS","abs","r","70","0x40 + ( abs )","24",13]' "  --format json: a family's fields as strings, its parameters as \"family\""
is "$("$KABI_DIFF" show v1.kabi ioctls -f json | jq '[.[] | select(.family)] | length')" 6 "  and in the ioctls list"
done_testing
