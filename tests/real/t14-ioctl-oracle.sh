#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Every ioctl number of Debian's UAPI trees against the compiler's own
# (tests/ioctl-oracle.sh: each header compiled alone, the _IO* macros and
# enumerators found and valued by gcc, independently of kabi-diff's
# reader). kabi-diff reads the same tree alone (extract --uapi DIR): at
# least 99% of the compiler's ioctls present with the same number, none
# with another, and every one missing named by a problem row. Then the
# issue's spot facts through `show`. About 5-15 minutes per tree on two
# busy cores (the oracle compiles ~950 headers; 28 minutes for both under
# a load of ~18).
# Measured: 6.1.0-47: 954 headers, 2711 ioctls, kabi-diff 2711 right, 0
# wrong, 0 missing (55 more ioctls kabi-diff numbers that gcc cannot size
# alone); 6.12.107: 982 headers, 2870 ioctls, 2870 right, 0 wrong (15
# iommufd.h ones were wrong before d9258a8), 0 missing (51 more).
. "$KD_SRCDIR/lib.sh"

K=${KABI_KERNELS:-/root/.cache/kabi-kernels}
for rel in 6.1.0-47-amd64 6.12.107+deb12-amd64; do
	inc=$K/$rel/include
	if [ ! -d "$inc/uapi/linux" ]; then
		skip "$rel: no UAPI headers in the cache (fetch --headers $rel)"
		continue
	fi
	db=$KD_TMPDIR/h-$rel.kabi
	"$KABI_DIFF" extract -q --uapi "$inc" -o "$db"
	is "$?" 0 "$rel: extract --uapi, headers alone"
	sh "$KD_SRCDIR/ioctl-oracle.sh" "$inc" oracle-$rel.txt
	is "$?" 0 "$rel: the compiler's ioctls"
	sed 's/^/# oracle: /' oracle-$rel.txt.log | head -12
	q "$db" "SELECT name || '	' || cmd FROM ioctls WHERE cmd IS NOT NULL ORDER BY name" |
		LC_ALL=C sort >kd-$rel.txt
	q "$db" "SELECT ifnull(location, '') || ' ' || message FROM problems" >problems-$rel.txt
	LC_ALL=C join -t '	' -a 1 oracle-$rel.txt kd-$rel.txt |
	awk -F'\t' -v probs=problems-$rel.txt '
		BEGIN { while ((getline l < probs) > 0) p[++np] = l }
		function explained(n,   i) {
			for (i = 1; i <= np; i++) if (index(p[i], n)) return 1
			return 0
		}
		NF < 4 { miss++; if (!explained($1)) { silent++; print "silent miss: " $1 " (" $3 ")" > "/dev/stderr" }
			 else print "miss: " $1 > "/dev/stderr"; next }
		$2 == $4 { right++; next }
		{ wrong++; print "wrong: " $1 " compiler " $2 " kabi-diff " $4 > "/dev/stderr" }
		END { printf "%d %d %d %d\n", right + 0, wrong + 0, miss + 0, silent + 0 }' \
		>result-$rel.txt 2>detail-$rel.txt
	read -r right wrong miss silent <result-$rel.txt
	total=$((right + wrong + miss))
	extra=$(LC_ALL=C join -t '	' -v 2 oracle-$rel.txt kd-$rel.txt | wc -l)
	echo "# $rel: compiler $total ioctls; kabi-diff right $right, wrong $wrong, missing $miss" \
		"($silent without a problem row); kabi-diff has $extra the compiler gave no number"
	sed 's/^/#   /' detail-$rel.txt | head -40
	ok "$([ "$total" -gt 1000 ]; echo $?)" "$rel: the oracle found over 1000 ioctls ($total)"
	is "$wrong" 0 "$rel: no ioctl with another number than the compiler's"
	ok "$([ $((right * 100)) -ge $((total * 99)) ]; echo $?)" "$rel: >= 99% present and right ($right of $total)"
	is "$silent" 0 "$rel: every miss has a problem row saying why"
done

# --- spot facts through show ---------------------------------------------
db=$KD_TMPDIR/h-6.1.0-47-amd64.kabi
if [ -s "$db" ]; then
	is "$("$KABI_DIFF" show "$db" ioctl EVIOCGVERSION | head -1)" "ioctl EVIOCGVERSION: 0x80044501" \
		"6.1: show ioctl EVIOCGVERSION (input.h takes _IOR from <sys/ioctl.h>)"
	is "$("$KABI_DIFF" show "$db" ioctl AUTOFS_IOC_READY | head -1)" "ioctl AUTOFS_IOC_READY: 0x00009360" \
		"6.1: show ioctl AUTOFS_IOC_READY (an enumerator as its number)"
	"$KABI_DIFF" show "$db" struct drm_map >drm_map.txt
	is "$(head -1 drm_map.txt)" "/* header view: drm/drm.h:222 */" "6.1: show struct drm_map says the header view"
	is "$(layout <drm_map.txt | tr '\n' ';')" "1 offset 0 8;1 size 8 8;1 type 16 4;1 flags 20 4;1 handle 24 8;1 mtrr 32 4;" \
		"  its layout (no module uses it: only the header has it)"
fi
db=$KD_TMPDIR/h-6.12.107+deb12-amd64.kabi
if [ -s "$db" ]; then
	is "$("$KABI_DIFF" show "$db" ioctl BINDER_FREEZE | head -1)" "ioctl BINDER_FREEZE: 0x400c620e (an enumerator)" \
		"6.12: show ioctl BINDER_FREEZE (binder.h's ioctls are enumerators)"
fi
done_testing
