#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# extract --vdso DIR: the DWARF of the vDSO's debug image (vdso64.so built
# with -g) gives each entry point a signature (functions "vdso:x64:NAME",
# params with their types), shared by its aliases; a vdso/ directory
# beside the vmlinux is found alone; an image without DWARF is a problem
# row and the names are still read.
. "$KD_SRCDIR/lib.sh"

k=$(fixture_vdso_db vd1 "LINUX_2.6" -DVDSO_64 -DVDSO_32 -DVDSO_X32) || { ok 1 "fixture"; done_testing; }
k=${k%.kabi}
scratch t0192
mkdir -p dbg nodbg kdir/vdso
"$KD_SRCDIR/fixtures/build-vdso.sh" dbg/vdso64.so LINUX_2.6 -g &&
	"$KD_SRCDIR/fixtures/build-vdso.sh" nodbg/vdso64.so LINUX_2.6
ok $? "the debug image built with -g, and one without"

"$KABI_DIFF" extract -q "$k" --vdso dbg -o k.kabi
ok $? "extract --vdso DIR"
is "$(q k.kabi "SELECT s.name, f.name FROM vdso_symbols s JOIN functions f ON f.id = s.func_id
	WHERE s.abi = 'x64' ORDER BY s.name")" \
"__vdso_getcpu|vdso:x64:__vdso_getcpu
__vdso_time|vdso:x64:__vdso_time
getcpu|vdso:x64:__vdso_getcpu
time|vdso:x64:__vdso_time" "each entry point and its alias: one signature"
is "$(q k.kabi "SELECT group_concat(p.type_text || ' ' || p.name, ', ') FROM functions f
	JOIN params p ON p.func_id = f.id WHERE f.name = 'vdso:x64:__vdso_getcpu' ORDER BY p.pos")" \
	"unsigned int * cpu, unsigned int * node, struct vdso_ts * ts" "__vdso_getcpu's parameters"
is "$(q k.kabi "SELECT t.name FROM functions f JOIN types t ON t.id = f.ret_type WHERE f.name = 'vdso:x64:__vdso_time'")" \
	"long int" "its return type"
is "$(q k.kabi "SELECT count(*) FROM vdso_symbols WHERE abi <> 'x64' AND func_id IS NOT NULL")" 0 \
	"32-bit images: no signatures (their DWARF is not read)"
is "$(q k.kabi "SELECT value FROM meta WHERE key = 'vdso_dwarf'")" "x64 (dbg/vdso64.so)" "meta vdso_dwarf"

"$KABI_DIFF" show k.kabi vdso getcpu --abi x64 >show.txt
is "$(sed -n '1p;3p' show.txt)" "x64: getcpu@@LINUX_2.6 (weak func)
long int __vdso_getcpu(unsigned int *cpu, unsigned int *node, struct vdso_ts *ts)" \
	"show vdso NAME: an alias shows its entry point's signature"
grep -q '^struct vdso_ts {$' show.txt
ok $? "  and the layout of the struct it takes"
is "$("$KABI_DIFF" show k.kabi vdso time --abi ia32 | sed -n 2p)" \
	"  (no signature: none was read for this image; the 64-bit debug images give them, extract --vdso DIR)" \
	"show vdso NAME of a 32-bit image: no signature, and why"
"$KABI_DIFF" show k.kabi vdso nosuch >/dev/null 2>err.txt
is "$?:$(cat err.txt)" "1:kabi-diff: k.kabi: no vDSO entry point named 'nosuch'" "show vdso NAME absent: an error"

# A kernel directory: vmlinux and vdso/ side by side.
cp "$k" kdir/vmlinux && cp dbg/vdso64.so kdir/vdso/
"$KABI_DIFF" extract -q kdir/vmlinux -o dir.kabi
is "$(q dir.kabi "SELECT count(*) FROM vdso_symbols WHERE func_id IS NOT NULL")" 4 "vdso/ beside the vmlinux: read alone"

# diff of two kernel directories: the extraction cache knows the debug images.
mkdir -p kdir2/vdso && cp "$k" kdir2/vmlinux
"$KD_SRCDIR/fixtures/build-vdso.sh" kdir2/vdso/vdso64.so LINUX_2.6 -g -DVDSO_GETCPU_TS
"$KABI_DIFF" diff kdir kdir2 >/dev/null 2>&1
is "$?" 12 "diff DIR DIR2: a struct an entry point takes grew in DIR2's debug image"
cp dbg/vdso64.so kdir2/vdso/vdso64.so
"$KABI_DIFF" diff kdir kdir2 >/dev/null 2>&1
is "$?" 0 "  the same debug image again: no change (not the cached extraction of the other)"

# An unpacked debug package: usr/lib/debug/lib/modules/VERSION/vdso/.
mkdir -p pkg/usr/lib/debug/boot pkg/usr/lib/debug/lib/modules/6.99.1-fixture/vdso
cp "$k" pkg/usr/lib/debug/boot/vmlinux-6.99.1-fixture
"$KD_SRCDIR/fixtures/build-vdso.sh" pkg/usr/lib/debug/lib/modules/6.99.1-fixture/vdso/vdso64.so \
	LINUX_2.6 -g -DVDSO_GETCPU_TS
"$KABI_DIFF" diff kdir pkg -f json >pkg.json 2>/dev/null
is "$?:$(jq -r '[.changes[].subject] | join(" ")' pkg.json)" "12:struct vdso_ts struct vdso_ts.extra" \
	"diff DIR PACKAGE-DIR: the debug package's vdso/ read"

"$KABI_DIFF" extract -q "$k" --vdso nodbg -o nodbg.kabi 2>err.txt
ok $? "an image without DWARF: the extraction goes on"
is "$(q nodbg.kabi "SELECT location, substr(message, 1, 89) FROM problems WHERE stage = 'vdso'")" \
	"x64|vDSO image x64: no signatures read: nodbg/vdso64.so: no DWARF (.debug_info) in this image" \
	"a problem row naming the image and the cause"
is "$(cat err.txt)" "" "  and nothing on stderr"
is "$(q nodbg.kabi "SELECT count(*) FROM vdso_symbols WHERE abi = 'x64'")" 5 "its names still read"

done_testing
