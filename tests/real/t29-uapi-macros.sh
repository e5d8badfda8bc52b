#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 24: every object-like macro of Debian's 6.12.107 amd64 -common
# header tree that gcc calls an integer constant, with gcc's value and C
# type, is in the .kabi with the same value and type. gcc's side is
# tests/ioctl-oracle.sh with KD_ORACLE_CONSTS=1 (each header compiled
# alone as user space compiles it, the annotations headers_install strips
# defined away; each macro asked of the one header that defines it).
# Not compared: macros of an asm-generic/X.h that x86's own asm/X.h
# replaces (asm-generic/unistd.h's syscall numbers are other
# architectures'; kabi-diff reads an asm-generic header only where an asm/
# header includes it), and a name two headers define with two values.
# Measured: constants-issue24.md. About 5-12 minutes (the oracle compiles
# ~980 headers).
. "$KD_SRCDIR/lib.sh"

r=6.12.107+deb12-amd64
inc=${KABI_KERNELS:-/root/.cache/kabi-kernels}/$r/include
if [ ! -d "$inc/arch/x86" ]; then
	skip "$r: no headers (fetch: ../shared/kernels/fetch --headers $r)"
	done_testing
fi
cd "$KD_TMPDIR" || exit 1
export LC_ALL=C
db=$KD_TMPDIR/$r-macros.kabi
"$KABI_DIFF" extract -q --uapi "$inc" -o "$db"
ok $? "$r: extract --uapi" || { done_testing; exit; }
KD_ORACLE_CONSTS=1 sh "$KD_SRCDIR/ioctl-oracle.sh" "$inc" gcc.txt
ok $? "gcc values the tree's macros"
sed 's/^/# gcc: /' gcc.txt.log | grep -v '^# gcc: dropped: ' | head -12
ok "$([ "$(wc -l <gcc.txt)" -gt 25000 ]; echo $?)" "gcc values over 25000 macros ($(wc -l <gcc.txt))"

# kabi-diff's: constants with their C type; ioctl numbers (gcc's type of an
# _IOC() is unsigned long or unsigned int, the .kabi keeps the number).
{ q "$db" "SELECT name || '	' || value || '	' || ctype FROM constants"
  q "$db" "SELECT name || '	' || cmd || '	ioctl' FROM ioctls WHERE cmd IS NOT NULL"; } | sort -t '	' -k1,1 >kd.txt
q "$db" "SELECT message FROM problems" >problems.txt
. "$KD_SRCDIR/real/common-tree.sh"
replaced=$(common_tree_replaced "$inc" | tr '\n' ' ')
echo "# asm-generic headers x86 replaces: $replaced"
sort -t '	' -k1,1 gcc.txt | join -t '	' -a 1 - kd.txt | awk -F'\t' -v replaced="$replaced" -v probs=problems.txt '
	BEGIN { n = split(replaced, r, " "); for (i = 1; i <= n; i++) rep[r[i]] = 1
		while ((getline l < probs) > 0) { split(l, w, ":"); said[w[1]] = l } }
	rep[$4] { other++; next }
	NF < 5 { if ($1 in said) { miss++; print "missing: " $1 " = " $2 " (" $4 "): " said[$1] }
		 else { silent++; print "SILENT: " $1 " = " $2 " " $3 " (" $4 ")" }
		 next }
	$2 != $5 { wrong++; print "WRONG: " $1 " gcc " $2 " " $3 ", kabi-diff " $5 " " $6 " (" $4 ")"; next }
	$6 != "ioctl" && $3 != $6 { type++; print "TYPE: " $1 " gcc " $3 ", kabi-diff " $6 " (" $4 ")"; next }
	{ right++ }
	END { printf "%d %d %d %d %d %d\n", right + 0, wrong + 0, type + 0, miss + 0, silent + 0, other + 0 > "counts" }' \
	>detail.txt
read -r right wrong type miss silent other <counts
echo "# gcc $(wc -l <gcc.txt) macros: kabi-diff right $right (value and type), wrong value $wrong," \
	"other type $type, missing $miss with a problem row, $silent without; $other in replaced asm-generic headers"
sed 's/^/#   /' detail.txt | head -40
is "$wrong" 0 "no constant with another value than gcc's"
is "$type" 0 "no constant with another C type than gcc's"
is "$silent" 0 "no integer macro missing without a problem row"
# offsetof, a member address through a null pointer, __typeof__ casts and
# __alignof__ are valued from the header view's layouts (t0183): nothing
# gcc values is left missing.
is "$(sed -n 's/^missing: \([A-Za-z0-9_]*\) .*/\1/p' detail.txt | tr '\n' ' ')" \
	"" "no integer macro gcc values is missing, with or without a problem row"
done_testing
