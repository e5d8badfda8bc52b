#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabi-diff --git: the UAPI headers of two revisions of a kernel git tree,
# read from the object store (git ls-tree, git cat-file). A fixture repository (source layout: include/uapi,
# arch/x86/include/uapi) gets three commits: the header, a reformatting
# patch, an ABI patch (a struct member, a flag value, an ioctl number). The
# reformat reports nothing, the ABI patch its three changes, both spellings
# of the range work, the report names the revisions, the work tree (dirty,
# on purpose) is neither read nor touched; bad revisions and options fail.
. "$KD_SRCDIR/lib.sh"

command -v git >/dev/null 2>&1 || { skip "git is not installed"; done_testing; }
fx=$KD_SRCDIR/fixtures
src=$fx/uapi/source/include
XDG_CACHE_HOME=$PWD/cache
export XDG_CACHE_HOME
GIT_CONFIG_NOSYSTEM=1 HOME=$PWD
export GIT_CONFIG_NOSYSTEM HOME
# The exported trees go below TMPDIR: this test's own, so that another
# kabi-diff running on the machine (a parallel make check) is not counted.
mkdir tmp && TMPDIR=$PWD/tmp
export TMPDIR

mkdir -p repo/include/uapi/linux repo/include/uapi/asm-generic repo/arch/x86/include/uapi/asm
cp "$src/uapi/asm-generic/ioctl.h" "$src/uapi/asm-generic/bitsperlong.h" repo/include/uapi/asm-generic/
cp "$src/uapi/linux/types.h" repo/include/uapi/linux/
cp "$src/arch/x86/include/uapi/asm/bitsperlong.h" repo/arch/x86/include/uapi/asm/
echo 'int main(void) { return 0; }' >repo/init.c	# not UAPI: never read
commit() {
	cp "$fx/headers/$1.h" repo/include/uapi/linux/kdh.h
	git -C repo add -A && git -C repo -c user.name=t -c user.email=t@t commit -qm "$1" &&
		git -C repo tag "$1"
}
git -C repo init -q && commit v1 && commit reformat && commit v2
ok "$?" "fixture repository: v1, reformat, v2"
# A dirty work tree: --git must read the commits, not this.
echo '#define KDH_DIRTY 1' >>repo/include/uapi/linux/kdh.h
git -C repo status --porcelain >status.before

"$KABI_DIFF" --git -C repo v1 reformat -f json >reformat.json 2>err.txt
is "$?" 0 "--git -C REPO v1 reformat: exit 0"
is "$(jq -c '[(.changes | length), .old.release, .new.release]' reformat.json)" '[0,"v1","reformat"]' \
	"  no change; the report names the revisions"
"$KABI_DIFF" --git -C repo v1..v2 -f json >v2.json 2>err.txt
is "$?" 12 "--git -C REPO v1..v2: exit 12"
is "$(jq -r '.changes[] | [.kind, .subject, (.old // "-"), (.new // "-")] | join(" | ")' v2.json | sort)" \
"constant.value | KDH_FLAG_B | 2 | 4
ioctl.cmd | KDH_IOC_GET | 0x80046b02 | 0x80046b03
type.member.added | struct kdh_args.mode | - | __u32 mode at 4" \
	"  the member, the flag value and the ioctl number; not the work tree's KDH_DIRTY"
"$KABI_DIFF" --git -C repo v1..v2 -q -f json -o v2o.json >out.txt 2>err.txt
is "$?" 12 "v1..v2 -o FILE: exit 12"
is "$(jq -c '[.changes[].kind] | sort' v2o.json)" "$(jq -c '[.changes[].kind] | sort' v2.json)" \
	"  the same changes written to the file"
(cd repo && "$KABI_DIFF" --git reformat v2 -q -f json) >v2b.json
is "$?" 12 "in the repository, no -C: same verdict"
is "$(jq -c '[.changes[].kind] | sort' v2b.json)" '["constant.value","ioctl.cmd","type.member.added"]' \
	"  same changes"
# One revision, as check-uapi.sh takes it: REV^..REV.
"$KABI_DIFF" --git -C repo v2 -q -f json >one.json
is "$?|$(jq -c '[([.changes[].kind] | sort), .old.release, .new.release, .old.path, .new.path]' one.json)" \
	'12|[["constant.value","ioctl.cmd","type.member.added"],"v2^","v2","v2^","v2"]' \
	"--git REV: what REV changed (REV^..REV), named so"
"$KABI_DIFF" --git -C repo reformat -q -f json >one0.json
is "$?|$(jq '.changes | length' one0.json)" "0|0" "  a commit that only reformats: exit 0, no change"
"$KABI_DIFF" --git -C repo v1 -q >out.txt 2>err.txt
is "$?|$(tail -1 err.txt)" "1|kabi-diff: repo: git ls-tree v1^ failed (git's message above): no such revision, or not a git repository" \
	"  the first commit: it has no parent, exit 1 naming v1^"
# No revision, as check-uapi.sh takes it: HEAD against the work tree as it is
# on disk (KDH_DIRTY, uncommitted; a new header not yet added), no symbolic
# link followed (its target is outside the tree: never read).
echo '#define KDH_SECRET 42' >outside.h
mkdir -p repo/include/uapi/linux/new && echo '#define KDH_UNTRACKED 7' >repo/include/uapi/linux/new/kdu.h &&
	ln -s "$PWD/outside.h" repo/include/uapi/linux/kdlink.h
"$KABI_DIFF" --git -C repo -q -f json >wt.json
is "$?|$(jq -c '[([.changes[] | "\(.kind) \(.subject)"] | sort), .old.path, .new.path]' wt.json)" \
	'4|[["constant.added KDH_DIRTY","constant.added KDH_UNTRACKED"],"HEAD","work tree"]' \
	"--git alone: the work tree's uncommitted and untracked headers against HEAD, exit 4"
lacks wt.json KDH_SECRET "  a symbolic link in the work tree is not followed"
rm -r repo/include/uapi/linux/new repo/include/uapi/linux/kdlink.h
git -C repo status --porcelain >status.after
cmp -s status.before status.after && grep -q KDH_DIRTY repo/include/uapi/linux/kdh.h
ok "$?" "the work tree is left as it was (still dirty)"
is "$(ls -d "$TMPDIR"/.kabi-git-* 2>/dev/null | wc -l)" 0 "no exported tree left behind"

"$KABI_DIFF" --git -C repo v1 nosuchrev >out.txt 2>err.txt
is "$?" 1 "an unknown revision: exit 1"
is "$(tail -1 err.txt)" "kabi-diff: repo: git ls-tree nosuchrev failed (git's message above): no such revision, or not a git repository" \
	"  naming it"
"$KABI_DIFF" --git -C repo -- v1 --output=x >out.txt 2>err.txt
is "$?" 1 "a 'revision' that is an option is refused"
"$KABI_DIFF" --git -C repo v1...v2 >out.txt 2>err.txt
is "$?" 2 "REV1...REV2: usage error"
"$KABI_DIFF" diff -C repo v1 v2 >out.txt 2>err.txt
is "$?" 2 "-C without --git: usage error"
mkdir norepo
"$KABI_DIFF" --git -C norepo v1 v2 >out.txt 2>err.txt
is "$?" 1 "not a git repository: exit 1"
done_testing
