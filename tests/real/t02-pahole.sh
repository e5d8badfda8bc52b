#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# pahole as an oracle on real kernels: for 30 user-visible structs (and two
# unions) reachable from the syscalls, `kabi-diff show` prints the same
# members in the same order, at the same offsets (byte:bit for bitfields)
# and with the same sizes as `pahole -C NAME vmlinux` (dwarves, elfutils),
# on the x86_64 and the arm64 builds (asm-generic's struct stat, arm64's
# own relocatable image: the same 32 types).
#
# pahole is run once per type, two at a time: pahole 1.24's `-C a,b,c`
# stops looking once it has printed a type found in an earlier CU than the
# next one asked for ("pahole -C statx,clone_args" reports clone_args not
# found, "-C clone_args,statx" prints both), so a batch is not reliable.
# One `pahole -C` costs 1-6 s and up to ~1 GB on these kernels.
#
# Differences in wording that are not layout (pahole's
# __attribute__((__aligned__(8))) on __aligned_u64 members, its hole and
# cacheline comments, "[]" for a "[0]" array) are outside what is compared:
# see layout() in tests/lib.sh.
. "$KD_SRCDIR/lib.sh"

if ! command -v pahole >/dev/null 2>&1; then
	skip "pahole not installed (apt-get install dwarves)"
	done_testing
fi

# What user space passes to or gets from syscalls, in both 6.1 and 6.12.
# siginfo, sigevent, perf_event_attr, bpf_attr and io_uring_params carry
# anonymous unions, bitfields and nested structs. __kernel_timex ends in
# 44 bytes of padding that pahole prints as unnamed "int :32;" lines under
# "Force padding" (its reconstruction; DWARF has no such members, both
# tools count 20): those lines carry no offset and are not compared.
types="struct:statx struct:open_how struct:clone_args struct:stat
struct:sigaction struct:rusage struct:__kernel_timespec struct:sched_attr
struct:perf_event_attr struct:io_uring_params struct:mount_attr
struct:epoll_event struct:iovec struct:user_msghdr struct:sockaddr
struct:rlimit64 struct:new_utsname struct:sysinfo struct:__kernel_itimerspec
struct:sigevent struct:landlock_ruleset_attr struct:futex_waitv struct:siginfo
struct:__kernel_timex struct:statfs struct:linux_dirent64 struct:iocb
struct:io_event struct:rseq struct:msqid_ds
union:bpf_attr union:sigval"

for r in $KD_REAL_RELEASES ${KD_REAL_ARM64:-}; do
	if ! v=$(real_vmlinux "$r"); then
		skip "$r: not in ${KABI_KERNELS:-/root/.cache/kabi-kernels} (fetch: ../shared/kernels/fetch $r)"
		continue
	fi
	db=$(real_db "$r")
	ok $? "$r: extract" || continue
	mkdir -p "pahole-$r"
	# shellcheck disable=SC2086
	printf '%s\n' $types | sed 's/.*://' |
		xargs -P 2 -I '{}' sh -c 'pahole -C "$1" "$2" >"$3/$1" 2>&1' sh '{}' "$v" "pahole-$r"
	for kt in $types; do
		kind=${kt%%:*} name=${kt#*:}
		is "$(q "$db" "SELECT count(*) FROM types WHERE kind = '$kind' AND name = '$name'")" 1 \
			"$r: $kind $name recorded once (reachable, one layout)" || continue
		"$KABI_DIFF" show "$db" "$kind" "$name" | layout >got.txt
		layout <"pahole-$r/$name" >want.txt
		# An empty pahole answer must not make two empty lists equal.
		[ -s want.txt ] && cmp -s got.txt want.txt
		if ! ok $? "$r: $kind $name equals pahole ($(grep -c . want.txt) members)"; then
			echo "#   (DEPTH NAME OFFSET SIZE; - pahole, + kabi-diff)"
			diff -u want.txt got.txt | tail -n +3 | sed 's/^/#   /' | head -40
			[ -s want.txt ] || sed 's/^/#   pahole: /' "pahole-$r/$name" | head -5
		fi
	done
done
done_testing
