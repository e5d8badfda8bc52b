#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Hostile inputs that once wrote out of bounds or overflowed the stack
# (issue 12): a DW_AT_bit_offset or member location that puts a member
# outside its struct, the same offsets (and 2^61 - 8) stored in a .kabi and
# diffed (negative ones refused: the diff took -24 for 0), a base type named "", a spec expression of 150,000 terms (in a
# spec directory and stored in a .kabi), and 30,000-deep parentheses,
# unary chains and 15,000 nested ?: in UAPI headers. Each: a problem row or a one-line
# error naming the limit, exact results for the rest. Under `make asan`
# the old code fails these with ASan/UBSan reports.
. "$KD_SRCDIR/lib.sh"

k4=$(fixture_kernel v1-dwarf4 -gdwarf-4)
scratch hostile-mem

. "$KD_SRCDIR/dwarf-poke.sh"
fx_bits() {
	q "$1" "SELECT m.name || ':' || m.offset || ':' || m.bit_offset || ':' || m.bit_size
		FROM members m JOIN types t ON t.id = m.type_id WHERE t.name = 'fx_bits' ORDER BY m.idx"
}

"$KABI_DIFF" extract -q "$k4" -o good.kabi || exit 1

# --- DWARF: a bitfield and a member outside their struct -------------------
# poked NAME MEMBER ATTR VALUE WHAT: the fixture with the (one-byte) ATTR of
# MEMBER set to VALUE, extracted to NAME.kabi, which must succeed.
poked() {
	cp "$k4" "$1"
	poke_attr "$1" "$2" "$3" "$4"
	"$KABI_DIFF" extract -q "$1" -o "$1.kabi"
	is "$?" 0 "$5: extract succeeds"
}
# DW_AT_bit_offset 31 -> 250 (data1): 32 - 250 - 1 bits from the unit's start.
poked bitoff ready DW_AT_bit_offset 250 "DW_AT_bit_offset 250"
is "$(q bitoff.kabi "SELECT message FROM problems")" \
	"bitfield ready (byte 0, DW_AT_bit_offset 250, 1 bits wide) lies outside its struct; left out" \
	"DW_AT_bit_offset 250: a problem row names the member and the value"
is "$(fx_bits bitoff.kabi | tr '\n' ' ')" "kind:0:1:3 level:0:4:4 prio:0:8:4 tag:2:0:0 " \
	"DW_AT_bit_offset 250: the member is left out, the others exact"
"$KABI_DIFF" diff good.kabi bitoff.kabi > out.txt 2> err.txt
is "$?|$(grep -c 'struct fx_bits.ready: unsigned int ready:1 at bit 0 -> (none)  \[member-removed\]' out.txt)|$(cat err.txt)" \
	"12|1|" "DW_AT_bit_offset 250: diff reports the member gone (exit 12)"
"$KABI_DIFF" diff bitoff.kabi good.kabi > out.txt 2> err.txt
is "$?|$(cat err.txt)" "12|" "DW_AT_bit_offset 250: diff the other way (exit 12)"

# DW_AT_data_member_location 2 -> 200 of fx_bits.tag (a 4-byte struct).
poked memloc tag DW_AT_data_member_location 200 "member location 200 in a 4-byte struct"
is "$(q memloc.kabi "SELECT message FROM problems")" \
	"member tag of struct fx_bits at byte 200 lies outside its 4 bytes; left out" \
	"member location 200: a problem row"
is "$(fx_bits memloc.kabi | tr '\n' ' ')" "ready:0:0:1 kind:0:1:3 level:0:4:4 prio:0:8:4 " \
	"member location 200: left out, the bitfields exact"

# --- .kabi: offsets no extraction writes, diffed and shown -----------------
# (the type's hash changes too, or the diff rightly skips an identical layout)
crafted() {
	cp good.kabi "$1.kabi"
	q "$1.kabi" "UPDATE members SET $2 WHERE name = '$3' AND type_id =
		(SELECT id FROM types WHERE name = 'fx_bits');
		UPDATE types SET hash = hash + 1 WHERE name = 'fx_bits'"
}
crafted huge "offset = 2305843009213693944" tag
crafted hugebit "offset = 9223372036854775807, bit_offset = 2147483647, bit_size = 2147483647" kind
q huge.kabi "UPDATE types SET size = 9223372036854775807 WHERE name = 'fx_bits'"
for f in huge hugebit; do
	for pair in "good.kabi $f.kabi" "$f.kabi good.kabi"; do
		# shellcheck disable=SC2086
		"$KABI_DIFF" diff $pair > out.txt 2> err.txt
		rc=$?
		is "$(cat err.txt)" "" "$f: diff $pair: no error (exit $rc)"
	done
done
# Negative values: the diff clamps positions below 0 to 0, so ready at
# offset -24 (bit -27) once diffed as unchanged ("No changes", exit 0).
crafted negbit "offset = -24, bit_offset = -27" ready
crafted negsize "bit_size = -1" kind
q negsize.kabi "UPDATE types SET size = -4 WHERE name = 'fx_bits'"
crafted negalign "offset = 0" ready
q negalign.kabi "UPDATE types SET align = -8 WHERE name = 'fx_bits'"
crafted negcount "offset = 0" ready
q negcount.kabi "UPDATE types SET count = -2 WHERE kind = 'array'"
for f in negbit:members.offset negsize:members.bit_size negalign:types.align negcount:types.count; do
	col=${f#*:} f=${f%%:*}
	for cmd in "diff good.kabi $f.kabi" "diff $f.kabi good.kabi" "show $f.kabi struct fx_bits" "check $f.kabi"; do
		# shellcheck disable=SC2086
		"$KABI_DIFF" $cmd > out.txt 2> err.txt
		is "$?|$(cat err.txt)|$(wc -c < out.txt)" \
			"1|kabi-diff: $f.kabi: damaged database (negative value in $col); re-extract the kernel|0" \
			"a negative $col: '$cmd' refuses it in one line"
	done
done
q negsize.kabi "UPDATE members SET bit_size = 3 WHERE name = 'kind'"
"$KABI_DIFF" show negsize.kabi info > out.txt 2> err.txt
is "$?|$(cat err.txt)" "1|kabi-diff: negsize.kabi: damaged database (negative value in types.size); re-extract the kernel" \
	"a negative types.size: refused"
cp good.kabi flex.kabi
q flex.kabi "UPDATE types SET count = -1 WHERE kind = 'array'"
"$KABI_DIFF" show flex.kabi info > out.txt 2> err.txt
is "$?|$(cat err.txt)" "0|" "an array count of -1 (a flexible array) reads"

"$KABI_DIFF" diff good.kabi huge.kabi > out.txt
grep -q 'struct fx_bits.tag: 2 -> 2305843009213693944  \[member-moved\]' out.txt
ok $? "offset 2^61 - 8: diff names the stored offset"
"$KABI_DIFF" show huge.kabi struct fx_bits > out.txt 2> err.txt
is "$?|$(grep -c '2305843009213693944' out.txt)|$(cat err.txt)" "0|1|" "offset 2^61 - 8: show prints it"
"$KABI_DIFF" show hugebit.kabi struct fx_bits > out.txt 2> err.txt
is "$?|$(cat err.txt)" "0|" "offsets at INT64_MAX: show completes"

# --- a base type named "" ---------------------------------------------------
cp "$k4" noname
poke_byte noname $(($(sec_off "$k4" .debug_str) + $(strp_off "$k4" "long unsigned int"))) 0
"$KABI_DIFF" extract -q noname -o noname.kabi
"$KABI_DIFF" show noname.kabi syscalls > out.txt 2> err.txt
is "$?|$(grep ' read ' out.txt | sed 's/  */ /g')|$(cat err.txt)" \
	"0|x64 0 read long int sys_read(unsigned int fd, char *buf, count)|" \
	"a base type named \"\": show syscalls spells it empty"

# --- a spec expression of 150,000 terms -------------------------------------
mkdir -p deep
awk 'BEGIN { printf "flags deep_flags {\n\tA = 1"; for (i = 0; i < 150000; i++) printf " + 1"
	print ";\n}" }' > deep/deep.kabispec
"$KABI_DIFF" spec lint deep > out.txt 2> err.txt
is "$?|$(cat err.txt)" "1|kabi-diff: deep/deep.kabispec:2:1028: expression too deep (more than 256 operators on one path)
kabi-diff: deep: the spec has errors" "150,000 terms: spec lint names the limit"
"$KABI_DIFF" diff good.kabi good.kabi --old-spec deep --new-spec deep > /dev/null 2> err.txt
is "$?|$(sed -n 1p err.txt)" "1|kabi-diff: deep/deep.kabispec:2:1028: expression too deep (more than 256 operators on one path)" \
	"diff --old-spec with a chain of 150,000 terms: exit 1, the limit named"
awk 'BEGIN { printf "flags ok_flags {\n\tA = 1"; for (i = 0; i < 255; i++) printf " + 1"
	print ";\n}" }' > deep/deep.kabispec
"$KABI_DIFF" spec lint deep > /dev/null
is "$?" 0 "256 terms (255 operators) are fine"
mkdir -p one && printf 'flags one_flags {\n\tA = 1;\n}\n' > one/one.kabispec
"$KABI_DIFF" extract -q "$k4" --spec one -o spec.kabi || exit 1
awk 'BEGIN { printf "flags deep_flags {\n\tA = 1"; for (i = 0; i < 150000; i++) printf " + 1"
	print ";\n}" }' > deep.txt
q spec.kabi "UPDATE spec_files SET text = text || readfile('deep.txt')"
"$KABI_DIFF" check spec.kabi > out.txt 2> err.txt
is "$?|$(cat err.txt)" \
	"1|kabi-diff: one.kabispec:5:1028: expression too deep (more than 256 operators on one path)" \
	"150,000 terms stored in a .kabi: check names the limit"
"$KABI_DIFF" diff good.kabi spec.kabi > out.txt 2> err.txt
is "$?|$(cat err.txt)|$(wc -c < out.txt)" \
	"1|kabi-diff: one.kabispec:5:1028: expression too deep (more than 256 operators on one path)|0" \
	"150,000 terms stored in the new .kabi: diff names the limit, no report"
"$KABI_DIFF" probe spec.kabi --list > out.txt 2> err.txt
is "$?|$(wc -l < err.txt)" "1|1" "150,000 terms stored in a .kabi: probe --list fails in one line"

# --- UAPI: 30,000 levels of parentheses, unary operators and ?: ------------
header_tree --arch uapi
awk 'BEGIN {
	n = 30000
	printf "#define DEEP_PAREN "; for (i = 0; i < n; i++) printf "("; printf "1"
	for (i = 0; i < n; i++) printf ")"; print ""
	printf "#define DEEP_UNARY "; for (i = 0; i < n; i++) printf "- "; print "1"
	# 15,000: 60,000 tokens, within the 65,536 an expansion may have
	printf "#define DEEP_COND "; for (i = 0; i < n / 2; i++) printf "1 ? "; printf "2"
	for (i = 0; i < n / 2; i++) printf " : 3"; print ""
	printf "#if "; for (i = 0; i < n; i++) printf "("; printf "1"
	for (i = 0; i < n; i++) printf ")"; print "\n#define IN_DEEP_IF 1\n#endif"
	printf "#define NEST_OK "; for (i = 0; i < 100; i++) printf "("; printf "7"
	for (i = 0; i < 100; i++) printf ")"; print ""
	print "#define AFTER_DEEP 9"
}' > uapi/linux/deep.h
"$KABI_DIFF" extract -q "$k4" --uapi uapi -o uapi.kabi
is "$?" 0 "30,000-deep UAPI expressions: extract succeeds"
is "$(q uapi.kabi "SELECT location || ' ' || message FROM problems ORDER BY location")" \
"linux/deep.h:1 DEEP_PAREN: expression nested more than 256 deep
linux/deep.h:2 DEEP_UNARY: expression nested more than 256 deep
linux/deep.h:3 DEEP_COND: expression nested more than 256 deep
linux/deep.h:4 #if: expression nested more than 256 deep" "  each names the limit"
is "$(q uapi.kabi "SELECT name || '=' || value FROM constants WHERE name IN
	('AFTER_DEEP', 'NEST_OK', 'IN_DEEP_IF', 'DEEP_PAREN') ORDER BY name")" "AFTER_DEEP=9
NEST_OK=7" "  100 parentheses are fine; the false #if hides its define"
done_testing
