#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/README.md is the map of tests/: every file and folder directly in
# tests/ is named in its "What is where" table (t-NAME.c and tNNNN-NAME.sh
# by those patterns), and every number family of the end-to-end tests is
# a row of its families table. The checker runs on the tree (nothing
# missing) and on a scratch copy with one new family and one new helper
# (exactly those two reported), so it cannot pass by finding nothing.
. "$KD_SRCDIR/lib.sh"

# missing DIR: what DIR/README.md's tables leave out, one per line.
missing() {
	readme=$1/README.md
	for f in "$1"/*; do
		n=${f##*/}
		case $n in
		README.md) continue ;;
		t-*.c) pat='`t-NAME.c`' ;;
		t[0-9][0-9][0-9][0-9]-*.sh) pat='`tNNNN-NAME.sh`' ;;
		*) pat="\`$n\`"; [ -d "$f" ] && pat="\`$n/\`" ;;
		esac
		grep '^| ' "$readme" | grep -qF "$pat" || echo "$n"
	done
	for f in "$1"/t[0-9][0-9][0-9][0-9]-*.sh; do
		fam=$(basename "$f" | cut -c1-3)
		grep -q "^| \`$fam\` |" "$readme" || echo "family $fam"
	done | sort -u
}

is "$(missing "$KD_SRCDIR")" "" "tests/README.md names every file, folder and test family of tests/"

mkdir -p scratch/fixtures && cp "$KD_SRCDIR/README.md" "$KD_SRCDIR/lib.sh" scratch/ &&
	touch scratch/t0900-new-family.sh scratch/t0100-old-family.sh scratch/helper.sh
is "$(missing scratch | tr '\n' ' ')" "helper.sh family t09 " \
	"  a scratch copy: exactly the new helper and the new family reported"
done_testing
