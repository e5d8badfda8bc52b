#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The UAPI reader against the C compiler on the fixture header trees
# (tests/fixtures/uapi, both layouts): every constant's value and C type
# and every ioctl command number the reader gives must equal what cc
# computes from the same headers (tests/uapi-probe.sh does the work); the
# source tree also as arm64 user space, against the aarch64 cross compiler.
. "$KD_SRCDIR/lib.sh"

for tree in installed source/include; do
	dir=$KD_SRCDIR/fixtures/uapi/$tree
	out=$KD_TMPDIR/probe-$(echo "$tree" | tr / -).out
	sh "$KD_SRCDIR/uapi-probe.sh" "$dir" 50 16 >"$out" 2>&1
	ok $? "$tree: compiled probe agrees with the reader" || sed 's/^/#   /' "$out"
	grep '^# constants:' "$out"
	n=$(sed -n 's/^# constants: \([0-9]*\) match.*/\1/p' "$out")
	# fx_bad.h does not compile: every constant but its 3 is compared.
	[ "${n:-0}" -ge 64 ]; ok $? "$tree: at least 64 constants compared (${n:-0})"
done

# The source tree as aarch64 sees it (arch/arm64, unsigned char and
# wchar_t), against the aarch64 cross compiler's assembly.
if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
	out=$KD_TMPDIR/probe-arm64.out
	KD_PROBE_ARCH=arm64 sh "$KD_SRCDIR/uapi-probe.sh" "$KD_SRCDIR/fixtures/uapi/source/include" 60 17 \
		>"$out" 2>&1
	ok $? "arm64: the cross compiler agrees with the reader" || sed 's/^/#   /' "$out"
	grep '^# constants:' "$out"
else
	skip "arm64: no aarch64-linux-gnu-gcc (Debian: gcc-aarch64-linux-gnu, which make deps installs)"
fi
done_testing
