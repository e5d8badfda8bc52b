# SPDX-License-Identifier: GPL-2.0-only
# Sourced by tests/t0660-hostile-memory.sh and tests/fuzz/make-corpus.sh:
# one byte of a fixture image overwritten where readelf says a DWARF
# attribute or string lies (crafted bytes written at test time, never
# committed binaries).

# poke_byte FILE OFFSET BYTE: overwrite one byte in place.
poke_byte() {
	printf "\\$(printf %03o "$3")" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
# sec_off FILE NAME: file offset of section NAME.
sec_off() {
	set -- $(readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\]//' | awk -v n="$2" '$1 == n { print "0x" $4; exit }')
	echo $(($1))
}
# attr_off FILE DIE_NAME ATTR: offset in .debug_info of attribute ATTR of the DIE named DIE_NAME.
attr_off() {
	readelf --debug-dump=info "$1" 2>/dev/null | awk -v n="$2" -v a="$3" '
	/^ <[0-9]+><[0-9a-f]+>:/ { named = 0 }
	/DW_AT_name/ && $NF == n { named = 1 }
	named && ($2 == a || $2 == a ":") { o = $1; gsub(/[<>]/, "", o); print "0x" o; exit }' |
	{ read -r o && echo $((o)); }
}
# strp_off FILE NAME: offset in .debug_str of the DW_AT_name string NAME.
strp_off() {
	readelf --debug-dump=info "$1" 2>/dev/null |
	awk -v n="$2" '/DW_AT_name.*indirect string/ { s = $0; sub(/.*\): /, "", s)
		if (s == n) { o = $0; sub(/.*offset: /, "", o); sub(/\).*/, "", o); print o; exit } }' |
	{ read -r o && echo $((o)); }
}
# poke_attr FILE DIE_NAME ATTR BYTE: the first byte of attribute ATTR of DIE_NAME becomes BYTE.
poke_attr() {
	poke_byte "$1" $(($(sec_off "$1" .debug_info) + $(attr_off "$1" "$2" "$3"))) "$4"
}
