#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The 32-bit ABI within one kernel (issue 27): each binary's struct
# file_operations objects (db/SCHEMA.md "fops") read from modules compiled
# now from fixtures/fops/module.c: compat_ioctl = compat_ptr_ioctl (a
# relocation to an undefined symbol), NULL (no relocation, zero bytes), a
# handler of its own (a section symbol plus an addend), two objects in one
# module (one in .data), and a struct file_operations of another layout
# (the offsets are the binary's own DWARF's).
. "$KD_SRCDIR/lib.sh"

KABI_DIFF_NO_COMPAT=
XDG_CACHE_HOME=$PWD/cache
export XDG_CACHE_HOME
need_ia32_libc
k=$(fixture_kernel v1-dwarf5 -gdwarf-5) || { ok 1 "fixture kernel"; done_testing; }
fx=$KD_SRCDIR/fixtures/fops
header_tree hdr "$fx/fxfops.h" linux/fxfops.h
mkdir -p src/include/uapi/linux mods && cp "$fx/fxfops.h" src/include/uapi/linux/ || exit 1
mod() {	# mod NAME COMPAT [gcc flags]: mods/NAME.ko, the header found as Kbuild names it
	name=$1 compat=$2; shift 2
	(cd src && gcc -g -O2 -c -Iinclude/uapi -I../hdr -DFXF_NAME="\"$name\"" -DFXF_COMPAT="$compat" \
		"$@" "$fx/module.c" -o "../mods/$name.ko")
}
mod fxptr ptr && mod fxnull null && mod fxxlate xlate && mod fxtwo xlate -DFXF_TWO &&
	mod fxother xlate -DFXF_OTHER_LAYOUT
ok $? "five modules compiled"

"$KABI_DIFF" extract -q "$k" --uapi hdr --modules mods -o k.kabi
is "$?" "0" "extract --uapi --modules"
is "$(q k.kabi "SELECT m.name, f.name, ifnull(f.unlocked_ioctl, 'NULL'), ifnull(f.compat_ioctl, 'NULL')
	FROM fops f JOIN modules m ON m.id = f.module_id ORDER BY m.name, f.name")" \
"fxnull|fxf_fops|fxf_ioctl|NULL
fxother|fxf_fops|fxf_ioctl|fxf_compat_ioctl
fxptr|fxf_fops|fxf_ioctl|compat_ptr_ioctl
fxtwo|fxf_ctl_fops|fxf_ioctl|NULL
fxtwo|fxf_fops|fxf_ioctl|fxf_compat_ioctl
fxxlate|fxf_fops|fxf_ioctl|fxf_compat_ioctl" "every module's file_operations and its ioctl targets"
is "$(q k.kabi "SELECT count(*) FROM problems WHERE stage = 'modules'")" "0" "no problem rows"
is "$(q k.kabi "SELECT m.name, b.header FROM binary_headers b JOIN modules m ON m.id = b.module_id ORDER BY 1, 2")" \
"fxnull|linux/fxfops.h
fxptr|linux/fxfops.h
fxtwo|linux/fxfops.h
fxxlate|linux/fxfops.h" "the modules that include the header"

done_testing
