#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Seed corpora of the fuzz harnesses, built from the test fixtures:
#   OUT/elf   the fixture kernel in a few builds (DWARF 4/5, V1/V2, -O0)
#   OUT/uapi  each fixture header as the first file of a tree, with the
#             fixture's asm-generic/ioctl.h as the fourth (see fuzz-uapi.c)
#   OUT/db    the fixture kernels' .kabi, one with constants, ioctls and a module
#   OUT/spec  the shipped spec files and the spec fixtures
#   OUT/uapi-cache  the compile cache index of the fixture trees (both
#             layouts), and one of each kind of line
#   OUT/package  packages of the fixture kernel: a .deb (vmlinux, module,
#             headers), the same as a tar, a headers .deb
#   OUT/suppress  suppressions files: the entries the tests write, globs
#             and escapes (see fuzz-suppress.c)
#   OUT/usage  diff --for's files: an strace log of every line shape, a
#             seccomp profile with an ioctl filter, a tiny ELF (fuzz-usage.c)
# and inputs that reach the bounds of issue 12 (doc/LIMITS.md): no
# .debug_aranges, DWARF attribute values outside their type, a base type
# named "", hostile .kabi columns (huge offsets, a stored deep contract) and
# schema objects, deep expressions, extends chains, costly macros.
# usage: make-corpus.sh OUT KABI_DIFF   (existing seeds are kept)
set -eu
out=$1
kd=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
fx=$top/tests/fixtures
mkdir -p "$out/elf" "$out/uapi" "$out/db" "$out/spec" "$out/uapi-cache" "$out/package" "$out/suppress"
work=$(mktemp -d "${TMPDIR:-/tmp}/kabi-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

kernel() {
	name=$1; shift
	[ -e "$out/elf/seed-$name" ] || "$fx/build-kernel.sh" "$out/elf/seed-$name" "$@"
}
kernel v1-dwarf5 -gdwarf-5
kernel v1-dwarf4 -gdwarf-4
kernel v2-dwarf5 -gdwarf-5 -DKABI_V2
kernel v1-O0 -gdwarf-5 -O0
# Paths of issue 12: no .debug_aranges (every CU scanned), a clang build,
# DWARF 4's DW_AT_bit_offset (member positions checked against the type).
[ -e "$out/elf/seed-no-aranges" ] ||
	objcopy --remove-section .debug_aranges "$out/elf/seed-v1-dwarf5" "$out/elf/seed-no-aranges"
if command -v clang >/dev/null && [ ! -e "$out/elf/seed-clang" ]; then
	CC=clang kernel clang -gdwarf-5 2>/dev/null || true
fi
# One DWARF byte of the DWARF 4 build changed (as t0660 does): a bitfield's
# DW_AT_bit_offset 250 and a member location 200 outside their 4-byte
# struct, a base type named "" (its .debug_str name a NUL byte).
. "$top/tests/dwarf-poke.sh"
poked() {
	name=$1; shift
	[ -e "$out/elf/seed-$name" ] && return 0
	cp "$out/elf/seed-v1-dwarf4" "$work/poked" && "$@" && mv "$work/poked" "$out/elf/seed-$name"
}
k4=$out/elf/seed-v1-dwarf4
poked bit-offset-250 poke_attr "$work/poked" ready DW_AT_bit_offset 250
poked member-at-200 poke_attr "$work/poked" tag DW_AT_data_member_location 200
poked empty-base-name \
	poke_byte "$work/poked" $(($(sec_off "$k4" .debug_str) + $(strp_off "$k4" "long unsigned int"))) 0
# UAPI: header [+ #-- + linux/fuzz2.h + #-- + asm/fuzz.h] + #-- + asm-generic/ioctl.h
ioctl_h=$fx/uapi/installed/asm-generic/ioctl.h
i=0
for h in $(find "$fx/uapi" "$fx/kernel-uapi" -name '*.h' | sort); do
	i=$((i + 1))
	{ cat "$h"; printf '\n#--\n\n#--\n\n#--\n'; cat "$ioctl_h"; } > "$out/uapi/seed-$i"
done
{ cat "$fx/uapi/installed/linux/fx.h"; printf '\n#--\n'; cat "$fx/uapi/installed/linux/fx_const.h"
  printf '\n#--\n'; cat "$fx/uapi/installed/asm/fx_arch.h"; printf '\n#--\n'; cat "$ioctl_h"; } \
	> "$out/uapi/seed-multi"

# DB: plain extractions, and one with --uapi and --modules.
for k in v1-dwarf5 v2-dwarf5 v1-dwarf4; do
	[ -e "$out/db/seed-$k" ] || "$kd" extract -q "$out/elf/seed-$k" -o "$out/db/seed-$k"
done
if [ ! -e "$out/db/seed-uapi" ]; then
	mkdir -p "$work/mods"
	gcc -g -O2 -c -DFXMOD_NAME='"fxmod"' "$fx/module.c" -o "$work/mods/fxmod.ko"
	"$kd" extract -q "$out/elf/seed-v1-dwarf5" --uapi "$fx/kernel-uapi" \
		--modules "$work/mods" -o "$out/db/seed-uapi"
fi
# Hostile columns and schema objects (issue 12): a function type whose
# parameters point back to it, text with escape sequences and markup, a
# view for a table, a trigger; the readers must refuse or bound each.
if [ ! -e "$out/db/seed-hostile-columns" ]; then
	cp "$out/db/seed-v1-dwarf5" "$work/h.kabi"
	sqlite3 "$work/h.kabi" "
		UPDATE meta SET value = '6.99' || char(27) || ']0;t' || char(7) WHERE key = 'release';
		UPDATE types SET name = '<img src=x>' || char(27) || '[2J' WHERE name = 'fx_node';
		DELETE FROM members WHERE type_id = (SELECT min(id) FROM types WHERE kind = 'func');
		INSERT INTO members (type_id, idx, name, member_type, offset)
			SELECT f.id, i.i, NULL, p.id, NULL FROM
			(SELECT min(id) AS id FROM types WHERE kind = 'func') f,
			(SELECT id FROM types WHERE kind = 'pointer' AND ref = (SELECT min(id) FROM types
				WHERE kind = 'func')) p,
			(SELECT 0 AS i UNION SELECT 1 UNION SELECT 2 UNION SELECT 3) i"
	cp "$work/h.kabi" "$out/db/seed-hostile-columns"
fi
if [ ! -e "$out/db/seed-view" ]; then
	cp "$out/db/seed-v1-dwarf5" "$work/v.kabi"
	sqlite3 "$work/v.kabi" "DROP TABLE syscalls; CREATE VIEW syscalls AS SELECT 'x64' AS abi,
		1 AS nr, 'a' AS name, NULL AS entry, NULL AS func_id, 1 AS implemented"
	cp "$work/v.kabi" "$out/db/seed-view"
fi
if [ ! -e "$out/db/seed-trigger" ]; then
	cp "$out/db/seed-v1-dwarf5" "$work/t.kabi"
	sqlite3 "$work/t.kabi" "CREATE TRIGGER t AFTER INSERT ON spec_files BEGIN
		UPDATE meta SET value = 'x' WHERE key = 'release'; END"
	cp "$work/t.kabi" "$out/db/seed-trigger"
fi
# Offsets and sizes no extraction writes (2^61 - 8, INT64_MAX; a negative one
# is refused at open, t0660), and
# a stored contract whose expression is a chain of 300 terms.
if [ ! -e "$out/db/seed-hostile-offsets" ]; then
	cp "$out/db/seed-v1-dwarf4" "$work/o.kabi"
	awk 'BEGIN { printf "flags deep_flags {\n\tA = 1"; for (i = 0; i < 300; i++) printf " + 1"
		print ";\n}" }' > "$work/deep.txt"
	sqlite3 "$work/o.kabi" "
		UPDATE members SET offset = 2305843009213693944 WHERE name = 'tag';
		UPDATE members SET offset = 9223372036854775807, bit_offset = 2147483647,
			bit_size = 2147483647 WHERE name = 'kind';
		UPDATE types SET size = 9223372036854775807 WHERE name = 'fx_bits'"
	mkdir -p "$work/one" && printf 'flags one_flags {\n\tA = 1;\n}\n' > "$work/one/one.kabispec"
	"$kd" spec load "$work/o.kabi" "$work/one" > /dev/null
	sqlite3 "$work/o.kabi" "UPDATE spec_files SET text = text || readfile('$work/deep.txt')"
	cp "$work/o.kabi" "$out/db/seed-hostile-offsets"
fi
# SQLite pages are 4 KB: copies with 512-byte pages give the mutator more structure per byte.
for k in v1-dwarf5 uapi; do
	[ ! -e "$out/db/seed-$k-small-pages" ] || continue
	cp "$out/db/seed-$k" "$work/s.kabi"
	sqlite3 "$work/s.kabi" 'PRAGMA page_size=512; VACUUM;'
	cp "$work/s.kabi" "$out/db/seed-$k-small-pages"
done
# Spec: every .kabispec of the tree.
for f in $(find "$top/spec/contract" "$fx/spec" -name '*.kabispec' 2>/dev/null | sort); do
	cp "$f" "$out/spec/seed-$(echo "${f#"$top"/}" | tr / -)"
done

# Deep and costly inputs (issue 12): expression chains and nesting near
# the limits, an extends chain, duplicates, includes out of the directory;
# macro alias chains, self-doubling macros, deep parentheses.
awk 'BEGIN { printf "syscall x() -> 0 { errno EINVAL \"w\" when 1"
	for (i = 0; i < 300; i++) printf " + 1"; print "; }" }' > "$out/spec/seed-chain-300"
awk 'BEGIN { printf "syscall x() -> 0 { errno EINVAL \"w\" when "
	for (i = 0; i < 70; i++) printf "("; printf "1"; for (i = 0; i < 70; i++) printf ")"; print "; }" }' \
	> "$out/spec/seed-parens-70"
awk 'BEGIN { print "flags s0 {\n\tA0 = 1;\n}"
	for (i = 1; i <= 80; i++) printf "flags s%d extends s%d {\n\tA%d = %d;\n}\n", i, i - 1, i, i }' \
	> "$out/spec/seed-extends-80"
awk 'BEGIN { for (i = 1; i <= 300; i++) printf "#define M%d M%d\n", i, i - 1
	print "#define M0 5"; for (i = 1; i <= 20; i++) printf "#define E%d (E%d + E%d)\n", i, i - 1, i - 1
	print "#define E0 1\n#define X (M300 + E20)"; printf "#define P "
	for (i = 0; i < 300; i++) printf "("; printf "1"; for (i = 0; i < 300; i++) printf ")"; print "" }' \
	> "$out/uapi/seed-costly"

awk 'BEGIN { printf "#define U "; for (i = 0; i < 300; i++) printf "- "; print "1"
	printf "#define C "; for (i = 0; i < 150; i++) printf "1 ? "; printf "2"
	for (i = 0; i < 150; i++) printf " : 3"; print ""; printf "#if "
	for (i = 0; i < 300; i++) printf "("; printf "1"; for (i = 0; i < 300; i++) printf ")"
	print "\n#define IN_IF 1\n#endif" }' > "$out/uapi/seed-deep-unary-cond"

# The compile cache's index: as the fixture trees fill it (each one's own
# cache), and a hand-made one with every kind of line.
# One index per ABI the extraction compiled for (x86_64, and i386 where
# gcc -m32 works).
for t in installed source; do
	ls "$out/uapi-cache/seed-$t"-* >/dev/null 2>&1 && continue
	XDG_CACHE_HOME=$work/cache-$t "$kd" extract -q --uapi "$fx/uapi/$t" -o "$work/$t.kabi" || continue
	for idx in "$work"/cache-$t/kabi-diff/uapi/*.idx; do
		cp "$idx" "$out/uapi-cache/seed-$t-$(basename "$idx" .idx)"
	done
done
printf 'kabi-diff uapi-cc 2\nheaders 3\ncompiled 2\nobject 00000000deadbeef 1568152\ndep %s\ntdep %s\nfail %s\n' \
	'3c34673a31f7cfb2 2462 /usr/include/stdc-predef.h' '7ad2e572923e1abf 1875 0 linux/../../side.h' \
	"$(printf 'linux/bad.h\tlinux/bad.h:1:10: fatal error: x.h: No such file or directory')" \
	> "$out/uapi-cache/seed-every-line"

# Packages (issue 25): the members package.c maps, small enough for the
# mutator: the fixture kernel as the debug vmlinux, a module, a few headers.
if [ ! -e "$out/package/seed-dbg.deb" ]; then
	r=$work/pkg rel=6.99.1
	mkdir -p "$r/usr/lib/debug/boot" "$r/usr/lib/debug/lib/modules/$rel/kernel" \
		"$r/usr/src/linux-headers-$rel-common/include/uapi/linux" "$r/DEBIAN"
	cp "$out/elf/seed-v1-dwarf5" "$r/usr/lib/debug/boot/vmlinux-$rel"
	gcc -g -O2 -c -DFXMOD_NAME='"fxmod"' "$fx/module.c" -o "$r/usr/lib/debug/lib/modules/$rel/kernel/fx.ko"
	cp "$fx/kernel-uapi/uapi/linux/"*.h "$r/usr/src/linux-headers-$rel-common/include/uapi/linux/"
	printf 'Package: linux-image-dbg\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: t\n' \
		>"$r/DEBIAN/control"
	dpkg-deb --root-owner-group -Zxz --build "$r" "$work/dbg.deb" >/dev/null
	tar -C "$r" --exclude=DEBIAN -cJf "$out/package/seed-dbg.tar.xz" usr
	rm -rf "$r/usr/lib" && dpkg-deb --root-owner-group -Zgzip --build "$r" "$out/package/seed-headers.deb" >/dev/null
	mv "$work/dbg.deb" "$out/package/seed-dbg.deb"
fi

# Suppressions: the shapes a reviewed entry takes, and its escapes and globs.
printf '# reviewed\n\ntail-growth-uncontracted struct\\ open_how  extensible (copy_struct_from_user)\nsyscall-renumbered openat2 moved on purpose\n' \
	> "$out/suppress/seed-entries"
printf 'member-* struct\\ open_how.* reviewed\nconstant-removed O_[A-Z]* gone\n*-removed [!x]*\\ x why\n' \
	> "$out/suppress/seed-globs"
printf 'member-moved ioctl\\ FX_IOC_* reached from the ioctl\r\nno-such-rule x y\n' > "$out/suppress/seed-errors"

# diff --for: an strace log of every line shape, a seccomp profile, a tiny ELF.
mkdir -p "$out/usage"
printf '1 execve("./a", ["a"], 0x1 /* 3 vars */) = 0\n[pid 2] 1.5 ioctl(3</a,b>, A or B, 0) = 0\nioctl(4, _IOC(_IOC_READ|_IOC_WRITE, 0x64, 0xa0, 0x10), 0) = 0\nioctl(5, 0x5413 /* X */, 0) = 0\n<... read resumed>"", 1) = 0\nsyscall_0x1c5(1) = -1\n+++ exited with 0 +++\n' \
	> "$out/usage/seed-strace"
printf '{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["read", "ioctl"], "action": "SCMP_ACT_ALLOW", "args": [{"index": 1, "value": 21505, "op": "SCMP_CMP_EQ"}]}, {"name": "write", "action": "SCMP_ACT_LOG"}]}\n' \
	> "$out/usage/seed-seccomp"
printf 'int main(void) { return 0; }\n' | gcc -x c -O2 -o "$out/usage/seed-elf" - 2>/dev/null || true

ls "$out/elf" "$out/uapi" "$out/db" "$out/spec" "$out/uapi-cache" "$out/package" "$out/suppress" "$out/usage" |
	grep -c seed- | sed 's/^/make-corpus: seeds: /'
