#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What a hostile package may make kabi-diff write (issue 25, R28 and R27):
# crafted .debs built here whose data.tar declares members too large (a
# 1 TiB sparse vmlinux in a few hundred bytes, a 17 MiB header, a 3 GiB
# module), or larger than the free space, or deeper than the UAPI walker
# goes. Each is refused before anything is written, in one line naming
# the member and the limit (doc/LIMITS.md), exit 1, nothing left behind.
# The limits while writing (a member longer than it declares) are t-unpack's.
. "$KD_SRCDIR/lib.sh"

export XDG_CACHE_HOME=$PWD/cache
k1=$(fixture_kernel v1-dwarf5 -gdwarf-5) || { ok 1 "fixture kernel"; done_testing; }
uapi=$KD_SRCDIR/fixtures/kernel-uapi

# rawdeb NAME.deb ROOT: ROOT as a .deb, its data.tar made by GNU tar with
# sparse files kept sparse (a 1 TiB member costs nothing to build).
rawdeb() {
	rm -rf "$1.d" && mkdir "$1.d" &&
	tar --sparse --format=gnu -C "$2" -cf - . | xz -1 >"$1.d/data.tar.xz" &&
	printf '2.0\n' >"$1.d/debian-binary" && echo 'Package: x' >"$1.d/control" &&
	tar -C "$1.d" -czf "$1.d/control.tar.gz" control &&
	(cd "$1.d" && ar qcD "../$1" debian-binary control.tar.gz data.tar.xz) && rm -rf "$1.d"
}
sparse() {
	mkdir -p "$(dirname "$1")" && truncate -s "$2" "$1" && printf x | dd of="$1" bs=1 seek=$(($2 - 1)) conv=notrunc 2>/dev/null
}
vm=usr/lib/debug/boot/vmlinux-6.99.1

mkdir -p bomb/usr/lib/debug/boot && sparse bomb/$vm 1099511627776 && rawdeb bomb.deb bomb && rm -rf bomb
ok $? "a .deb of $(stat -c %s bomb.deb) bytes declaring a 1 TiB sparse vmlinux"
mkdir out
"$KABI_DIFF" extract -q bomb.deb -o out/x.kabi 2>err.txt
is "$?|$(cat err.txt)" \
	"1|kabi-diff: bomb.deb: $vm: declares 1 TiB, more than 4 GiB, the limit of one vmlinux" \
	"extract: refused before writing, exit 1, one line naming the member and the cap"
is "$(ls -A out)" "" "  nothing left next to the output"
"$KABI_DIFF" bomb.deb "$k1" -q >/dev/null 2>err.txt
is "$?|$(grep -c 'declares 1 TiB, more than 4 GiB, the limit of one vmlinux' err.txt)" "1|1" \
	"diff: the same refusal, exit 1"
is "$(ls -A cache/kabi-diff | grep -c unpack)" 0 "  nothing left in the cache"

mkdir -p big/usr/lib/debug/boot big/usr/include/linux && cp "$k1" big/$vm &&
	sparse big/usr/include/linux/big.h $((17 << 20)) && rawdeb big.deb big && rm -rf big
"$KABI_DIFF" extract -q big.deb -o out/x.kabi 2>err.txt
is "$?|$(cat err.txt)" \
	"1|kabi-diff: big.deb: usr/include/linux/big.h: declares 17 MiB, more than 16 MiB, the limit of one header" \
	"a 17 MiB header: refused, the header's cap named"
is "$(ls -A out)" "" "  nothing left"

# A module is only read with headers, streamed by the extractor's thread.
mkdir -p mods/usr/lib/debug/boot mods/usr/lib/debug/lib/modules/6.99.1/kernel hdr/usr/include &&
	cp "$k1" mods/$vm && sparse mods/usr/lib/debug/lib/modules/6.99.1/kernel/huge.ko $((3 << 30)) &&
	cp -R "$uapi/uapi/linux" "$uapi/uapi/asm-generic" hdr/usr/include/ &&
	cp -R "$uapi/arch/x86/include/uapi/asm" hdr/usr/include/asm &&
	rawdeb mods.deb mods && rawdeb headers.deb hdr && rm -rf mods hdr
"$KABI_DIFF" extract -q mods.deb,headers.deb -o out/x.kabi 2>err.txt
is "$?|$(grep -c '^kabi-diff: mods.deb: usr/lib/debug/lib/modules/6.99.1/kernel/huge.ko: declares 3 GiB, more than 2 GiB, the limit of one module$' err.txt)" \
	"1|1" "a 3 GiB module: refused, the module's cap named" || sed 's/^/# /' err.txt
is "$(ls -A out)" "" "  nothing left"

# Deeper than the UAPI walker reads (64 directories below the tree's top).
d63=$(printf 'd/%.0s' $(seq 63)) d62=$(printf 'd/%.0s' $(seq 62))
mkdir -p deep/usr/lib/debug/boot "deep/usr/include/$d63" && cp "$k1" deep/$vm &&
	echo '#define X 1' >"deep/usr/include/${d63}x.h" && rawdeb deep.deb deep && rm -rf deep
"$KABI_DIFF" extract -q deep.deb -o out/x.kabi 2>err.txt
is "$?|$(cat err.txt)" \
	"1|kabi-diff: deep.deb: usr/include/${d63}x.h: more than 64 directories deep, the limit" \
	"a header 65 directories deep: refused, the limit named"
is "$(ls -A out)" "" "  nothing left"
mkdir -p deep/usr/lib/debug/boot "deep/usr/include/$d62" && cp "$k1" deep/$vm &&
	echo '#define X 1' >"deep/usr/include/${d62}x.h" && rawdeb deep64.deb deep && rm -rf deep
"$KABI_DIFF" extract -q deep64.deb -o out/x.kabi 2>err.txt
is "$?|$(cat err.txt)" "0|" "a header 64 directories deep: read"
rm -f out/x.kabi

# Larger than the free space: refused before writing, not once the disk is full.
mkdir -p mnt
if mount -t tmpfs -o size=1m tmpfs mnt 2>/dev/null; then
	mkdir -p full/usr/lib/debug/boot && head -c $((4 << 20)) /dev/zero >full/$vm &&
		rawdeb full.deb full && rm -rf full
	"$KABI_DIFF" extract -q full.deb -o mnt/x.kabi 2>err.txt
	is "$?|$(sed 's/\.kabi-unpack-[^ ]*/.kabi-unpack-X/' err.txt)" \
		"1|kabi-diff: full.deb: $vm: declares 4 MiB, more than the 1 MiB free in mnt/.kabi-unpack-X" \
		"a 4 MiB vmlinux on a 1 MiB file system: refused, the free space named"
	is "$(ls -A mnt)" "" "  nothing left"
	umount mnt
else
	skip "free space: cannot mount a tmpfs here (not root)"
fi
done_testing
