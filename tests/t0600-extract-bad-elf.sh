#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# extract on damaged images (beyond t0110): the fixture truncated at every
# section boundary, section headers and section data past the end of the
# file, a cut compilation unit; each one line naming the input, exit 1,
# nothing left behind. DWARF 2 and 3 read exactly like DWARF 4, and typedef
# cycles patched into the DWARF end as problems instead of a hang. An
# image without .debug_aranges (clang's) reads as one with it.
. "$KD_SRCDIR/lib.sh"

k=$(fixture_kernel v1-dwarf5 -gdwarf-5)
k4=$(fixture_kernel v1-dwarf4 -gdwarf-4)
scratch bad-elf

# le VALUE NBYTES: VALUE as NBYTES little-endian bytes on stdout.
le() {
	v=$1 n=$2 s=
	while [ "$n" -gt 0 ]; do
		s="$s\\$(printf %03o $((v & 255)))"
		v=$((v >> 8)) n=$((n - 1))
	done
	printf "$s"
}
# poke FILE OFFSET VALUE NBYTES: overwrite in place.
poke() {
	le "$3" "$4" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
u64() {
	echo $(($(od -An -tu8 -j"$2" -N8 "$1")))
}
# sec_off FILE NAME: file offset of section NAME.
sec_off() {
	set -- $(readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\]//' | awk -v n="$2" '$1 == n { print "0x" $4; exit }')
	echo $(($1))
}
# boundaries FILE: every section's start and end offset, sorted.
boundaries() {
	readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\]//' |
		awk 'NF >= 6 && $4 ~ /^[0-9a-f]+$/ && $5 ~ /^[0-9a-f]+$/ { print "0x" $4, "0x" $5 }' |
		while read -r o s; do echo $((o)); echo $((o + s)); done | sort -nu
}
# typedef_ref FILE NAME: "DIE_OFFSET TYPE_ATTR_OFFSET" (within .debug_info) of typedef NAME.
typedef_ref() {
	readelf --debug-dump=info "$1" 2>/dev/null | awk -v n="$2" '
	/^ <[0-9]+><[0-9a-f]+>:/ { die = $1; sub(/.*></, "", die); sub(/>:.*/, "", die); tag = $0; name = "" }
	/DW_AT_name/ { name = $NF }
	/DW_AT_type/ && name == n && tag ~ /DW_TAG_typedef/ {
		a = $1; gsub(/[<>]/, "", a); print "0x" die, "0x" a; exit }' |
	{ read -r d a && echo $((d)) $((a)); }
}

# run FILE: extract FILE -o out.kabi; sets rc, msg (stderr), left (files left behind).
run() {
	rm -f out.kabi out.kabi.tmp.*
	msg=$(timeout 60 "$KABI_DIFF" extract "$1" -o out.kabi 2>&1 >/dev/null)
	rc=$?
	left=$(ls out.kabi out.kabi.tmp.* 2>/dev/null)
}
# fails_cleanly FILE DESCRIPTION [MESSAGE_PATTERN]
fails_cleanly() {
	run "$1"
	lines=$(printf '%s\n' "$msg" | wc -l)
	case "$msg" in "kabi-diff: $1: "*) named=1 ;; *) named=0 ;; esac
	is "$rc|$lines|$named|$left" "1|1|1|" "$2: exit 1, one line naming the input, nothing left" ||
		echo "#   message: $msg"
	if [ $# -ge 3 ]; then
		echo "$msg" | grep -Eq "$3"
		ok $? "$2: says why ($3)" || echo "#   message: $msg"
	fi
}

size=$(stat -c %s "$k")
shoff=$(u64 "$k" 40)

# Truncated at every section boundary: the section headers go with the rest.
bad=
for off in $(boundaries "$k"); do
	[ "$off" -lt "$size" ] || continue
	head -c "$off" "$k" > trunc
	run trunc
	case "$rc|$msg|$left" in
	"1|kabi-diff: trunc: not an ELF file|" | \
	"1|kabi-diff: trunc: truncated ELF file: section headers past the end|") ;;
	*) bad="$bad $off:$rc:$msg" ;;
	esac
done
is "$bad" "" "truncated at every section boundary: not ELF, or section headers past the end"

# Truncated at every boundary before the header table, the headers kept
# (moved to the cut): the sections after the cut are past the end.
bad= n=0
data_end=$(boundaries "$k" | awk -v s="$shoff" '$1 <= s' | tail -n 1)
for off in $(boundaries "$k"); do
	[ "$off" -gt 64 ] && [ "$off" -lt "$data_end" ] || continue
	{ head -c "$off" "$k"; tail -c $((size - shoff)) "$k"; } > cut
	poke cut 40 "$off" 8
	run cut
	n=$((n + 1))
	case "$rc|$msg|$left" in
	"1|kabi-diff: cut: "*"extends past the end"*"|") ;;
	# the cut lands on the header table: symbols or names read from it are garbage
	"1|kabi-diff: cut: not a kernel image"*"|" | "1|kabi-diff: cut: no DWARF"*"|") ;;
	*) bad="$bad
$off:$rc:$msg" ;;
	esac
done
is "$bad" "" "cut at each of $n section boundaries, headers kept: one clean error each"
# .shstrtab itself past the end: the message names the section by index.
{ head -c 4096 "$k"; tail -c $((size - shoff)) "$k"; } > cut
poke cut 40 4096 8
fails_cleanly cut "section names unreadable" 'section (\.[a-z_.-]+|\[[0-9]+\]) extends past the end'
echo "$msg" | grep -q 'section  '
is "$?" "1" "section names unreadable: no empty name in the message"

# Section headers pointing past the end of the file.
cp "$k" shoff && poke shoff 40 $((1 << 40)) 8
fails_cleanly shoff "e_shoff past the end" "section headers past the end"
cp "$k" shnum && poke shnum 60 2000 2
fails_cleanly shnum "e_shnum beyond the file" "section headers past the end"
di_idx=$(readelf -SW "$k" | awk '/ \.debug_info / { sub(/.*\[ */, ""); sub(/\].*/, ""); print; exit }')
cp "$k" shdata && poke shdata $((shoff + di_idx * 64 + 24)) $((size + 4096)) 8
fails_cleanly shdata ".debug_info offset past the end" "section \.debug_info extends past the end"
cp "$k" shsize && poke shsize $((shoff + di_idx * 64 + 32)) $((1 << 62)) 8
fails_cleanly shsize ".debug_info size of 2^62" "section \.debug_info extends past the end"

# .debug_info with a cut compilation unit: its unit_length patched.
di=$(sec_off "$k" .debug_info)
len=$(($(od -An -tu4 -j"$di" -N4 "$k")))
for newlen in $((len + 200)) 100 40 11 0 4294967280; do
	cp "$k" cu && poke cu "$di" "$newlen" 4
	fails_cleanly cu "CU length $len -> $newlen" "DWARF"
done

# DWARF 2 and 3: gcc -gdwarf-2 gives member offsets as location blocks.
rows() {
	sqlite3 "$1" "SELECT kind, ifnull(name,''), ifnull(size,''), align, ifnull(count,''), flags, hash FROM types ORDER BY id;
		SELECT type_id, idx, ifnull(name,''), ifnull(offset,''), bit_size, bit_offset FROM members ORDER BY type_id, idx;
		SELECT * FROM params ORDER BY func_id, pos"
}
"$KABI_DIFF" extract -q "$k4" -o d4.kabi
for v in 2 3; do
	kv=$(fixture_kernel "v1-dwarf$v" "-gdwarf-$v")
	"$KABI_DIFF" extract -q "$kv" -o "d$v.kabi"
	is "$?" "0" "DWARF $v: extracts"
	is "$(sqlite3 "d$v.kabi" "SELECT value FROM meta WHERE key = 'dwarf_version'")" "$v" "DWARF $v: recorded"
	is "$(rows "d$v.kabi")" "$(rows d4.kabi)" "DWARF $v: same types, members and offsets as DWARF 4"
done

# Typedef cycles: __u64 -> __u64, and __u64 -> __u32 -> __u64.
di4=$(sec_off "$k4" .debug_info)
set -- $(typedef_ref "$k4" __u64)
u64_die=$1 u64_ref=$2
set -- $(typedef_ref "$k4" __u32)
u32_die=$1 u32_ref=$2
cp "$k4" cycle1 && poke cycle1 $((di4 + u64_ref)) "$u64_die" 4
cp "$k4" cycle2 && poke cycle2 $((di4 + u64_ref)) "$u32_die" 4 && poke cycle2 $((di4 + u32_ref)) "$u64_die" 4
for c in cycle1 cycle2; do
	run "$c"
	is "$rc|$left" "0|out.kabi" "typedef $c: extraction ends"
	is "$(sqlite3 out.kabi "SELECT count(*) > 0 FROM problems WHERE message LIKE '%refers to itself%' OR message LIKE '%cycle%'")" \
		"1" "typedef $c: a problem row says so"
done

# No .debug_aranges (clang, gcc without -gdwarf-aranges): every CU is read
# for the entry points (it failed with "libelf detected error").
sigs() {
	sqlite3 "$1" "SELECT s.abi, s.nr, s.name, f.name, f.source FROM syscalls s
		LEFT JOIN functions f ON f.id = s.func_id ORDER BY 1, 2"
}
"$KABI_DIFF" extract -q "$k" -o d5.kabi
objcopy --remove-section .debug_aranges "$k" noar
"$KABI_DIFF" extract -q noar -o noar.kabi 2>err.txt
is "$?|$(cat err.txt)" "0|" "no .debug_aranges: extracts"
is "$(rows noar.kabi)" "$(rows d5.kabi)" "  the same types, members and parameters"
is "$(sigs noar.kabi)" "$(sigs d5.kabi)" "  the same syscalls and signatures"
if command -v clang >/dev/null; then
	kc=$(CC=clang fixture_kernel clang-v1 -gdwarf-5 2>/dev/null)
	"$KABI_DIFF" extract -q "$kc" -o clang.kabi 2>err.txt
	is "$?|$(cat err.txt)|$(sigs clang.kabi)" "0||$(sigs d5.kabi)" "a clang build (no .debug_aranges): the same signatures"
else
	skip "a clang build: no clang"
fi
done_testing
