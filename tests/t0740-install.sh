#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make install (issue 29, item 10): the prefix was compiled in
# (KD_DATADIR), so `make install PREFIX=...` recompiled and relinked the
# in-tree kabi-diff, racing a `make check` that was running it. Now the
# program finds its contract beside itself (BINDIR/../share/kabi-diff/spec)
# and install only copies: run on a copy of the built tree, it compiles
# and links nothing, and the installed program finds the installed
# contract. `make print-deps-runtime` names the run-time packages only.
. "$KD_SRCDIR/lib.sh"

top=$(cd "$KD_SRCDIR/.." && pwd)
db=$(fixture_db v1-dwarf5 -gdwarf-5) || { ok 1 "fixture"; done_testing; }
scratch install
# A copy of the tree as built (mtimes kept), so that the tree under test
# is not the one being installed from.
mkdir src && (cd "$top" && tar -cf - --exclude=./.git --exclude=./tests/real/cache . ) | tar -xf - -C src
w=; grep -q -- '-Werror' src/build/.flags && w=-Werror
# Up to date with the copy's own flags and version first (the copy has no
# .git: its version differs), so that what install does is all that is left.
nice make -C src WERROR="$w" kabi-diff >build.out 2>&1
is "$?" 0 "the copy builds" || sed 's/^/# /' build.out | tail -5
before=$(stat -c %Y src/kabi-diff)
sleep 1
make -C src WERROR="$w" install PREFIX="$PWD/p" >install.out 2>&1
is "$?" 0 "make install PREFIX=DIR: exit 0" || sed 's/^/# /' install.out | tail -5
is "$(grep -cE '^  (CC|AR|LINK) ' install.out)" 0 "  nothing compiled, archived or linked" ||
	grep -E '^  (CC|AR|LINK) ' install.out | head -5 | sed 's/^/# /'
is "$(stat -c %Y src/kabi-diff)" "$before" "  the in-tree kabi-diff untouched"
for f in bin/kabi-diff bin/kabi-gate share/man/man1/kabi-diff.1 share/bash-completion/completions/kabi-diff; do
	[ -f "p/$f" ] || echo "$f"
done >missing.txt
is "$(cat missing.txt)" "" "  the program, the gate, the manual and the completion installed"
ls p/share/kabi-diff/spec/*.kabispec >/dev/null 2>&1
ok $? "  the contract installed"

# The installed program finds the installed contract, by where it is.
(unset KABI_DIFF_SPEC; p/bin/kabi-diff check "$db" -f json) >check.json 2>check.err
is "$(jq -r .contract.source check.json 2>/dev/null || jq -c 'keys' check.json)" "$PWD/p/share/kabi-diff/spec (installed)" \
	"the installed kabi-diff checks against PREFIX/share/kabi-diff/spec" || sed 's/^/# /' check.err
# Moved elsewhere (a DESTDIR staging area, a relocated prefix), it still does.
mv p q
(unset KABI_DIFF_SPEC; q/bin/kabi-diff check "$db" -f json) >check2.json 2>/dev/null
is "$(jq -r .contract.source check2.json)" "$PWD/q/share/kabi-diff/spec (installed)" "  and after the prefix moved"

if command -v apt-cache >/dev/null 2>&1 && make -s -C src print-deps-runtime >deps.txt 2>deps.err; then
	is "$(tr ' ' '\n' <deps.txt | grep -v '^libc6-dev$' |
		grep -cE '^(valgrind|mandoc|npm|dwarves|rpm|python3-.*|gcc-aarch64-linux-gnu|.*-dev)$')" 0 \
		"print-deps-runtime: no build, test, cross or npm package" || cat deps.txt | sed 's/^/# /'
	is "$(tr ' ' '\n' <deps.txt | grep -cE '^(gcc|libc6-dev|git|jq)$')|$(wc -w <deps.txt)" "4|12" \
		"  the tools the program runs, and one library package per -dev library"
else
	skip "apt-cache does not know the -dev packages"
	skip "apt-cache does not know the -dev packages"
fi

done_testing
