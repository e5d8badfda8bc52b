#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Seed corpora of the fuzz harnesses, built from the test fixtures:
#   OUT/elf   the fixture kernel in a few builds (DWARF 4/5, V1/V2, -O0)
#   OUT/uapi  each fixture header as the first file of a tree, with the
#             fixture's asm-generic/ioctl.h as the fourth (see fuzz-uapi.c)
#   OUT/db    the fixture kernels' .kabi, one with constants, ioctls and a module
#   OUT/spec  the shipped spec files and the spec fixtures
# usage: make-corpus.sh OUT KABI_DIFF   (existing seeds are kept)
set -eu
out=$1
kd=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
fx=$top/tests/fixtures
mkdir -p "$out/elf" "$out/uapi" "$out/db" "$out/spec"
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

ls "$out/elf" "$out/uapi" "$out/db" "$out/spec" | grep -c seed- | sed 's/^/make-corpus: seeds: /'
