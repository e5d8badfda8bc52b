#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# diff --for on Debian's real kernels, 6.1.0-47 -> 6.12.107 (vmlinux and
# UAPI headers): the verdicts for a real program, `ip link` (iproute2 of
# Debian 12), from its `strace -f` log recorded once (tests/real/data/
# strace-ip-link.log: 28 syscalls, one ioctl, TCGETS). Of the whole diff's
# ~5,000 changes only struct rseq's reach it (glibc registers rseq at
# start-up): node_id and mm_cid took its tail padding in 6.3, written by
# the kernel only, so without a contract they are potentially breaking
# (exit 12) and with the starter contract compatible (exit 4); and the
# log's getrandom gained a vDSO entry point in 6.11 (compatible). Then a log
# recorded here (strace -f ls /) when strace is installed: a report, no
# error.
. "$KD_SRCDIR/lib.sh"

K=${KABI_KERNELS:-/root/.cache/kabi-kernels}
old=6.1.0-47-amd64 new=6.12.107+deb12-amd64
export XDG_CACHE_HOME=$KD_TMPDIR/t19-cache
log=$KD_REALDIR/data/strace-ip-link.log

if [ -d "$K/$old/include/uapi" ] && [ -d "$K/$new/include/uapi" ]; then
	for r in $old $new; do
		mkdir -p "dir-$r" && ln -sf "$K/$r/vmlinux" "dir-$r/vmlinux" && ln -sfn "$K/$r/include" "dir-$r/include"
	done
	"$KABI_DIFF" "dir-$old" "dir-$new" -q --for "$log" -f json >ip.json
	is "$?" 12 "ip link, no contract: exit 12 (potentially breaking)"
	is "$(jq -c '.for | [(.syscalls | length), .ioctls, .unknown_syscalls, .unknown_ioctl_numbers]' ip.json)" \
		'[28,["TCGETS"],[],0]' "  28 syscalls, TCGETS, nothing neither kernel has"
	is "$(jq -r '.changes[] | "\(.verdict) \(.rule) \(.subject) [\(.impact | map(.root) | join(","))]"' ip.json | sort)" \
"breaking padding-reuse-uncontracted struct rseq.mm_cid [rseq]
breaking padding-reuse-uncontracted struct rseq.node_id [rseq]
compatible vdso-symbol-added __vdso_getrandom@LINUX_2.6 (x64) []
compatible vdso-symbol-added getrandom@LINUX_2.6 (x64) []
info member-added-empty struct rseq.end [rseq]" "  only struct rseq's and the vDSO's getrandom (6.11) reach it"
	is "$(jq '.for.left_out.breaking > 100 and .for.left_out.compatible > 1000' ip.json)" true \
		"  the rest of the diff left out and counted"
	"$KABI_DIFF" "dir-$old" "dir-$new" -q --for "$log" --spec "$KD_SRCDIR/../spec/contract" >ip.txt
	is "$?" 4 "ip link, starter contract: exit 4 (compatible: rseq's new fields are the kernel's to write)"
	is "$(sed -n 4p ip.txt)" \
		"for $log (strace log): the program uses 28 syscalls and 1 ioctl; 5 changes reach them (4 compatible, 1 info)" \
		"  the answer in one line"
	if command -v strace >/dev/null 2>&1 && strace -f -o live.log ls / >/dev/null 2>&1; then
		"$KABI_DIFF" "dir-$old" "dir-$new" -q --for live.log >live.txt 2>err.txt
		rc=$?
		ok "$([ "$rc" -ne 1 ] && [ "$rc" -ne 2 ] && echo 0 || echo 1)" "a log recorded here (strace -f ls /): a report (exit $rc)"
		grep -q '^for live.log (strace log): the program uses [0-9]* syscalls and [0-9]* ioctls\{0,1\}; ' live.txt
		ok $? "  with its for line"
	else
		skip "strace not installed"; skip "strace not installed"
	fi
else
	for i in 1 2 3 4 5 6 7 8; do skip "$old or $new: no include/uapi in $K"; done
fi

done_testing
