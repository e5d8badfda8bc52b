#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The x86_64 syscall table and a few well-known facts, on Debian's 6.1 and
# 6.12 kernels.
#
# Reference facts (not outputs of kabi-diff):
# - tests/real/data/syscall_64-MAJOR.MINOR.txt: number, name and entry point
#   of every row of arch/x86/entry/syscalls/syscall_64.tbl (common and 64
#   ABIs; the x32 rows 512-547 are not in the 64-bit table). A row without
#   an entry point, or with sys_ni_syscall, is a slot that the kernel fills
#   with sys_ni_syscall; numbers the .tbl skips (335-423 in 6.1) are such
#   slots too, and the table is as long as the highest number + 1
#   (__NR_syscall_max + 1, arch/x86/entry/syscall_64.c). A row whose entry
#   point is weak in System.map ("W") is kernel/sys_ni.c's COND_SYSCALL
#   stub, which answers ENOSYS: not implemented (6.1.0-47's
#   lookup_dcookie, whose fs/dcookies.c is gone), as t11 reads
#   arm64's table.
# - openat is 257 (syscall_64.tbl) with (int dfd, const char *filename,
#   int flags, umode_t mode): SYSCALL_DEFINE4(openat, ...) in fs/open.c.
# - struct statx is 256 bytes (include/uapi/linux/stat.h), struct open_how
#   24 (include/uapi/linux/openat2.h), struct clone_args 88
#   (include/uapi/linux/sched.h, CLONE_ARGS_SIZE_VER2) in both releases.
. "$KD_SRCDIR/lib.sh"

for r in $KD_REAL_RELEASES; do
	if ! real_vmlinux "$r" >/dev/null; then
		skip "$r: not in ${KABI_KERNELS:-/root/.cache/kabi-kernels} (fetch: ../shared/kernels/fetch $r)"
		continue
	fi
	db=$(real_db "$r")
	ok $? "$r: extract" || continue
	mm=$(echo "$r" | sed 's/^\([0-9]*\.[0-9]*\).*/\1/')
	data=$KD_REALDIR/data/syscall_64-$mm.txt
	[ -r "$data" ]
	ok $? "$r: reference table $data" || continue

	# Every slot from 0 to the highest number, as the kernel's table has
	# it: "NR|NAME|ENTRY|IMPLEMENTED", NAME '-' for NULL.
	map=$(dirname "$(real_vmlinux "$r")")/System.map
	[ -r "$map" ]
	ok $? "$r: System.map beside the vmlinux" || continue
	awk '$2 == "W" { print $3 }' "$map" >weak.txt
	grep -v '^#' "$data" | awk '
		FILENAME == "weak.txt" { weak[$1] = 1; next }
		$3 == "-" || $3 == "sys_ni_syscall" { ni[$1] = 1; next }
		{ row[$1] = $1 "|" $2 "|__x64_" $3 "|" !(("__x64_" $3) in weak) }
		{ if ($1 > max) max = $1 }
		END {
			for (i = 0; i <= max; i++)
				print (i in row) ? row[i] : i "|-|__x64_sys_ni_syscall|0"
		}' weak.txt - >want.txt
	q "$db" "SELECT nr, ifnull(name, '-'), ifnull(entry, '-'), implemented
		FROM syscalls WHERE abi = 'x64' ORDER BY nr" >got.txt
	# NR|NAME|ENTRY|IMPLEMENTED; want.txt syscall_64.tbl's, got.txt kabi-diff's
	same_rows want.txt got.txt 400 "$r: x64 table equals syscall_64.tbl ($(grep -c . want.txt) slots)"

	is "$(q "$db" "SELECT nr FROM syscalls WHERE abi = 'x64' AND name = 'openat'")" \
		257 "$r: openat is x64 257"
	is "$("$KABI_DIFF" show "$db" syscall openat | grep 'sys_openat(')" \
		"long int sys_openat(int dfd, const char *filename, int flags, umode_t mode)" \
		"$r: openat signature"
	# group_concat follows the order of the subquery's rows.
	is "$(q "$db" "SELECT group_concat(a, ', ') FROM (SELECT p.name || ':' || p.type_text AS a
		FROM syscalls s JOIN params p ON p.func_id = s.func_id
		WHERE s.abi = 'x64' AND s.nr = 257 ORDER BY p.pos)")" \
		"dfd:int, filename:const char *, flags:int, mode:umode_t" \
		"$r: openat parameters in the DB"
	for s in statx:256 open_how:24 clone_args:88; do
		is "$(q "$db" "SELECT group_concat(size) FROM types
			WHERE kind = 'struct' AND name = '${s%:*}'")" "${s#*:}" \
			"$r: struct ${s%:*} is ${s#*:} bytes (one layout)"
		"$KABI_DIFF" show "$db" struct "${s%:*}" | grep -q "/\* size: ${s#*:}, "
		ok $? "$r: show struct ${s%:*} says size ${s#*:}"
	done
done
done_testing
