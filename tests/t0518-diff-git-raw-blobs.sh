#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabi-diff --git on a repository that is not to be trusted (issue 25, R31,
# R28, R27): what is compared is what was committed, and nothing the
# repository configures runs. A smudge filter selected by .gitattributes
# (git archive ran it, and compared its output: here the old header
# again, so the patch vanished) neither runs nor hides the change; a blob
# too large for a header, or one deeper than the UAPI walker reads, is
# refused in one line naming it and the limit, nothing left behind.
. "$KD_SRCDIR/lib.sh"

command -v git >/dev/null 2>&1 || { skip "git is not installed"; done_testing; }
fx=$KD_SRCDIR/fixtures
src=$fx/uapi/source/include
XDG_CACHE_HOME=$PWD/cache GIT_CONFIG_NOSYSTEM=1 HOME=$PWD
export XDG_CACHE_HOME GIT_CONFIG_NOSYSTEM HOME
mkdir tmp && TMPDIR=$PWD/tmp
export TMPDIR

mkdir -p repo/include/uapi/linux repo/include/uapi/asm-generic repo/arch/x86/include/uapi/asm
cp "$src/uapi/asm-generic/ioctl.h" "$src/uapi/asm-generic/bitsperlong.h" repo/include/uapi/asm-generic/
cp "$src/uapi/linux/types.h" repo/include/uapi/linux/
cp "$src/arch/x86/include/uapi/asm/bitsperlong.h" repo/arch/x86/include/uapi/asm/
commit() {
	git -C repo add -A && git -C repo -c user.name=t -c user.email=t@t commit -qm "$1" && git -C repo tag "$1"
}
git -C repo init -q && cp "$fx/headers/v1.h" repo/include/uapi/linux/kdh.h && commit v1 &&
	cp "$fx/headers/v2.h" repo/include/uapi/linux/kdh.h && echo '*.h filter=evil' >repo/.gitattributes &&
	commit v2
ok "$?" "fixture repository: v1, v2 (the ABI patch, and .gitattributes naming a filter)"
# The filter's smudge leaves a mark and gives v1's header whatever it is given.
git -C repo config filter.evil.smudge "touch '$PWD/ran'; cat '$fx/headers/v1.h'"
git -C repo config filter.evil.clean cat

"$KABI_DIFF" --git -C repo v1..v2 -f json >v2.json 2>err.txt
is "$?" 12 "--git v1..v2 with a smudge filter configured: exit 12"
is "$(jq -r '.changes[] | [.kind, .subject] | join(" ")' v2.json | sort | tr '\n' ',')" \
	"constant.value KDH_FLAG_B,ioctl.cmd KDH_IOC_GET,type.member.added struct kdh_args.mode," \
	"  the committed patch's three changes, not the filter's output"
ok "$([ ! -e ran ])$?" "  the filter never ran"

head -c $((17 << 20)) /dev/zero >repo/include/uapi/linux/big.h && commit big
"$KABI_DIFF" --git -C repo -q v2..big >out.txt 2>err.txt
is "$?|$(cat err.txt)" \
	"1|kabi-diff: git big: include/uapi/linux/big.h: declares 17 MiB, more than 16 MiB, the limit of one header" \
	"a 17 MiB header blob: exit 1, one line naming the blob and the cap"
is "$(ls -A tmp)" "" "  nothing left in \$TMPDIR"

git -C repo rm -q include/uapi/linux/big.h
deep=include/uapi/$(printf 'd/%.0s' $(seq 63))x.h
mkdir -p "repo/$(dirname "$deep")" && echo '#define X 1' >"repo/$deep" && commit deep
"$KABI_DIFF" --git -C repo -q v2..deep >out.txt 2>err.txt
is "$?|$(cat err.txt)" "1|kabi-diff: git deep: $deep: more than 64 directories deep, the limit" \
	"a header 65 directories deep: exit 1, the limit named"
is "$(ls -A tmp)" "" "  nothing left in \$TMPDIR"
done_testing
