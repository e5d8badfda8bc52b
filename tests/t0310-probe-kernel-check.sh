#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# probe checks the image against the .kabi before it boots (issue 13): the
# same kernel (a vmlinux's build-id; a bzImage's release and build string
# against the banner), an image QEMU can start (a bzImage, or a vmlinux
# with a PVH entry), and a kernel built with what the probe needs (meta
# boot_support from the vmlinux's symbols). Where every check passes, the
# run goes on to build the probe: --cc false stops it there, so no QEMU
# is started.
. "$KD_SRCDIR/lib.sh"

plain=$(fixture_db v1-dwarf5 -gdwarf-5) && other=$(fixture_kernel v2-dwarf5 -gdwarf-5 -DKABI_V2) &&
	bootk=$(fixture_kernel v1-boot -gdwarf-5 -DKABI_BOOTABLE) &&
	boot=$(fixture_db v1-boot -gdwarf-5 -DKABI_BOOTABLE) || { ok 1 "fixtures"; done_testing; }
scratch probe-check

is "$(q "$plain" "SELECT value FROM meta WHERE key = 'boot_support'")" "" \
	"a kernel without console, initramfs, ELF loader or power off: boot_support empty"
is "$(q "$boot" "SELECT value FROM meta WHERE key = 'boot_support'")" \
	"serial-console initramfs elf power-off" "the bootable fixture: every need found by its symbol"

# probe_err DB KERNEL: "EXIT|stderr" of a probe run that must stop before QEMU.
probe_err() {
	"$KABI_DIFF" probe "$1" --kernel "$2" --cc false --no-spec >out.txt 2>err.txt
	echo "$?|$(cat err.txt)"
}

is "$(probe_err "$plain" "$(fixture_kernel v1-dwarf5 -gdwarf-5)")" \
	"1|kabi-diff: $plain: this kernel cannot be probed: no built-in serial console (x86_64: CONFIG_SERIAL_8250_CONSOLE=y; arm64: CONFIG_SERIAL_AMBA_PL011_CONSOLE=y); no initramfs support (CONFIG_BLK_DEV_INITRD=y); no ELF binaries (CONFIG_BINFMT_ELF=y); no way to power off (x86_64: CONFIG_ACPI=y; arm64: CONFIG_ARM_PSCI_FW=y)" \
	"every missing need named with its config option"

bid() { q "$1" "SELECT value FROM meta WHERE key = 'build_id'"; }
otherdb=other.kabi
cp "$boot" "$otherdb"
sqlite3 "$otherdb" "UPDATE meta SET value = 'feedface' WHERE key = 'build_id'"
is "$(probe_err "$otherdb" "$bootk")" \
	"1|kabi-diff: $bootk: build-id $(bid "$boot"), but $otherdb was extracted from build-id feedface: not the same kernel" \
	"a vmlinux of another build-id: refused"

is "$(probe_err "$boot" "$other")" \
	"1|kabi-diff: $other: build-id $(bid "$(fixture_db v2-dwarf5 -gdwarf-5 -DKABI_V2)"), but $boot was extracted from build-id $(bid "$boot"): not the same kernel" \
	"the other fixture kernel's vmlinux: refused"

# Without the PVH note the same build is refused: QEMU cannot start it.
objcopy --remove-section .note.Xen "$bootk" nopvh
"$KABI_DIFF" extract -q nopvh -o nopvh.kabi || ok 1 "extract nopvh"
is "$(probe_err nopvh.kabi nopvh)" \
	"1|kabi-diff: nopvh: a vmlinux without a PVH entry (CONFIG_PVH) cannot be booted by QEMU; give the bzImage (vmlinuz)" \
	"a vmlinux without a PVH entry: refused"

# Every check passed: the run reaches the probe's build (cc false fails it).
r=$(probe_err "$boot" "$bootk")
is "${r%%|*}" "1" "the right vmlinux: past the checks, stopped by --cc false"
lacks err.txt "cannot be probed|not the same|PVH" "the right vmlinux: no check failed"
grep -q "false" err.txt
ok $? "the right vmlinux: the error is the probe's build"

# bzimage OUT VERSION: a setup header (boot protocol 2.15) whose
# kernel_version points at VERSION.
bzimage() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
img = bytearray(0x1000)
img[0x202:0x206] = b"HdrS"
struct.pack_into("<H", img, 0x206, 0x020f)
struct.pack_into("<H", img, 0x20e, 0x400 - 0x200)
v = sys.argv[2].encode("latin-1") + b"\0"
img[0x400:0x400 + len(v)] = v
open(sys.argv[1], "wb").write(img)
PY
}
bzimage same.bz "6.99.1-fixture (kabi@test) #1 SMP PREEMPT_DYNAMIC"
r=$(probe_err "$boot" same.bz)
is "${r%%|*}" "1" "a bzImage of the release and build: past the checks"
lacks err.txt "not the same|bzImage" "a bzImage of the release and build: no check failed"
bzimage rel.bz "6.99.2-fixture (kabi@test) #2 SMP PREEMPT_DYNAMIC"
is "$(probe_err "$boot" rel.bz)" \
	"1|kabi-diff: rel.bz: kernel 6.99.2-fixture, but $boot was extracted from 6.99.1-fixture: not the same kernel" \
	"a bzImage of another release: refused"
bzimage build.bz "6.99.1-fixture (kabi@test) #7 SMP PREEMPT_DYNAMIC"
is "$(probe_err "$boot" build.bz)" \
	"1|kabi-diff: build.bz: build '#7 SMP PREEMPT_DYNAMIC', but $boot was extracted from 'Linux version 6.99.1-fixture (kabi@test) (gcc) #1 SMP PREEMPT_DYNAMIC': not the same build" \
	"a bzImage of the release rebuilt: refused"
bzimage bin.bz "$(printf '6.99.1-fixture \033[31m')"
is "$(probe_err "$boot" bin.bz)" \
	"1|kabi-diff: bin.bz: bzImage whose kernel version string is not text" \
	"a bzImage version with an escape sequence: refused, not printed"
head -c 4096 /dev/zero > zero.img
is "$(probe_err "$boot" zero.img)" \
	"1|kabi-diff: zero.img: neither an ELF vmlinux, an x86 bzImage nor an arm64 Image" "4096 zero bytes: refused"
is "$(probe_err "$boot" .)" "1|kabi-diff: .: not a regular file" "a directory: refused"

# A .kabi written before boot_support existed: the needs are not checked.
cp "$plain" old.kabi
sqlite3 old.kabi "DELETE FROM meta WHERE key = 'boot_support'"
r=$(probe_err old.kabi "$(fixture_kernel v1-dwarf5 -gdwarf-5)")
lacks err.txt "cannot be probed" "no boot_support in the .kabi: not checked"

done_testing
