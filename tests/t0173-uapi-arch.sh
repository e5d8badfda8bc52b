#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# extract --uapi DIR alone: the architecture of the headers. A source-layout
# tree with only arch/arm64/include/uapi is read as arm64 (it failed:
# "no arch/x86/include/uapi beside uapi/"); one with x86's and arm64's (as
# Debian's -common package has every architecture's) is x86_64 unless
# --arch arm64 says otherwise. The compiler is the architecture's: the
# enumerator (char)-1 < 0 is 1 for x86_64 and 0 for aarch64, whose plain char
# is unsigned. --arch with a VMLINUX, or an unknown one, is a usage error.
. "$KD_SRCDIR/lib.sh"

need_aarch64_cc
src=$KD_SRCDIR/fixtures/uapi/source/include
XDG_CACHE_HOME=$PWD/cache
export XDG_CACHE_HOME

# tree ARCH...: include/uapi with the generic headers, and each ARCH's asm/.
tree() {
	d=$1; shift
	mkdir -p "$d/include/uapi/linux" "$d/include/uapi/asm-generic"
	cp "$src/uapi/asm-generic/ioctl.h" "$src/uapi/asm-generic/bitsperlong.h" "$d/include/uapi/asm-generic/"
	cp "$src/uapi/linux/types.h" "$d/include/uapi/linux/"
	for a in "$@"; do
		mkdir -p "$d/arch/$a/include/uapi/asm"
		cp "$src/arch/$a/include/uapi/asm/bitsperlong.h" "$d/arch/$a/include/uapi/asm/"
		printf '#ifndef _ASM_KDA_H\n#define _ASM_KDA_H\n#define KDA_ARCH_%s 1\nenum kda_sign { KDA_CHAR_SIGNED = (char)-1 < 0 };\n#endif\n' \
			"$a" >"$d/arch/$a/include/uapi/asm/kda.h"
	done
}
# facts K.kabi: "ARCH CHAR_SIGNED CONSTANT" of an extracted tree.
facts() {
	q "$1" "SELECT (SELECT value FROM meta WHERE key = 'arch') || ' ' ||
		(SELECT value FROM enumerators WHERE name = 'KDA_CHAR_SIGNED') || ' ' ||
		(SELECT group_concat(name) FROM constants WHERE name LIKE 'KDA_ARCH_%')"
}
tree arm arm64 && tree both x86 arm64
ok "$?" "fixture trees: arm64 alone, x86 and arm64"

"$KABI_DIFF" extract -q --uapi arm -o arm.kabi 2>err.txt
is "$?" 0 "extract --uapi (arm64's headers alone): exit 0"
is "$(facts arm.kabi)" "arm64 0 KDA_ARCH_arm64" "  read as arm64, compiled by aarch64's gcc (char unsigned)"
is "$(cat err.txt)" "" "  nothing on stderr"
"$KABI_DIFF" extract -q --uapi both -o both.kabi
is "$(facts both.kabi)" "x86_64 1 KDA_ARCH_x86" "x86 and arm64 headers: x86_64 by default"
"$KABI_DIFF" extract -q --uapi both --arch arm64 -o both-arm.kabi
is "$(facts both-arm.kabi)" "arm64 0 KDA_ARCH_arm64" "  --arch arm64: arm64's"

"$KABI_DIFF" extract --uapi both --arch mips -o x.kabi >out.txt 2>err.txt
is "$?" 2 "--arch mips: usage error"
is "$(head -1 err.txt)" "kabi-diff: extract: --arch mips: not a supported architecture (x86_64 and arm64)" \
	"  one line naming it and the supported ones"
"$KABI_DIFF" extract vmlinux --arch arm64 >out.txt 2>err.txt
is "$?" 2 "--arch with a VMLINUX: usage error"
is "$(head -1 err.txt)" "kabi-diff: extract: --arch is for headers alone (a VMLINUX says its architecture)" \
	"  saying why"
ok "$([ ! -e x.kabi ] && echo 0 || echo 1)" "  nothing written"
done_testing
