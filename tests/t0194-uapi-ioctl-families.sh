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
done_testing
