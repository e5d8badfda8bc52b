#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# probe on an arm64 .kabi, without booting anything (issue 14): the image
# is an arm64 Image known by its header and its linux_banner; the VM is
# QEMU's arm64 "virt" board (qemu-system-aarch64 -M virt -cpu
# max,pauth-impdef=on, console ttyAMA0); the probe is built static by
# Debian's cross compiler; the cases carry the arm64 table's numbers and
# arm64's open flag values. The QEMU on PATH is a script that records its
# arguments and prints nothing; the compiler is a wrapper that records its
# arguments and runs the real aarch64-linux-gnu-gcc.
# (The real boot of Debian's 6.1.0-47-arm64: tests/real/t16-arm64-probe.sh.)
. "$KD_SRCDIR/lib.sh"

xcc=$(command -v "${KD_AARCH64_CC:-aarch64-linux-gnu-gcc}")
if [ -z "$xcc" ] || ! echo 'int main(void) { return 0; }' |
	"$xcc" -static -x c -o "$KD_TMPDIR/arm64-static-ok" - 2>/dev/null; then
	skip "no aarch64 cross compiler with a static libc (Debian: gcc-aarch64-linux-gnu libc6-dev-arm64-cross, which make deps installs)"
	done_testing
fi
scratch probe-arm64
KD_FIXTURE_ARCH=arm64 "$KD_SRCDIR/fixtures/build-kernel.sh" k -DKABI_BOOTABLE
ok $? "cross-compile the bootable arm64 fixture kernel" || done_testing
"$KABI_DIFF" extract -q k -o k.kabi
ok $? "extract it" || done_testing
is "$(q k.kabi "SELECT value FROM meta WHERE key IN ('arch', 'boot_support') ORDER BY key")" \
	"arm64
serial-console initramfs elf power-off" \
	"arch arm64; its needs found by arm64's symbols (pl011_console_setup, psci_sys_poweroff)"

# image OUT BANNER...: an arm64 Image header (Documentation/arch/arm64/
# booting.rst: magic "ARM\x64" at 0x38) and each BANNER as linux_banner
# ("Linux version ...\n\0") further on, the last one across a 1 MiB boundary.
image() {
	python3 - "$@" <<'PY'
import struct, sys
img = bytearray(0x100000 - 40)
struct.pack_into("<QQ", img, 0x08, 0x0, len(img))
img[0x38:0x3c] = b"ARM\x64"
at = 0x1000
for b in sys.argv[2:]:
    s = b.encode("latin-1") + b"\n\0"
    if b is sys.argv[-1]:
        at = len(img)
        img += bytearray(0x1000)
    img[at:at + len(s)] = s
    at += len(s) + 0x100
open(sys.argv[1], "wb").write(img)
PY
}
banner="Linux version 6.99.1-fixture (kabi@test) (gcc) #1 SMP PREEMPT_DYNAMIC"
# Since 6.1 init/version.c's weak banner (no build number) comes first.
image Image "Linux version 6.99.1-fixture (kabi@test) (gcc) # SMP PREEMPT_DYNAMIC" "$banner"

mkdir -p bin
cat >bin/qemu-system-aarch64 <<EOF
#!/bin/sh
echo "\$@" >"$PWD/qemu.args"
EOF
cat >bin/aarch64-linux-gnu-gcc <<EOF
#!/bin/sh
echo "\$@" >"$PWD/cc.args"
exec "$xcc" "\$@"
EOF
chmod +x bin/qemu-system-aarch64 bin/aarch64-linux-gnu-gcc

mkdir -p tmp
KD_PROBE_KEEP=1 TMPDIR=$PWD/tmp PATH="$PWD/bin:$PATH" "$KABI_DIFF" probe k.kabi --kernel Image \
	--no-spec >out.txt 2>err.txt
is "$?" 1 "the VM printed nothing: exit 1"
dir=$(echo "$PWD"/tmp/kabi-probe.*)
grep -q "kabi-diff: Image: probe failed: the probe never started (no start line on the console)" err.txt
ok $? "the error: the probe never started" || sed 's/^/#   /' err.txt
is "$(cat qemu.args)" \
	"-M virt -cpu max,pauth-impdef=on -accel tcg -m 512 -nodefaults -no-user-config -display none -serial stdio -monitor none -nic none -no-reboot -kernel Image -initrd $dir/probe.cpio -append console=ttyAMA0 panic=-1 quiet" \
	"QEMU: qemu-system-aarch64 on the virt board, the max CPU, the PL011 console"
is "$(cat cc.args)" "-static -O2 -w -o $dir/probe $dir/probe.c" \
	"the probe built static by aarch64-linux-gnu-gcc"
is "$(readelf -lh "$dir/probe" | awk '/Machine:/ { $1 = ""; print substr($0, 2) } /Type:/ { print $2 } /INTERP/ { print "dynamic" }' | tr '\n' ' ')" \
	"EXEC AArch64 " "the probe is a static aarch64 executable"
# The fixture's arm64 table: read 0, openat 2, openat2 6 (x86_64: 0, 257, 437).
is "$(grep -E '^	\{ "(read\.badfd|openat\.nonexistent|openat2\.size23)"' "$dir/probe.c" | cut -d, -f1-2)" \
	'	{ "read.badfd", 0
	{ "openat.nonexistent", 2
	{ "openat2.size23", 6' "cases numbered by the arm64 table"
# arm64's O_DIRECT is 0200000 (x86_64: 040000), O_DIRECTORY 040000 (0200000).
is "$(grep -E '^	\{ "openat\.flags\.(O_DIRECT|O_DIRECTORY|O_NOFOLLOW|O_LARGEFILE|O_TMPFILE)"' "$dir/probe.c" |
	sed 's/^	{ "\([^"]*\)".*{ A_STR[^}]*}, { A_INT, 0x\([0-9a-f]*\)ULL.*/\1 \2/' | tr '\n' ' ')" \
	"openat.flags.O_DIRECT 10000 openat.flags.O_LARGEFILE 20000 openat.flags.O_DIRECTORY 4000 openat.flags.O_NOFOLLOW 8000 openat.flags.O_TMPFILE 404002 " \
	"open flags by arm64's asm/fcntl.h"
rm -rf "$dir"

# Without qemu-system-aarch64: the package to install.
rm bin/qemu-system-aarch64
PATH="$PWD/bin:/nonexistent" "$KABI_DIFF" probe k.kabi --kernel Image --no-spec --fs tmpfs >out.txt 2>err.txt
is "$?|$(cat err.txt)" \
	"1|kabi-diff: probe: cannot run qemu-system-aarch64 (Debian: apt-get install qemu-system-arm)" \
	"no qemu-system-aarch64: named with its Debian package"
# Without the cross compiler: its packages.
rm bin/aarch64-linux-gnu-gcc
PATH="$PWD/bin:/nonexistent" "$KABI_DIFF" probe k.kabi --kernel Image --no-spec --fs tmpfs >out.txt 2>err.txt
is "$?|$(cat err.txt)" \
	"1|kabi-diff: probe: cannot run the compiler 'aarch64-linux-gnu-gcc' (Debian: gcc-aarch64-linux-gnu libc6-dev-arm64-cross)" \
	"no cross compiler: named with its Debian packages"

# probe_err DB KERNEL: "EXIT|stderr" of a run that must stop before building.
probe_err() {
	"$KABI_DIFF" probe "$1" --kernel "$2" --cc false --no-spec >out.txt 2>err.txt
	echo "$?|$(cat err.txt)"
}
is "$(probe_err k.kabi k)" \
	"1|kabi-diff: k: an arm64 vmlinux cannot be booted by QEMU; give the Image (Debian's vmlinuz)" \
	"the arm64 vmlinux: refused, the Image named"
image other "Linux version 6.99.1-fixture (kabi@test) (gcc) #2 SMP PREEMPT_DYNAMIC"
is "$(probe_err k.kabi other)" \
	"1|kabi-diff: other: build 'Linux version 6.99.1-fixture (kabi@test) (gcc) #2 SMP PREEMPT_DYNAMIC', but k.kabi was extracted from '$banner': not the same build" \
	"an Image of the release rebuilt: refused"
image weak "Linux version 6.99.1-fixture (kabi@test) (gcc) # SMP PREEMPT_DYNAMIC" "Linux version 6.99.1-fixture (kabi@test) (gcc) #1 SMP"
is "$(probe_err k.kabi weak)" \
	"1|kabi-diff: weak: build 'Linux version 6.99.1-fixture (kabi@test) (gcc) # SMP PREEMPT_DYNAMIC', but k.kabi was extracted from '$banner': not the same build" \
	"no banner of the build: refused"
image rel "Linux version 6.99.2-fixture (kabi@test) (gcc) #1 SMP PREEMPT_DYNAMIC"
is "$(probe_err k.kabi rel)" \
	"1|kabi-diff: rel: kernel 6.99.2-fixture, but k.kabi was extracted from 6.99.1-fixture: not the same kernel" \
	"an Image of another release: refused"
image none
is "$(probe_err k.kabi none)" "1|kabi-diff: none: arm64 Image without a kernel version string (linux_banner)" \
	"an Image without a banner: refused"
image esc "$(printf 'Linux version 6.99.1-fixture \033[31m')"
is "$(probe_err k.kabi esc)" "1|kabi-diff: esc: arm64 Image without a kernel version string (linux_banner)" \
	"a banner with an escape sequence is no banner"
gzip -c Image >Image.gz
is "$(probe_err k.kabi Image.gz)" \
	"1|kabi-diff: Image.gz: a gzip-compressed image: give the uncompressed one (zcat it)" \
	"a gzip'ed Image: refused, with what to do"
r=$(probe_err k.kabi Image)
is "${r%%|*}" "1" "the right Image: past the checks, stopped by --cc false"
lacks err.txt "not the same|Image|vmlinux" "the right Image: no check failed"

# The x86_64 .kabi with this Image: the architectures differ.
x86=$(fixture_db v1-boot -gdwarf-5 -DKABI_BOOTABLE) || ok 1 "x86_64 fixture"
is "$(probe_err "$x86" Image)" \
	"1|kabi-diff: Image: an arm64 kernel, but $x86 describes an x86_64 one" \
	"an arm64 Image for an x86_64 .kabi: refused"
done_testing
