#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# extract --uapi compiles the headers as user space does: every type a
# header declares (no kernel DWARF has these) with its layout, the ioctl
# numbers they size, a header that does not compile alone as a problem
# with the compiler's reason, two headers that clash in one compiler run
# both read, a type from the C library, the compiled tree cached by
# content (an edit that keeps size and mtime is seen), no compiler. The
# ioctls of headers that take _IOR() from <sys/ioctl.h> (input.h) or from
# nothing (usbdevice_fs.h), numbers that are enumerators (binder.h) or use
# one (autofs), an ioctl that does not evaluate: a problem row.
. "$KD_SRCDIR/lib.sh"

k=$(fixture_kernel v1)
XDG_CACHE_HOME=$PWD/cache	# this test's own cache entries
export XDG_CACHE_HOME
fx=$KD_SRCDIR/fixtures/uapi
tree=$KD_TMPDIR/compiled-tree
header_tree "$tree"
cp -r "$fx/compiled/." "$tree/"
db=$KD_TMPDIR/compiled.kabi

"$KABI_DIFF" extract -q "$k" --uapi "$tree" -o "$db"
is "$?" "0" "extract --uapi with the headers compiled"
is "$(q "$db" "SELECT i.name, printf('0x%08x', i.cmd), i.size, ifnull(t.kind || ' ' || t.name, i.arg_type_text)
	FROM ioctls i LEFT JOIN types t ON t.id = i.arg_type WHERE i.arg_type_text IS NOT NULL ORDER BY i.name")" \
"FXC_BINDER_VERSION|0x40046209|4|__s32
FXC_BINDER_WRITE_READ|0xc0106201|16|struct fxc_binder_rw
FXC_EVIOCGID|0x80044502|4|struct fxc_input_id
FXC_EVIOCGVERSION|0x80044501|4|int
FXC_IOC_GET|0x80105801|16|struct fxc_args
FXC_IOC_POINT|0x40085802|8|typedef fxc_point_t
FXC_IOC_U|0xc0085803|8|union fxc_u
FXC_USB_CONTROL|0xc0105500|16|struct fxc_ctrl" "ioctl numbers from the header view (the values gcc gives)"
is "$(q "$db" "SELECT name, printf('0x%08x', cmd), source FROM ioctls WHERE arg_type_text IS NULL ORDER BY name")" \
"FXC_AUTOFS_IOC_FAIL|0x00009361|macro
FXC_AUTOFS_IOC_READY|0x00009360|macro
FXC_IOMMU_ALLOC|0x00003b82|macro
FXC_IOMMU_DESTROY|0x00003b80|macro" "_IO() with an enumerator as its number (autofs; iommufd's 0x80 and up, not sign-extended)"
is "$(q "$db" "SELECT source, count(*) FROM ioctls GROUP BY source")" "enumerator|2
macro|10" "two ioctls are enumerators; the one under __KERNEL__ is not user space's"
is "$(q "$db" "SELECT value FROM constants WHERE name = 'FXC_ARGS_SIZE'")" "16" "sizeof in a #define"
is "$(q "$db" "SELECT name, value, ctype FROM constants WHERE name LIKE 'FXC_PRI%' OR name LIKE '%_MAX' ORDER BY name")" \
"FXC_PRI_FIRST|-2147483648|int
FXC_PRI_LAST|2147483647|int
FXC_ULONG_MAX|-1|unsigned long" "<limits.h> gives glibc's values; its own macros are not the tree's constants"
is "$(q "$db" "SELECT u.file || ':' || u.line, t.kind, ifnull(t.name, '-'), t.size FROM uapi_types u
	JOIN types t ON t.id = u.type_id WHERE u.file LIKE 'linux/fxc%' ORDER BY u.file, u.line")" \
"linux/fxc.h:12|struct|fxc_args|16
linux/fxc.h:18|union|fxc_u|8
linux/fxc.h:25|typedef|fxc_point_t|8
linux/fxc.h:27|enum|fxc_mode|4
linux/fxc.h:32|enum|-|4
linux/fxc_clash_a.h:9|struct|fxc_clash|4
linux/fxc_clash_a.h:12|struct|fxc_only_a|2
linux/fxc_clash_b.h:5|struct|fxc_clash|8
linux/fxc_clash_b.h:8|struct|fxc_only_b|3
linux/fxc_enum.h:13|struct|fxc_binder_rw|16
linux/fxc_enum.h:18|enum|-|4
linux/fxc_enum.h:27|enum|-|4
linux/fxc_enum.h:33|enum|-|4
linux/fxc_input.h:14|struct|fxc_input_id|4
linux/fxc_libc.h:8|struct|fxc_event|24
linux/fxc_loop.h:11|struct|fxc_loop_config|24
linux/fxc_noinc.h:10|struct|fxc_ctrl|16" "every type the headers declare, anonymous enums included"
is "$(q "$db" "SELECT e.name, e.value FROM uapi_types u JOIN types t ON t.id = u.type_id
	JOIN enumerators e ON e.type_id = t.id WHERE u.file = 'linux/fxc.h' AND t.name IS NULL ORDER BY e.idx")" \
"FXC_FLAG_X|16
FXC_FLAG_Y|32" "the anonymous enum's enumerators"
is "$(q "$db" "SELECT m.name, m.offset, t.name, t.size FROM members m JOIN types s ON s.id = m.type_id
	JOIN types t ON t.id = m.member_type WHERE s.name = 'fxc_event' ORDER BY m.idx")" \
"time|0|timeval|16
type|16|__u16|2
value|20|__s32|4" "a member whose type comes from the C library (<sys/time.h>)"
is "$(q "$db" "SELECT stage, location, message FROM problems ORDER BY id")" \
"uapi|linux/fxc_bad.h|does not compile on its own, so its types have no header view: linux/fxc_bad.h:5:2: error: #error \"fxc_bad.h: include <linux/fxc.h> instead\"
uapi|linux/fxc_clash_b.h|struct fxc_clash: another size than in linux/fxc_clash_a.h:9 (depending on what was included before; sizes are taken from linux/fxc_clash_a.h)
uapi|linux/fxc_bad.h:5|#error \"fxc_bad.h: include <linux/fxc.h> instead\"
uapi|linux/fxc_enum.h:44|FXC_IOC_BROKEN: an ioctl number that does not evaluate: not a constant (unknown identifier)" \
	"problems: the header that does not compile alone, the clash, the ioctl without a number"
is "$(q "$db" "SELECT value FROM meta WHERE key = 'uapi_compiled'")" "12 of 13" "12 of the 13 headers compiled"

is "$("$KABI_DIFF" show "$db" ioctl FXC_IOC_GET | sed -n 6p)" \
	"  size       16 bytes (header view, linux/fxc.h:12)" "show ioctl: the size is the header view's"
is "$("$KABI_DIFF" show "$db" struct fxc_clash | grep -E '^/\* (header|struct)')" \
"/* struct fxc_clash: layout 1 of 2 */
/* header view: linux/fxc_clash_a.h:9 */
/* struct fxc_clash: layout 2 of 2 */
/* header view: linux/fxc_clash_b.h:5 */" "show struct: each layout with its view"
is "$("$KABI_DIFF" show "$db" struct open_how | head -1)" \
	"/* kernel DWARF (no header declares this layout) */" "show struct: a layout of the kernel's DWARF"

# The compiled tree is cached by content.
cache=$XDG_CACHE_HOME/kabi-diff/uapi
is "$(ls "$cache" | sed 's/^[0-9a-f]\{64\}\././' | sort | tr '\n' ' ')" ".idx .so units " \
	"one cache entry, named by a SHA-256 key, and the units' directory"
is "$(ls "$cache/units" | sed 's/^[0-9a-f]\{64\}\.0\./0./' | sort | uniq -c | awk '{ printf "%s %s ", $1, $2 }')" \
	"13 0.idx 12 0.o " "  a unit entry per header in slot 0, an object per compiled one"
"$KABI_DIFF" extract -q "$k" --uapi "$tree" -o "$KD_TMPDIR/again.kabi"
is "$(q "$KD_TMPDIR/again.kabi" "SELECT value FROM meta WHERE key = 'uapi_compiled'")" "12 of 13 (cached)" \
	"second extraction: from the cache"
is "$(q "$KD_TMPDIR/again.kabi" "SELECT name || ' ' || printf('0x%08x', cmd) FROM ioctls ORDER BY name")" \
	"$(q "$db" "SELECT name || ' ' || printf('0x%08x', cmd) FROM ioctls ORDER BY name")" "the same numbers from the cache"
# Same size, same modification time, another layout: only the content tells.
touch -r "$tree/linux/fxc.h" "$KD_TMPDIR/stamp"
sed -i 's/__u16 b;/__u32 b;/' "$tree/linux/fxc.h"
touch -r "$KD_TMPDIR/stamp" "$tree/linux/fxc.h"
"$KABI_DIFF" extract -q "$k" --uapi "$tree" -o "$KD_TMPDIR/edited.kabi"
is "$(q "$KD_TMPDIR/edited.kabi" "SELECT value FROM meta WHERE key = 'uapi_compiled'")" "12 of 13" \
	"an edited header: compiled again"
is "$(q "$KD_TMPDIR/edited.kabi" "SELECT t.name || ' ' || m.offset FROM members m JOIN types s ON s.id = m.type_id
	JOIN types t ON t.id = m.member_type WHERE s.name = 'fxc_args' AND m.name = 'b'")" "__u32 4" \
	"the edited layout is read"
is "$(ls "$cache" | grep -c '\.idx$')" "2" "a second cache entry"

# No compiler: the headers' types come from DWARF only, and the report says so.
out=$(KABI_DIFF_CC=/nonexistent/cc "$KABI_DIFF" extract "$k" --uapi "$tree" -o "$KD_TMPDIR/nocc.kabi" 2>&1)
is "$?" "0" "no compiler: the extraction completes"
echo "$out" | grep -q "^kabi-diff: warning: /nonexistent/cc: C compiler not found"
ok $? "no compiler: a warning"
is "$(q "$KD_TMPDIR/nocc.kabi" "SELECT count(*) FROM uapi_types; SELECT count(*) FROM ioctls WHERE cmd IS NULL;
	SELECT count(*) FROM problems WHERE message LIKE '%C compiler not found%'" | tr '\n' ' ')" "0 6 1 " \
	"no compiler: no header view, the ioctls of 6 struct arguments unsized, a problem row"
done_testing
