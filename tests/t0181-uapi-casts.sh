#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Constants the UAPI reader used to lose without a word (issue 24), in a
# source-layout tree as Debian's -common has it (sparse annotations kept):
# casts through __force and through the headers' own integer typedefs
# (EPOLLIN, RWF_*, V4L2_STD_*), an enumerator of a type wider than int
# in a macro (cn_proc.h's PROC_EVENT_ALL), a macro naming itself
# (pkt_sched.h's __TC_MQPRIO_MODE_MAX), sizeof of a string, a number
# or a typedef (xattr.h, sigcontext.h, coff.h), byte-order macros (<linux/swab.h>'s
# __builtin_constant_p arm: GRE_CSUM), an identifier another header
# defines (x25.h's SIOCPROTOPRIVATE + 0), and two headers sharing one
# include guard (ipt_ttl.h, ipt_TTL.h). Each value and C type is gcc's on
# the same headers; what is no integer constant is a problem row saying
# why; a value that changes between two trees is reported both ways.
. "$KD_SRCDIR/lib.sh"

src=$KD_SRCDIR/fixtures/uapi/source/include
XDG_CACHE_HOME=$PWD/cache
export XDG_CACHE_HOME

# tree DIR: the fixture tree of this test (x86_64, source layout).
tree() {
	u=$1/include/uapi
	mkdir -p "$u/linux" "$u/asm-generic" "$1/include/arch/x86/include/uapi/asm"
	cp "$src/uapi/linux/types.h" "$u/linux/"
	cat >"$u/linux/kx_types.h" <<'EOF'
#ifndef _KX_TYPES_H
#define _KX_TYPES_H
#include <linux/types.h>
#ifdef __CHECKER__
#define __bitwise __attribute__((bitwise))
#else
#define __bitwise
#endif
typedef __u16 __bitwise __kx_be16;
typedef unsigned __bitwise __kx_poll_t;
#endif
EOF
	cat >"$u/linux/kx_swab.h" <<'EOF'
#ifndef _KX_SWAB_H
#define _KX_SWAB_H
#include <linux/kx_types.h>
#define ___kx_constant_swab16(x) ((__u16)(				\
	(((__u16)(x) & (__u16)0x00ffU) << 8) |			\
	(((__u16)(x) & (__u16)0xff00U) >> 8)))
static inline __u16 __kx_fswab16(__u16 v)
{
	return ___kx_constant_swab16(v);
}
#define __kx_swab16(x) (__u16)(__builtin_constant_p(x) ?	\
	___kx_constant_swab16(x) : __kx_fswab16(x))
#define __kx_cpu_to_be16(x) ((__force __kx_be16)__kx_swab16((x)))
#endif
EOF
	cat >"$u/linux/kx.h" <<'EOF'
#ifndef _KX_H
#define _KX_H
#include <linux/kx_swab.h>
typedef int __bitwise __kx_rwf_t;
typedef __u64 kx_std_id;
#define KX_IN		(__force __kx_poll_t)0x00000001
#define KX_ET		((__force __kx_poll_t)(1U << 31))
#define KX_NOWAIT	((__force __kx_rwf_t)0x00000008)
#define KX_ALL		(KX_NOWAIT | (__force __kx_rwf_t)0x1)
#define KX_STD_A	((kx_std_id)0x00000001)
#define KX_STD_B	((kx_std_id)1 << 40)
#define KX_STD_AB	(KX_STD_A | KX_STD_B)
#define KX_CSUM		__kx_cpu_to_be16(0x8000)
#define KX_ISV		((__force __kx_be16)0x0001)
#define KX_STR		"str"
#define KX_TYPE		unsigned long
/* cn_proc.h: an enumerator that fits no int has its enum's type. */
enum kx_event { KX_EV_LOW = 0x1, KX_EV_HIGH = 0x80000000 };
#define KX_EV_ALL	(KX_EV_LOW | KX_EV_HIGH)
/* pkt_sched.h: a macro naming itself names the enumerator. */
enum { KX_MODE_A, KX_MODE_B, __KX_MODE_MAX };
#define __KX_MODE_MAX	(__KX_MODE_MAX - 1)
/* sizeof of expressions: xattr.h's string, sigcontext.h's number, coff.h's typedef. */
#define KX_PREFIX	"kx.\x41\101"
#define KX_PREFIX_LEN	(sizeof(KX_PREFIX) - 1)
#define KX_MAGIC	0x46505845U
#define KX_MAGIC_SIZE	sizeof(KX_MAGIC)
#define KX_NARROW_SIZE	(sizeof((__u8)1) + sizeof(L"ab"))
typedef struct { __u32 a, b, c; } KXHDR;
#define KX_HDRSZ	(sizeof(KXHDR))
#define KX_SIZE_LOST	(sizeof(KX_NOWHERE_TOO))
#endif
EOF
	echo '#define KX_PRIV_BASE 0x89E0' >"$u/linux/kx_other.h"
	cat >"$u/linux/kx_user.h" <<'EOF'
/* Like linux/x25.h: the base comes from a header it does not include. */
#define KX_USER_GET	(KX_PRIV_BASE + 0)
#define KX_USER_ALIAS	KX_USER_SET
#define KX_USER_SET	(KX_PRIV_BASE + 1)
#define KX_USER_LOST	(KX_NOWHERE + 1)
EOF
	# ipt_ttl.h and ipt_TTL.h: one include guard for two headers.
	printf '#ifndef _KX_TTL_H\n#define _KX_TTL_H\n#include <linux/types.h>\n#define KX_TTL_EQ 0\nenum { KX_TTL_NE = 1 };\nstruct kx_ttl_info { __u8 mode; };\n#endif\n' \
		>"$u/linux/kx_ttl.h"
	printf '#ifndef _KX_TTL_H\n#define _KX_TTL_H\n#include <linux/types.h>\n#define KX_TTL_SET 0\nenum { KX_TTL_INC = 1 };\nstruct kx_TTL_info { __u8 mode, ttl; };\n#endif\n' \
		>"$u/linux/kx_TTL.h"
}
names="KX_IN KX_ET KX_NOWAIT KX_ALL KX_STD_A KX_STD_B KX_STD_AB KX_CSUM KX_ISV KX_USER_GET KX_USER_SET KX_USER_ALIAS
KX_EV_ALL __KX_MODE_MAX KX_PREFIX_LEN KX_MAGIC_SIZE KX_NARROW_SIZE KX_HDRSZ"
tree v1
# gcc on the same headers, with the annotations headers_install strips
# deleted as it deletes them: each name's value and _Generic type.
{
	echo '#include <stdio.h>'
	echo '#include <linux/kx.h>'
	echo '#include <linux/kx_other.h>'
	echo '#include <linux/kx_user.h>'
	echo '#define T(x) _Generic((x), int: "int", unsigned int: "unsigned int", long: "long", unsigned long: "unsigned long", long long: "long long", unsigned long long: "unsigned long long", short: "short", unsigned short: "unsigned short", char: "char", signed char: "signed char", unsigned char: "unsigned char")'
	echo 'int main(void) {'
	for n in $names; do
		printf 'printf("%s|%%lld|%%s\\n", (long long)(%s), T(%s));\n' "$n" "$n" "$n"
	done
	echo 'return 0; }'
} >gcc.c
${CC:-gcc} -D__force= -D__user= -Iv1/include/uapi -Iv1/include/arch/x86/include/uapi gcc.c -o gcc.out
ok "$?" "gcc compiles the constants"
./gcc.out | sort >want.txt

"$KABI_DIFF" extract -q --uapi v1 -o v1.kabi 2>err.txt
is "$?" 0 "extract the tree: exit 0"
for n in $names; do
	q v1.kabi "SELECT name || '|' || value || '|' || ctype FROM constants WHERE name = '$n'"
done | sort >got.txt
is "$(cat got.txt)" "$(cat want.txt)" "  each constant with gcc's value and type"
is "$(q v1.kabi "SELECT printf('0x%04x', value) FROM constants WHERE name = 'KX_CSUM'")" "0x0080" \
	"  KX_CSUM is 0x8000 in big-endian order read as x86_64's (host-order) short"
is "$(q v1.kabi "SELECT location || ': ' || message FROM problems WHERE message LIKE 'KX%' ORDER BY location")" \
"linux/kx.h:15: KX_STR: not an integer constant (string)
linux/kx.h:16: KX_TYPE: not an integer constant (a type)
linux/kx.h:24: KX_PREFIX: not an integer constant (string)
linux/kx.h:31: KX_SIZE_LOST: not an integer constant: KX_NOWHERE_TOO is defined neither by the header, what it includes, nor as a constant of the tree
linux/kx_user.h:5: KX_USER_LOST: not an integer constant: KX_NOWHERE is defined neither by the header, what it includes, nor as a constant of the tree" \
	"  what is no constant is a problem row saying why, naming the identifier"

is "$("$KABI_DIFF" show v1.kabi info | grep '^uapi_constants')" \
	"uapi_constants  22 evaluated, 5 not (5 problems)" "  show info counts the macros: 22 values, 5 not"

# The shared guard: both headers' constants, enumerators and types, whatever the runs.
for n in 1 2 64; do
	KABI_DIFF_NO_UAPI_CACHE=1 KABI_DIFF_UAPI_BATCH=$n "$KABI_DIFF" extract -q --uapi v1 -o b$n.kabi 2>err$n.txt
	is "$(q b$n.kabi "SELECT name || '=' || value || ' ' || file FROM constants WHERE name LIKE 'KX_TTL%' ORDER BY name;
		SELECT t.name || ' ' || t.size || ' ' || u.file FROM uapi_types u JOIN types t ON t.id = u.type_id
		WHERE t.name LIKE 'kx_%info' ORDER BY t.name")" \
"KX_TTL_EQ=0 linux/kx_ttl.h
KX_TTL_INC=1 linux/kx_TTL.h
KX_TTL_NE=1 linux/kx_ttl.h
KX_TTL_SET=0 linux/kx_TTL.h
kx_TTL_info 2 linux/kx_TTL.h
kx_ttl_info 1 linux/kx_ttl.h" "runs of $n: kx_ttl.h and kx_TTL.h (one guard) both read"
done

# Two trees: values behind __force and the byte-order macro change; reported both ways.
tree v2
sed -i 's/0x00000008)/0x00000010)/; s/cpu_to_be16(0x8000)/cpu_to_be16(0x4000)/' v2/include/uapi/linux/kx.h
"$KABI_DIFF" v1 v2 -f json >v12.json 2>err.txt
is "$(jq -r '.changes[] | select(.kind == "constant.value") | [.subject, .old, .new] | join(" ")' v12.json | sort)" \
"KX_ALL 9 17
KX_CSUM 128 64
KX_NOWAIT 8 16" "v1 -> v2: the __force-cast and byte-order values that changed"
"$KABI_DIFF" v2 v1 -f json >v21.json 2>err.txt
is "$(jq -r '.changes[] | select(.kind == "constant.value") | [.subject, .old, .new] | join(" ")' v21.json | sort)" \
"KX_ALL 17 9
KX_CSUM 64 128
KX_NOWAIT 16 8" "v2 -> v1: the same, reversed"
"$KABI_DIFF" v1 v2 >v12.txt 2>err.txt
is "$(grep ' constants: ' v12.txt)" "old constants: 22 evaluated, 5 not (5 problems)
new constants: 22 evaluated, 5 not (5 problems)" "  the text report says how many macros each side evaluated"
# The annotations are no part of the value: a tree without them reports nothing.
tree plain
sed -i 's/__force //' plain/include/uapi/linux/kx.h plain/include/uapi/linux/kx_swab.h
"$KABI_DIFF" v1 plain -f json >plain.json 2>err.txt
is "$?" 0 "__force deleted: exit 0"
is "$(jq '[.changes[] | select(.kind | startswith("constant"))] | length' plain.json)" 0 "  no constant changed"
done_testing
