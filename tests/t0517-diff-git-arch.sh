#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabi-diff --git --arch: the UAPI of another architecture's headers. A
# fixture repository has arch/x86 and arch/arm64 headers; its second commit
# changes only arm64's asm/kda.h (a constant, a member). The default
# (x86_64) reads arch/x86/include/uapi and sees no change; --arch arm64
# reads arch/arm64/include/uapi (with include/uapi's asm-generic headers for
# the asm/ it lacks), compiles it with the aarch64 compiler and reports
# the three changes; each side's .kabi says its architecture, and its
# enumerator (char)-1 < 0 is the aarch64 compiler's (plain char unsigned). A bad --arch, or
# --arch without --git, is a usage error.
. "$KD_SRCDIR/lib.sh"

command -v git >/dev/null 2>&1 || { skip "git is not installed"; done_testing; }
need_aarch64_cc
src=$KD_SRCDIR/fixtures/uapi/source/include
XDG_CACHE_HOME=$PWD/cache
export XDG_CACHE_HOME
GIT_CONFIG_NOSYSTEM=1 HOME=$PWD
export GIT_CONFIG_NOSYSTEM HOME

mkdir -p repo/include/uapi/linux repo/include/uapi/asm-generic repo/arch/x86/include/uapi/asm \
	repo/arch/arm64/include/uapi/asm
cp "$src/uapi/asm-generic/ioctl.h" "$src/uapi/asm-generic/bitsperlong.h" repo/include/uapi/asm-generic/
cp "$src/uapi/linux/types.h" repo/include/uapi/linux/
cp "$src/arch/x86/include/uapi/asm/bitsperlong.h" repo/arch/x86/include/uapi/asm/
cp "$src/arch/arm64/include/uapi/asm/bitsperlong.h" repo/arch/arm64/include/uapi/asm/
kda() {
	printf '#ifndef _ASM_KDA_H\n#define _ASM_KDA_H\n#include <linux/types.h>\n#define KDA_PAGE %s\nenum kda_sign { KDA_CHAR_SIGNED = (char)-1 < 0 };\nstruct kda_regs {\n\t__u64 pc;\n%b};\n#endif\n' "$2" "$3" \
		>"repo/arch/$1/include/uapi/asm/kda.h"
}
kda x86 4096 '' && kda arm64 4096 ''
git -C repo init -q && git -C repo add -A && git -C repo -c user.name=t -c user.email=t@t commit -qm v1 &&
	git -C repo tag v1 && kda arm64 65536 '	__u64 sp;\n' && git -C repo add -A &&
	git -C repo -c user.name=t -c user.email=t@t commit -qm v2 && git -C repo tag v2
ok "$?" "fixture repository: v1, v2 (arm64's asm/kda.h changed)"

"$KABI_DIFF" --git -C repo v1..v2 -f json >x86.json 2>err.txt
is "$?" 0 "--git v1..v2 (x86_64, the default): exit 0"
is "$(jq -c '.changes | length' x86.json)" 0 "  no change: arch/x86 is as it was"
"$KABI_DIFF" --git -C repo --arch arm64 v1..v2 -f json >arm.json 2>err.txt
rc=$?
is "$rc" 12 "--git --arch arm64 v1..v2: exit 12 (a struct grew)"
is "$(jq -r '.changes[] | [.kind, .subject, (.old // "-"), (.new // "-")] | join(" | ")' arm.json | sort)" \
"constant.value | KDA_PAGE | 4096 | 65536
type.member.added | struct kda_regs.sp | - | __u64 sp at 8
type.size | struct kda_regs | 8 | 16" "  arm64's constant, member and size"
is "$(find cache -name '*.kabi' | while read -r f; do
	q "$f" "SELECT (SELECT value FROM meta WHERE key = 'arch') || ' ' ||
		(SELECT value FROM meta WHERE key = 'uapi_compiled') || ' ' ||
		(SELECT value FROM enumerators WHERE name = 'KDA_CHAR_SIGNED')"; done | sort | tr '\n' ' ')" \
	"arm64 3 of 3 0 arm64 3 of 3 0 x86_64 3 of 3 1 " \
	"  cached: x86_64's tree (the same in both), arm64's two, compiled by aarch64's gcc (char unsigned)"

"$KABI_DIFF" --git -C repo --arch mips v1..v2 >out.txt 2>err.txt
is "$?" 2 "--arch mips: usage error"
is "$(head -1 err.txt)" "kabi-diff: diff: --arch mips: not a supported architecture (x86_64 and arm64)" \
	"  one line naming it and the supported ones"
"$KABI_DIFF" diff --arch arm64 repo repo >out.txt 2>err.txt
is "$?" 2 "--arch without --git: usage error"
done_testing
