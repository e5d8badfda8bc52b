#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The compiler's own ioctl numbers for a UAPI header tree, independent of
# kabi-diff's reader: which macros are ioctls and what they are worth are
# both asked of gcc, header by header.
#
# For every header H of the tree (uapi/ and the arch's uapi/asm), compiled
# as user space compiles it (the tree first on the include path, then the C
# library's headers):
#   1. `gcc -E -dD` of `#include <H>` lists the object-like macros and the
#      file that defines each; those of the tree's files are candidates;
#   2. the candidates are preprocessed again after `#undef _IOC` and a
#      _IOC(d,t,n,s) that leaves a marker: a macro whose expansion holds the
#      marker is an ioctl (whatever macro layers lead there), and so is an
#      enumerator whose initializer is _IOC's expansion (6.12's binder.h). A macro
#      whose expansion calls _IO/_IOR/_IOW/_IOWR undefined (the header
#      leaves <sys/ioctl.h> to its user) is tried again with <sys/ioctl.h>
#      included first, as user space does;
#   3. a program printing every ioctl's value as an unsigned 32-bit number
#      is compiled and run; a line gcc rejects (sizeof of a type the header
#      does not define) is dropped and counted: the compiler knows no number
#      for it either.
# Function-like macros (EVIOCGNAME(len)) need arguments and are not ioctls
# with one number; they are counted, not compared.
# KD_ORACLE_CONSTS=1: every object-like macro of the tree instead, step 2
# skipped; step 3 prints each as a signed 64-bit number with its C type,
# and only those gcc calls an integer constant of an integer type are
# kept (a string, a pointer, a float, a type or an empty macro is not a
# constant; the C library's headers are not asked for).
#
# Usage: tests/ioctl-oracle.sh INCLUDE_DIR OUT
#   INCLUDE_DIR: a source or Debian linux-headers-*-common include/ (uapi/
#   and arch/x86/include/uapi/), or a headers_install tree (linux/, asm/).
#   OUT: written with one "NAME<TAB>NUMBER<TAB>HEADER" line per ioctl,
#   sorted by name; "OUT.log" gets the counts and what was dropped.
#   With KD_ORACLE_CONSTS=1: "NAME<TAB>VALUE<TAB>CTYPE<TAB>HEADER".
# Needs cc (or $CC). Exit 1 when the tree is not a UAPI tree.
# KD_ORACLE_M32=1: as i386 programs compile the headers (gcc -m32, i386's
# own syscall headers), each value read from the assembly of a static
# initializer instead of a program run (i386 programs may not run here).
set -u
export LC_ALL=C
dir=$1
out=$2
CC=${CC:-cc}
M32=${KD_ORACLE_M32:-0}
CONSTS=${KD_ORACLE_CONSTS:-0}
[ "$M32" = 1 ] && CC="$CC -m32"
jobs=$(nproc 2>/dev/null || echo 2)
[ "$jobs" -gt 2 ] && jobs=2

work=$(mktemp -d "${TMPDIR:-/tmp}/kabi-oracle.XXXXXX") || exit 1
[ "${KD_ORACLE_KEEP:-0}" = 1 ] && echo "# work directory: $work" >&2 || trap 'rm -rf "$work"' EXIT INT TERM

# The include path and the header list, as the kernel's headers_install
# would lay them out.
. "$(dirname "$0")/uapi-incs.sh"
uapi_incs "$dir" x86 "$work"
if [ -z "$uapi_inc" ]; then
	(cd "$dir" && find . -name '*.h' | sed 's|^\./||') >"$work/headers"
	roots=$dir
else
	[ -d "$uapi_inc/uapi/linux" ] || { echo "$dir: not a UAPI tree" >&2; exit 1; }
	{ (cd "$uapi_inc/uapi" && find . -name '*.h' | sed 's|^\./||')
	  (cd "$uapi_arch" && find . -name '*.h' | sed 's|^\./||'); } | sort -u >"$work/headers"
	roots="$uapi_inc/uapi $uapi_arch"
fi
# Other ABIs' syscall numbers of the arch directory are never included alone.
if [ "$M32" = 1 ]; then other='^asm/(unistd|posix_types)_(64|x32)\.h$'; else other='^asm/unistd_(32|x32)\.h$'; fi
grep -Ev "$other" "$work/headers" >"$work/headers.1" && mv "$work/headers.1" "$work/headers"
# KD_ORACLE_ONLY=FILE: only the headers FILE lists (debugging).
if [ -n "${KD_ORACLE_ONLY:-}" ]; then
	grep -Fx -f "$KD_ORACLE_ONLY" "$work/headers" >"$work/headers.1"; mv "$work/headers.1" "$work/headers"
fi
# Resolved tree directories, to tell the tree's macros from the C library's.
# (each regex character in brackets: awk -v would eat a backslash, and
# Debian's 6.12.107+deb12 has a '+')
rootre=$(for r in $roots; do (cd "$r" && pwd -P); done | sed 's/[.+?(){}|*$]/[&]/g' | paste -sd'|')

cat >"$work/one.sh" <<'EOF'
#!/bin/sh
# one.sh HEADER: steps 1-3 for one header; prints NAME<TAB>VALUE<TAB>HEADER.
h=$1
id=$(echo "$h" | tr '/.' '__')
d=$W/$id; mkdir -p "$d"
printf '#include <%s>\n' "$h" >"$d/a.c"
if ! $CC -std=gnu11 -E -dD -w $INCS "$d/a.c" >"$d/dd" 2>"$d/err"; then
	echo "$h" >"$d/failed"; exit 0
fi
# No _IO*( anywhere in what the header includes: no ioctl (most headers).
[ "$CONSTS" = 1 ] || grep -qE '(^|[^A-Za-z0-9_])_IO(C|R|W|WR)?[ \t]*\(' "$d/dd" || exit 0
# Object-like macros defined in the tree's files, and the tree's enum bodies.
# (consts: those of the header's own file, each macro asked of the one
# header that defines it)
awk -v re="$ROOTRE" -v own="$CONSTS" -v h="/$h" '
/^# [0-9]+ "/ { f = $3; gsub(/"/, "", f); intree = (f ~ "^(" re ")/")
	if (own == 1) intree = intree && substr(f, length(f) - length(h) + 1) == h; next }
/^#define [A-Za-z_][A-Za-z0-9_]*([ \t]|$)/ { if (intree) print $2; next }
/^#define [A-Za-z_][A-Za-z0-9_]*\(/ { if (intree) { n = $2; sub(/\(.*/, "", n); print n > "/dev/stderr" } }
' "$d/dd" 2>"$d/funcs" | sort -u >"$d/names"
[ "$CONSTS" = 1 ] && cp "$d/names" "$d/ioctls"
[ "$CONSTS" = 1 ] || for pre in "" "#include <sys/ioctl.h>"; do
	{ [ -n "$pre" ] && echo "$pre"
	  printf '#include <%s>\n#undef _IOC\n#define _IOC(d, t, n, s) __KD_IOC_MARK__\n' "$h"
	  awk '{ print "__KD_N__ \"" $1 "\" " $1 }' "$d/names"; } >"$d/b.c"
	$CC -std=gnu11 -E -P -w $INCS "$d/b.c" >"$d/b.i" 2>/dev/null || continue
	if [ -z "$pre" ]; then
		# A field taken out of a command (_IOC_NR(...): hidraw.h's
		# HIDIOCTL_LAST, "MARK) >> 0) & ...") is a number, not an ioctl.
		grep -E '^__KD_N__ .*__KD_IOC_MARK__' "$d/b.i" | grep -Ev '__KD_IOC_MARK__[) ]*>>' |
			awk '{ gsub(/"/, "", $2); print $2 }' >"$d/ioctls"
		# Enumerators whose initializer is an _IOC() (6.12's binder.h): the
		# header's enum bodies were expanded before the marker existed, so
		# they are found by _IOC's own expansion, its direction shifted by
		# _IOC_DIRSHIFT ("<< (((0 +8)+8)+14))", asm-generic/ioctl.h).
		grep -v '^__KD_N__ ' "$d/b.i" | tr '\n' ' ' | tr ',{};' '\n\n\n\n' |
			sed -nE 's/^[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*=.*<< \(\(\(0 \+8\)\+8\)\+14\)\).*/\1/p' >>"$d/ioctls"
		grep -E '^__KD_N__ ' "$d/b.i" | grep -v __KD_IOC_MARK__ |
			grep -E '(^|[^A-Za-z0-9_])_IO(R|W|WR)?[ \t]*\(' | awk '{ gsub(/"/, "", $2); print $2 }' | sort >"$d/needs"
	else
		grep -E '^__KD_N__ .*__KD_IOC_MARK__' "$d/b.i" | grep -Ev '__KD_IOC_MARK__[) ]*>>' |
			awk '{ gsub(/"/, "", $2); print $2 }' | sort >"$d/ioctls2"
		comm -12 "$d/needs" "$d/ioctls2" >"$d/ioctls.s"
	fi
	[ -s "$d/needs" ] || break
done
run() { # PRE NAMES-FILE
	[ -s "$2" ] || return 0
	if [ "$M32" = 1 ]; then
		# One static initializer per line (line 3 on), named by its line.
		{ [ -n "$1" ] && echo "$1" || echo
		  printf '#include <%s>\n' "$h"
		  awk '{ printf "unsigned int __kd_v%d = (unsigned int)(%s); /* \"%s\" */\n", NR, $1, $1 }' "$2"; } >"$d/p.c"
	elif [ "$CONSTS" = 1 ]; then
	# The type by _Generic (no promotion: (__u8)1 is unsigned char), the
	# constness by __builtin_constant_p (an integer variable is no constant).
	{ echo
	  printf '#include <%s>\nint printf(const char *, ...);\n' "$h"
	  printf '#define KD_T(e) _Generic((e), char: "char", signed char: "signed char", unsigned char: "unsigned char", short: "short", unsigned short: "unsigned short", int: "int", unsigned int: "unsigned int", long: "long", unsigned long: "unsigned long", long long: "long long", unsigned long long: "unsigned long long", _Bool: "_Bool", default: "")\n'
	  printf 'int main(void)\n{\n'
	  awk '{ printf "if (__builtin_constant_p(%s) && *KD_T(%s)) printf(\"%%s\\t%%lld\\t%%s\\n\", \"%s\", (long long)(%s), KD_T(%s));\n", $1, $1, $1, $1, $1 }' "$2"
	  printf 'return 0;\n}\n'; } >"$d/p.c"
	else
	{ [ -n "$1" ] && echo "$1"
	  printf '#include <%s>\nint printf(const char *, ...);\nint main(void)\n{\n' "$h"
	  awk '{ printf "printf(\"%%s\\t%%u\\n\", \"%s\", (unsigned int)(%s));\n", $1, $1 }' "$2"
	  printf 'return 0;\n}\n'; } >"$d/p.c"
	fi
	# gcc says an error at one place once (every sizeof of an incomplete
	# type is at _IOC's definition): often one line per round.
	round=0
	while [ $((round += 1)) -le 64 ]; do
		if [ "$M32" = 1 ] && $CC -std=gnu11 -w $INCS -S -o "$d/p.s" "$d/p.c" 2>"$d/p.err"; then
			awk -v h="$h" -v names="$2" '
				BEGIN { while ((getline l < names) > 0) nm[++n] = l }
				/^__kd_v[0-9]+:/ { k = substr($1, 7); sub(/:$/, "", k); next }
				/\.long/ && k { v = $2 < 0 ? $2 + 4294967296 : $2
					printf "%s\t%.0f\t%s\n", nm[k], v, h; k = "" }' "$d/p.s"
			return 0
		elif [ "$M32" != 1 ] && $CC -std=gnu11 -w $INCS -o "$d/p" "$d/p.c" 2>"$d/p.err"; then
			"$d/p" | awk -v h="$h" '{ print $0 "\t" h }'
			return 0
		fi
		lines=$(grep -E "^(.*/)?p\.c:[0-9]+:[0-9]+: (error|note: in expansion)" "$d/p.err" | sed -E 's/^(.*\/)?p\.c:([0-9]+):.*/\2/' | sort -un | awk -v m="$M32" -v c="$CONSTS" '$1 > (m == 1 ? 2 : c == 1 ? 6 : 4)')
		[ -n "$lines" ] || break
		for l in $lines; do sed -n "${l}p" "$d/p.c" | sed -E 's/.*", "([A-Za-z0-9_]+)".*/\1/; s/.*\/\* "([A-Za-z0-9_]+)" \*\/$/\1/' >>"$d/dropped"; done
		sed -i "$(echo "$lines" | sed 's/$/s|^|\/\/|/' | tr '\n' ';')" "$d/p.c"
	done
	echo "$h" >"$d/runfailed"
}
# Into the header's own file: parallel jobs writing one stdout split lines
# at their buffers' edges ("3222299DRM_IOCTL_ADD_BUFS").
{ run "" "$d/ioctls"
  [ -s "$d/ioctls.s" ] && run "#include <sys/ioctl.h>" "$d/ioctls.s"; } >"$d/out"
exit 0
EOF
export W="$work" CC INCS="$incs" ROOTRE="$rootre" M32 CONSTS
xargs -P "$jobs" -n 1 sh "$work/one.sh" <"$work/headers"
cat "$work"/*/out 2>/dev/null >"$work/all"

# One number per name; two headers giving one name two numbers is a conflict.
sort -u -k1,1 -k2,2 "$work/all" | awk -F'\t' '
	$1 == last { if ($2 != lastv) print "conflict\t" $1 "\t" lastv "\t" $2 > "/dev/stderr"; next }
	{ print; last = $1; lastv = $2 }' >"$out" 2>"$work/conflicts"
{
	echo "headers: $(wc -l <"$work/headers")"
	echo "not compiled alone: $(cat "$work"/*/failed 2>/dev/null | wc -l)"
	echo "ioctls: $(wc -l <"$out")"
	cat "$work"/*/dropped 2>/dev/null | sort -u | join -v 1 - "$out" >"$work/dropped"
	echo "rejected by the compiler (no number): $(wc -l <"$work/dropped")"
	echo "function-like ioctl-shaped macros (not compared): $(cat "$work"/*/funcs 2>/dev/null | sort -u | grep -c '^[A-Z0-9_]*IOC')"
	echo "conflicts: $(wc -l <"$work/conflicts")"
	cat "$work/conflicts"
	cat "$work"/*/failed 2>/dev/null | sed 's/^/failed: /'
	cat "$work"/*/runfailed 2>/dev/null | sed 's/^/run failed: /'
	sed 's/^/dropped: /' "$work/dropped"
} >"$out.log"
exit 0
