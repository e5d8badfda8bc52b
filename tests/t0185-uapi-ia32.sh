#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The 32-bit header view (issue 27): the UAPI headers compiled as an i386
# program compiles them (gcc -m32), stored beside the x86_64 view: every
# type's i386 layout (a __u64 after a __u32 is 4-aligned, a long is 4
# bytes) and every ioctl's i386 command number, as gcc -m32 computes it;
# `show --abi ia32`; the native view untouched; cached under its own key;
# a missing 32-bit C library a note, not an error.
. "$KD_SRCDIR/lib.sh"

KABI_DIFF_NO_COMPAT=
XDG_CACHE_HOME=$PWD/cache
export XDG_CACHE_HOME
CC=${CC:-cc}
need_ia32_libc
fx=$KD_SRCDIR/fixtures/ia32
header_tree v1 "$fx/fxia-v1.h" linux/fxia.h

"$KABI_DIFF" extract -q --uapi v1 -o v1.kabi
is "$?" "0" "extract --uapi: both views"
is "$(q v1.kabi "SELECT value FROM meta WHERE key = 'uapi_compat'")" \
	"ia32: 3 of 3 headers compiled, 5 ioctls (0 without a number)" "meta uapi_compat says what was built"

# The numbers gcc -m32 gives, read from the assembly of static initializers (no i386 program runs).
{ printf '#include <linux/fxia.h>\n'
  for n in FXIA_TAIL FXIA_LONG FXIA_SAME FXIA_PLAIN FXIA_PTR; do
	printf 'unsigned int kd_%s = %s;\n' "$n" "$n"
  done; } >o.c
$CC -m32 -S -Iv1 -o o.s o.c
is "$?" "0" "the oracle compiles with -m32"
awk '/^kd_[A-Z_]*:/ { n = substr($1, 4); sub(/:$/, "", n) } /\.long/ && n { v = $2 < 0 ? $2 + 4294967296 : $2; printf "%s|0x%08x\n", n, v; n = "" }' o.s |
	sort >oracle.txt
is "$(q v1.kabi "SELECT name, printf('0x%08x', cmd) FROM compat_ioctls WHERE abi = 'ia32' ORDER BY name")" \
	"$(cat oracle.txt)" "every ia32 number is gcc -m32's"
is "$(q v1.kabi "SELECT i.name, printf('0x%08x', i.cmd), printf('0x%08x', c.cmd), i.size, c.size
	FROM ioctls i JOIN compat_ioctls c ON c.name = i.name ORDER BY i.name")" \
"FXIA_LONG|0x80107802|0x80087802|16|8
FXIA_PLAIN|0x40087804|0x40047804|8|4
FXIA_PTR|0x40087805|0x40047805|8|4
FXIA_SAME|0xc0087803|0xc0087803|8|8
FXIA_TAIL|0x40107801|0x400c7801|16|12" "x86_64 and i386 sizes and numbers side by side"

# Types: one row when both ABIs lay a type out alike, the i386 rows hidden from native readers.
is "$(q v1.kabi "SELECT t.name, t.size, t.align, EXISTS (SELECT 1 FROM uapi_types u WHERE u.type_id = t.id),
	EXISTS (SELECT 1 FROM compat_only_types o WHERE o.type_id = t.id)
	FROM compat_types c JOIN types t ON t.id = c.type_id WHERE c.file = 'linux/fxia.h' ORDER BY t.name")" \
"fxia_long|8|4|0|1
fxia_only32|2|2|0|1
fxia_same|8|4|1|0
fxia_tail|12|4|0|1" "the ia32 view: shared rows and its own"
is "$("$KABI_DIFF" show v1.kabi struct fxia_tail --abi ia32)" \
"/* ia32 header view */
struct fxia_tail {
	__u32 a;                                         /*     0     4 */
	__u64 b;                                         /*     4     8 */

	/* size: 12, align: 4, members: 2 */
};
/* declared at linux/fxia.h:9 */" "show struct --abi ia32: the i386 layout"
is "$("$KABI_DIFF" show v1.kabi struct fxia_tail | grep size:)" "	/* size: 16, align: 8, members: 2 */" \
	"show struct: the x86_64 layout only"
is "$("$KABI_DIFF" show v1.kabi struct fxia_tail --abi x64 | grep size:)" "	/* size: 16, align: 8, members: 2 */" \
	"--abi x64: the native view"
out=$("$KABI_DIFF" show v1.kabi struct fxia_only32 2>&1)
is "$?|$out" "1|kabi-diff: v1.kabi: no struct named 'fxia_only32' (only types reachable from syscalls and ioctls are recorded)" \
	"an i386-only type is no native one"
is "$("$KABI_DIFF" show v1.kabi ioctls --abi ia32)" \
"0x80087802  r    FXIA_LONG                                struct fxia_long
0x40047804  w    FXIA_PLAIN                               long
0x40047805  w    FXIA_PTR                                 char *
0xc0087803  rw   FXIA_SAME                                struct fxia_same
0x400c7801  w    FXIA_TAIL                                struct fxia_tail" "show ioctls --abi ia32: the columns of show ioctls"
is "$("$KABI_DIFF" show v1.kabi ioctl FXIA_LONG --abi ia32 | sed -n '1p;6p')" \
"ioctl FXIA_LONG (ia32): 0x80087802
  size       8 bytes (the ia32 header view)" "show ioctl --abi ia32"
# The same as JSON: the native view's objects, the ia32 values.
is "$("$KABI_DIFF" show v1.kabi struct fxia_tail --abi ia32 -f json |
	jq -c '.[0] | [.name, .size, .align, [.members[] | .offset]]')" '["fxia_tail",12,4,[0,4]]' \
	"show struct --abi ia32 -f json: the i386 layout"
is "$("$KABI_DIFF" show v1.kabi struct fxia_tail -f json | jq -c '.[0] | [.size, .align]')" '[16,8]' \
	"  without --abi: the x86_64 one"
is "$("$KABI_DIFF" show v1.kabi ioctls --abi ia32 -f json | jq -r '.[] | "\(.name) \(.cmd) \(.size)"' | tr '\n' ';')" \
	"FXIA_LONG $((0x80087802)) 8;FXIA_PLAIN $((0x40047804)) 4;FXIA_PTR $((0x40047805)) 4;FXIA_SAME $((0xc0087803)) 8;FXIA_TAIL $((0x400c7801)) 12;" \
	"show ioctls --abi ia32 -f json: the i386 numbers and sizes"
is "$("$KABI_DIFF" show v1.kabi ioctl FXIA_TAIL --abi ia32 -f json | jq -c '[.[] | .cmd, .size]')" "[$((0x400c7801)),12]" \
	"show ioctl --abi ia32 -f json"
out=$("$KABI_DIFF" show v1.kabi ioctl NOPE --abi ia32 -f json 2>&1)
is "$?|$(echo "$out" | grep -c kabi-diff:)" "1|1" "  a name the view lacks: exit 1, one line"
out=$("$KABI_DIFF" show v1.kabi struct nope --abi ia32 2>&1)
is "$?|$out" "1|kabi-diff: v1.kabi: no struct named 'nope' in the ia32 header view" "a name the view lacks"
"$KABI_DIFF" show v1.kabi info | grep -q '^uapi_compat  *ia32: 3 of 3 headers compiled'
ok $? "show info names the 32-bit view"

# Cached under its own key (the ABI's name and flags are part of it).
is "$(ls cache/kabi-diff/uapi | grep -c '\.idx$')" "2" "two cache entries: x86_64 and i386"
"$KABI_DIFF" extract -q --uapi v1 -o v1b.kabi
is "$(q v1b.kabi "SELECT value FROM meta WHERE key IN ('uapi_compiled', 'uapi_compat') ORDER BY key")" \
"ia32: 3 of 3 headers compiled (cached), 5 ioctls (0 without a number)
3 of 3 (cached)" "a second extraction: both from the cache"

# No 32-bit C library (libc6-dev-i386 missing): a note, the native view as before.
cat >cc-no32.sh <<EOF2
#!/bin/sh
for a; do [ "\$a" = -m32 ] && { echo "sys/types.h: No such file or directory" >&2; exit 1; }; done
exec $CC "\$@"
EOF2
chmod +x cc-no32.sh
KABI_DIFF_CC=$PWD/cc-no32.sh "$KABI_DIFF" extract -q --uapi v1 -o no32.kabi
is "$?" "0" "no 32-bit C library: extracted"
is "$(q no32.kabi "SELECT value FROM meta WHERE key = 'uapi_compat'")|$(q no32.kabi "SELECT count(*) FROM compat_ioctls")|$(q no32.kabi "SELECT count(*) FROM ioctls")" \
	"ia32: not built: $PWD/cc-no32.sh -m32: cannot compile for ia32 user space (no C library for it; Debian: apt-get install libc6-dev-i386)|0|5" \
	"  a note, no ia32 rows, the native ioctls"
KABI_DIFF_NO_COMPAT=1 "$KABI_DIFF" extract -q --uapi v1 -o off.kabi
is "$(q off.kabi "SELECT value FROM meta WHERE key = 'uapi_compat'")" \
	'ia32: not built ($KABI_DIFF_NO_COMPAT is set)' "KABI_DIFF_NO_COMPAT: not built, said so"
out=$("$KABI_DIFF" show off.kabi ioctls --abi ia32 2>&1)
is "$?|$out" '1|kabi-diff: off.kabi: no header view of ABI '"'ia32'"' (ia32: not built ($KABI_DIFF_NO_COMPAT is set))' \
	"show --abi ia32 of a file without the view says why"
done_testing
