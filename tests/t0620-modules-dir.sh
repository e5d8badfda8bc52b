#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --modules on an empty directory and on 4,000 modules among which some
# cannot be read. Permissions cannot make a file unreadable for root (CI
# runs as root), so the unreadable ones are what fails for root too: a FIFO
# (opening it would wait forever for a writer), a directory named x.ko, a
# dangling symlink, and a file that is not ELF. The run completes, in
# bounded time, and lists what it could not read; damaged file_operations
# are problem rows of their modules.
. "$KD_SRCDIR/lib.sh"

k=$(fixture_kernel v1-dwarf5 -gdwarf-5)
uapi=$KD_SRCDIR/fixtures/kernel-uapi
scratch modules-dir

mkdir empty
msg=$("$KABI_DIFF" extract "$k" --uapi "$uapi" --modules empty -o empty.kabi 2>&1)
is "$?" "0" "empty modules directory: the run completes"
is "$(echo "$msg" | grep warning)" "kabi-diff: warning: empty: no kernel modules (*.ko) found" \
	"empty modules directory: one warning"
is "$(q empty.kabi 'SELECT count(*) FROM modules')" "0" "empty modules directory: no module rows"

mkdir many
gcc -g -O2 -c -DFXMOD_NAME='"fxmod"' "$KD_SRCDIR/fixtures/module.c" -o fxmod.ko
i=0
while [ $i -lt 4000 ]; do
	i=$((i + 1))
	ln fxmod.ko "many/m$i.ko"
done
mkfifo many/fifo.ko
mkdir many/dir.ko
ln -s /nonexistent/x.ko many/dangling.ko
echo "not a module" > many/junk.ko
timeout 300 "$KABI_DIFF" extract -q "$k" --uapi "$uapi" --modules many -o many.kabi 2> err.txt
is "$?" "0" "4,000 modules and unreadable ones: the run completes"
is "$(q many.kabi 'SELECT count(*) FROM modules')" "4000" "4,000 modules: every readable one has a row"
is "$(q many.kabi "SELECT input || ': ' || message FROM problems WHERE stage = 'modules' ORDER BY input")" \
"many/dangling.ko: many/dangling.ko: No such file or directory
many/dir.ko: many/dir.ko: not a regular file
many/fifo.ko: many/fifo.ko: not a regular file
many/junk.ko: many/junk.ko: not an ELF file" "a dangling link, a directory, a FIFO and a non-ELF file are listed as problems"

# A module's debug sections are relocated by kabi-diff (extract/dwarf-rel.c):
# a relocation outside .debug_info, and one of a type no debug section has
# (R_X86_64_PC32), each make their module a problem row; the good one and
# the run go on. The good one reads as it did through libdwarf's loader.
mkdir rel
cp fxmod.ko rel/good.ko && cp fxmod.ko rel/offset.ko && cp fxmod.ko rel/type.ko
ro=$(readelf -SW fxmod.ko | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 == ".rela.debug_info" { print "0x" $4 }')
printf '\377\377\377\377' | dd of=rel/offset.ko bs=1 seek=$((ro)) conv=notrunc 2>/dev/null
printf '\002' | dd of=rel/type.ko bs=1 seek=$((ro + 8)) conv=notrunc 2>/dev/null
"$KABI_DIFF" extract -q "$k" --uapi "$uapi" --modules rel -o rel.kabi 2>err.txt
is "$?" "0" "damaged relocations of debug sections: the run completes"
is "$(q rel.kabi "SELECT input || ': ' || message FROM problems WHERE stage = 'modules' ORDER BY input")" \
"rel/offset.ko: rel/offset.ko: DWARF: reading CU headers: a relocation outside its debug section or of no symbol
rel/type.ko: rel/type.ko: DWARF: reading CU headers: a relocation of a type no debug section has" \
	"  each module with a damaged relocation is a problem row naming it"
is "$(q rel.kabi "SELECT count(*) FROM modules")|$(q rel.kabi "SELECT count(*) FROM types WHERE name LIKE 'fxmod\_%' ESCAPE '\'")" \
	"$(q many.kabi "SELECT 1")|$(q many.kabi "SELECT count(*) FROM types WHERE name LIKE 'fxmod\_%' ESCAPE '\'")" \
	"  the good module is read, with the types 4,000 copies of it gave"

# Damaged file_operations (db/SCHEMA.md "fops"): a variable whose symbol
# says it lies past its section's end, and one whose compat_ioctl
# relocation names a symbol of a 2^24-entry table that is not there. Each
# is one problem row of its module; the module and its other data stay.
mkdir fops
(cd fops && mkdir -p inc/linux inc/asm && cp "$KD_SRCDIR/fixtures/fops/fxfops.h" inc/linux/ &&
	cp "$KD_SRCDIR/fixtures/uapi/installed/asm/ioctl.h" inc/asm/ &&
	cp "$KD_SRCDIR/fixtures/uapi/installed/linux/types.h" inc/linux/ &&
	gcc -g -O2 -c -Iinc -DFXF_NAME='"fxpast"' -DFXF_COMPAT=ptr "$KD_SRCDIR/fixtures/fops/module.c" -o past.ko &&
	gcc -g -O2 -c -Iinc -DFXF_NAME='"fxsym"' -DFXF_COMPAT=ptr "$KD_SRCDIR/fixtures/fops/module.c" -o sym.ko &&
	rm -r inc)
ok $? "two file_operations modules compiled"
python3 - fops/past.ko fops/sym.ko <<'PY'
import struct, sys
def sections(b):
	shoff, = struct.unpack_from('<Q', b, 0x28); shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
	sh = [struct.unpack_from('<IIQQQQIIQQ', b, shoff + i * shentsize) for i in range(shnum)]
	names = sh[shstrndx][4]
	return {bytes(b[names + s[0]:b.index(0, names + s[0])]).decode(): s for s in sh}
b = bytearray(open(sys.argv[1], 'rb').read()); sh = sections(b)
symtab, strtab = sh['.symtab'], sh['.strtab']
for i in range(symtab[5] // 24):
	at = symtab[4] + i * 24
	name, = struct.unpack_from('<I', b, at)
	if bytes(b[strtab[4] + name:b.index(0, strtab[4] + name)]) == b'fxf_fops':
		struct.pack_into('<Q', b, at + 8, 0xfffffffffffffff0)	# st_value
open(sys.argv[1], 'wb').write(b)
b = bytearray(open(sys.argv[2], 'rb').read()); rela = sections(b)['.rela.data.rel.ro']
for i in range(rela[5] // 24):
	at = rela[4] + i * 24
	off, info = struct.unpack_from('<QQ', b, at)
	if off == 0x18:
		struct.pack_into('<Q', b, at + 8, (0xffffff << 32) | (info & 0xffffffff))
open(sys.argv[2], 'wb').write(b)
PY
ok $? "  one symbol moved past its section, one relocation's symbol out of the table"
"$KABI_DIFF" extract -q "$k" --uapi "$uapi" --modules fops -o fops.kabi 2>err.txt
is "$?|$(cat err.txt)" "0|" "damaged file_operations: the run completes, nothing on stderr"
is "$(q fops.kabi "SELECT input || ': ' || message FROM problems WHERE stage = 'modules' ORDER BY input")" \
"fops/past.ko: file_operations fxf_fops: the member lies outside the variable's section
fops/sym.ko: file_operations fxf_fops: the pointer's relocation names no symbol of a symbol table" \
	"  each damaged object is a problem row of its module"
is "$(q fops.kabi "SELECT count(*) FROM modules")|$(q fops.kabi "SELECT count(*) FROM fops")" "2|0" \
	"  both modules kept, neither object stored"

# A FIFO given as the vmlinux fails at once instead of waiting for a writer.
mkfifo vmlinux.fifo
msg=$(timeout 30 "$KABI_DIFF" extract vmlinux.fifo -o fifo.kabi 2>&1)
is "$?|$msg" "1|kabi-diff: vmlinux.fifo: not a regular file" "a FIFO as the vmlinux: one line, exit 1"
done_testing
