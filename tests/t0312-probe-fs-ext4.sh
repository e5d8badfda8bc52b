#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# probe --fs ext4 without booting (issue 13): the initramfs carries an ext4
# image made by mke2fs (4 KiB blocks, a journal), the modules ext4 on a
# loop device needs, found in the kernel's modules tree (--modules, or
# 'modules' next to the image) and stripped of their DWARF, and /kabi-fs,
# the list the probe loads. The QEMU on PATH is a script that prints
# nothing; KD_PROBE_KEEP keeps the initramfs to look into.
# (Real boots on ext4: tests/real/t17-probe-ext4.sh.)
. "$KD_SRCDIR/lib.sh"

for tool in mke2fs dumpe2fs cpio objcopy readelf; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		skip "$tool not installed (Debian: e2fsprogs, cpio, binutils)"
		done_testing
	fi
done
bootk=$(fixture_kernel v1-boot -gdwarf-5 -DKABI_BOOTABLE) &&
	boot=$(fixture_db v1-boot -gdwarf-5 -DKABI_BOOTABLE) || { ok 1 "fixtures"; done_testing; }
scratch probe-ext4
echo 'int main(void) { return 0; }' | cc -static -x c -o static-ok - 2>/dev/null ||
	{ skip "no static libc (Debian: libc6-dev)"; done_testing; }

# A modules tree as fetch lays it out: modules with DWARF (objects of a
# tiny C file), one of them deeper, and files that are not modules.
mkdir -p kern/modules/fs/ext4 kern/modules/fs/jbd2 kern/modules/lib kern/modules/drivers/block \
	kern/modules/crypto kern/modules/a/b/c
printf 'int kabi_mod_x = 1;\nint kabi_mod_f(int a) { return a + kabi_mod_x; }\n' >m.c
cc -g -c m.c -o m.o || { ok 1 "compile a module stand-in"; done_testing; }
for p in fs/ext4/ext4 fs/jbd2/jbd2 fs/mbcache lib/crc16 crypto/crc32c_generic a/b/c/loop; do
	cp m.o "kern/modules/$p.ko"
done
echo "not a module" >kern/modules/fs/ext4/ext4.txt
cp "$bootk" kern/vmlinux

mkdir -p bin tmp
printf '#!/bin/sh\nexit 0\n' >bin/qemu-system-x86_64
chmod +x bin/qemu-system-x86_64
run() {
	rm -rf tmp/*
	KD_PROBE_KEEP=1 TMPDIR=$PWD/tmp PATH="$PWD/bin:$PATH" "$KABI_DIFF" probe "$boot" \
		--no-spec "$@" >out.txt 2>err.txt
	echo "$?|$(grep -v 'work files kept' err.txt)"
}

is "$(run --kernel kern/vmlinux --fs ext4)" \
	"1|kabi-diff: kern/vmlinux: probe failed: the probe never started (no start line on the console) (no console output)" \
	"--fs ext4 with the modules next to the image: packed, booted (QEMU printed nothing)"
dir=$(echo "$PWD"/tmp/kabi-probe.*)
mkdir -p unpacked
(cd unpacked && cpio -idm --quiet <"$dir/probe.cpio")
ok $? "the initramfs unpacks"
is "$(cd unpacked && find . -type f | sort | tr '\n' ' ')" \
	"./fs.img ./init ./kabi-fs ./kabi-mod/crc16.ko ./kabi-mod/crc32c_generic.ko ./kabi-mod/ext4.ko ./kabi-mod/jbd2.ko ./kabi-mod/loop.ko ./kabi-mod/mbcache.ko " \
	"the image, the six modules, the list"
is "$(cat unpacked/kabi-fs)" "/kabi-mod/crc16.ko
/kabi-mod/mbcache.ko
/kabi-mod/jbd2.ko
/kabi-mod/crc32c_generic.ko
/kabi-mod/ext4.ko
/kabi-mod/loop.ko" "/kabi-fs: the modules to load"
is "$(dumpe2fs -h unpacked/fs.img 2>/dev/null | sed -n 's/^Block size: *//p; s/^Filesystem volume name: *//p; s/^Block count: *//p' | tr '\n' ' ')" \
	"kabi-probe 2048 4096 " "fs.img: ext4 'kabi-probe', 2048 blocks of 4 KiB"
dumpe2fs -h unpacked/fs.img 2>/dev/null | grep -q '^Filesystem features:.* has_journal .*extent'
ok $? "fs.img: a journal and extents, as a disk's ext4"
readelf -S kern/modules/fs/ext4/ext4.ko | grep -q '\.debug_info'
ok $? "the tree's ext4.ko has DWARF"
readelf -S unpacked/kabi-mod/ext4.ko | grep -q '\.debug_info'
is "$?" 1 "the packed ext4.ko has none (objcopy --strip-debug)"
readelf -s unpacked/kabi-mod/ext4.ko | grep -q ' kabi_mod_f$'
ok $? "  its symbols kept"
is "$(ls "$dir")" "console.log
probe
probe.c
probe.cpio" "the work directory: no image or stripped module left"

# --modules elsewhere; a module the tree lacks is taken as built in.
mv kern/modules mods
rm mods/a/b/c/loop.ko
is "$(run --kernel kern/vmlinux --fs ext4 --modules mods | cut -d'|' -f1)" 1 "--modules DIR"
is "$(cat tmp/kabi-probe.*/probe.cpio | cpio -it --quiet 2>/dev/null | grep -c '^kabi-mod/.*\.ko$')" 5 \
	"no loop.ko: five modules packed (loop built in)"
is "$(run --kernel kern/vmlinux --fs ext4)" \
	"1|kabi-diff: kern/modules: cannot read the kernel's modules (--modules): No such file or directory" \
	"no modules tree next to the image: said, nothing booted"
# Only a compressed ext4 module: said, with what to do.
mv mods/fs/ext4/ext4.ko mods/fs/ext4/ext4.ko.xz
is "$(run --kernel kern/vmlinux --fs ext4 --modules mods)" \
	"1|kabi-diff: mods/fs/ext4/ext4.ko.xz: a compressed module; --fs ext4 loads uncompressed .ko files only (unxz or unzstd them)" \
	"a compressed module only: refused"
mv mods/fs/ext4/ext4.ko.xz mods/fs/ext4/ext4.ko
# Without mke2fs: the package.
mkdir -p nomke2fs
for t in cc gcc as ld collect2 objcopy; do
	p=$(command -v "$t") && ln -sf "$p" "nomke2fs/$t"
done
ln -sf "$PWD/bin/qemu-system-x86_64" nomke2fs/
rm -rf tmp/*
KD_PROBE_KEEP=1 TMPDIR=$PWD/tmp PATH="$PWD/nomke2fs" "$KABI_DIFF" probe "$boot" --no-spec \
	--kernel kern/vmlinux --fs ext4 --modules mods >out.txt 2>err.txt
is "$?|$(grep -v 'work files kept' err.txt)" "1|kabi-diff: probe: --fs ext4 needs mke2fs (Debian: e2fsprogs)" \
	"no mke2fs: the package named"
# Usage errors.
"$KABI_DIFF" probe "$boot" --kernel kern/vmlinux --fs xfs >out.txt 2>err.txt
is "$?|$(head -1 err.txt)" "2|kabi-diff: --fs: tmpfs or ext4" "--fs xfs: usage error"
"$KABI_DIFF" probe "$boot" --kernel kern/vmlinux --fs tmpfs --modules mods >out.txt 2>err.txt
is "$?|$(head -1 err.txt)" "2|kabi-diff: --modules is for ext4, not --fs tmpfs" "--modules with --fs tmpfs"
# --fs tmpfs: nothing of this in the initramfs.
run --kernel kern/vmlinux --fs tmpfs >/dev/null
dir=$(echo "$PWD"/tmp/kabi-probe.*)
is "$(cpio -it --quiet <"$dir/probe.cpio" | tr '\n' ' ')" "dev dev/console init " \
	"--fs tmpfs: /dev, /dev/console, /init only"
# The default: ext4 where mke2fs and ext4 and loop are (modules next to
# the image, or --modules; or built in), else tmpfs with a warning saying why.
packed() { cpio -it --quiet <"$(echo "$PWD"/tmp/kabi-probe.*)/probe.cpio" | grep -c '^fs.img$\|^kabi-mod/ext4.ko$'; }
never="kabi-diff: kern/vmlinux: probe failed: the probe never started (no start line on the console) (no console output)"
is "$(run --kernel kern/vmlinux)" \
	"1|kabi-diff: warning: probe: the probe's files on tmpfs, not ext4: ext4 neither built in nor in kern/modules (--modules)
$never" "default, no modules tree: tmpfs, and the warning says why"
is "$(packed)" 0 "... nothing of ext4 packed"
is "$(run --kernel kern/vmlinux --modules mods | head -1)" \
	"1|kabi-diff: warning: probe: the probe's files on tmpfs, not ext4: loop neither built in nor in mods (--modules)" \
	"default, a tree without loop: tmpfs"
cp m.o mods/drivers/block/loop.ko
is "$(run --kernel kern/vmlinux --modules mods)|$(packed)" "1|$never|2" \
	"default, --modules DIR with ext4 and loop: ext4 (image and module packed), no warning"
mv mods kern/modules
is "$(run --kernel kern/vmlinux)|$(packed)" "1|$never|2" "default, the modules next to the image: ext4"
mv kern/modules mods
cp "$boot" builtin.kabi
sqlite3 builtin.kabi "UPDATE meta SET value = value || ' ext4 loop' WHERE key = 'boot_support'"
rm -rf tmp/*
KD_PROBE_KEEP=1 TMPDIR=$PWD/tmp PATH="$PWD/bin:$PATH" "$KABI_DIFF" probe builtin.kabi --no-spec \
	--kernel kern/vmlinux >out.txt 2>err.txt
is "$(packed)|$(grep -c 'not ext4' err.txt)" "1|0" \
	"default, ext4 and loop built in (meta boot_support): ext4, the image without modules" ||
	sed 's/^/#   /' err.txt
rm -rf tmp/*
KD_PROBE_KEEP=1 TMPDIR=$PWD/tmp PATH="$PWD/bin:$PWD/nomke2fs" "$KABI_DIFF" probe "$boot" --no-spec \
	--kernel kern/vmlinux --modules mods >out.txt 2>err.txt
is "$(head -1 err.txt)" \
	"kabi-diff: warning: probe: the probe's files on tmpfs, not ext4: no mke2fs on PATH (Debian: e2fsprogs)" \
	"default without mke2fs: tmpfs, and the warning names the package"
rm -rf tmp
done_testing
