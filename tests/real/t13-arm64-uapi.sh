#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The UAPI headers of Debian's arm64 kernels as aarch64 user space sees
# them (arch/arm64/include/uapi + asm-generic, chosen by the image's ELF
# machine):
# - every constant's value and C type and every ioctl number the reader
#   gives equals what aarch64-linux-gnu-gcc computes from the same headers
#   (tests/uapi-probe.sh with KD_PROBE_ARCH=arm64: values read from the
#   cross compiler's assembly);
# - extract --uapi says which headers it read, and the flag values that
#   differ between the architectures are arm64's (arch/arm64/include/uapi/
#   asm/fcntl.h: O_DIRECTORY 040000, O_NOFOLLOW 0100000, O_DIRECT 0200000,
#   O_LARGEFILE 0400000; x86 takes asm-generic's 0200000, 0400000, 040000,
#   0100000), __NR_* are asm-generic's on 6.1 (from 6.11 arm64's
#   asm/unistd.h includes the generated unistd_64.h, which the headers
#   package lacks: no __NR_ constant, a problem row for the #include and
#   one per header that cannot compile without it).
. "$KD_SRCDIR/lib.sh"

cc=aarch64-linux-gnu-gcc
if ! command -v "$cc" >/dev/null 2>&1; then
	skip "no $cc (Debian: gcc-aarch64-linux-gnu; make deps installs it)"
	done_testing
fi
make -C "$KD_SRCDIR/.." -s build/tests/t-uapi >&2

for r in $KD_REAL_ARM64; do
	k=${KABI_KERNELS:-/root/.cache/kabi-kernels}/$r
	if [ ! -r "$k/vmlinux" ] || [ ! -d "$k/include/arch/arm64" ]; then
		skip "$r: no vmlinux or headers (fetch: ../shared/kernels/fetch --headers $r)"
		continue
	fi
	db=$KD_TMPDIR/$r-uapi.kabi
	"$KABI_DIFF" extract -q "$k/vmlinux" --uapi "$k/include" -o "$db"
	ok $? "$r: extract --uapi" || continue
	is "$("$KABI_DIFF" show "$db" info | grep '^uapi_headers')" \
		"uapi_headers    arm64: $k/include/arch/arm64/include/uapi $k/include/uapi" \
		"$r: show info names the arm64 headers it read"
	is "$(q "$db" "SELECT group_concat(name || '=' || printf('%o', value), ' ') FROM (SELECT * FROM constants
		WHERE name IN ('O_DIRECTORY', 'O_NOFOLLOW', 'O_DIRECT', 'O_LARGEFILE') ORDER BY name)")" \
		"O_DIRECT=200000 O_DIRECTORY=40000 O_LARGEFILE=400000 O_NOFOLLOW=100000" \
		"$r: open flags of arm64's asm/fcntl.h"
	case $r in
	6.1.*)
		is "$(q "$db" "SELECT value FROM constants WHERE name = '__NR_openat2'")|$(q "$db" \
			"SELECT value FROM constants WHERE name = '__NR_openat'")" "437|56" \
			"$r: __NR_ from asm-generic/unistd.h (openat 56)" ;;
	*)
		# asm/unistd_64.h is generated at build time (from arm64's
		# syscall table since 6.11), so the -common package, which has
		# only include/uapi and arch/*/include/uapi, lacks it: the
		# preprocessor's row for the
		# #include, and the three headers that reach it do not compile
		# from this tree (asm/unistd.h line 2; linux/unistd.h includes
		# <asm/unistd.h>; linux/lsm.h includes <linux/unistd.h>), each a
		# row with the compiler's fatal error. aarch64 user space with
		# these headers fails the same way; x86's asm/unistd.h compiles
		# only because the host's linux-libc-dev has an asm/unistd_64.h.
		is "$(q "$db" "SELECT count(*) FROM constants WHERE name LIKE '\_\_NR\_%' ESCAPE '\'")" "0" \
			"$r: no __NR_ without the generated asm/unistd_64.h"
		is "$(q "$db" "SELECT location FROM problems WHERE message LIKE '%asm/unistd_64.h%'
			ORDER BY location" | tr '\n' ' ')" "asm/unistd.h asm/unistd.h:2 linux/lsm.h linux/unistd.h " \
			"$r: problem rows: the #include, and the three headers that reach it" ;;
	esac
	# _IOR('f', 1, long) (FS_IOC_GETFLAGS): asm-generic/ioctl.h's encoding, 8-byte long.
	is "$(q "$db" "SELECT printf('0x%08x', cmd) FROM ioctls WHERE name = 'FS_IOC_GETFLAGS'")" "0x80086601" \
		"$r: FS_IOC_GETFLAGS is 0x80086601"

	out=$KD_TMPDIR/$r-probe.out
	KD_PROBE_ARCH=arm64 sh "$KD_SRCDIR/uapi-probe.sh" "$k/include" 20000 1500 >"$out" 2>&1
	ok $? "$r: every constant and ioctl number equals aarch64-linux-gnu-gcc's" ||
		grep -v '^ok' "$out" | sed 's/^/#   /' | head -40
	grep '^# constants:' "$out" | sed "s/^# /# $r: /"
done
done_testing
