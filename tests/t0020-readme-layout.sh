#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# README's layout table is the map of the tree: every folder down to two
# levels (build output and what git ignores aside) is
# named in backticks, `folder/`, in a row of the table. The checker runs on
# the tree (nothing missing) and on a scratch tree whose README leaves one
# folder out (exactly that one reported), so it cannot pass by finding
# nothing.
. "$KD_SRCDIR/lib.sh"

top=$KD_SRCDIR/..

# folders ROOT: ROOT's folders down to two levels. In a git checkout, those
# holding files git tracks or would track (what .gitignore leaves out, as
# build-fuzz/ or a test's scratch files, is no part of the map).
folders() {
	if git -C "$1" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$1" ls-files -co --exclude-standard |
			awk -F/ 'NF > 1 { print $1 } NF > 2 { print $1 "/" $2 }'
	else
		(cd "$1" && find . -mindepth 1 -maxdepth 2 -type d ! -path ./build \
			! -path './build/*' | sed 's|^\./||')
	fi | sort -u
}

# missing ROOT: each folder of ROOT that no table row of ROOT/README.md names.
missing() {
	rows=$(grep '^| `' "$1/README.md")
	folders "$1" |
	while read -r d; do
		printf '%s\n' "$rows" | grep -qF "\`$d/\`" || echo "$d/"
	done
}

is "$(missing "$top")" "" "every folder of the tree has its row in README's layout table"

fake=$KD_TMPDIR/t0020-fake
rm -rf "$fake" && mkdir -p "$fake/lib" "$fake/spec/check" "$fake/spec/contract" "$fake/build/x"
printf '| folder | what |\n| --- | --- |\n| `lib/` | plumbing |\n| `spec/` | the language, `spec/contract/` |\nspec/check/ outside the table\n' \
	>"$fake/README.md"
is "$(missing "$fake")" "spec/check/" "  a scratch tree: the folder the table lacks, and only it"

done_testing
