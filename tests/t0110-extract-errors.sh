#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# extract on bad inputs: one line naming the input and the cause, exit 1,
# no output file (and an existing output left untouched).
. "$KD_SRCDIR/lib.sh"

k=$(fixture_kernel v1-dwarf5 -gdwarf-5)
scratch errs

# fails INPUT EXPECTED_MESSAGE DESCRIPTION
fails() {
	rm -f out.kabi out.kabi.tmp.*
	msg=$("$KABI_DIFF" extract "$1" -o out.kabi 2>&1 >/dev/null)
	rc=$?
	is "$rc|$msg" "1|$2" "$3: exit 1 and message"
	left=$(ls out.kabi out.kabi.tmp.* 2>/dev/null)
	is "$left" "" "$3: no output left behind"
}

echo "just text" > text.txt
fails text.txt "kabi-diff: text.txt: not an ELF file" "not ELF"

head -c 3000 "$k" > trunc.elf
fails trunc.elf "kabi-diff: trunc.elf: truncated ELF file: section headers past the end" "truncated ELF"

# Cut inside the section data: headers fit, .debug_info does not.
size=$(stat -c %s "$k")
shoff=$(readelf -h "$k" | awk '/Start of section headers/ {print $5}')
{ head -c $((shoff - 200)) "$k"; tail -c $((size - shoff)) "$k"; } > cut.elf 2>/dev/null
"$KABI_DIFF" extract cut.elf -o out.kabi >/dev/null 2>err.txt
is "$?" "1" "section data past the end: exit 1"
grep -q "^kabi-diff: cut.elf: " err.txt
ok $? "section data past the end: message names the file"

cp "$k" class32.elf && printf '\001' | dd of=class32.elf bs=1 seek=4 conv=notrunc 2>/dev/null
fails class32.elf "kabi-diff: class32.elf: 32-bit ELF is not supported (x86_64 and arm64 kernels only)" "32-bit ELF"
cp "$k" be.elf && printf '\002' | dd of=be.elf bs=1 seek=5 conv=notrunc 2>/dev/null
fails be.elf "kabi-diff: be.elf: big-endian ELF is not supported (x86_64 and arm64 kernels only)" "big-endian ELF"
cp "$k" arm.elf && printf '\050\000' | dd of=arm.elf bs=1 seek=18 conv=notrunc 2>/dev/null
fails arm.elf "kabi-diff: arm.elf: ELF machine 40 is not supported (x86_64 and arm64 kernels only)" "another architecture"
# x86_64 code labelled AArch64: a table without one __arm64_ entry point.
cp "$k" mislabelled.elf && printf '\267\000' | dd of=mislabelled.elf bs=1 seek=18 conv=notrunc 2>/dev/null
fails mislabelled.elf "kabi-diff: mislabelled.elf: sys_call_table has no arm64 entry point (__arm64_sys_*); is the ELF machine (183) right?" "machine that does not match the table"

# A bzImage: boot sector, "HdrS" at 0x202; read through BTF, it needs its
# System.map (t0108 has the rest).
{ head -c 514 /dev/zero; printf 'HdrS'; head -c 4000 /dev/zero; } > vmlinuz
fails vmlinuz "kabi-diff: vmlinuz: no System.map beside the image (System.map); give it with --system-map" "bzImage without System.map"
gzip -c "$k" > vmlinux.gz
fails vmlinux.gz "kabi-diff: vmlinux.gz: not an ELF file (gzip-compressed); decompress it first" "gzip"

printf 'int main(void) { return 0; }\n' > prog.c
gcc -g -o prog prog.c
fails prog "kabi-diff: prog: not a kernel image (no sys_call_table symbol)" "ELF but not a kernel"

strip -s -o stripped "$k"
fails stripped "kabi-diff: stripped: no symbol table (.symtab); a stripped image cannot be read, use the debug vmlinux" "stripped"
strip -g -o nodebug "$k"
fails nodebug "kabi-diff: nodebug: no DWARF (.debug_info) in this image; use a debug build (Debian: linux-image-*-dbg, Fedora: kernel-debuginfo, Ubuntu: linux-image-*-dbgsym)" "no debug info"
objcopy --add-gnu-debuglink="$k" nodebug debuglink
fails debuglink "kabi-diff: debuglink: no .debug_info, only a .gnu_debuglink to 'v1-dwarf5'; point kabi-diff at that file (usually /usr/lib/debug/.build-id/xx/*.debug or /usr/lib/debug/boot/; Debian: linux-image-*-dbg)" "debuglink only"

fails missing.elf "kabi-diff: missing.elf: No such file or directory" "missing input"

msg=$("$KABI_DIFF" extract "$k" -o /nonexistent-dir/out.kabi 2>&1)
is "$?|$msg" "1|kabi-diff: /nonexistent-dir/out.kabi: cannot create output: No such file or directory" "unwritable output"

# An existing output survives a failed run and is replaced by a good one.
echo OLD > keep.kabi
"$KABI_DIFF" extract -q text.txt -o keep.kabi 2>/dev/null
is "$(cat keep.kabi)" "OLD" "failed run leaves the old output untouched"
"$KABI_DIFF" extract -q "$k" -o keep.kabi
is "$?" "0" "good run succeeds"
is "$(head -c 15 keep.kabi)" "SQLite format 3" "good run replaced the old output"
is "$(ls keep.kabi.tmp.* 2>/dev/null)" "" "no temporary file left"

# Compressed debug sections (SHF_COMPRESSED) read like plain ones.
objcopy --compress-debug-sections=zlib-gabi "$k" zdebug
"$KABI_DIFF" extract -q zdebug -o z.kabi && "$KABI_DIFF" extract -q "$k" -o plain.kabi
is "$(sqlite3 z.kabi 'SELECT kind, name, size, hash FROM types ORDER BY id')" \
   "$(sqlite3 plain.kabi 'SELECT kind, name, size, hash FROM types ORDER BY id')" "compressed debug sections: same types"

# Usage errors exit 2.
"$KABI_DIFF" extract 2>/dev/null
is "$?" "2" "extract without input: usage error"
"$KABI_DIFF" frobnicate 2>/dev/null
is "$?" "2" "unknown command: usage error"
done_testing
