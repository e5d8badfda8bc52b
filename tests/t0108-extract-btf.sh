#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# extract from a bootable image, no DWARF: the sample kernel as a bzImage
# (tests/fixtures/build-bzimage.sh: payload compressed, ELF stripped,
# .BTF from pahole -J) with its System.map. The result equals the DWARF
# extraction of the same kernel: syscall table, signatures (from ftrace
# metadata resolved against BTF, and from a BTF FUNC), every layout.
# Hostile images fail with one line naming the file.
. "$KD_SRCDIR/lib.sh"

command -v pahole >/dev/null || { skip "pahole (dwarves) not installed"; done_testing; exit 0; }
scratch btf
bz=$KD_TMPDIR/btf/bz
"$KD_SRCDIR/fixtures/build-bzimage.sh" "$bz" >&2
ok $? "bzImage fixture built"
"$KABI_DIFF" extract -q "$bz/vmlinux" -o dwarf.kabi
is "$?" "0" "DWARF extraction"
"$KABI_DIFF" extract -q "$bz/vmlinuz" -o btf.kabi
is "$?" "0" "extract from vmlinuz with System.map beside it"

meta() { q "$1" "SELECT ifnull((SELECT value FROM meta WHERE key='$2'), '-')"; }
is "$(meta btf.kabi input)" "btf" "meta input is btf"
is "$(meta btf.kabi release)" "6.99.1-fixture" "release from linux_banner (through System.map)"
is "$(meta btf.kabi build_id)" "$(meta dwarf.kabi build_id)" "build-id: the stripped ELF keeps the note"
is "$(meta btf.kabi dwarf_version)" "-" "no dwarf_version"
case $(meta btf.kabi coverage_gaps) in
"BTF: no declaration files or lines;"*"signatures: 1 from BTF functions, 6 from ftrace metadata, 0 without"*)
	ok 0 "coverage gaps stated" ;;
*)	ok 1 "coverage gaps stated: $(meta btf.kabi coverage_gaps)" ;;
esac
"$KABI_DIFF" show btf.kabi info | grep -q '^coverage_gaps *BTF: no declaration files'
ok $? "show info prints the coverage gaps"

slots=$Q_SLOTS
is "$(q btf.kabi "$slots")" "$(q dwarf.kabi "$slots")" "syscall table equals DWARF's"
is "$(q btf.kabi "SELECT count(*) FROM syscalls")" "8" "8 slots"
sigs=$Q_SIGS
is "$(q btf.kabi "$sigs")" "$(q dwarf.kabi "$sigs")" "signatures equal DWARF's"
is "$(q btf.kabi "SELECT group_concat(name || ':' || source, ' ') FROM (SELECT name, source FROM functions ORDER BY name)")" \
	"sys_fxlegacy:btf sys_fxold:metadata sys_fxstat:metadata sys_getpid:metadata sys_openat:metadata sys_openat2:metadata sys_read:metadata" \
	"sources: a BTF FUNC, else the metadata"
is "$(q btf.kabi "SELECT count(*) FROM params WHERE type_id IS NULL")" "0" "every metadata type resolved against BTF"
is "$(q btf.kabi "SELECT p.type_text FROM params p JOIN functions f ON f.id=p.func_id WHERE f.name='sys_read' AND p.pos=1")" \
	"char *" "__user (btf_type_tag) looked through"
is "$(q btf.kabi "SELECT count(*) FROM types WHERE name='pt_regs'")" "0" "pt_regs not reachable"
is "$(q btf.kabi "SELECT count(*) FROM types WHERE name='syscall_metadata'")" "0" "the metadata's own struct not reachable"

types=$Q_LAYOUTS
is "$(q btf.kabi "$types")" "$(q dwarf.kabi "$types")" "layouts equal DWARF's (sizes, alignment, members, bitfields, enums)"
flex() {
	q "$1" "SELECT count FROM types WHERE id = (SELECT m.member_type FROM members m JOIN types t ON t.id=m.type_id
		WHERE t.name='$2' AND m.name='$3')"
}
is "$(flex dwarf.kabi fx_stat extra)|$(flex btf.kabi fx_stat extra)" "-1|-1" "a last [] is flexible, as in DWARF"
# BTF says 0 elements for both: the last member is taken for [] (the stated gap).
is "$(flex dwarf.kabi fx_legacy name)|$(flex btf.kabi fx_legacy name)" "0|-1" "a last [0] is taken for [] (stated gap)"
"$KABI_DIFF" dwarf.kabi btf.kabi >diff.txt 2>&1
is "$?" "4" "diff DWARF vs BTF extraction: info only (exit 4)"
is "$(grep covers diff.txt)" "old covers: vmlinux; not: UAPI headers, modules, probe results, stored contract
new covers: vmlinux from BTF (gaps: show info's coverage_gaps); not: UAPI headers, modules, probe results, stored contract" \
	"the coverage line says which side came from BTF"
"$KABI_DIFF" -q "$bz/vmlinux" "$bz/vmlinuz" >diff2.txt 2>&1
is "$?" "4" "diff VMLINUX VMLINUZ: extracted (and cached) apart"
grep -q 'new covers: vmlinux from BTF' diff2.txt
ok $? "...the image through BTF"
is "$(sed -n '/^Info/,$p' diff.txt)" "Info (1 in 1 finding); --full lists each change:
  struct fx_legacy: 1 type.array.flexible" "the one difference is the stated [0] gap"

# Every compressor the kernel offers x86 (those installed here).
for c in xz zstd lz4; do
	command -v $c >/dev/null || { skip "$c not installed"; continue; }
	KD_BZ_COMPRESS=$c "$KD_SRCDIR/fixtures/build-bzimage.sh" "$bz-$c" >&2 &&
		"$KABI_DIFF" extract -q "$bz-$c/vmlinuz" -o $c.kabi
	is "$?" "0" "$c payload"
	is "$(q $c.kabi "$types")" "$(q dwarf.kabi "$types")" "$c payload: same layouts"
done

# A call compiled out: its entry is kernel/sys_ni.c's weak COND_SYSCALL
# stub, "W" in System.map; built, the strong entry ("T") wins.
for v in COND COND_BUILT; do
	KD_BZ_COMPRESS=gzip "$KD_SRCDIR/fixtures/build-bzimage.sh" "$bz-$v" -DKABI_$v >&2 &&
		"$KABI_DIFF" extract -q "$bz-$v/vmlinuz" -o $v.kabi
	is "$?" "0" "KABI_$v: extract"
done
is "$(q COND.kabi "SELECT s.nr, s.name, s.entry, s.implemented, f.name, f.source, f.decl_file
	FROM syscalls s JOIN functions f ON f.id = s.func_id WHERE s.abi = 'x64' AND s.nr = 10")" \
	"10|fxcond|__x64_sys_fxcond|0|sys_fxcond|btf|kernel/sys_ni.c" "a weak entry is a stub: not implemented"
is "$(q COND_BUILT.kabi "SELECT s.implemented FROM syscalls s WHERE s.abi = 'x64' AND s.nr = 10")" \
	"1" "  the call built: implemented"

# --system-map, and one that belongs to another kernel.
mkdir -p other && cp "$bz/vmlinuz" other/vmlinuz-6.99.1
"$KABI_DIFF" extract -q other/vmlinuz-6.99.1 --system-map "$bz/System.map" -o opt.kabi
is "$?" "0" "--system-map FILE"
cp "$bz/System.map" other/System.map-6.99.1
"$KABI_DIFF" extract -q other/vmlinuz-6.99.1 -o beside.kabi
is "$?" "0" "System.map-RELEASE beside vmlinuz-RELEASE"

img=$bz/vmlinuz map=$bz/System.map
size=$(stat -c %s "$img")
head -c $((size - 100)) "$img" > trunc
extract_fails trunc "kabi-diff: trunc: bzImage payload (offset 1024, $((size - 1024)) bytes) lies outside the file ($((size - 100)) bytes): truncated or damaged" \
	"truncated image" --system-map "$map"
head -c 576 "$img" > tiny
extract_fails tiny "kabi-diff: tiny: truncated bzImage (576 bytes)" "image shorter than its header" --system-map "$map"
cp "$img" badoff && printf '\377\377\377\177' | dd of=badoff bs=1 seek=$((0x248)) conv=notrunc status=none
extract_fails badoff "kabi-diff: badoff: bzImage payload (offset 2147484671, $((size - 1024)) bytes) lies outside the file ($size bytes): truncated or damaged" \
	"payload offset past the end" --system-map "$map"
cp "$img" oldproto && printf '\000\002' | dd of=oldproto bs=1 seek=$((0x206)) conv=notrunc status=none
extract_fails oldproto "kabi-diff: oldproto: bzImage boot protocol 2.00 has no payload fields (2.08 and up)" "old boot protocol" --system-map "$map"
cp "$img" notcomp && head -c 2000 /dev/zero | dd of=notcomp bs=1 seek=1024 conv=notrunc status=none
extract_fails notcomp "kabi-diff: notcomp: bzImage payload is not compressed data" "payload not compressed" --system-map "$map"
{ head -c 1024 "$img"; printf 'not an elf at all' | gzip -c; } > notelf
printf "$(printf '\\%03o' $(( $(stat -c %s notelf) - 1024 )))\000\000\000" | dd of=notelf bs=1 seek=$((0x24c)) conv=notrunc status=none
extract_fails notelf "kabi-diff: notelf: bzImage payload decompresses to something other than an ELF kernel" "payload not ELF" --system-map "$map"
echo "garbage" > badmap
extract_fails "$img" "kabi-diff: badmap: not a System.map (1 of 1 lines are not \"ADDRESS TYPE NAME\")" "bad System.map" --system-map badmap
sed 's/ linux_banner$/ something_else/' "$map" > nobanner
extract_fails "$img" "kabi-diff: nobanner: does not belong to $img (no linux_banner at its address)" "System.map of another kernel" --system-map nobanner

# Bad BTF: the .BTF section's magic broken inside the payload.
mkdir -p badbtf
python3 - "$bz" <<'PY'
import sys, gzip, struct
d = sys.argv[1]
img = open(d + '/vmlinuz', 'rb').read()
elf = bytearray(gzip.decompress(img[1024:]))
shoff, = struct.unpack_from('<Q', elf, 0x28)
shnum, shstrndx = struct.unpack_from('<HH', elf, 0x3c)
stroff, = struct.unpack_from('<Q', elf, shoff + shstrndx * 64 + 0x18)
for i in range(shnum):
    name, = struct.unpack_from('<I', elf, shoff + i * 64)
    if elf[stroff + name:stroff + name + 5] == b'.BTF\0':
        off, = struct.unpack_from('<Q', elf, shoff + i * 64 + 0x18)
        elf[off:off + 2] = b'\0\0'
pay = gzip.compress(bytes(elf))
hdr = bytearray(img[:1024])
struct.pack_into('<I', hdr, 0x24c, len(pay))
open('badbtf/vmlinuz', 'wb').write(bytes(hdr) + pay)
PY
extract_fails badbtf/vmlinuz "kabi-diff: badbtf/vmlinuz: unreadable .BTF: libbpf refuses it (damaged or of an unknown version)" "bad BTF magic" --system-map "$map"

# The image with its UAPI header tree: the constants, ioctls and header
# view the DWARF path gives; the ioctl argument types vmlinux defines found
# in BTF by name.
uapi=$KD_SRCDIR/fixtures/kernel-uapi
"$KABI_DIFF" extract -q "$bz/vmlinux" --uapi "$uapi" -o dwarf-u.kabi &&
	"$KABI_DIFF" extract -q "$bz/vmlinuz" --uapi "$uapi" -o btf-u.kabi
ok $? "extract VMLINUZ --uapi DIR"
for t in "constants:name || '=' || value" "ioctls:name || '=' || cmd || ':' || ifnull(arg_type_text, '-')"; do
	is "$(q btf-u.kabi "SELECT ${t#*:} FROM ${t%%:*} ORDER BY 1")" "$(q dwarf-u.kabi "SELECT ${t#*:} FROM ${t%%:*} ORDER BY 1")" \
		"  its ${t%%:*} equal the DWARF extraction's"
done
is "$(q btf-u.kabi "SELECT count(*) FROM ioctls"):$(q btf-u.kabi "SELECT count(*) FROM constants")" \
	"$(q dwarf-u.kabi "SELECT count(*) FROM ioctls"):$(q dwarf-u.kabi "SELECT count(*) FROM constants")" "  as many of each"
"$KABI_DIFF" dwarf-u.kabi btf-u.kabi -f json >u.json 2>/dev/null
is "$?:$(jq '[.changes[] | select(.verdict == "breaking")] | length' u.json)" "4:0" \
	"  the diff of the two: nothing breaking, info only"
"$KABI_DIFF" extract -q "$bz/vmlinuz" --modules "$uapi" -o m.kabi 2>err.txt
is "$?:$(cat err.txt)" "1:kabi-diff: $bz/vmlinuz: --modules is not read with a bootable image yet (their split BTF); extract the image with --uapi alone" \
	"--modules with an image: refused in one line"

# Debian's regular image package (boot/vmlinuz-REL, boot/System.map-REL):
# no debug package at all; the same report as the two images it holds.
if command -v dpkg-deb >/dev/null; then
	"$KD_SRCDIR/fixtures/build-bzimage.sh" "$bz-v2" -DKABI_V2 >&2
	for v in 1 2; do
		src=$bz && [ $v = 2 ] && src=$bz-v2
		mkdir -p reg$v/boot reg$v/lib/modules/6.99.$v-amd64 &&
			cp "$src/vmlinuz" reg$v/boot/vmlinuz-6.99.$v-amd64 &&
			cp "$src/System.map" reg$v/boot/System.map-6.99.$v-amd64 &&
			mkdeb linux-image-6.99.$v-amd64 6.99.$v reg$v
	done
	"$KABI_DIFF" -q linux-image-6.99.1-amd64_6.99.1_amd64.deb linux-image-6.99.2-amd64_6.99.2_amd64.deb \
		-f json >reg.json 2>reg.err
	rc=$?
	"$KABI_DIFF" -q "$bz/vmlinuz" "$bz-v2/vmlinuz" -f json >img.json 2>/dev/null
	is "$rc:$(jq '.changes | length' reg.json):$(jq -r .new.build_id reg.json)" \
		"12:8:$(jq -r .new.build_id img.json)" \
		"the regular image packages: read through BTF, exit 12, 8 changes, the image's build-id" ||
		sed 's/^/# /' reg.err
	is "$(jq -c '.changes' reg.json)" "$(jq -c '.changes' img.json)" "  the same changes as the two images"
	mkdir -p regdir && cp "$bz/vmlinuz" "$bz/System.map" regdir/
	"$KABI_DIFF" -q regdir "$bz-v2/vmlinuz" -f json >regdir.json 2>/dev/null
	is "$(jq -c '.changes' regdir.json)" "$(jq -c '.changes' img.json)" \
		"  a directory with vmlinuz and System.map: the same"
else
	skip "dpkg-deb not installed"
fi
done_testing
