#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# diff on kernel directories: the sample kernel laid out as our kernel cache
# (DIR/vmlinux, modules/, include/), as a build tree (modules beside their
# sources, include/uapi + arch/x86/include/uapi), after headers_install
# (usr/include) and as a Debian debug package (usr/lib/debug/...). Each
# layout found by content; ioctl and constant changes between two trees
# (V2 header tree and module made here with sed); the cache keyed by the
# build-id plus what else was read, so one vmlinux with two header trees is
# extracted twice and a vmlinux-only DB is never reused for a directory.
. "$KD_SRCDIR/lib.sh"

k1=$(fixture_kernel v1-dwarf5 -gdwarf-5) && k2=$(fixture_kernel v2-dwarf5 -gdwarf-5 -DKABI_V2) ||
	{ ok 1 "fixture kernels"; done_testing; }
uapi=$KD_SRCDIR/fixtures/kernel-uapi
export XDG_CACHE_HOME=$PWD/cache
bid1=$("$KABI_DIFF" extract -q "$k1" -o k1.kabi && q k1.kabi "SELECT value FROM meta WHERE key='build_id'")

# V2 of the header tree: FXK_IOC_RESET gets nr 6, FXK_IOC_NEW appears.
cp -R "$uapi" uapi-v2
sed -i -e "s/_IO('F', 5)/_IO('F', 6)/" \
	-e "s|^#define FXK_HOW_SIZE|#define FXK_IOC_NEW\t_IO('F', 7)\n&|" uapi-v2/uapi/linux/fxkernel.h
# V2 of the module: struct fxmod_create grows by 8 bytes (32 -> 40).
sed 's/^\t__u64 size;$/&\n\t__u64 extra;/' "$KD_SRCDIR/fixtures/module.c" >module-v2.c
grep -q '__u64 extra;' module-v2.c && grep -q "FXK_IOC_NEW" uapi-v2/uapi/linux/fxkernel.h
ok $? "V2 header tree and module made with sed"
mod() { gcc -g -O2 -c -DFXMOD_NAME='"fxmod"' "$1" -o "$2"; }

# A: kernel cache layout, V1 everything.
mkdir -p A/modules && cp "$k1" A/vmlinux && cp -R "$uapi" A/include && mod "$KD_SRCDIR/fixtures/module.c" A/modules/fxmod.ko
# B: build tree of the same vmlinux, V2 headers and module.
mkdir -p B/drivers/fx B/include B/arch/x86/include && cp "$k1" B/vmlinux &&
	cp -R uapi-v2/uapi B/include/uapi && cp -R uapi-v2/arch/x86/include/uapi B/arch/x86/include/uapi &&
	mod module-v2.c B/drivers/fx/fxmod.ko && touch B/Makefile B/drivers/fx/fxmod.c
# D: headers_install layout (usr/include) of the V1 headers, module anywhere below.
mkdir -p D/usr/include D/lib && cp "$k1" D/vmlinux && cp -R "$uapi/uapi/linux" "$uapi/uapi/asm-generic" D/usr/include/ &&
	cp -R "$uapi/arch/x86/include/uapi/asm" D/usr/include/asm &&
	printf '#include <asm-generic/ioctl.h>\n' >D/usr/include/asm/ioctl.h && cp A/modules/fxmod.ko D/lib/
# P: Debian debug package of the V2 kernel; E: the V1 vmlinux alone.
mkdir -p P/usr/lib/debug/boot P/usr/lib/debug/lib/modules/6.99.2/kernel/fx E &&
	cp "$k2" P/usr/lib/debug/boot/vmlinux-6.99.2 && cp A/modules/fxmod.ko P/usr/lib/debug/lib/modules/6.99.2/kernel/fx/ &&
	cp "$k1" E/vmlinux
ok $? "five kernel directories laid out"

"$KABI_DIFF" A A >same.txt 2>err.txt
is "$?" 0 "cache layout against itself: exit 0"
is "$(grep '(kernel cache)' err.txt | head -1)" \
	"kabi-diff: old: A (kernel cache): vmlinux vmlinux, UAPI headers include, modules modules" \
	"  vmlinux, include/ and modules/ found"
is "$(q "cache/kabi-diff/$(ls cache/kabi-diff | grep -- '-um-')" "SELECT (SELECT count(*) FROM ioctls),
	(SELECT count(*) FROM modules), (SELECT count(*) FROM constants WHERE name LIKE 'FX%')")" "5|1|6" \
	"  the cached DB holds the ioctls, the module and the constants"

"$KABI_DIFF" A B -f json >ab.json 2>err.txt
is "$?" 12 "same vmlinux, V2 headers and module: exit 12"
is "$(grep '(build tree)' err.txt)" \
	"kabi-diff: new: B (build tree): vmlinux vmlinux, UAPI headers B, modules B" \
	"  build tree: headers in include/uapi + arch/, module found below"
is "$(jq -r '.changes[] | [.kind, .subject, .old // "-", .new // "-", .rule, .note // "-"] | join("|")' ab.json | sort)" \
"ioctl.added|FXK_IOC_NEW|-|0x00004607|ioctl-added|-
ioctl.cmd|FXK_IOC_CREATE|0xc0204601|0xc0284601|ioctl-cmd|size 32 -> 40
ioctl.cmd|FXK_IOC_RESET|0x00004605|0x00004606|ioctl-cmd|nr 5 -> 6
type.member.added|struct fxmod_create.extra|-|__u64 extra at 32|tail-growth-uncontracted|-
type.size|struct fxmod_create|32|40|tail-growth-uncontracted|-" \
	"  exactly the ioctl changes, with why, and the module's struct growth"
is "$(jq -r '.changes[] | select(.subject == "struct fxmod_create") | .impact | map(.path) | join(";")' ab.json)" \
	"FXK_IOC_CREATE -> arg -> struct fxmod_create" "  impact path from the ioctl into the module's struct"
is "$(ls cache/kabi-diff | grep -c "^$bid1-um-[0-9a-f]\{32\}\.kabi\$")" 2 \
	"  one vmlinux, two header trees: two cache entries BUILD-ID-um-HASH"

"$KABI_DIFF" A B -f json >ab2.json 2>err.txt
is "$?" 12 "second run: exit 12"
is "$(grep -c extracting err.txt)" 0 "second run: both from the cache (no extraction)"
cmp -s ab.json ab2.json; ok $? "  same report"
touch B/include/uapi/linux/fxkernel.h
"$KABI_DIFF" A B -q >/dev/null 2>&1
is "$(ls cache/kabi-diff | grep -c "^$bid1-um-")" 2 "a touched header, same content: the same entry"
# A same-size edit with the mtime kept: the content says it changed.
h=B/include/uapi/linux/fxkernel.h
cp -p "$h" kept.h && sed 's/FXK_IOC_RESET/FXK_IOC_RESEX/' kept.h > edited && cat edited > "$h" &&
	touch -r kept.h "$h" && cmp -s kept.h "$h"
is "$?|$(stat -c %s-%Y "$h")" "1|$(stat -c %s-%Y kept.h)" "  a same-size edit, the mtime kept"
"$KABI_DIFF" A B -q >/dev/null 2>&1
is "$(ls cache/kabi-diff | grep -c "^$bid1-um-")" 3 "a header edited to the same size and mtime: extracted again"
cat kept.h > "$h"

"$KABI_DIFF" extract -q "$k1" --uapi A/include --modules A/modules -o A.kabi
"$KABI_DIFF" "$k1" A -f json >va.json 2>err.txt
# Only what both sides cover is compared (issue 10): the vmlinux alone has
# no UAPI headers, so the directory's constants and ioctls are not "added".
is "$?" 0 "vmlinux against its directory: exit 0 (constants and ioctls not compared)"
is "$(jq -c '[(.changes | length), .coverage.old.headers, .coverage.new.headers, .coverage.new.modules, .coverage.not_compared.constants, .coverage.not_compared.ioctls]' va.json)" \
	'[0,false,true,1,"the old side was read without UAPI headers","the old side was read without UAPI headers"]' \
	"  the directory covers headers and its module (no vmlinux-only DB reused); the report says what was not compared"
"$KABI_DIFF" A "$k1" -q >av.txt
is "$?|$(grep -E '^(constants|ioctls|not compared|old covers|new covers)' av.txt)" \
"0|constants    not compared
ioctls       not compared
old covers: vmlinux, UAPI headers, 1 module; not: probe results, stored contract
new covers: vmlinux; not: UAPI headers, modules, probe results, stored contract
not compared: constants, ioctls (the new side was read without UAPI headers)" \
	"  the other way: no constant 'removed'; the text report says what each side covered"
"$KABI_DIFF" "$k1" "$k1" -q >vv.txt
is "$?|$(grep -E '^(constants|ioctls|not compared)' vv.txt)" \
"0|constants    not compared
ioctls       not compared
not compared: constants, ioctls (neither side was read with UAPI headers)" \
	"  neither side with headers: no 'constants 0, ioctls 0' as if checked"
is "$(ls cache/kabi-diff | grep -c "^$bid1-[0-9a-f]\{32\}\.kabi\$")" 1 "  the vmlinux alone is cached as BUILD-ID-KEY.kabi"

"$KABI_DIFF" A D >ad.txt 2>err.txt
is "$?" 0 "headers_install layout (usr/include) reads the same ABI: exit 0"
is "$(grep '^kabi-diff: new: D ' err.txt)" \
	"kabi-diff: new: D (build tree): vmlinux vmlinux, UAPI headers usr/include, modules D" \
	"  usr/include preferred, module found below"

"$KABI_DIFF" E P -f json >ep.json 2>err.txt
is "$?" 12 "debug package of V2 against the V1 vmlinux directory: exit 12"
is "$(grep '(debug package)' err.txt)" \
	"kabi-diff: new: P (debug package): vmlinux usr/lib/debug/boot/vmlinux-6.99.2, UAPI headers none, modules usr/lib/debug/lib/modules" \
	"  vmlinux-* and modules under usr/lib/debug"
"$KABI_DIFF" "$k1" "$k2" -f json >kk.json 2>/dev/null
is "$?" 12 "  the two vmlinux images: exit 12"
golden=$KD_SRCDIR/fixtures/diff/v1-v2.json
is "$(jq -Sc .changes ep.json)" "$(jq -Sc .changes "$golden")" "  the fixture pair's changes (golden file)"
is "$(jq -Sc .changes kk.json)" "$(jq -Sc .changes "$golden")" "  the same as the two vmlinux images"

mkdir -p empty
"$KABI_DIFF" A empty >/dev/null 2>err.txt
is "$?|$(cat err.txt)" "1|kabi-diff: empty: no vmlinux (an ELF file) found: looked for vmlinux, usr/lib/debug/boot/vmlinux-*, usr/lib/debug/lib/modules/*/vmlinux and a bootable vmlinuz; nor a UAPI header tree (linux/ and asm/, or include/uapi/)" \
	"a directory without a vmlinux: exit 1, where it looked"
cp -R P P2 && cp "$k1" P2/usr/lib/debug/boot/vmlinux-6.99.1
"$KABI_DIFF" A P2 >/dev/null 2>err.txt
is "$?|$(cat err.txt)" "1|kabi-diff: P2: 2 kernel images found (first P2/usr/lib/debug/boot/vmlinux-6.99.1): give the vmlinux of the one to compare" \
	"two kernels in one package: exit 1"
done_testing
