#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# extract reads arm64's vDSO images, bracketed by vdso_start..vdso_end and
# vdso32_start..vdso32_end and padded to a page (the ELF's own size is
# the image's): the fixture vDSO cross-compiled for aarch64 at node
# LINUX_2.6.39, and an AArch32 image that is no ELF (a problem row).
. "$KD_SRCDIR/lib.sh"

need_aarch64_cc
scratch arm64-vdso

CC=$cc "$KD_SRCDIR/fixtures/build-vdso.sh" vdso64.so LINUX_2.6.39 -DVDSO_V2
ok $? "cross-compile the fixture vDSO for aarch64" || done_testing
KD_FIXTURE_ARCH=arm64 "$KD_SRCDIR/fixtures/build-kernel.sh" k -Wa,-I,"$PWD" -DVDSO_ARM64 \
	-DVDSO_AARCH32_NOT_ELF "$KD_SRCDIR/fixtures/vdso/image.c"
ok $? "link it into the aarch64 sample kernel" || done_testing
"$KABI_DIFF" extract -q k -o k.kabi
ok $? "extract" || done_testing

is "$(q k.kabi "SELECT abi, symbol, class, machine, soname, size FROM vdso_images")" \
	"arm64|vdso_start|64|183|linux-vdso.so.1|$(stat -c %s vdso64.so)" \
	"the arm64 image: its own size, not the page padding"
is "$(q k.kabi "SELECT name || '@' || version || ' ' || bind FROM vdso_symbols WHERE type = 'func' ORDER BY name")" \
"__vdso_getcpu@LINUX_2.6.39 global
__vdso_getrandom@LINUX_2.6.39 global
__vdso_time@LINUX_2.6.39 global
getcpu@LINUX_2.6.39 weak
getrandom@LINUX_2.6.39 weak
time@LINUX_2.6.39 weak" "its entry points at LINUX_2.6.39"
is "$(q k.kabi "SELECT location, message FROM problems WHERE stage = 'vdso'")" \
	"vdso32_start|vDSO image aarch32: the 4096 bytes at vdso32_start are not an ELF image" \
	"the AArch32 image that is no ELF: a problem row"

done_testing
