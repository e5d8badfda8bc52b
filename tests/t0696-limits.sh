#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The bounds of doc/LIMITS.md that no test reached yet (issue 12), each
# reached with a small input crafted here, on both sides of the bound:
# - #include nesting (64): a chain of 64 includes is read whole, one of 65
#   stops at the 65th with a problem row;
# - inclusions per header unit (4,096): 4,096 #includes of a guarded
#   header are fine, the 4,097th is a problem row; a header including
#   itself twice unguarded (2^64 inclusions) completes;
# - directory depth below a UAPI tree's top (64): headers 64 directories
#   deep are read, the 65th directory is a problem row;
# - the compile cache's caps (50,000 files, 512 MiB, 16 directories): a
#   tree at a cap is cached, one file, one byte or one directory more is
#   compiled but not cached (the constants are the same);
# - types per image (4,194,304): reaching it takes gigabytes of DWARF, so
#   KABI_DIFF_TEST_MAX_TYPES lowers it to the fixture's own count (read
#   whole) and one less (refused in one line, nothing written);
# - probe's --timeout: a QEMU (a script on PATH) that never ends is killed
#   after the timeout, and the error names it; one that floods its console
#   is stopped at 64 MiB of output, the error names that limit.
. "$KD_SRCDIR/lib.sh"

k=$(fixture_kernel v1-dwarf5 -gdwarf-5)
scratch limits

# tree DIR: an installed UAPI tree with the fixture's asm/ and asm-generic/.
tree() { header_tree --arch "$1"; }
# chain DIR N: DIR/linux/DIR0.h includes DIR1.h ... includes DIRN.h; each
# defines DIR_i = i.
chain() {
	tree "$1"
	awk -v d="$1" -v n="$2" 'BEGIN { for (i = 0; i <= n; i++) {
		f = d "/linux/" d i ".h"
		printf "#define %s_%d %d\n", d, i, i > f
		if (i < n) printf "#include <linux/%s%d.h>\n", d, i + 1 > f
		close(f) } }'
}
# extract_uapi DIR: DIR.kabi from the fixture kernel and the tree DIR.
extract_uapi() {
	timeout 120 "$KABI_DIFF" extract -q "$k" --uapi "$1" -o "$1.kabi"
}

# --- #include nesting: 64 -------------------------------------------------------
chain inca 64
extract_uapi inca
is "$?|$(q inca.kabi "SELECT count(*) FROM constants WHERE name GLOB 'inca_*'")|$(
	q inca.kabi "SELECT count(*) FROM problems")" "0|65|0" \
	"64 nested #includes: every header read, no problem"
chain incb 65
extract_uapi incb
is "$?|$(q incb.kabi "SELECT location || ' ' || message FROM problems")" \
	"0|linux/incb64.h:2 #include <linux/incb65.h>: nested too deeply" \
	"65 nested #includes: the 65th is a problem row"

# --- inclusions per header unit: 4,096 -----------------------------------------------
# many N: linux/many.h includes the guarded g.h N times between two #defines.
many() {
	tree "many$1"
	printf '#ifndef G_H\n#define G_H\n#define G_X 1\n#endif\n' >"many$1/linux/g.h"
	awk -v n="$1" 'BEGIN { print "#define MANY_A 1"
		for (i = 0; i < n; i++) print "#include <linux/g.h>"; print "#define MANY_B 2" }' \
		>"many$1/linux/many.h"
	extract_uapi "many$1"
}
many 4096
is "$?|$(q many4096.kabi "SELECT group_concat(name || '=' || value, ' ') FROM (SELECT * FROM constants
	WHERE name IN ('MANY_A', 'MANY_B', 'G_X') ORDER BY name)")|$(q many4096.kabi "SELECT count(*) FROM problems")" \
	"0|G_X=1 MANY_A=1 MANY_B=2|0" "4,096 inclusions from one header: read, no problem"
many 4097
is "$?|$(q many4097.kabi "SELECT count(*) FROM constants WHERE name IN ('MANY_A', 'MANY_B', 'G_X')")|$(
	q many4097.kabi "SELECT location || ' ' || message FROM problems")" \
	"0|3|linux/many.h:4098 #include <linux/g.h>: more than 4096 inclusions from one header (include loop?); the rest are skipped" \
	"4,097: the last is a problem row naming the limit, the rest of the header read"
tree self
printf '#define SELF_X 1\n#include <linux/self.h>\n#include <linux/self.h>\n#define SELF_Y 2\n' >self/linux/self.h
extract_uapi self
is "$?|$(q self.kabi "SELECT group_concat(name || '=' || value, ' ') FROM (SELECT * FROM constants
	WHERE name GLOB 'SELF_*' ORDER BY name)")" "0|SELF_X=1 SELF_Y=2" \
	"a header including itself twice unguarded (2^64 inclusions): completes"

# --- directory depth below the tree's top: 64 -----------------------------------------
tree deep
awk 'BEGIN { p = "deep/linux"; for (i = 1; i <= 65; i++) { p = p "/d" i; print p } }' | xargs mkdir -p
for d in $(find deep/linux -type d -name 'd*'); do
	i=${d##*/d}
	echo "#define DEEP_$i $i" >"$d/h$i.h"
done
extract_uapi deep
is "$?|$(q deep.kabi "SELECT count(*) || ' ' || max(value) FROM constants WHERE name GLOB 'DEEP_*'")" "0|63 63" \
	"headers 64 directories below the top (linux/d1/.../d63) are read"
is "$(q deep.kabi "SELECT message FROM problems" | sed 's,/d[0-9]*,,g')" \
	"deep/linux: more than 64 directories below the tree's top; its headers are left out" \
	"  the 65th directory (d64) is a problem row naming the limit"
is "$(q deep.kabi "SELECT message FROM problems" | grep -o '/d[0-9]*:')" "/d64:" "  ... at d64"

# --- the compile cache's caps ------------------------------------------------------------
# cached NAME: the compiled headers of tree NAME from a fresh cache: the
# number of cache entries (.idx files) written, and CF_X's value.
cached() {
	rm -rf "$1-cache"
	XDG_CACHE_HOME=$PWD/$1-cache timeout 120 "$KABI_DIFF" extract -q "$k" --uapi "$1" -o "$1.kabi" &&
	echo "$(ls "$1-cache/kabi-diff/uapi" 2>/dev/null | grep -c '\.idx$')|$(
		q "$1.kabi" "SELECT value FROM constants WHERE name = 'CF_X'")"
}
tree files
echo '#define CF_X 7' >files/linux/cf.h
mkdir files/linux/pad
seq -f 'f%05g' 1 $((50000 - $(find files -type f | wc -l))) | (cd files/linux/pad && xargs touch)
is "$(find files -type f | wc -l)|$(cached files)" "50000|1|7" "a tree of 50,000 files: compiled and cached"
touch files/linux/pad/one-more
is "$(cached files)" "0|7" "  50,001 files: compiled, not cached"

tree bytes
echo '#define CF_X 7' >bytes/linux/cf.h
size=$(find bytes -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
truncate -s $((512 * 1024 * 1024 - size)) bytes/linux/sparse.bin	# a hole: no disk used
is "$(cached bytes)" "1|7" "a tree of 512 MiB: compiled and cached"
truncate -s $((512 * 1024 * 1024 - size + 1)) bytes/linux/sparse.bin
is "$(cached bytes)" "0|7" "  512 MiB and one byte: compiled, not cached"

tree dirs
echo '#define CF_X 7' >dirs/linux/cf.h
mkdir -p dirs/linux/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15
touch dirs/linux/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/f
is "$(cached dirs)" "1|7" "a file 16 directories below the top: compiled and cached"
mkdir dirs/linux/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16
touch dirs/linux/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/f
is "$(cached dirs)" "0|7" "  17 directories: compiled, not cached"

# --- types per image: 4,194,304, lowered by KABI_DIFF_TEST_MAX_TYPES ------------------------
"$KABI_DIFF" extract -q "$k" -o all.kabi
n=$(q all.kabi "SELECT count(*) FROM types")
KABI_DIFF_TEST_MAX_TYPES=$n "$KABI_DIFF" extract -q "$k" -o at.kabi
is "$?|$(q at.kabi "SELECT count(*) FROM types")" "0|$n" "a limit of $n types (the fixture's): extracted whole"
KABI_DIFF_TEST_MAX_TYPES=$((n - 1)) "$KABI_DIFF" extract -q "$k" -o over.kabi 2>err.txt
is "$?|$(cat err.txt)|$(ls over.kabi* 2>/dev/null)" \
	"1|kabi-diff: $k: more than $((n - 1)) types reachable; giving up|" \
	"  $((n - 1)): refused in one line naming the limit, nothing written"
KABI_DIFF_TEST_MAX_TYPES=99999999999 "$KABI_DIFF" extract -q "$k" -o high.kabi
is "$?|$(q high.kabi "SELECT count(*) FROM types")" "0|$n" "  a value above 4,194,304 is ignored (never raised)"

# --- probe --timeout ---------------------------------------------------------------------
# The bootable fixture passes probe's checks of the image (t0310); the
# QEMU on PATH is a script that prints a line and sleeps.
if echo 'int main(void) { return 0; }' | cc -static -x c -o static-ok - 2>/dev/null &&
   bootk=$(fixture_kernel v1-boot -gdwarf-5 -DKABI_BOOTABLE) &&
   boot=$(fixture_db v1-boot -gdwarf-5 -DKABI_BOOTABLE); then
	mkdir -p fakebin
	printf '#!/bin/sh\necho "fake QEMU booting"\necho $$ > %s/qemu.pid\nexec sleep 600\n' "$PWD" \
		>fakebin/qemu-system-x86_64
	chmod +x fakebin/qemu-system-x86_64
	PATH=$PWD/fakebin:$PATH "$KABI_DIFF" probe "$boot" --kernel "$bootk" --no-spec --fs tmpfs --timeout 1 \
		>out.txt 2>err.txt
	is "$?|$(head -2 err.txt)" "1|kabi-diff: $bootk: probe failed: timeout (--timeout); last console lines:
  fake QEMU booting" "probe: a QEMU that never ends is killed after --timeout 1, the error names the timeout"
	kill -0 "$(cat qemu.pid)" 2>/dev/null
	is "$?" 1 "  and it is gone"
	# A guest flooding its console (one took 3.8 GB in 8 s): 64 MiB kept, QEMU killed.
	printf '#!/bin/sh\necho $$ > %s/qemu.pid\nexec yes flood\n' "$PWD" >fakebin/qemu-system-x86_64
	PATH=$PWD/fakebin:$PATH "$KABI_DIFF" probe "$boot" --kernel "$bootk" --fs tmpfs \
		--no-spec --timeout 100 >out.txt 2>err.txt
	is "$?|$(head -2 err.txt)" "1|kabi-diff: $bootk: probe failed: more than 64 MiB of console output, the limit; QEMU stopped; last console lines:
  flood" "probe: a QEMU flooding its console is stopped at 64 MiB, the error names the limit"
	kill -0 "$(cat qemu.pid)" 2>/dev/null
	is "$?" 1 "  and it is gone"
else
	skip "probe --timeout: no static libc for cc, or no bootable fixture"
	skip "probe: a flooding console"
	skip "  and it is gone"
fi
done_testing
