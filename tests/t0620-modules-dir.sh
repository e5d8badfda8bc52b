#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --modules on an empty directory and on 4,000 modules among which some
# cannot be read. Permissions cannot make a file unreadable for root (CI
# runs as root), so the unreadable ones are what fails for root too: a FIFO
# (opening it would wait forever for a writer), a directory named x.ko, a
# dangling symlink, and a file that is not ELF. The run completes, in
# bounded time, and lists what it could not read.
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

# A FIFO given as the vmlinux fails at once instead of waiting for a writer.
mkfifo vmlinux.fifo
msg=$(timeout 30 "$KABI_DIFF" extract vmlinux.fifo -o fifo.kabi 2>&1)
is "$?|$msg" "1|kabi-diff: vmlinux.fifo: not a regular file" "a FIFO as the vmlinux: one line, exit 1"
done_testing
