# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers for the end-to-end tests (tests/tNNNN-*.sh): TAP output and
# fixture kernels built once per test run. Source it: . "$KD_SRCDIR/lib.sh"
# Environment (set by tests/run): KD_SRCDIR, KD_TMPDIR, KABI_DIFF.

set -u
: "${KD_SRCDIR:=$(cd "$(dirname "$0")" && pwd)}"
: "${KD_TMPDIR:=$(mktemp -d)}"
: "${KABI_DIFF:=$KD_SRCDIR/../kabi-diff}"
# The 32-bit programs' header view (extract/uapi/compat.c) doubles every
# header compile: tests pin the native view without it, and the tests of
# that view (t0185-*) turn it back on with KABI_DIFF_NO_COMPAT=.
: "${KABI_DIFF_NO_COMPAT=1}"
export KABI_DIFF_NO_COMPAT
tap_n=0
tap_failed=0

# ok COND_EXIT_STATUS DESCRIPTION   (use: test ...; ok $? "what")
# Returns 0 when the check passed, 1 otherwise (ok ... || explain).
ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
		return 1
	fi
}

# is GOT WANT DESCRIPTION
is() {
	tap_n=$((tap_n + 1))
	if [ "$1" = "$2" ]; then
		echo "ok $tap_n - $3"
	else
		echo "not ok $tap_n - $3"
		printf '#   got:  %s\n#   want: %s\n' "$(printf '%s' "$1" | sed '2,$s/^/#         /')" \
			"$(printf '%s' "$2" | sed '2,$s/^/#         /')"
		tap_failed=$((tap_failed + 1))
		return 1
	fi
}

# lacks FILE PATTERN DESCRIPTION: FILE exists, is not empty, and no line
# matches the extended regex PATTERN. A negative grep alone also passes on
# a missing or empty file, or when grep itself fails (status 2).
lacks() {
	if [ ! -s "$1" ]; then
		ok 1 "$3"; echo "#   $1: missing or empty"; return 1
	fi
	grep -Eq -e "$2" "$1"
	case $? in
	1) ok 0 "$3" ;;
	0) ok 1 "$3"; grep -En -e "$2" "$1" | head -5 | sed 's/^/#   matched: /'; return 1 ;;
	*) ok 1 "$3"; echo "#   grep failed on $1"; return 1 ;;
	esac
}

# same_rows WANT GOT MIN DESCRIPTION: the files WANT and GOT are equal and
# WANT has more than MIN lines (a table read whole); else the first 40
# lines that differ, "-" WANT's, "+" GOT's.
same_rows() {
	if [ "$(grep -c . "$1")" -gt "$3" ] && cmp -s "$1" "$2"; then
		ok 0 "$4"
	else
		ok 1 "$4"
		echo "#   ($(grep -c . "$1") lines; - $1, + $2)"
		diff -u "$1" "$2" | tail -n +3 | grep '^[-+]' | sed 's/^/#   /' | head -40
		return 1
	fi
}

skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $1"
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
	exit $?
}

# Skip the rest of the test (and end it) unless $CC -m32 can compile
# against a 32-bit C library: the ia32 header view needs one.
need_ia32_libc() {
	echo '#include <sys/types.h>' | ${CC:-cc} -m32 -fsyntax-only -xc - 2>/dev/null && return 0
	skip "no 32-bit C library for ${CC:-cc} -m32 (Debian: libc6-dev-i386)"
	done_testing
}

# need_aarch64_cc: $cc, the aarch64 cross compiler ($KD_AARCH64_CC or
# Debian's), or the test ends here, skipped.
need_aarch64_cc() {
	cc=${KD_AARCH64_CC:-aarch64-linux-gnu-gcc}
	command -v "$cc" >/dev/null 2>&1 && return 0
	skip "no aarch64 cross compiler ($cc; Debian: gcc-aarch64-linux-gnu, which make deps installs)"
	done_testing
}

# scratch NAME: work in a new directory $KD_TMPDIR/NAME (a test run on its
# own shares $KD_TMPDIR with the fixtures).
scratch() {
	mkdir -p "$KD_TMPDIR/$1" && cd "$KD_TMPDIR/$1" || exit 1
}

# fixture_kernel NAME [gcc flags...]: build tests/fixtures/kernel.c once per
# run into $KD_TMPDIR/fixtures/NAME and print its path.
fixture_kernel() {
	name=$1; shift
	mkdir -p "$KD_TMPDIR/fixtures"
	out=$KD_TMPDIR/fixtures/$name
	if [ ! -e "$out" ]; then
		"$KD_SRCDIR/fixtures/build-kernel.sh" "$out.tmp.$$" "$@" >&2 && mv "$out.tmp.$$" "$out"
	fi
	echo "$out"
}

# fixture_db NAME [gcc flags...]: the fixture kernel extracted to NAME.kabi.
fixture_db() {
	name=$1
	k=$(fixture_kernel "$@") || return 1
	db=$KD_TMPDIR/fixtures/$name.kabi
	if [ ! -e "$db" ]; then
		"$KABI_DIFF" extract -q "$k" -o "$db" >&2 || return 1
	fi
	echo "$db"
}

# fixture_vdso_db NAME "NODE [vdso gcc flags]" [image.c flags...]: the
# fixture kernel with vDSO images (tests/fixtures/vdso/: vdso.c built for
# x64, ia32 and x32 at version node NODE, e.g. "LINUX_2.6 -DVDSO_V2"),
# embedded as image.c's flags say (-DVDSO_64 -DVDSO_32 ...), extracted once
# per run to NAME.kabi; prints its path.
fixture_vdso_db() {
	_vname=$1 _vflags=$2; shift 2
	_vdir=$KD_TMPDIR/fixtures/$_vname.vdso
	if [ ! -d "$_vdir" ]; then
		mkdir -p "$_vdir.tmp.$$" || return 1
		# shellcheck disable=SC2086 # NODE and flags are words
		for _m in 64:-m64 32:-m32 x32:-mx32; do
			"$KD_SRCDIR/fixtures/build-vdso.sh" "$_vdir.tmp.$$/vdso${_m%%:*}.so" $_vflags \
				"${_m#*:}" >&2 || return 1
		done
		mv "$_vdir.tmp.$$" "$_vdir"
	fi
	fixture_db "$_vname" -Wa,-I,"$_vdir" "$@" "$KD_SRCDIR/fixtures/vdso/image.c"
}

# header_tree [--arch] DIR [FILE PATH]...: an installed UAPI tree in DIR from
# tests/fixtures/uapi/installed: asm-generic/ with asm/ioctl.h and
# linux/types.h, or (--arch) asm-generic/ with all of asm/ (its fx_arch.h
# too) and no linux/ header; then each FILE copied to DIR/PATH.
header_tree() {
	_ht_src=$KD_SRCDIR/fixtures/uapi/installed _ht_arch=
	[ "$1" = --arch ] && { _ht_arch=1; shift; }
	_ht_dir=$1; shift
	mkdir -p "$_ht_dir/asm" "$_ht_dir/asm-generic" "$_ht_dir/linux" &&
		cp "$_ht_src"/asm-generic/* "$_ht_dir/asm-generic/" || exit 1
	if [ "$_ht_arch" ]; then
		cp "$_ht_src"/asm/* "$_ht_dir/asm/"
	else
		cp "$_ht_src/asm/ioctl.h" "$_ht_dir/asm/" && cp "$_ht_src/linux/types.h" "$_ht_dir/linux/"
	fi || exit 1
	while [ $# -ge 2 ]; do
		cp "$1" "$_ht_dir/$2" || exit 1
		shift 2
	done
}

# q DB SQL: one query, '|'-separated rows.
q() {
	sqlite3 -batch "$1" "$2"
}

# layout: read one struct/union as printed by `kabi-diff show` or by pahole
# on stdin and print one line per member that carries the trailing
# "/* offset size */" comment: "DEPTH NAME OFFSET SIZE", where DEPTH counts
# the leading tabs (nested anonymous or inline types are deeper), NAME is
# "(anon)" for an unnamed member, and OFFSET is "BYTE" or "BYTE:BIT" for a
# bitfield. Everything else (holes, padding, summaries) is left out, since
# the two tools word those differently.
layout() {
	awk '
	match($0, /\/\*[ \t]*[0-9]+(:[ \t]*[0-9]+)?[ \t]+[0-9]+[ \t]*\*\/[ \t]*$/) {
		c = substr($0, RSTART + 2, RLENGTH - 2); sub(/\*\/.*/, "", c)
		gsub(/:[ \t]+/, ":", c); n = split(c, f, /[ \t]+/)
		j = 0; for (i = 1; i <= n; i++) if (f[i] != "") g[++j] = f[i]
		decl = substr($0, 1, RSTART - 1)
		match(decl, /^\t*/); depth = RLENGTH
		# pahole: "__u64 flags __attribute__((__aligned__(8)));"
		gsub(/__attribute__\(\([A-Za-z_]*(\([0-9]*\))?\)\)/, "", decl)
		sub(/[ \t]*;?[ \t]*$/, "", decl); sub(/^[ \t]+/, "", decl)
		if (match(decl, /\(\*+[ \t]*[A-Za-z_][A-Za-z0-9_]*\)/)) {
			name = substr(decl, RSTART, RLENGTH); gsub(/[(*) \t]/, "", name)
		} else {
			sub(/:[ \t]*[0-9]+$/, "", decl)
			while (sub(/\[[^]]*\]$/, "", decl)) ;
			name = decl; sub(/.*[ \t*}]/, "", name)
			if (name == "" || decl == "}") name = "(anon)"
		}
		print depth, name, g[1], g[2]
	}'
}

# real_vmlinux RELEASE: path of a cached real kernel (tests/real); fails
# when the cache ($KABI_KERNELS) does not hold it.
real_vmlinux() {
	v=${KABI_KERNELS:-/root/.cache/kabi-kernels}/$1/vmlinux
	[ -r "$v" ] && echo "$v"
}

# real_db RELEASE: that kernel extracted once per run to
# $KD_TMPDIR/real/RELEASE.kabi; prints the path.
real_db() {
	v=$(real_vmlinux "$1") || return 1
	mkdir -p "$KD_TMPDIR/real"
	db=$KD_TMPDIR/real/$1.kabi
	if [ ! -e "$db" ]; then
		"$KABI_DIFF" extract -q "$v" -o "$db" >&2 || return 1
	fi
	echo "$db"
}

# What an extraction from a bootable image must share with the DWARF one
# of the same kernel (t0108, t0193): the syscall slots, the signatures,
# every layout (sizes, alignment, members, bitfields, enumerators).
Q_SLOTS="SELECT abi, nr, ifnull(name,'-'), ifnull(entry,'-'), implemented FROM syscalls ORDER BY abi, nr"
Q_SIGS="SELECT f.name || '(' || ifnull((SELECT group_concat(d, ', ') FROM (SELECT p.type_text || ' ' || p.name AS d
	FROM params p WHERE p.func_id = f.id ORDER BY p.pos)), '') || ')' FROM functions f ORDER BY f.name"
Q_LAYOUTS="SELECT t.kind || ' ' || t.name || ' ' || t.size || ' ' || t.align || ' ' || ifnull((SELECT group_concat(d, ';') FROM
	(SELECT ifnull(m.name,'-') || '@' || m.offset || '.' || m.bit_offset || ':' || m.bit_size || ' ' || mt.kind || ' ' ||
	 ifnull(mt.name,'-') || ' ' || mt.size AS d FROM members m JOIN types mt ON mt.id = m.member_type
	 WHERE m.type_id = t.id ORDER BY m.idx)), '') || ' ' || ifnull((SELECT group_concat(e.name || '=' || e.value, ',')
	 FROM (SELECT * FROM enumerators e WHERE e.type_id = t.id ORDER BY e.idx) e), '')
	FROM types t WHERE t.kind IN ('struct', 'union', 'enum', 'array', 'typedef', 'base') ORDER BY 1"

# mkdeb NAME VERSION ROOT: the Debian package NAME_VERSION_amd64.deb of the
# tree ROOT (dpkg-deb), as the archive's kernel packages are built.
mkdeb() {
	mkdir -p "$3/DEBIAN" &&
	printf 'Package: %s\nVersion: %s\nArchitecture: amd64\nMaintainer: kabi-diff tests <t@example.org>\nDescription: fixture\n' \
		"$1" "$2" >"$3/DEBIAN/control" &&
	dpkg-deb --root-owner-group -Zxz --build "$3" "$1_$2_amd64.deb" >/dev/null
}

# extract_fails INPUT MESSAGE DESCRIPTION [extract options]: extract of
# INPUT exits 1 with the one line MESSAGE on stderr and writes nothing.
extract_fails() {
	_ef_in=$1 _ef_msg=$2 _ef_what=$3; shift 3
	rm -f out.kabi
	_ef_got=$("$KABI_DIFF" extract "$_ef_in" "$@" -o out.kabi 2>&1 >/dev/null)
	is "$?|$_ef_got" "1|$_ef_msg" "$_ef_what: exit 1, one line"
	[ ! -e out.kabi ]
	ok $? "$_ef_what: no output"
}
