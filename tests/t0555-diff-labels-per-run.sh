#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Labels belong to the run, not to the cache entry (issue 29, item 5): a
# header tree is cached by its content, and its entry kept the label of
# the run that first extracted it, so that `--git master..feature` after
# `--git HEAD~1..HEAD` on the same commits was reported as
# "HEAD~1 -> HEAD", and a directory of the same headers as "HEAD~1". The
# entry is still shared (extracted once); each report names its own inputs.
. "$KD_SRCDIR/lib.sh"

command -v git >/dev/null 2>&1 || { skip "git is not installed"; done_testing; }
fx=$KD_SRCDIR/fixtures
src=$fx/uapi/source/include
scratch labels
XDG_CACHE_HOME=$PWD/cache GIT_CONFIG_NOSYSTEM=1 HOME=$PWD
export XDG_CACHE_HOME GIT_CONFIG_NOSYSTEM HOME
mkdir tmp && TMPDIR=$PWD/tmp
export TMPDIR

mkdir -p repo/include/uapi/linux repo/include/uapi/asm-generic repo/arch/x86/include/uapi/asm
cp "$src/uapi/asm-generic/ioctl.h" "$src/uapi/asm-generic/bitsperlong.h" repo/include/uapi/asm-generic/
cp "$src/uapi/linux/types.h" repo/include/uapi/linux/
cp "$src/arch/x86/include/uapi/asm/bitsperlong.h" repo/arch/x86/include/uapi/asm/
commit() {
	cp "$fx/headers/$1.h" repo/include/uapi/linux/kdh.h
	git -C repo add -A && git -C repo -c user.name=t -c user.email=t@t commit -qm "$1"
}
git -C repo init -q -b master && commit v1 && git -C repo checkout -q -b feature && commit v2
ok "$?" "fixture repository: master (v1), feature (v2)"

# names FILE: "old release -> new release" of a JSON report.
names() { jq -r '.old.release + " -> " + .new.release' "$1"; }

(cd repo && "$KABI_DIFF" --git HEAD~1..HEAD -f json) >first.json 2>first.err
is "$?|$(names first.json)" "12|HEAD~1 -> HEAD" "--git HEAD~1..HEAD: named so"
ls cache/kabi-diff/headers-u-*.kabi >entries.txt
(cd repo && "$KABI_DIFF" --git master..feature -f json) >second.json 2>second.err
is "$?|$(names second.json)" "12|master -> feature" \
	"--git master..feature on the same commits: named by this run (it said HEAD~1 -> HEAD)"
is "$(jq -r '.old.path + " " + .new.path' second.json)" "master feature" \
	"  each side's path is its revision, not the cache file it was read from"
(cd repo && "$KABI_DIFF" --git master feature -f json) >pair.json 2>/dev/null
is "$?|$(jq -r '.old.path + " " + .new.path' pair.json)" "12|master feature" "  the same as REV1 REV2"
(cd repo && "$KABI_DIFF" --git master..feature) >second.txt 2>/dev/null
lacks second.txt 'headers-u-' "  the text report names no cache file"
ls cache/kabi-diff/headers-u-*.kabi >entries2.txt
is "$(grep -c 'reading the UAPI header tree' second.err)|$(wc -l <entries2.txt)" "0|2" \
	"  answered from the same two cache entries, nothing read again"
(cd repo && "$KABI_DIFF" --git master..feature -f md) >second.md 2>/dev/null
grep -q 'master' second.md && ! grep -q 'HEAD~1' second.md
ok $? "  the Markdown report too"

# The same headers as directories: named by their paths, not by a revision.
mkdir old new && git -C repo archive master | tar -x -C old && git -C repo archive feature | tar -x -C new
"$KABI_DIFF" old new -f json >dirs.json 2>dirs.err
is "$?|$(names dirs.json)|$(jq -r '.old.path + " " + .new.path' dirs.json)" "12|old -> new|old new" \
	"two directories of those headers: named by their paths (it said HEAD~1 -> HEAD)"
"$KABI_DIFF" new new -f json >same.json 2>/dev/null
is "$?|$(names same.json)" "0|new -> new" "  new against itself: exit 0, named new"
# A .kabi given as it is keeps the name stored in it (extract --uapi).
"$KABI_DIFF" extract -q --uapi old -o mine.kabi
"$KABI_DIFF" mine.kabi new -f json >kabi.json 2>/dev/null
is "$?|$(names kabi.json)" "12|old -> new" "a .kabi given as it is: its own stored name"

done_testing
