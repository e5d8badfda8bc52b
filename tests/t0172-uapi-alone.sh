#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A header's compile outcome is what it gives alone, whatever batch the
# compiler runs put it in (extract/uapi/compile-alone.c). linux/kb_cons.h
# needs KA_SIZE and <sys/socket.h>'s MSG_FIN from linux/ka_prov.h, which
# it does not include: it fails alone, so it fails in every batch layout,
# with the same problem row (before, it compiled in any batch that had
# ka_prov.h before it, as linux/sctp.h did in Debian's 6.12.107). The
# reverse: linux/kc_clash.h compiles alone but clashes with ka_prov.h
# (another struct ka_prov): it is compiled, in a unit of its own. Runs of
# 1, 2, 3 and 64 units ($KABI_DIFF_UAPI_BATCH, a knob for tests) and a
# tree with more headers before them (other run boundaries) give the same
# header view, problems and counts.
. "$KD_SRCDIR/lib.sh"

KABI_DIFF_NO_UAPI_CACHE=1
export KABI_DIFF_NO_UAPI_CACHE
t=tree/include
mkdir -p $t/uapi/linux $t/uapi/asm-generic $t/arch/x86/include/uapi/asm
echo '#define KX_ARCH 1' >$t/arch/x86/include/uapi/asm/kxarch.h
cat >$t/uapi/linux/ka_prov.h <<'EOF'
#include <sys/socket.h>
#define KA_SIZE 4
struct ka_prov { int x; };
EOF
cat >$t/uapi/linux/kb_cons.h <<'EOF'
/* Like linux/sctp.h: what it uses comes from a header it does not include. */
struct kb_cons {
	char name[KA_SIZE];
};
enum { KB_EOF = MSG_FIN };
EOF
cat >$t/uapi/linux/kc_clash.h <<'EOF'
struct ka_prov { long y; long z; };
EOF
cat >$t/uapi/linux/kd_ok.h <<'EOF'
#include <linux/ka_prov.h>
struct kd_ok { struct ka_prov p; char n[KA_SIZE]; };
EOF

view() {
	q "$1" "SELECT value FROM meta WHERE key = 'uapi_compiled';
		SELECT u.file || ':' || u.line || ' ' || t.kind || ' ' || ifnull(t.name, '-') || ' ' || t.size
		FROM uapi_types u JOIN types t ON t.id = u.type_id WHERE u.file LIKE 'linux/k%' ORDER BY 1;
		SELECT location || ': ' || message FROM problems WHERE stage = 'uapi' ORDER BY id"
}
want="4 of 5
linux/ka_prov.h:3 struct ka_prov 4
linux/kc_clash.h:1 struct ka_prov 16
linux/kd_ok.h:2 struct kd_ok 8
linux/kb_cons.h: does not compile on its own, so its types have no header view: linux/kb_cons.h:3:19: error: ‘KA_SIZE’ undeclared here (not in a function)
linux/kc_clash.h: struct ka_prov: another size than in linux/ka_prov.h:3 (depending on what was included before; sizes are taken from linux/ka_prov.h)"

for n in 1 2 3 64; do
	KABI_DIFF_UAPI_BATCH=$n "$KABI_DIFF" extract -q --uapi $t -o b$n.kabi 2>err$n.txt
	is "$?" 0 "batches of $n: exit 0"
	is "$(view b$n.kabi)" "$want" "  batches of $n: kb_cons.h fails (alone), kc_clash.h compiles, the same rows"
done

# More headers sorted before them move every batch boundary.
i=0
while [ $i -lt 5 ]; do
	echo "#define KX_F$i $i" >$t/uapi/linux/f$i.h
	i=$((i + 1))
done
KABI_DIFF_UAPI_BATCH=3 "$KABI_DIFF" extract -q --uapi $t -o more.kabi 2>err.txt
is "$?" 0 "5 more headers, batches of 3: exit 0"
is "$(view more.kabi)" "$(echo "$want" | sed '1s/.*/9 of 10/')" "  the same outcome for each header"
done_testing
