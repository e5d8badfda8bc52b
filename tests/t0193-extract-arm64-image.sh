#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# extract from an arm64 bootable image, no DWARF (issue 26): the sample
# kernel cross-compiled for aarch64 and linked as arm64 links vmlinux, as
# a raw Image (Debian's vmlinuz), an Image.gz and an EFI zboot file
# (tests/fixtures/build-arm64-image.sh), with its System.map. Each equals
# the DWARF extraction of the same kernel: the syscall table (zero in the
# Image, from .rela.dyn's relocations), the signatures, every layout, the
# build-id. An alignment DWARF states and BTF cannot (__aligned(32)) is no
# change between the two; between two DWARF kernels it is one. A System.map
# of another kernel and damaged images fail with one line naming the file.
. "$KD_SRCDIR/lib.sh"

command -v pahole >/dev/null || { skip "pahole (dwarves) not installed"; done_testing; exit 0; }
need_aarch64_cc
scratch arm64-image
"$KD_SRCDIR/fixtures/build-arm64-image.sh" img >&2
ok $? "arm64 Image fixture built" || done_testing
is "$(od -An -c -j 56 -N 4 img/Image | tr -d ' ')" "ARMd" "  \"ARM\\x64\" at 0x38"
"$KABI_DIFF" extract -q img/vmlinux -o dwarf.kabi
is "$?" 0 "DWARF extraction of the debug vmlinux"

meta() { q "$1" "SELECT ifnull((SELECT value FROM meta WHERE key='$2'), '-')"; }
for f in Image Image.gz zboot; do
	"$KABI_DIFF" extract -q "img/$f" --system-map img/System.map -o "$f.kabi"
	is "$?" 0 "$f: extracted through BTF and System.map"
	is "$(meta "$f.kabi" input):$(meta "$f.kabi" arch):$(meta "$f.kabi" release)" "btf:arm64:6.99.1-fixture" \
		"  input btf, arm64, the release from linux_banner"
	is "$(meta "$f.kabi" build_id)" "$(meta dwarf.kabi build_id)" "  the build-id of the notes in the Image"
	is "$(q "$f.kabi" "$Q_SLOTS")" "$(q dwarf.kabi "$Q_SLOTS")" "  the syscall tables equal DWARF's"
	# COMPAT_SYSCALL_DEFINE leaves no ftrace metadata: the compat ones are the stated gap.
	is "$(q "$f.kabi" "$Q_SIGS")" "$(q dwarf.kabi "$Q_SIGS" | grep -v '^compat_sys_')" \
		"  the signatures equal DWARF's, but for the compat ones"
	is "$(q "$f.kabi" "$Q_LAYOUTS")" "$(q dwarf.kabi "$Q_LAYOUTS")" "  every layout equals DWARF's"
done
is "$(q Image.kabi "SELECT count(*) || ':' || sum(implemented) FROM syscalls WHERE abi = 'arm64' AND entry IS NOT NULL")" \
	"$(q dwarf.kabi "SELECT count(*) || ':' || sum(implemented) FROM syscalls WHERE abi = 'arm64' AND entry IS NOT NULL")" \
	"  every arm64 slot has its entry point: the zeros of the Image relocated"
cp img/System.map img/System.map-6.99.1 && cp img/Image img/vmlinuz-6.99.1
"$KABI_DIFF" extract -q img/vmlinuz-6.99.1 -o beside.kabi
is "$?" 0 "vmlinuz-RELEASE with System.map-RELEASE beside it"
"$KABI_DIFF" dwarf.kabi Image.kabi >diff.txt 2>&1
is "$?" 4 "diff DWARF vs the Image: info only (exit 4)"
is "$(sed -n '/^Info/,$p' diff.txt)" "Info (1 in 1 finding); --full lists each change:
  struct fx_legacy: 1 type.array.flexible" "  the one difference is BTF's stated [0] gap"

# __aligned(32) on struct fx_stat: stated in DWARF, inferred (8) from BTF.
"$KD_SRCDIR/fixtures/build-arm64-image.sh" al -DKABI_ALIGNED >&2 &&
	"$KABI_DIFF" extract -q al/vmlinux -o al-dwarf.kabi &&
	"$KABI_DIFF" extract -q al/Image --system-map al/System.map -o al-btf.kabi
ok $? "the kernel with an __aligned(32) struct, DWARF and Image"
is "$(q al-dwarf.kabi "SELECT align FROM types WHERE name = 'fx_stat'"):$(q al-btf.kabi "SELECT align FROM types WHERE name = 'fx_stat'")" \
	"32:8" "  DWARF states 32, BTF gives the natural 8"
"$KABI_DIFF" al-dwarf.kabi al-btf.kabi -f json >al.json 2>/dev/null
is "$?:$(jq '[.changes[] | select(.kind == "type.align")] | length' al.json)" "4:0" \
	"  DWARF vs BTF of one kernel: no type.align change, info only (exit 4)"
"$KABI_DIFF" dwarf.kabi al-dwarf.kabi -f json >al2.json 2>/dev/null
is "$(jq -r '.changes[] | select(.kind == "type.align") | "\(.subject) \(.old) -> \(.new) \(.verdict)"' al2.json)" \
	"struct fx_stat 8 -> 32 breaking" "  between two DWARF kernels the alignment change is reported, breaking"

sed 's/^ffff800008000000 T _text$/ffff800009000000 T _text/' img/System.map >other.map
btf=$(sed -n 's/^\([0-9a-f]*\) R __start_BTF$/\1/p' img/System.map)..$(sed -n 's/^\([0-9a-f]*\) R __stop_BTF$/\1/p' img/System.map)
extract_fails img/Image "kabi-diff: img/Image: System.map places .BTF at 0x${btf%..*}..0x${btf#*..}, outside the Image (0xffff800009000000, $(wc -c <img/Image) bytes): not this image's System.map?" \
	"a System.map whose _text is elsewhere" --system-map other.map
extract_fails img/Image "kabi-diff: img/missing.map: No such file or directory" "a missing System.map" --system-map img/missing.map
head -c 1000 img/zboot >cut.zboot
extract_fails cut.zboot "kabi-diff: cut.zboot: EFI zboot payload (offset 64, $(($(wc -c <img/zboot) - 64)) bytes) lies outside the file (1000 bytes)" \
	"a zboot file cut short" --system-map img/System.map
done_testing
