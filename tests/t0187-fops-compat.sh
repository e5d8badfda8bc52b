#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The 32-bit ABI within one kernel (issue 27): each binary's struct
# file_operations objects (db/SCHEMA.md "fops") read from modules compiled
# now from fixtures/fops/module.c: compat_ioctl = compat_ptr_ioctl (a
# relocation to an undefined symbol), NULL (no relocation, zero bytes), a
# handler of its own (a section symbol plus an addend), two objects in one
# module (one in .data), and a struct file_operations of another layout
# (the offsets are the binary's own DWARF's), a native handler that knows
# an i386 number itself (its immediates), one that compares no number;
# show compat-ioctls and the
# check rule ioctl-compat-broken on them; a hostile relocation.
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
	mod fxother xlate -DFXF_OTHER_LAYOUT && mod fxnative ptr -DFXF_NATIVE32 &&
	mod fxnocmds ptr -DFXF_NOCMDS
ok $? "seven modules compiled"

"$KABI_DIFF" extract -q "$k" --uapi hdr --modules mods -o k.kabi
is "$?" "0" "extract --uapi --modules"
is "$(q k.kabi "SELECT m.name, f.name, ifnull(f.unlocked_ioctl, 'NULL'), ifnull(f.compat_ioctl, 'NULL')
	FROM fops f JOIN modules m ON m.id = f.module_id ORDER BY m.name, f.name")" \
"fxnative|fxf_fops|fxf_ioctl|compat_ptr_ioctl
fxnocmds|fxf_fops|fxf_ioctl|compat_ptr_ioctl
fxnull|fxf_fops|fxf_ioctl|NULL
fxother|fxf_fops|fxf_ioctl|fxf_compat_ioctl
fxptr|fxf_fops|fxf_ioctl|compat_ptr_ioctl
fxtwo|fxf_ctl_fops|fxf_ioctl|NULL
fxtwo|fxf_fops|fxf_ioctl|fxf_compat_ioctl
fxxlate|fxf_fops|fxf_ioctl|fxf_compat_ioctl" "every module's file_operations and its ioctl targets"
is "$(q k.kabi "SELECT count(*) FROM problems WHERE stage = 'modules'")" "0" "no problem rows"
# Only the compat_ptr_ioctl modules' code is scanned; fxnative's holds i386's FXF_IOC_LONG.
is "$(q k.kabi "SELECT m.name, printf('0x%08x', x.cmd) FROM binary_ioctl_cmds x JOIN modules m ON m.id = x.module_id
	ORDER BY 1, 2")" \
"fxnative|0x40106602
fxnative|0x40106604
fxnative|0x80086601
fxnative|0x80106601
fxptr|0x40106602
fxptr|0x40106604
fxptr|0x80106601" "binary_ioctl_cmds: the ioctl numbers of the code"
is "$(q k.kabi "SELECT m.name, b.header FROM binary_headers b JOIN modules m ON m.id = b.module_id ORDER BY 1, 2")" \
"fxnative|linux/fxfops.h
fxnocmds|linux/fxfops.h
fxnull|linux/fxfops.h
fxptr|linux/fxfops.h
fxtwo|linux/fxfops.h
fxxlate|linux/fxfops.h" "the modules that include the header"

# show compat-ioctls: FXF_IOC_SAME (the same layout on both) is not listed;
# fxother includes no header; fxtwo has two file_operations.
is "$("$KABI_DIFF" show k.kabi compat-ioctls)" \
"FXF_IOC_LONG  0x80106601 (16 bytes), ia32 0x80086601 (8 bytes)  linux/fxfops.h
  fxnative: fxf_fops: compat_ptr_ioctl, translated in the native handler (0x80086601 is in its code)
  fxnocmds: fxf_fops: compat_ptr_ioctl, but neither number is in its code: it may not serve the ioctl
  fxnull: fxf_fops: 32-bit callers get ENOTTY
  fxptr: fxf_fops: 32-bit callers broken: the 64-bit layout applied to the 32-bit struct
  fxtwo: 2 file_operations (0 compat_ptr_ioctl, 1 NULL): which one serves it is not known
  fxxlate: fxf_fops: translated by fxf_compat_ioctl
FXF_IOC_PAD  0x40106604 (16 bytes), ia32 0x400c6604 (12 bytes)  linux/fxfops.h
  fxnative: fxf_fops: compat_ptr_ioctl, the members at the same offsets (only the tail padding differs): served if the handler ignores the size
  fxnocmds: fxf_fops: compat_ptr_ioctl, the members at the same offsets (only the tail padding differs): served if the handler ignores the size
  fxnull: fxf_fops: 32-bit callers get ENOTTY
  fxptr: fxf_fops: compat_ptr_ioctl, the members at the same offsets (only the tail padding differs): served if the handler ignores the size
  fxtwo: 2 file_operations (0 compat_ptr_ioctl, 1 NULL): which one serves it is not known
  fxxlate: fxf_fops: translated by fxf_compat_ioctl
FXF_IOC_TAIL  0x40106602 (16 bytes), ia32 0x400c6602 (12 bytes)  linux/fxfops.h
  fxnative: fxf_fops: 32-bit callers broken: the 64-bit layout applied to the 32-bit struct
  fxnocmds: fxf_fops: compat_ptr_ioctl, but neither number is in its code: it may not serve the ioctl
  fxnull: fxf_fops: 32-bit callers get ENOTTY
  fxptr: fxf_fops: 32-bit callers broken: the 64-bit layout applied to the 32-bit struct
  fxtwo: 2 file_operations (0 compat_ptr_ioctl, 1 NULL): which one serves it is not known
  fxxlate: fxf_fops: translated by fxf_compat_ioctl" "show compat-ioctls: each serving module's handling"
is "$("$KABI_DIFF" show k.kabi compat-ioctls -f json | jq -c '[.[] | select(.ioctl == "FXF_IOC_TAIL") | [.binary, .fops, .compat_ioctl, .nr_fops, .handling]]')" \
'[["fxnative","fxf_fops","compat_ptr_ioctl",1,"broken"],["fxnocmds","fxf_fops","compat_ptr_ioctl",1,"unseen"],["fxnull","fxf_fops",null,1,"enotty"],["fxptr","fxf_fops","compat_ptr_ioctl",1,"broken"],["fxtwo",null,null,2,"ambiguous"],["fxxlate","fxf_fops","fxf_compat_ioctl",1,"translated"]]' \
	"show compat-ioctls -f json"

# check: only the unambiguous compat_ptr_ioctl entries are findings (exit 4):
# not FXF_IOC_PAD (the members alike), not fxnative's FXF_IOC_LONG, not
# fxnocmds (whose code compares neither number).
mkdir clean && cp "$KD_SRCDIR/fixtures/check/clean.kabispec" clean/
"$KABI_DIFF" check k.kabi --spec clean >check.txt
is "$?" "4" "check: findings, exit 4"
is "$(grep ioctl-compat-broken check.txt)" \
"6.99.1-fixture: ioctl-compat-broken: FXF_IOC_LONG: module fxptr: fxf_fops.compat_ioctl = compat_ptr_ioctl: 32-bit callers broken: the 64-bit layout applied to the 32-bit struct (linux/fxfops.h: 16 bytes, 0x80106601; ia32: 8 bytes, 0x80086601)
6.99.1-fixture: ioctl-compat-broken: FXF_IOC_TAIL: module fxnative: fxf_fops.compat_ioctl = compat_ptr_ioctl: 32-bit callers broken: the 64-bit layout applied to the 32-bit struct (linux/fxfops.h: 16 bytes, 0x40106602; ia32: 12 bytes, 0x400c6602)
6.99.1-fixture: ioctl-compat-broken: FXF_IOC_TAIL: module fxptr: fxf_fops.compat_ioctl = compat_ptr_ioctl: 32-bit callers broken: the 64-bit layout applied to the 32-bit struct (linux/fxfops.h: 16 bytes, 0x40106602; ia32: 12 bytes, 0x400c6602)" \
	"check: one finding per ioctl and compat_ptr_ioctl driver"
"$KABI_DIFF" check k.kabi --spec clean -f json >check.json
is "$(jq -r '[.findings[] | select(.rule == "ioctl-compat-broken") | .subject] | join(" ")' check.json)" \
	"FXF_IOC_LONG FXF_IOC_TAIL FXF_IOC_TAIL" "check -f json: the same findings"

# Without modules: the serving binary cannot be told.
"$KABI_DIFF" extract -q "$k" --uapi hdr -o nomods.kabi
is "$("$KABI_DIFF" show nomods.kabi compat-ioctls | sed -n 1,2p)" \
"FXF_IOC_LONG  0x80106601 (16 bytes), ia32 0x80086601 (8 bytes)  linux/fxfops.h
  the serving binary cannot be told: no modules read (extract --modules)" "no modules: said so"
out=$("$KABI_DIFF" show nomods.kabi compat-ioctls --abi x64 2>&1)
is "$?|$out" "1|kabi-diff: nomods.kabi: compat-ioctls: 'x64' is the kernel's own ABI; name a compat one (ia32)" \
	"--abi x64 refused"

# A hostile module: the relocation of compat_ioctl names symbol 0xffffff.
# One problem row, the module and its other objects kept.
mkdir -p bad && cp mods/fxptr.ko bad/ && python3 - bad/fxptr.ko <<'PY'
import struct, sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
shoff, = struct.unpack_from('<Q', b, 0x28); shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
sh = [struct.unpack_from('<IIQQQQIIQQ', b, shoff + i * shentsize) for i in range(shnum)]
names = sh[shstrndx][4]
name = lambda s: bytes(b[names + s[0]:b.index(0, names + s[0])]).decode()
rela = [s for s in sh if name(s) == '.rela.data.rel.ro'][0]
for i in range(rela[5] // 24):
	at = rela[4] + i * 24
	off, info = struct.unpack_from('<QQ', b, at)
	if off == 0x18:
		struct.pack_into('<Q', b, at + 8, (0xffffff << 32) | (info & 0xffffffff))
open(p, 'wb').write(b)
PY
ok $? "a relocation patched to name no symbol"
"$KABI_DIFF" extract -q "$k" --uapi hdr --modules bad -o bad.kabi
is "$?" "0" "extract of the hostile module succeeds"
is "$(q bad.kabi "SELECT stage, message FROM problems")" \
"modules|file_operations fxf_fops: the pointer's relocation names no symbol of a symbol table" "one problem row"
is "$(q bad.kabi "SELECT count(*) FROM fops")|$(q bad.kabi "SELECT count(*) FROM modules")" "0|1" \
	"the object is left out, the module kept"

done_testing
