#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The vDSO on Debian's real kernels: show vdso lists, for every image the
# vmlinux embeds (x64, ia32, x32; arm64, aarch32), exactly the exported
# symbols readelf --dyn-syms lists in the debug package's vdso/*.so, with
# their version nodes; 6.1.0-47 -> 6.12.107 amd64 gained __vdso_getrandom
# and its weak alias getrandom (x64) and __vdso_getcpu (ia32), all
# compatible, nothing removed; arm64 and arm64-16k of 6.12.107: the same;
# 6.1.0-47 -> 6.12.107 arm64 gained __kernel_getrandom. The starter
# contract (spec/contract/vdso.kabispec) holds on every one of them, and
# the diff back to 6.1 cites its lines for the promised entry points lost.
. "$KD_SRCDIR/lib.sh"

K=${KABI_KERNELS:-/root/.cache/kabi-kernels}

# NAME[ NODE] per exported symbol of the file, sorted; a version
# definition's own symbol (readelf: no @) by its name alone.
readelf_syms() {
	readelf --dyn-syms -W "$1" | awk '$1 ~ /^[0-9]+:$/ && $5 != "LOCAL" && $7 != "UND" {
		n = $8; sub(/@@?/, " ", n); print n }' | sort
}
kabi_syms() {
	q "$1" "SELECT CASE WHEN version IS NULL OR (name = version AND value = 0) THEN name
		ELSE name || ' ' || version END FROM vdso_symbols WHERE abi = '$2'" | sort
}

for rel in 6.1.0-47-amd64 6.12.107+deb12-amd64 6.1.0-47-arm64 6.12.107+deb12-arm64 \
	6.12.107+deb12-arm64-16k; do
	db=$(real_db "$rel") || { skip "$rel not in $K"; continue; }
	case $rel in
	*amd64) images="x64:vdso64.so ia32:vdso32.so x32:vdsox32.so" ;;
	*) images="arm64:vdso.so aarch32:vdso32.so" ;;
	esac
	for im in $images; do
		abi=${im%%:*} so=$K/$rel/vdso/${im#*:}
		if [ ! -r "$so" ]; then skip "$rel: no $so"; continue; fi
		readelf_syms "$so" >want.txt
		kabi_syms "$db" "$abi" >got.txt
		same_rows want.txt got.txt 3 "$rel $abi: show vdso's symbols are readelf --dyn-syms' of ${im#*:}"
	done
	is "$(q "$db" "SELECT count(*) FROM problems WHERE stage = 'vdso'")" 0 "$rel: no vDSO problem"
	"$KABI_DIFF" check "$db" --spec "$KD_SRCDIR/../spec/contract" -f json >check.json
	is "$(jq -c '[.vdso, ([.findings[] | select(.rule | startswith("vdso-"))] | length)]' check.json)" \
		'[true,0]' "$rel: the starter contract's vdso blocks hold"
done

# The debug images beside each vmlinux (vdso/) give the 64-bit entry points' signatures.
if db=$(real_db 6.12.107+deb12-amd64) && [ -r "$K/6.12.107+deb12-amd64/vdso/vdso64.so" ]; then
	"$KABI_DIFF" show "$db" vdso __vdso_clock_gettime --abi x64 >cg.txt
	is "$(sed -n 3p cg.txt)" "int __vdso_clock_gettime(clockid_t clock, struct __kernel_timespec *ts)" \
		"6.12.107 x64: __vdso_clock_gettime's signature from vdso64.so's DWARF"
	grep -q '/\* size: 16, align: 8, members: 2 \*/' cg.txt
	ok $? "  struct __kernel_timespec: 16 bytes"
	is "$(q "$db" "SELECT count(*) FROM vdso_symbols WHERE abi = 'x64' AND type = 'func' AND func_id IS NULL")" 0 \
		"  every x64 entry point has a signature"
else
	skip "6.12.107+deb12-amd64 or its vdso/ not in $K"
fi

if db0=$(real_db 6.1.0-47-amd64) && db1=$(real_db 6.12.107+deb12-amd64); then
	"$KABI_DIFF" diff "$db0" "$db1" -f json >amd64.json
	is "$(jq -r '.changes[] | select(.category == "vdso") | "\(.verdict) \(.rule) \(.subject)"' amd64.json)" \
"compatible vdso-symbol-added __vdso_getcpu@LINUX_2.6 (ia32)
compatible vdso-symbol-added __vdso_getrandom@LINUX_2.6 (x64)
compatible vdso-symbol-added getrandom@LINUX_2.6 (x64)" "6.1 -> 6.12 amd64: the vDSO additions, compatible"
	"$KABI_DIFF" diff "$db1" "$db0" -f json >back.json
	is "$(jq -c '.summary.vdso' back.json)" '{"breaking":3,"source":0,"compatible":0,"info":0,"suppressed":0}' \
		"6.12 -> 6.1 amd64: the same three, removed, breaking"
	"$KABI_DIFF" diff "$db1" "$db0" --spec "$KD_SRCDIR/../spec/contract" -f json >backc.json
	is "$(jq -r '.changes[] | select(.category == "vdso") | "\(.subject) \(.evidence.kind) \(.evidence.text | sub(".*/"; ""))"' backc.json)" \
"__vdso_getcpu@LINUX_2.6 (ia32) layout the vDSO images both vmlinux embed (dynamic symbols, version definitions)
__vdso_getrandom@LINUX_2.6 (x64) contract vdso.kabispec:29: the contract promises __vdso_getrandom@LINUX_2.6 in the x64 vDSO
getrandom@LINUX_2.6 (x64) contract vdso.kabispec:30: the contract promises getrandom@LINUX_2.6 in the x64 vDSO" \
		"  with the starter contract: the promised x64 entry points cite its lines, ia32's getcpu (not promised) the images"
else
	skip "6.1.0-47-amd64 or 6.12.107+deb12-amd64 not in $K"
fi
if db0=$(real_db 6.1.0-47-arm64) && db1=$(real_db 6.12.107+deb12-arm64); then
	"$KABI_DIFF" diff "$db0" "$db1" -f json >arm64-up.json
	is "$(jq -r '.changes[] | select(.category == "vdso") | "\(.verdict) \(.rule) \(.subject)"' arm64-up.json)" \
		"compatible vdso-symbol-added __kernel_getrandom@LINUX_2.6.39 (arm64)" \
		"6.1 -> 6.12 arm64: __kernel_getrandom added, compatible; aarch32 unchanged"
	"$KABI_DIFF" diff "$db1" "$db0" --spec "$KD_SRCDIR/../spec/contract" -f json >arm64-back.json
	is "$(jq -r '.changes[] | select(.category == "vdso") | "\(.verdict) \(.subject) \(.evidence.kind) \(.evidence.text | sub(".*/"; ""))"' arm64-back.json)" \
		"breaking __kernel_getrandom@LINUX_2.6.39 (arm64) contract vdso.kabispec:67: the contract promises __kernel_getrandom@LINUX_2.6.39 in the arm64 vDSO" \
		"6.12 -> 6.1 arm64: removed, breaking, the starter contract's line as evidence"
else
	skip "6.1.0-47-arm64 or 6.12.107+deb12-arm64 not in $K (fetch 6.1.0-47-arm64)"
fi
if db0=$(real_db 6.12.107+deb12-arm64) && db1=$(real_db 6.12.107+deb12-arm64-16k); then
	"$KABI_DIFF" diff "$db0" "$db1" -f json >arm64.json
	is "$(jq -c '.summary.vdso' arm64.json)" '{"breaking":0,"source":0,"compatible":0,"info":0,"suppressed":0}' \
		"6.12.107 arm64 -> arm64-16k: the same vDSO"
	is "$(q "$db0" "SELECT version FROM vdso_symbols WHERE abi = 'arm64' AND name = '__kernel_getrandom'")" \
		"LINUX_2.6.39" "6.12.107 arm64 has __kernel_getrandom at LINUX_2.6.39"
else
	skip "6.12.107+deb12-arm64(-16k) not in $K"
fi

done_testing
