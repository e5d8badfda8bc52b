#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabi-diff check with the starter contract (spec/contract/) against 6.1.0-47 and
# 6.12.107 extracted with their UAPI headers, amd64 and arm64: the report
# runs (exit 0 or 4, never 1), its coverage line has the documented form and
# covers every implemented syscall of the kernel's own table (x64, arm64),
# most of which the contract specifies; the findings are printed as TAP comments for
# review (each is a spec gap for spec/contract/ or a kernel fact to explain there);
# spec init's skeleton of each kernel loads with spec lint.
. "$KD_SRCDIR/lib.sh"

K=${KABI_KERNELS:-/root/.cache/kabi-kernels}
spec=$KD_SRCDIR/../spec/contract
for r in 6.1.0-47-amd64 6.12.107+deb12-amd64 6.1.0-47-arm64 6.12.107+deb12-arm64; do
	case $r in *-arm64) abi=arm64 ;; *) abi=x64 ;; esac
	if [ ! -r "$K/$r/vmlinux" ] || [ ! -d "$K/$r/include" ]; then
		skip "$r (vmlinux and include/) not in $K"
		continue
	fi
	"$KABI_DIFF" extract -q "$K/$r/vmlinux" --uapi "$K/$r/include" -o "$r.kabi"
	ok $? "$r: extract --uapi"
	"$KABI_DIFF" check "$r.kabi" --spec "$spec" >"$r.txt" 2>"$r.err"
	rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 4 ]; ok $? "$r: check exits 0 or 4 (got $rc)"
	is "$(cat "$r.err")" "" "$r: nothing on stderr"
	cov=$(grep '^coverage: ' "$r.txt")
	echo "$cov" | grep -Eq '^coverage: [0-9]+/[0-9]+ syscalls specified$'
	ok $? "$r: coverage line: $cov"
	n=$(sqlite3 "$r.kabi" "SELECT count(DISTINCT name) FROM syscalls WHERE abi = '$abi' AND implemented AND name IS NOT NULL")
	is "$(echo "$cov" | sed 's|^coverage: [0-9]*/\([0-9]*\) .*|\1|')" "$n" "$r: total = implemented $abi syscalls ($n)"
	# 300 and more: an arm64 kernel held against x64 rows it lacks specified none.
	[ "$(echo "$cov" | sed 's|^coverage: \([0-9]*\)/.*|\1|')" -ge 300 ]
	ok $? "$r: the contract specifies most of them ($cov)"
	sed 1d "$r.txt" | grep -v '^coverage: ' | sed 's/^/# /'
	mkdir -p "skel-$r" && "$KABI_DIFF" spec init "$r.kabi" -o "skel-$r/skel.kabispec"
	"$KABI_DIFF" spec lint "skel-$r" >/dev/null 2>"skel-$r.err"
	ok $? "$r: spec init's skeleton loads with spec lint ($(grep -c '^syscall' "skel-$r/skel.kabispec") syscalls)"
done
done_testing
