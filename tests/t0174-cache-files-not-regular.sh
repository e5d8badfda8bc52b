#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Cache files that are not regular files (issue 25): a cache may be shared
# (a CI cache), so whatever stands where kabi-diff keeps an entry is read
# without blocking, only when it is a regular file and within its bound,
# and replaced when the entry is stored again:
# - the compile cache's index KEY.idx: a FIFO (hung every run), a link to
#   a character device like /dev/zero (read until memory ran out), a file
#   over 4 MiB: a warning naming it, the headers compiled, the entry
#   rewritten as a regular file; an index of exactly 4 MiB is read (and,
#   being no index, is a quiet miss);
# - the package cache's pkg-HASH.ref: a FIFO (hung the diff) is a warning,
#   the packages read again and the reference rewritten; the next run is
#   answered from the cache.
. "$KD_SRCDIR/lib.sh"

export XDG_CACHE_HOME=$PWD/cache
header_tree u
printf '#ifndef _L_S_H\n#define _L_S_H\nstruct s { int a; };\n#define S_X 7\n#endif\n' >u/linux/s.h
uc=$XDG_CACHE_HOME/kabi-diff/uapi

# ex NAME: extract the tree u (60 s at most) into NAME.kabi, its warnings into
# NAME.err; prints the exit status, how the headers were compiled, and S_X.
ex() {
	timeout 60 "$KABI_DIFF" extract --uapi u -o "$1.kabi" 2>"$1.all"
	set -- "$1" "$?"
	grep -v ' problems in [0-9.]* s$' "$1.all" >"$1.err"
	echo "$2|$(q "$1.kabi" "SELECT value FROM meta WHERE key = 'uapi_compiled'")|$(
		q "$1.kabi" "SELECT value FROM constants WHERE name = 'S_X'")"
}
is "$(ex first)" "0|3 of 3|7" "the tree compiled and cached"
is "$(ex again)" "0|3 of 3 (cached)|7" "  the second run from the cache"
idx=$(ls "$uc"/*.idx)
# regular: the index is a regular file again, the next run a hit
regular() {
	[ -f "$idx" ] && [ ! -L "$idx" ] && [ "$(ex after)" = "0|3 of 3 (cached)|7" ]
}

rm "$idx" && mkfifo "$idx"
is "$(ex fifo)|$(cat fifo.err)" \
	"0|3 of 3|7|kabi-diff: warning: $idx: not a regular file; the cache entry is not used" \
	"an index that is a FIFO: not opened blocking, a warning, compiled"
regular
ok $? "  the entry stored again as a regular file"

# A character device of our own (mknod), else the system's /dev/zero.
rm "$idx"
if mknod zero c 1 5 2>/dev/null; then ln -s "$PWD/zero" "$idx"; else ln -s /dev/zero "$idx"; fi
# 1 GB at most either way: ulimit -v, which ASan's shadow memory cannot live under, or ASan's own bound.
if grep -q __asan_init "$KABI_DIFF"; then
	out=$(ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=1000 ex zero)
else
	out=$( (ulimit -v 1000000; ex zero) )
fi
is "$out|$(cat zero.err)" \
	"0|3 of 3|7|kabi-diff: warning: $idx: not a regular file; the cache entry is not used" \
	"an index linked to a character device: not read, a warning, compiled (1 GB of memory)"
regular
ok $? "  the link replaced by a regular file"

rm "$idx" && head -c $((4 * 1024 * 1024 + 1)) /dev/zero | tr '\0' x >"$idx"
is "$(ex big)|$(cat big.err)" \
	"0|3 of 3|7|kabi-diff: warning: $idx: larger than 4 MiB, the limit of a cache index; the cache entry is not used" \
	"an index of 4 MiB and one byte: not read, a warning, compiled"
rm "$idx" && head -c $((4 * 1024 * 1024)) /dev/zero | tr '\0' x >"$idx"
is "$(ex at-cap)|$(cat at-cap.err)" "0|3 of 3|7|" "an index of 4 MiB: read, no index, quietly compiled"
regular
ok $? "  the entry stored again"

# --- the package cache's reference files ------------------------------------------
k1=$(fixture_kernel v1-dwarf5 -gdwarf-5) && k2=$(fixture_kernel v2-dwarf5 -gdwarf-5 -DKABI_V2) ||
	{ ok 1 "fixture kernels"; done_testing; }
# mkdeb N KERNEL: a linux-image-6.99.N-amd64-dbg .deb holding KERNEL as its vmlinux.
mkdeb() {
	mkdir -p "dbg$1/DEBIAN" "dbg$1/usr/lib/debug/boot" && cp "$2" "dbg$1/usr/lib/debug/boot/vmlinux-6.99.$1-amd64" &&
	printf 'Package: linux-image-6.99.%s-amd64-dbg\nVersion: 6.99.%s\nArchitecture: amd64\nMaintainer: kabi-diff tests <t@example.org>\nDescription: fixture\n' \
		"$1" "$1" >"dbg$1/DEBIAN/control" &&
	dpkg-deb --root-owner-group -Zxz --build "dbg$1" "dbg$1.deb" >/dev/null
}
mkdeb 1 "$k1" && mkdeb 2 "$k2"
ok $? "fixture .deb packages built with dpkg-deb"
timeout 60 "$KABI_DIFF" dbg1.deb dbg2.deb >/dev/null 2>&1
is "$?|$(ls "$XDG_CACHE_HOME"/kabi-diff/pkg-*.ref | wc -l)" "12|2" "diff of two packages: exit 12, two references"
for r in "$XDG_CACHE_HOME"/kabi-diff/pkg-*.ref; do rm "$r" && mkfifo "$r"; done
timeout 60 "$KABI_DIFF" dbg1.deb dbg2.deb >/dev/null 2>ref.err
is "$?|$(grep -c ': not a regular file; the cache entry is not used$' ref.err)|$(grep -c 'reading the packages' ref.err)" \
	"12|2|2" "references that are FIFOs: not opened blocking, a warning each, the packages read again"
timeout 60 "$KABI_DIFF" dbg1.deb dbg2.deb >/dev/null 2>ref2.err
is "$?|$(grep -c 'cached as' ref2.err)|$(find "$XDG_CACHE_HOME"/kabi-diff -name 'pkg-*.ref' -type f | wc -l)" \
	"12|2|2" "  rewritten as regular files: the next diff is answered from the cache"
done_testing
