#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make demo`: build the two sample kernels (tests/fixtures/kernel.c, plain
# and -DKABI_V2), extract both, and show what kabi-diff sees in them.
# tests/demo.sh --build-only stops once the samples are built.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
k=$top/kabi-diff
dir=${DEMO_DIR:-$top/build/demo}
mkdir -p "$dir"
"$top/tests/fixtures/build-kernel.sh" "$dir/vmlinux-old"
"$top/tests/fixtures/build-kernel.sh" "$dir/vmlinux-new" -DKABI_V2
mkdir -p "$dir/modules"
${CC:-gcc} -g -O2 -c -DFXMOD_NAME='"fxmod"' "$top/tests/fixtures/module.c" -o "$dir/modules/fxmod.ko"
# --build-only: the sample kernels and module, for a caller that runs
# kabi-diff on them its own way (CI's valgrind stage).
[ "${1:-}" = --build-only ] && exit 0
uapi=$top/tests/fixtures/kernel-uapi

run() {
	printf '\n$ %s\n' "$*" | sed "s|$top/||g; s|$dir/||g"
	"$@"
}
cd "$dir"
run "$k" extract vmlinux-old --uapi "$uapi" --modules modules -o old.kabi
run "$k" extract vmlinux-new --uapi "$uapi" --modules modules -o new.kabi
run "$k" show old.kabi syscalls
run "$k" show new.kabi syscalls
run "$k" show old.kabi syscall openat2
run "$k" show new.kabi struct open_how
run "$k" show old.kabi struct fx_stat
run "$k" show old.kabi ioctls
run "$k" show old.kabi ioctl FXK_IOC_CREATE
run "$k" show old.kabi const FXK_FLAGS
if "$k" --help | grep -q '^  diff '; then
	set +e
	run "$k" diff old.kabi new.kabi
	rc=$?
	printf '\n(exit status %d: 4 = changes, 8 = breaking, 12 = both)\n' "$rc"
fi
