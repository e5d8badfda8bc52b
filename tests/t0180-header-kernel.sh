#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Kernel vs header (diff/RULES.md): the sample kernel with a module whose
# DWARF declares fxhk.h's structs in include/uapi/linux/fxhk.h
# (tests/fixtures/header-kernel/), extracted with that header in its UAPI
# tree. Built with FXHK_EQUAL the kernel lays every struct out as the
# header does: no finding. Without, struct fxhk_moved (an ioctl's
# argument) has another size and members elsewhere: breaking when the old
# kernel had no such difference, info when it had the same; fxhk_extra,
# which only the kernel's fxhk_moved reaches, info; a user-space-only
# alias in a union and a kernel-internal fxhk_private (include/linux) are
# never reported.
. "$KD_SRCDIR/lib.sh"

fx=$KD_SRCDIR/fixtures
k=$(fixture_kernel v1)
mkdir -p eq ne
cp -r "$fx/kernel-uapi" inc && cp "$fx/header-kernel/fxhk.h" inc/uapi/linux/
gcc -g -O2 -c -DFXHK_EQUAL "$fx/header-kernel/module.c" -o eq/fxhk.ko &&
	gcc -g -O2 -c "$fx/header-kernel/module.c" -o ne/fxhk.ko
ok "$?" "the module, with the header's layouts and with others"
for v in eq ne; do
	"$KABI_DIFF" extract -q "$k" --uapi inc --modules $v -o $v.kabi
	is "$?" 0 "extract --uapi --modules ($v)"
done
is "$(q ne.kabi "SELECT t.name || ' ' || t.size || ' ' || t.decl_file FROM types t
	WHERE t.name LIKE 'fxhk%' AND t.id NOT IN (SELECT type_id FROM uapi_types) ORDER BY 1")" \
"fxhk_alias 8 include/uapi/linux/fxhk.h
fxhk_extra 8 include/uapi/linux/fxhk.h
fxhk_moved 16 include/uapi/linux/fxhk.h
fxhk_private 16 include/linux/fxhk.h" "the kernel's own layouts, beside the header view's"

hk() {
	jq -r '.changes[] | select(.kind == "type.header-kernel") |
		[.subject, .old, .new, .verdict, .rule] | join(" | ")' "$1"
}
"$KABI_DIFF" eq.kabi eq.kabi -f json >eq-eq.json
is "$?" 0 "the header's layouts in the kernel: exit 0"
is "$(hk eq-eq.json)" "" "  no finding (fxhk_alias's user-space-only member is an alias)"

"$KABI_DIFF" eq.kabi ne.kabi -f json >eq-ne.json
is "$?" 12 "a new kernel whose layout is not its header's: exit 12"
is "$(hk eq-ne.json)" \
"struct fxhk_moved | 8 bytes | 16 bytes | breaking | header-kernel-mismatch
struct fxhk_moved.a | at 0, 4 bytes | at 0, 8 bytes | breaking | header-kernel-mismatch
struct fxhk_moved.b | at 4, 4 bytes | at 8, 4 bytes | breaking | header-kernel-mismatch
struct fxhk_extra | 4 bytes | 8 bytes | info | header-kernel-mismatch-unreached
struct fxhk_extra.v | at 0, 4 bytes | at 0, 8 bytes | info | header-kernel-mismatch-unreached" \
	"  each difference a change: size and members breaking (an ioctl's argument), fxhk_extra info; fxhk_private (include/linux) none"
is "$(jq -r '.changes[] | select(.subject == "struct fxhk_moved.b") |
	[.evidence.kind, .evidence.text, .cause, (.impact | map(.path) | join(","))] | join(" | ")' eq-ne.json)" \
	"kernel | the new kernel's DWARF (include/uapi/linux/fxhk.h:20) against its header linux/fxhk.h compiled as user space compiles it | struct fxhk_moved (header vs kernel) | linux/fxhk.h -> struct fxhk_moved" \
	"  its evidence: the DWARF's declaration and the header"

"$KABI_DIFF" ne.kabi ne.kabi -f json >ne-ne.json
is "$?" 4 "the same difference in both kernels: exit 4 (info only)"
is "$(hk ne-ne.json | grep -c 'info | header-kernel-mismatch-kept$')" 3 "  fxhk_moved's three: kept, info"

"$KABI_DIFF" ne.kabi eq.kabi -f json >ne-eq.json
is "$(hk ne-eq.json)" "" "a new kernel that fixed it: no finding"
done_testing
