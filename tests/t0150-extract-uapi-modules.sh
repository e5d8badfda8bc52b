#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# extract --uapi --modules on the sample kernel, its UAPI tree (source
# layout, asm/ resolved through asm-generic/) and a relocatable module:
# ioctl numbers sized from vmlinux and module DWARF, an unknown type as a
# problem, constants with their C types, enum linking, show output.
. "$KD_SRCDIR/lib.sh"

k=$(fixture_kernel v1-dwarf5 -gdwarf-5)
mods=$KD_TMPDIR/uapi-mods
mkdir -p "$mods"
gcc -g -O2 -c -DFXMOD_NAME='"fxmod"' "$KD_SRCDIR/fixtures/module.c" -o "$mods/fxmod.ko"
db=$KD_TMPDIR/uapi.kabi
"$KABI_DIFF" extract -q "$k" --uapi "$KD_SRCDIR/fixtures/kernel-uapi" --modules "$mods" -o "$db"
is "$?" "0" "extract with --uapi and --modules"

is "$(q "$db" "SELECT i.name, i.dir, ifnull(i.size,'-'), i.size_trusted, CASE WHEN i.cmd IS NULL THEN '-' ELSE printf('0x%08x', i.cmd) END,
		ifnull(m.name,'vmlinux'), ifnull(t.kind || ' ' || t.name, '-')
	FROM ioctls i LEFT JOIN modules m ON m.id = i.module_id LEFT JOIN types t ON t.id = i.arg_type
	ORDER BY i.name")" \
"FXK_IOC_CREATE|rw|32|1|0xc0204601|fxmod|struct fxmod_create
FXK_IOC_GHOST|r|-|0|-|vmlinux|-
FXK_IOC_HOW|w|24|1|0x40184602|vmlinux|struct open_how
FXK_IOC_RESET|none|0|1|0x00004605|vmlinux|-
FXK_IOC_STAT|r|64|1|0x80404603|vmlinux|struct fx_stat" "ioctls: numbers, sizes, where the type was found"

is "$(q "$db" "SELECT stage, location, message FROM problems")" \
"uapi|linux/fxkernel.h:17|FXK_IOC_GHOST: type 'struct fxk_ghost' is declared by no header that compiles for this architecture and is in no DWARF of the kernel; size and command number unknown
uapi|linux/fxkernel.h:25|FXK_NAME: not an integer constant (string)" \
	"a type in no DWARF is a problem row, a string macro another"

is "$(q "$db" "SELECT c.name, c.value, c.ctype, ifnull(t.name, '-') FROM constants c
	LEFT JOIN types t ON t.id = c.enum_type WHERE c.name LIKE 'FX%' ORDER BY c.name")" \
"FXK_ARCH_FLAG|256|int|-
FXK_FLAGS|280|unsigned int|-
FXK_FLAG_A|8|unsigned int|-
FXK_FLAG_B|16|unsigned int|-
FXK_HOW_SIZE|24|unsigned long|-
FX_MODE_ON|1|int|fx_mode" "constants: values, C types, sizeof from DWARF, enum link"
is "$(q "$db" "SELECT count(*) FROM constants WHERE name = 'FXK_NAME'")" "0" "a string macro is skipped"

is "$(q "$db" "SELECT m.name, count(o.type_id) FROM modules m LEFT JOIN type_origins o ON o.module_id = m.id GROUP BY m.id")" \
	"fxmod|1" "module recorded with the type it defines for an ioctl"

show=$("$KABI_DIFF" show "$db" ioctl FXK_IOC_CREATE)
is "$(echo "$show" | sed -n '1,7p')" \
"ioctl FXK_IOC_CREATE: 0xc0204601
  direction  rw (_IOWR)
  type       'F' (0x46)
  nr         1 (0x01)
  argument   struct fxmod_create
  size       32 bytes (from DWARF, module fxmod)
  defined    linux/fxkernel.h:14" "show ioctl"
echo "$show" | grep -q '__u64 size;  *\/\*    24     8 \*\/'
ok $? "show ioctl prints the argument layout"
is "$("$KABI_DIFF" show "$db" const FXK_FLAGS)" \
"FXK_FLAGS = 280 (0x118, unsigned int)
  #define FXK_FLAGS (FXK_FLAG_A | FXK_FLAG_B | FXK_ARCH_FLAG)
  defined at linux/fxkernel.h:23" "show const"
is "$("$KABI_DIFF" show "$db" ioctls --module fxmod)" \
"0xc0204601  rw   FXK_IOC_CREATE                           struct fxmod_create" "show ioctls --module"
out=$("$KABI_DIFF" show "$db" ioctls --module nosuch 2>&1)
is "$?|$out" "1|kabi-diff: $db: no ioctls whose argument type comes from module 'nosuch'" "unknown module"

# An ioctl whose number is an enumerator (dm-ioctl.h's _IOWR(DM_IOCTL,
# DM_VERSION_CMD, struct dm_ioctl)) and whose type only a module defines:
# the first reading, which learns the type names to look for, does not
# stop at the enumerator, so the module is read for the type.
en=$KD_TMPDIR/uapi-enum
cp -R "$KD_SRCDIR/fixtures/kernel-uapi" "$en" && cat >"$en/uapi/linux/fxenum.h" <<'EOF2'
#include <asm/ioctl.h>
enum { FXE_QUERY_CMD = 9 };
#define FXE_IOC_QUERY _IOWR('E', FXE_QUERY_CMD, struct fxmod_query)
EOF2
"$KABI_DIFF" extract -q "$k" --uapi "$en" --modules "$mods" -o "$KD_TMPDIR/en.kabi"
is "$(q "$KD_TMPDIR/en.kabi" "SELECT i.name, i.size, printf('0x%08x', i.cmd), ifnull(m.name, 'vmlinux'), t.name
	FROM ioctls i LEFT JOIN modules m ON m.id = i.module_id LEFT JOIN types t ON t.id = i.arg_type
	WHERE i.name = 'FXE_IOC_QUERY'")" "FXE_IOC_QUERY|32|0xc0204509|fxmod|fxmod_query" \
	"an ioctl numbered by an enumerator: its type read from the module that defines it"
is "$(q "$KD_TMPDIR/en.kabi" "SELECT count(*) FROM type_origins o JOIN types t ON t.id = o.type_id
	WHERE t.name = 'fxmod_query' AND o.module_id IS NOT NULL")" 1 "  and recorded as the module's type"

# --modules on an empty directory: a warning, the run completes.
mkdir -p "$KD_TMPDIR/empty-mods"
out=$("$KABI_DIFF" extract "$k" --uapi "$KD_SRCDIR/fixtures/kernel-uapi" --modules "$KD_TMPDIR/empty-mods" -o "$KD_TMPDIR/e.kabi" 2>&1 >/dev/null | head -1)
is "$out" "kabi-diff: warning: $KD_TMPDIR/empty-mods: no kernel modules (*.ko) found" "empty modules directory: warning"
is "$(q "$KD_TMPDIR/e.kabi" "SELECT ifnull(size,'-') FROM ioctls WHERE name='FXK_IOC_CREATE'")" "-" \
	"without the module the struct is unsized"
done_testing
