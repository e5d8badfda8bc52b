#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Header trees built to cost (issue 12): 2,000 chained macro aliases (each
# once took O(n^4)), 24 self-doubling macros (2^24 tokens), two directory
# symlinks to "." (an exponential walk), and subdirectories the user cannot
# read (modules and headers silently left out). Each completes in bounded
# time with exact values for what is within the limits and a problem row
# naming the limit for the rest.
. "$KD_SRCDIR/lib.sh"

k=$(fixture_kernel v1-dwarf5 -gdwarf-5)
scratch hostile-hdr

# tree DIR: an installed UAPI tree with the fixture's asm/ and asm-generic/.
tree() { header_tree --arch "$1"; }

# --- 2,000 aliases: M2000 -> M1999 -> ... -> M0 = 5 --------------------------
tree chain
awk 'BEGIN { print "#define M0 5"; for (i = 1; i <= 2000; i++) printf "#define M%d M%d\n", i, i - 1 }' \
	> chain/linux/chain.h
timeout 120 "$KABI_DIFF" extract -q "$k" --uapi chain -o chain.kabi
is "$?" 0 "2,000 chained aliases: extract completes"
is "$(q chain.kabi "SELECT count(*), min(value), max(value) FROM constants WHERE name GLOB 'M[0-9]*'")" \
	"257|5|5" "  M0..M256 are 5 (an expansion nests at most 256 macros)"
is "$(q chain.kabi "SELECT count(*) FROM problems WHERE message GLOB
	'M[0-9]*: macro expansion nests more than 256 macros deep'")|$(
	q chain.kabi "SELECT location || ' ' || message FROM problems WHERE message GLOB 'M257:*'")" \
	"1744|linux/chain.h:258 M257: macro expansion nests more than 256 macros deep" \
	"  each of the 1,744 beyond is a problem naming the limit"

# --- self-doubling: E24 is 2^24 tokens ------------------------------------------
tree dbl
awk 'BEGIN { print "#define E0 1"; for (i = 1; i <= 24; i++) printf "#define E%d (E%d + E%d)\n", i, i - 1, i - 1
	print "#define AFTER_DBL 3" }' > dbl/linux/dbl.h
timeout 120 "$KABI_DIFF" extract -q "$k" --uapi dbl -o dbl.kabi
is "$?" 0 "24 self-doubling macros: extract completes"
is "$(q dbl.kabi "SELECT group_concat(name || '=' || value, ' ') FROM (SELECT * FROM constants
	WHERE name GLOB 'E[0-9]*' OR name = 'AFTER_DBL' ORDER BY value, name)")" \
	"E0=1 E1=2 AFTER_DBL=3 E2=4 E3=8 E4=16 E5=32 E6=64 E7=128 E8=256 E9=512 E10=1024 E11=2048 E12=4096 E13=8192 E14=16384" \
	"  E0..E14 exact (E14: 49,151 tokens)"
is "$(q dbl.kabi "SELECT count(*) FROM problems WHERE message GLOB 'E[0-9]*: macro expansion grows past 65536 tokens'")" \
	"10" "  E15..E24: a problem naming the limit each"

# --- two symlinks to "." ---------------------------------------------------------
tree loop
echo "#define LOOP_X 42" > loop/linux/loop.h
ln -s . loop/linux/a
ln -s . loop/linux/b
ln -s ../linux loop/asm/up
timeout 60 "$KABI_DIFF" extract -q "$k" --uapi loop -o loop.kabi
is "$?" 0 "symlinks to . and .. in the tree: extract completes"
is "$(q loop.kabi "SELECT name || '=' || value || ' ' || file FROM constants WHERE name = 'LOOP_X'")" \
	"LOOP_X=42 linux/loop.h" "  each header read once, under its first name"

# --- unreadable subdirectories ----------------------------------------------------
# As root, permissions do not stop reads: run as nobody (setpriv) from a
# directory nobody can enter, with a copy of the program there.
if [ "$(id -u)" = 0 ] && ! command -v setpriv > /dev/null; then
	skip "unreadable directories: root without setpriv"
	skip "unreadable directories: module subdirectory"
	done_testing
fi
pub=$(mktemp -d /tmp/kabi-pub.XXXXXX) || exit 1
trap 'chmod -R u+rwx "$pub"; rm -rf "$pub"' EXIT
chmod 755 "$pub"
as_user() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}
cp "$KABI_DIFF" "$k" "$pub/" && chmod 755 "$pub/kabi-diff" && chmod 644 "$pub/$(basename "$k")"
tree "$pub/hdr"
echo "#define SEEN_X 1" > "$pub/hdr/linux/seen.h"
mkdir -p "$pub/hdr/linux/locked" && echo "#define LOCKED_X 2" > "$pub/hdr/linux/locked/l.h"
mkdir -p "$pub/mods/kernel/fs" "$pub/mods/kernel/locked" "$pub/out"
gcc -g -O2 -c -DFXMOD_NAME='"fxmod"' "$KD_SRCDIR/fixtures/module.c" -o "$pub/mods/kernel/fs/fxmod.ko"
cp "$pub/mods/kernel/fs/fxmod.ko" "$pub/mods/kernel/locked/other.ko"
chmod -R a+rX "$pub" && chmod 777 "$pub/out"
chmod 0 "$pub/hdr/linux/locked" "$pub/mods/kernel/locked"
as_user "$pub/kabi-diff" extract -q "$pub/$(basename "$k")" --uapi "$pub/hdr" \
	--modules "$pub/mods" -o "$pub/out/u.kabi"
is "$?" 0 "unreadable subdirectories: extract completes"
is "$(q "$pub/out/u.kabi" "SELECT message FROM problems WHERE message LIKE '%locked%'")" \
	"$pub/hdr/linux/locked: Permission denied; its headers are left out" \
	"  an unreadable header directory is a problem row"
is "$(q "$pub/out/u.kabi" "SELECT input || ': ' || message FROM problems WHERE input LIKE '%locked%'")" \
	"$pub/mods/kernel/locked: directory not readable; the modules in it are left out" \
	"  an unreadable module directory is a problem row"
done_testing
