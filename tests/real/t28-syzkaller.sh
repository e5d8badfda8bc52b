#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 24: kabi-diff's values against syzkaller's hand-kept descriptions
# of Linux (github:google/syzkaller, sys/linux/*.txt.const: #define
# constants, ioctl numbers, enumerators, syscall numbers), on Debian's
# 6.12.107 amd64 vmlinux and -common header tree. syzkaller is a second
# opinion, not the truth: it describes a newer kernel and defines names of
# its own, so every disagreement is settled by gcc on the same headers
# (tests/real/common-tree.sh), and for a syscall number by the kernel's
# own table (tests/real/data/syscall_64-6.12.txt).
#   - a value kabi-diff has: equal to syzkaller's, or to gcc's when the two
#     disagree: 0 wrong;
#   - a name kabi-diff lacks that the tree's UAPI headers define: 0 that gcc
#     values with the defining header alone, <= 10 needing another header;
#   - syzkaller's names for members of a parametrized ioctl family
#     (`define EVIOCGABS20 EVIOCGABS(0x20)`): the family recorded and its
#     member valued as syzkaller's (or gcc's) number.
# syzkaller comes from $KD_SYZKALLER: a checkout or a bare git directory
# (default: where the tool library's `fetch github:google/syzkaller`
# leaves it). Measured numbers: constants-issue24.md.
. "$KD_SRCDIR/lib.sh"

r=6.12.107+deb12-amd64
k=${KABI_KERNELS:-/root/.cache/kabi-kernels}/$r
syz=${KD_SYZKALLER:-/work/.mirror/google+syzkaller/repo}
if [ ! -d "$k/include/arch/x86" ] || [ ! -r "$k/vmlinux" ]; then
	skip "$r: no vmlinux or headers (fetch: ../shared/kernels/fetch --headers $r)"
	done_testing
fi
mkdir -p "$KD_TMPDIR/syz"
if [ -d "$syz/sys/linux" ]; then
	cp "$syz"/sys/linux/*.txt "$syz"/sys/linux/*.txt.const "$KD_TMPDIR/syz/"
elif git --git-dir="$syz" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	git --git-dir="$syz" archive HEAD sys/linux | tar -x -C "$KD_TMPDIR/syz" --strip-components=2 \
		--wildcards '*.txt' '*.txt.const'
else
	skip "no syzkaller in $syz (set KD_SYZKALLER to a checkout or git directory of github.com/google/syzkaller)"
	done_testing
fi
cd "$KD_TMPDIR" || exit 1
export LC_ALL=C

db=$KD_TMPDIR/$r.kabi
"$KABI_DIFF" extract -q "$k/vmlinux" --uapi "$k/include" -o "$db"
ok $? "$r: extract vmlinux --uapi include" || { done_testing; exit; }

# syzkaller's amd64 value of each name: "NAME = DEFAULT, ARCH:ARCH:VALUE, ...";
# ??? is "not on this arch".
cat syz/*.txt.const | awk '
	/^#/ || /^arches/ || !/=/ { next }
	{ name = $1; sub(/^[^=]*= */, ""); n = split($0, f, /, */); v = ""; d = ""
	  for (i = 1; i <= n; i++) {
		if (f[i] !~ /:/) { d = f[i]; continue }
		m = split(f[i], a, ":"); for (j = 1; j < m; j++) if (a[j] == "amd64") v = a[m]
	  }
	  if (v == "") v = d
	  if (v != "" && v != "???") print name "\t" v }' | sort -u >syz.txt
ok "$([ "$(wc -l <syz.txt)" -gt 10000 ]; echo $?)" "syzkaller gives over 10000 amd64 values ($(wc -l <syz.txt))"
# One name, several values: syzkaller's own defines in several files (PPPOEIOCSFWD).
echo "# $(cut -f1 syz.txt | uniq -d | wc -l) names syzkaller values twice"

# kabi-diff's: constants (64-bit two's complement, printed unsigned as
# syzkaller prints), ioctl numbers, the x86_64 syscall table as __NR_NAME.
unsigned() { while IFS='	' read -r n v; do
	case $v in -*) printf '%s\t%u\n' "$n" "$v" ;; *) printf '%s\t%s\n' "$n" "$v" ;; esac; done; }
{ q "$db" "SELECT name || '	' || value FROM constants" | unsigned
  q "$db" "SELECT name || '	' || cmd FROM ioctls WHERE cmd IS NOT NULL"
  q "$db" "SELECT '__NR_' || name || '	' || nr FROM syscalls WHERE abi = 'x64' AND name IS NOT NULL"
} | sort -u >kd.txt
is "$(cut -f1 kd.txt | uniq -d | tr '\n' ' ')" "" "kabi-diff gives each name one value"

# gcc on the same tree. gcc_value NAME [EXPR]: the value gcc computes for
# EXPR (default NAME) with
# the header of the tree's UAPI directories that defines it (a #define or an
# enumerator), alone ("alone") or after the headers a user program
# commonly includes first ("another"); nothing when neither compiles.
. "$KD_SRCDIR/real/common-tree.sh"
common_tree_wrap "$k/include" "$KD_TMPDIR/wrap"
uapi_dirs="$k/include/uapi $k/include/arch/x86/include/uapi"
prelude='#include <linux/types.h>
#include <asm/ioctls.h>
#include <linux/sockios.h>
#include <linux/fcntl.h>
#include <linux/socket.h>
#include <sys/ioctl.h>'
gcc_value() {
	hdr=$(grep -rlE "^[[:space:]]*#[[:space:]]*define[[:space:]]+$1([[:space:](]|$)" $uapi_dirs 2>/dev/null | head -1)
	[ -n "$hdr" ] || hdr=$(grep -rlE "(^|[^A-Za-z0-9_])$1[[:space:]]*(=[^=]|,|$)" $uapi_dirs 2>/dev/null | head -1)
	[ -n "$hdr" ] || return 0
	e=${2:-$1}
	hdr=${hdr#"$k/include/uapi/"}; hdr=${hdr#"$k/include/arch/x86/include/uapi/"}
	for how in alone another; do
		{ [ $how = another ] && echo "$prelude"
		  printf '#include <%s>\nint printf(const char *, ...);\n' "$hdr"
		  printf 'int main(void) { _Static_assert(__builtin_constant_p(~(%s)), ""); ' "$e"
		  printf 'printf("%%llu\\n", (unsigned long long)(%s)); return 0; }\n' "$e"; } >v.c
		# shellcheck disable=SC2086 # the flags are words
		if ${CC:-gcc} $common_tree_cflags v.c -o v 2>/dev/null; then
			printf '%s\t%s\t%s\n' "$how" "$(./v)" "$hdr"
			return 0
		fi
	done
}

# Names both know.
# A name is equal when any of syzkaller's values for it is kabi-diff's.
join -t '	' syz.txt kd.txt >both.txt
awk -F'\t' '$2 == $3 { eq[$1] = 1 } { row[NR] = $0; name[NR] = $1 }
	END { for (i = 1; i <= NR; i++) if (!eq[name[i]] && !seen[name[i]]++) print row[i] }' both.txt >differ.txt
nboth=$(cut -f1 both.txt | uniq | wc -l)
wrong=0; settled=0; unsettled=0
while IFS='	' read -r n sv kv; do
	case $n in
	__NR_*) gv=$(awk -v n="${n#__NR_}" '$2 == n { print $1 }' "$KD_REALDIR/data/syscall_64-6.12.txt") ;;
	*) gv=$(gcc_value "$n" | cut -f2) ;;
	esac
	if [ -z "$gv" ]; then unsettled=$((unsettled + 1)); echo "# unsettled: $n syzkaller $sv kabi-diff $kv"
	elif [ "$gv" = "$kv" ]; then settled=$((settled + 1)); echo "# syzkaller differs: $n syzkaller $sv, kabi-diff and gcc $kv"
	else wrong=$((wrong + 1)); echo "# WRONG: $n kabi-diff $kv, gcc $gv, syzkaller $sv"
	fi
done <differ.txt
echo "# $nboth names both have: $((nboth - $(cut -f1 differ.txt | uniq | wc -l))) equal," \
	"$settled where gcc or the kernel's table sides with kabi-diff, $unsettled unsettled, $wrong wrong"
is "$wrong" 0 "no value of kabi-diff differs from gcc's (or the kernel table's)"
is "$unsettled" 0 "every disagreement settled"

# Names syzkaller has and kabi-diff lacks: in the UAPI headers at all?
cat $(find $uapi_dirs -name '*.h') | tr -c 'A-Za-z0-9_' '\n' | sort -u >words.txt
join -t '	' -v 1 syz.txt kd.txt >missing.txt
cut -f1 missing.txt | join - words.txt >missing-uapi.txt
# asm-generic/X.h is x86's only where an asm/ header includes it (or Kbuild
# wraps it, when x86 has no asm/X.h).
common_tree_replaced "$k/include" >replaced.txt
arch_replaces() { grep -qxF "$1" replaced.txt; }
alone=0; another=0; none=0; other_arch=0
while read -r n; do
	case $n in __NR_*) none=$((none + 1)); continue ;; esac
	res=$(gcc_value "$n")
	if [ -n "$res" ] && arch_replaces "$(echo "$res" | cut -f3)"; then
		other_arch=$((other_arch + 1)); echo "# another arch's: $n ($(echo "$res" | cut -f3), which x86's asm/ replaces)"
		continue
	fi
	case $res in
	alone*) alone=$((alone + 1)); echo "# MISSING (the header alone gives it): $n ($(echo "$res" | cut -f2,3))" ;;
	another*) another=$((another + 1)); echo "# needs another header: $n ($(echo "$res" | cut -f3))" ;;
	*) none=$((none + 1)) ;;
	esac
done <missing-uapi.txt
echo "# $(wc -l <missing.txt) names kabi-diff lacks: $(($(wc -l <missing.txt) - $(wc -l <missing-uapi.txt)))" \
	"not in the UAPI headers (syzkaller's own, kernel-internal, another arch), $alone the defining" \
	"header alone values, $another need another header, $other_arch only in an asm-generic header x86" \
	"replaces, $none gcc gives no integer constant either"
is "$alone" 0 "no name missing that its header alone gives a value"
ok "$([ "$another" -le 10 ]; echo $?)" "at most 10 missing that need another header ($another)"

# Members of parametrized ioctl families: syzkaller's "define NAME F(ARGS)".
q "$db" "SELECT name FROM ioctl_families" | sort >families.txt
cat syz/*.txt | sed -nE 's/^define[ \t]+([A-Za-z0-9_]+)[ \t]+([A-Za-z0-9_]+)\(([^()]*)\)[ \t]*$/\2\t\1\t\3/p' |
	sort -t '	' -k1,1 | join -t '	' - families.txt >fam-uses.txt
recorded=0; famwrong=0
while IFS='	' read -r f n args; do
	sv=$(awk -F'\t' -v n="$n" '$1 == n { print $2 }' syz.txt)
	[ -n "$sv" ] || continue
	kv=$("$KABI_DIFF" show "$db" ioctl "$f($args)" 2>/dev/null | sed -nE '1s/^ioctl .*: 0x([0-9a-f]+).*/\1/p')
	kv=$([ -n "$kv" ] && printf '%u' "0x$kv")
	if [ "$kv" = "$sv" ]; then recorded=$((recorded + 1)); continue; fi
	gv=$(gcc_value "$f" "$f($args)" | cut -f2)
	if [ -n "$kv" ] && [ "$kv" = "$gv" ]; then recorded=$((recorded + 1)); echo "# syzkaller differs: $n = $f($args): $kv"
	else famwrong=$((famwrong + 1)); echo "# family member: $n = $f($args): kabi-diff '$kv', syzkaller $sv"
	fi
done <fam-uses.txt
echo "# $(wc -l <fam-uses.txt) syzkaller names of $(cut -f1 fam-uses.txt | sort -u | wc -l) families: $recorded valued right"
ok "$([ "$(wc -l <fam-uses.txt)" -ge 20 ]; echo $?)" "syzkaller uses at least 20 members of recorded families ($(wc -l <fam-uses.txt))"
is "$famwrong" 0 "each family member valued as syzkaller or gcc values it"
done_testing
