#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The 32-bit header view (issue 27) against the compiler: every ioctl
# number i386 programs compile from Debian's UAPI trees
# (tests/ioctl-oracle.sh with KD_ORACLE_M32=1: gcc -m32, each value read
# from a static initializer's assembly) held against compat_ioctls of
# `extract --uapi DIR` (headers alone): at least 99% present with the same
# number, none with another. Needs libc6-dev-i386. As slow as t14 (the
# oracle compiles ~950 headers per tree).
# Measured: 6.1.0-47: 952 headers, 2711 i386 ioctls, 2710 right, 0 wrong,
# 1 missing (SNDRV_TIMER_IOCTL_TREAD: for 32-bit programs a ?: of two
# commands, no single _IOC call). 6.12.107: 2870 i386 ioctls, 2869
# right, 0 wrong, the same 1 missing.
. "$KD_SRCDIR/lib.sh"

KABI_DIFF_NO_COMPAT=
export KABI_DIFF_NO_COMPAT
K=${KABI_KERNELS:-/root/.cache/kabi-kernels}
need_ia32_libc
for rel in 6.1.0-47-amd64 6.12.107+deb12-amd64; do
	inc=$K/$rel/include
	if [ ! -d "$inc/uapi/linux" ]; then
		skip "$rel: no UAPI headers in the cache (fetch --headers $rel)"
		continue
	fi
	db=$KD_TMPDIR/h32-$rel.kabi
	"$KABI_DIFF" extract -q --uapi "$inc" -o "$db"
	is "$?" 0 "$rel: extract --uapi, headers alone, with the ia32 view"
	KD_ORACLE_M32=1 sh "$KD_SRCDIR/ioctl-oracle.sh" "$inc" oracle32-$rel.txt
	is "$?" 0 "$rel: the i386 compiler's ioctls"
	sed 's/^/# oracle: /' oracle32-$rel.txt.log | head -8
	q "$db" "SELECT name || '	' || cmd FROM compat_ioctls WHERE abi = 'ia32' AND cmd IS NOT NULL ORDER BY name" |
		LC_ALL=C sort >kd32-$rel.txt
	LC_ALL=C join -t '	' -a 1 oracle32-$rel.txt kd32-$rel.txt |
	awk -F'\t' '
		NF < 4 { miss++; print "miss: " $1 " (" $3 ")" > "/dev/stderr"; next }
		$2 == $4 { right++; next }
		{ wrong++; print "wrong: " $1 " compiler " $2 " kabi-diff " $4 > "/dev/stderr" }
		END { printf "%d %d %d\n", right + 0, wrong + 0, miss + 0 }' \
		>result32-$rel.txt 2>detail32-$rel.txt
	read -r right wrong miss <result32-$rel.txt
	total=$((right + wrong + miss))
	echo "# $rel (i386): compiler $total ioctls; kabi-diff right $right, wrong $wrong, missing $miss"
	sed 's/^/#   /' detail32-$rel.txt | head -40
	ok "$([ "$total" -gt 1000 ]; echo $?)" "$rel: the i386 oracle found over 1000 ioctls ($total)"
	is "$wrong" 0 "$rel: no i386 ioctl with another number than gcc -m32's"
	ok "$([ $((right * 100)) -ge $((total * 99)) ]; echo $?)" "$rel: >= 99% present and right ($right of $total)"
done
done_testing
