# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the real-kernel tests that ask gcc about a Debian -common
# header tree (t20, t26): the tree as a program compiles it after
# headers_install, without installing it. common_tree_wrap TREE DIR
# writes into DIR the asm/ wrappers Kbuild would generate (asm-generic/
# headers x86 has no header of) and empty compiler headers, and sets
# $common_tree_cflags: the annotations headers_install deletes defined
# away, the tree's x86 user-space include path, then DIR.
# common_tree_replaced TREE: the asm-generic/X.h headers x86's own asm/X.h
# replaces (it does not include them), one a line: other architectures'
# ABI (unistd.h's generic syscall numbers, signal.h), which kabi-diff reads
# only where an asm/ header includes them (extract/uapi/tree.c).
common_tree_replaced() {
	for _ctr in "$1"/uapi/asm-generic/*.h; do
		_ctr=${_ctr##*/}
		[ -e "$1/arch/x86/include/uapi/asm/$_ctr" ] &&
			! grep -q "include <asm-generic/$_ctr>" "$1/arch/x86/include/uapi/asm/$_ctr" &&
			echo "asm-generic/$_ctr"
	done
}
common_tree_wrap() {
	mkdir -p "$2/asm" "$2/linux" || return 1
	: >"$2/linux/compiler_types.h"
	: >"$2/linux/compiler.h"
	for _ctw in "$1"/uapi/asm-generic/*.h; do
		_ctw=${_ctw##*/}
		[ -e "$1/arch/x86/include/uapi/asm/$_ctw" ] || echo "#include <asm-generic/$_ctw>" >"$2/asm/$_ctw"
	done
	common_tree_cflags="-w -D__force= -D__user= -D__iomem= -D__attribute_const__= -D__packed=__attribute__((packed))
		-I$1/uapi -I$1/arch/x86/include/uapi -I$2"
}
