#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 24 items 1-2 on Debian's 6.12.107 amd64 -common header tree (which
# keeps __force): the constants behind sparse and typedef casts, byte-order
# macros, identifiers of another header and the two headers sharing one
# include guard have the values gcc computes from the same headers (the
# annotations deleted as headers_install deletes them; the headers a name
# needs included first); every macro left is a problem row, and show info
# counts them. Measured numbers: constants-issue24.md.
. "$KD_SRCDIR/lib.sh"

r=6.12.107+deb12-amd64
k=${KABI_KERNELS:-/root/.cache/kabi-kernels}/$r/include
if [ ! -d "$k/arch/x86" ]; then
	skip "$r: no headers (fetch: ../shared/kernels/fetch --headers $r)"
	done_testing
fi
names="EPOLLIN EPOLLET RWF_NOWAIT RWF_APPEND IPT_TTL_SET IP6T_HL_EQ SIOCINQ SIOCOUTQ GRE_CSUM
VTI_ISVTI TUNNEL_CSUM SIOCX25GSUBSCRIP SNDRV_PCM_FORMAT_S16_LE SNDRV_PCM_FORMAT_LAST OPEN_TREE_CLOEXEC
V4L2_STD_PAL"
db=$KD_TMPDIR/$r-headers.kabi
XDG_CACHE_HOME=$KD_TMPDIR/cache "$KABI_DIFF" extract -q --uapi "$k" -o "$db"
ok $? "$r: extract --uapi" || { done_testing; exit; }

# gcc on the same tree: the asm/ wrappers Kbuild would generate, empty compiler headers.
. "$KD_SRCDIR/real/common-tree.sh"
common_tree_wrap "$k" "$KD_TMPDIR/wrap"
{
	echo '#include <stdio.h>'
	for h in asm/ioctls.h linux/fcntl.h linux/eventpoll.h linux/fs.h linux/sockios.h \
		linux/netfilter_ipv4/ipt_TTL.h linux/netfilter_ipv6/ip6t_hl.h linux/if_tunnel.h \
		linux/x25.h sound/asound.h linux/mount.h linux/videodev2.h; do
		echo "#include <$h>"
	done
	echo 'int main(void) {'
	for n in $names; do
		printf 'printf("%s=%%lld\\n", (long long)(%s));\n' "$n" "$n"
	done
	echo 'return 0; }'
} >$KD_TMPDIR/casts.c
# shellcheck disable=SC2086 # the flags are words
${CC:-gcc} $common_tree_cflags $KD_TMPDIR/casts.c -o $KD_TMPDIR/casts
ok $? "gcc compiles the names on the same headers"
got=$(for n in $names; do q "$db" "SELECT name || '=' || value FROM constants WHERE name = '$n'"; done)
is "$got" "$($KD_TMPDIR/casts)" "each constant is present with gcc's value"
is "$(q "$db" "SELECT count(*) FROM problems WHERE message LIKE 'SIOCPROTOPRIVATE%' OR message LIKE '%: SIOCPROTOPRIVATE is%'")" 0 \
	"no SIOCPROTOPRIVATE + n is left"
"$KABI_DIFF" show "$db" info | grep -q '^uapi_constants  [0-9]* evaluated, [0-9]* not ([0-9]* problems)$'
ok $? "show info counts the macros"
done_testing
