#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The source paths a .kabi stores (DW_AT_decl_file of types and syscalls;
# SARIF annotates those lines) are relative to the kernel's source tree
# when the build shows where that tree is, absolute otherwise, wherever
# the tree and the build directory live:
# - an in-tree build: relative to the build directory, the tree;
# - a build directory inside the tree (Debian's debian/build/...): relative
#   to the tree, the directory above the build whose include/ the sources
#   include from;
# - a build directory beside the tree (O=../out), or a source that is no
#   tree's: absolute, not relative to the directory the two happen to
#   share (a fixture built under /tmp is not "x-gate/tests/..." of /tmp).
# The fixture kernel's struct fx_bits is declared, through #line, in the
# tree's include/uapi/linux/fxbits.h.
. "$KD_SRCDIR/lib.sh"

top=$PWD
mkdir -p tree/kernel tree/include/uapi/linux tree/debian/build out src build
cp "$KD_SRCDIR/fixtures/build-kernel.sh" tree/kernel/ && cp "$KD_SRCDIR/fixtures/build-kernel.sh" src/ &&
	cp "$KD_SRCDIR/fixtures/kernel.c" src/ &&
	awk -v h="$top/tree/include/uapi/linux/fxbits.h" -v c="$top/tree/kernel/kernel.c" '
		/^struct fx_bits \{/ { printf "#line 1 \"%s\"\n", h; in_bits = 1 }
		{ print }
		in_bits && /^};/ { printf "#line %d \"%s\"\n", NR + 1, c; in_bits = 0 }' \
		"$KD_SRCDIR/fixtures/kernel.c" >tree/kernel/kernel.c
ok $? "a fixture kernel tree: kernel/kernel.c, struct fx_bits in include/uapi/linux/fxbits.h"

# paths KABI: where fx_bits and fxold are declared, "FILE:LINE FILE:LINE".
paths() {
	echo "$(q "$1" "SELECT decl_file || ':' || decl_line FROM types WHERE name = 'fx_bits'")" \
		"$(q "$1" "SELECT decl_file || ':' || decl_line FROM functions WHERE name = 'sys_fxold'")"
}
bits=$(grep -n '^struct fx_bits {' src/kernel.c | cut -d: -f1)
fxold=$(grep -n '^SYSCALL_DEFINE1(fxold' src/kernel.c | cut -d: -f1)
is "$(grep -n '^SYSCALL_DEFINE1(fxold' tree/kernel/kernel.c | cut -d: -f1)" $((fxold + 2)) \
	"  (the two #line lines moved fxold down by 2 in the file, not in the line table)"

(cd tree && sh kernel/build-kernel.sh "$top/in-tree") && "$KABI_DIFF" extract -q in-tree -o in-tree.kabi
ok $? "an in-tree build (relative source, build directory = tree)"
is "$(paths in-tree.kabi)" "include/uapi/linux/fxbits.h:1 kernel/kernel.c:$fxold" "  tree-relative paths"

(cd tree/debian/build && sh "$top/tree/kernel/build-kernel.sh" "$top/debian") &&
	"$KABI_DIFF" extract -q debian -o debian.kabi
ok $? "a build directory inside the tree (tree/debian/build), sources named by absolute paths"
is "$(paths debian.kabi)" "include/uapi/linux/fxbits.h:1 kernel/kernel.c:$fxold" \
	"  relative to the tree above the build"

(cd out && sh "$top/tree/kernel/build-kernel.sh" "$top/beside") && "$KABI_DIFF" extract -q beside -o beside.kabi
ok $? "a build directory beside the tree (O=../out)"
is "$(paths beside.kabi)" "$top/tree/include/uapi/linux/fxbits.h:1 $top/tree/kernel/kernel.c:$fxold" \
	"  absolute paths, not relative to the directory both are in"

(cd build && sh "$top/src/build-kernel.sh" "$top/sibling") && "$KABI_DIFF" extract -q sibling -o sibling.kabi
ok $? "a source that is no tree's, built from a sibling directory"
is "$(paths sibling.kabi)" "$top/src/kernel.c:$bits $top/src/kernel.c:$fxold" "  absolute paths"

done_testing
