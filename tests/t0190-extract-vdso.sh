#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# extract reads the vDSO images a vmlinux embeds (x86_64's struct
# vdso_image): per ABI the soname, version definitions and every exported
# dynamic symbol with its version node, binding and type, aliases at one
# address; local symbols left out. Bad images (not ELF, cut short, pointing
# outside every section) are problem rows, and the extraction goes on.
. "$KD_SRCDIR/lib.sh"
scratch t0190

db=$(fixture_vdso_db vd1 "LINUX_2.6" -DVDSO_64 -DVDSO_32 -DVDSO_X32)
ok $? "extract a kernel with three vDSO images" || done_testing
is "$(q "$db" "SELECT abi, symbol, class, machine, soname, length(build_id) FROM vdso_images ORDER BY abi")" \
"ia32|vdso_image_32|32|3|linux-vdso.so.1|40
x32|vdso_image_x32|32|62|linux-vdso.so.1|40
x64|vdso_image_64|64|62|linux-vdso.so.1|40" "one image per ABI: class, machine, soname, build-id"
is "$(q "$db" "SELECT value FROM meta WHERE key='vdso'")" "names" "meta vdso: names and versions read"
is "$(q "$db" "SELECT idx, name, flags FROM vdso_versions WHERE abi='x64' ORDER BY idx")" \
"1|linux-vdso.so.1|1
2|LINUX_2.6|0" "version definitions: the base (the soname) and LINUX_2.6"
is "$(q "$db" "SELECT name, ifnull(version,'-'), hidden, bind, type FROM vdso_symbols WHERE abi='x64' ORDER BY name")" \
"LINUX_2.6|LINUX_2.6|0|global|object
__vdso_getcpu|LINUX_2.6|0|global|func
__vdso_time|LINUX_2.6|0|global|func
getcpu|LINUX_2.6|0|weak|func
time|LINUX_2.6|0|weak|func" "x64 symbols: names, versions, bindings, types; the helper is local"
is "$(q "$db" "SELECT count(DISTINCT value) FROM vdso_symbols WHERE abi='x64' AND name IN ('time', '__vdso_time')")" \
	1 "time aliases __vdso_time (one address)"
is "$(q "$db" "SELECT count(*) FROM vdso_symbols WHERE abi='ia32'")" 5 "ia32: five exported symbols"
is "$(q "$db" "SELECT count(*) FROM problems WHERE stage='vdso'")" 0 "no problems"
# The ELF's own size, not the page padding after it.
is "$(q "$db" "SELECT size FROM vdso_images WHERE abi='x64'")" \
	"$(stat -c %s "$KD_TMPDIR/fixtures/vd1.vdso/vdso64.so")" "size: the ELF's own, not the padding"

is "$("$KABI_DIFF" show "$db" info | grep '^vdso')" \
"vdso            names (from the vmlinux: names, versions and symbol types; no signatures)
vdso_images     3
vdso_symbols    15" "show info: what was read of the vDSO, and how much"
# show vdso: per image its soname and versions, then one line per name.
"$KABI_DIFF" show "$db" vdso --abi x64 >show.txt 2>err.txt
ok $? "show vdso --abi x64"
is "$(sed -n '1s/ (.*//p;2p' show.txt)" "x64: linux-vdso.so.1
  versions: linux-vdso.so.1 (base) LINUX_2.6" "show vdso: the image, its soname and versions"
is "$(awk 'NR > 2 { print $1, $2, $3, $6, $7, $8 }' show.txt)" \
"LINUX_2.6 global object   
__vdso_time@@LINUX_2.6 global func   
time@@LINUX_2.6 weak func alias of __vdso_time
__vdso_getcpu@@LINUX_2.6 global func   
getcpu@@LINUX_2.6 weak func alias of __vdso_getcpu" "show vdso: entry points in address order, aliases marked"
is "$("$KABI_DIFF" show "$db" vdso | grep -c '^[a-z0-9]*: linux-vdso')" 3 "show vdso: every ABI's image"
"$KABI_DIFF" show "$db" vdso --abi arm64 >/dev/null 2>err.txt
is "$?:$(cat err.txt)" "1:kabi-diff: $db: no vDSO image of ABI 'arm64'" "show vdso --abi of no image: an error"
"$KABI_DIFF" show "$db" vdso __vdso_getcpu --abi x64 -f json >show.json 2>err.txt
ok $? "show vdso NAME --format json"
is "$(tr -d ' \n' <show.json | sed 's/"value":[0-9]*/"value":V/')" \
'[{"abi":"x64","name":"__vdso_getcpu","version":"LINUX_2.6","hidden":false,"bind":"global","type":"func","value":V,"size":'"$(q "$db" "SELECT size FROM vdso_symbols WHERE abi='x64' AND name='__vdso_getcpu'")"',"signature":null}]' \
	"show vdso --format json: one object per entry point"
is "$("$KABI_DIFF" show "$db" vdso -f json | grep -o '"name":' | wc -l)" \
	"$(q "$db" "SELECT count(*) FROM vdso_symbols")" "show vdso --format json: every symbol"
"$KABI_DIFF" show "$db" vdso __vdso_nosuch >/dev/null 2>err.txt
is "$?:$(cat err.txt)" "1:kabi-diff: $db: no vDSO entry point named '__vdso_nosuch'" \
	"show vdso NAME not there: an error"

db=$(fixture_vdso_db vdbad "LINUX_2.6" -DVDSO_64_SHORT -DVDSO_32_WILD -DVDSO_X32_NOT_ELF)
ok $? "extract a kernel with three bad vDSO images: the extraction goes on" || done_testing
is "$(q "$db" "SELECT count(*) FROM vdso_images")" 0 "no image row for a bad image"
is "$(q "$db" "SELECT location, message FROM problems WHERE stage='vdso' ORDER BY location")" \
"vdso_image_32|vDSO image ia32: its 8192 bytes at 0x12345000 are not inside one section with contents
vdso_image_64|vDSO image x64: truncated: the ELF spans $(stat -c %s "$KD_TMPDIR/fixtures/vdbad.vdso/vdso64.so") bytes, the vmlinux holds 256
vdso_image_x32|vDSO image x32: the 36 bytes at vdso_image_x32 are not an ELF image" \
	"one problem row per bad image, naming it and the cause"
is "$(q "$db" "SELECT count(*) > 0 FROM syscalls")" 1 "the syscall tables are still there"

done_testing
