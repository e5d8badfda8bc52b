#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The README's package command as written (issue 29, item 1): the shell
# does not expand a glob inside a comma-joined word, so
# `kabi-diff A-dbg_*.deb,A-headers_*.deb ...` was "No such file". Each
# --old PKG / --new PKG takes one package (all --old are the old kernel):
# the README's lines are run here, pasted, on fixture .debs of those names
# built with dpkg-deb, and give the report of the comma-joined form.
. "$KD_SRCDIR/lib.sh"

k1=$(fixture_kernel v1-dwarf5 -gdwarf-5) && k2=$(fixture_kernel v2-dwarf5 -gdwarf-5 -DKABI_V2) ||
	{ ok 1 "fixture kernels"; done_testing; }
scratch package-options
export XDG_CACHE_HOME=$PWD/cache
uapi=$KD_SRCDIR/fixtures/kernel-uapi

# mkdeb NAME VERSION ROOT
mkdeb() {
	mkdir -p "$3/DEBIAN" &&
	printf 'Package: %s\nVersion: %s\nArchitecture: amd64\nMaintainer: kabi-diff tests <t@example.org>\nDescription: fixture\n' \
		"$1" "$2" >"$3/DEBIAN/control" &&
	dpkg-deb --root-owner-group -Zxz --build "$3" "$1_$2_amd64.deb" >/dev/null
}
# The names of the README's example: Debian 6.1.0-47 and 6.12.107+deb12.
set -- 6.1.0-47 6.1.0-47 "$k1" 6.12.107+deb12 6.12.107-1 "$k2"
while [ $# -ge 3 ]; do
	rel=$1 ver=$2 k=$3 r=dbg-$1 h=hdr-$1; shift 3
	c=$h/usr/src/linux-headers-$rel-common
	mkdir -p $r/usr/lib/debug/boot $c/include $c/arch/x86/include &&
	cp "$k" $r/usr/lib/debug/boot/vmlinux-$rel-amd64 &&
	mkdeb linux-image-$rel-amd64-dbg "$ver" $r &&
	cp -R "$uapi/uapi" $c/include/uapi && cp -R "$uapi/arch/x86/include/uapi" $c/arch/x86/include/uapi &&
	mkdeb linux-headers-$rel-common "$ver" $h
done
ls *.deb >debs.txt
is "$(tr '\n' ' ' <debs.txt)" "linux-headers-6.1.0-47-common_6.1.0-47_amd64.deb linux-headers-6.12.107+deb12-common_6.12.107-1_amd64.deb linux-image-6.1.0-47-amd64-dbg_6.1.0-47_amd64.deb linux-image-6.12.107+deb12-amd64-dbg_6.12.107-1_amd64.deb " \
	"fixture .debs of the README's names"

# The README's kabi-diff lines for .debs, as printed there (the block of
# "In a distribution": from "kabi-diff --old linux-" to its last line).
sed -n '/^## In a distribution/,/^## /p' "$KD_SRCDIR/../README.md" |
	sed -n '/^kabi-diff --old linux-/,/[^\\]$/p' >readme-cmd.sh
is "$(grep -c 'deb' readme-cmd.sh)" 2 "the README's command: two lines"
mkdir bin && ln -s "$KABI_DIFF" bin/kabi-diff
PATH=$PWD/bin:$PATH sh readme-cmd.sh >readme.txt 2>readme.err
is "$?" 12 "the README's command, pasted: exit 12 (breaking changes)" || sed 's/^/# /' readme.err
grep -q '^kabi-diff: .*: reading the packages$' readme.err
ok $? "  it read the packages"

O1=linux-image-6.1.0-47-amd64-dbg_6.1.0-47_amd64.deb H1=linux-headers-6.1.0-47-common_6.1.0-47_amd64.deb
O2=linux-image-6.12.107+deb12-amd64-dbg_6.12.107-1_amd64.deb H2=linux-headers-6.12.107+deb12-common_6.12.107-1_amd64.deb
"$KABI_DIFF" "$O1,$H1" "$O2,$H2" >comma.txt 2>/dev/null
is "$?" 12 "the comma-joined form: exit 12"
cmp -s readme.txt comma.txt
ok $? "  the same report as --old/--new" || diff readme.txt comma.txt | head -5 | sed 's/^/# /'
"$KABI_DIFF" diff --new "$O2" --old "$O1" --new "$H2" --old "$H1" -f json >any.json 2>/dev/null
is "$?|$(jq -r '.old.path + " | " + .new.path' any.json)" \
	"12|$O1,$H1 | $O2,$H2" "diff --new/--old in any order: each side in the order given, named so"

# run CMD...: "EXIT|stderr".
run() {
	"$KABI_DIFF" "$@" >out.txt 2>err.txt
	echo "$?|$(cat err.txt)"
}
is "$(run --old "$O1")" "2|kabi-diff: diff: --old PKG and --new PKG go together
kabi-diff: see 'kabi-diff diff --help'" "--old alone: usage error"
is "$(run --old "$O1" --new "$O2" "$O2")" "2|kabi-diff: diff: --old/--new replace OLD and NEW
kabi-diff: see 'kabi-diff diff --help'" "--old/--new and a positional input (two files for one glob)"
is "$(run --old "$O1" --new nosuch.deb)" "1|kabi-diff: --new nosuch.deb: No such file or directory" \
	"a missing package: named with its option"
is "$(run --old "$O1" --new readme.txt)" "1|kabi-diff: --new readme.txt: not a .deb or .rpm package" \
	"a file that is no package"
is "$(run --old "$O1,$H1" --new "$O2")" "1|kabi-diff: --old $O1,$H1: one package per --old (a comma in a path is not supported)" \
	"a comma-joined list to --old: refused"

done_testing
