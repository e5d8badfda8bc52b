#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The UAPI reader against the C compiler on a real kernel's header tree
# (Debian's linux-headers-*-common layout from the kernel cache): at least
# 300 constants and 200 ioctl command numbers compared, none different.
# Skipped with a message when the cache has no headers.
# Usage: tests/real/uapi-probe.sh [RELEASE]   (default 6.1.0-47-amd64)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${KABI_KERNELS:=/root/.cache/kabi-kernels}"
rel=${1:-6.1.0-47-amd64}
inc=$KABI_KERNELS/$rel/include
if [ ! -d "$inc/uapi/linux" ]; then
	echo "1..0 # SKIP no UAPI headers in $inc (get them: ../shared/kernels/fetch --headers $rel)"
	exit 0
fi
[ -x "$top/build/tests/t-uapi" ] || make -C "$top" -s build/tests/t-uapi >&2 || exit 1
exec sh "$top/tests/uapi-probe.sh" "$inc" 300 200
