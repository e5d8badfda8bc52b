#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A syscall compiled out of a kernel: its table slot points at the weak
# COND_SYSCALL stub of kernel/sys_ni.c (returns -ENOSYS). extract keeps the
# slot, its name and the stub, but not as implemented; show, check and the
# probe treat it so, and the diff judges it by the stub (the old kernel
# compiled it out: compatible when implemented; the new one did: breaking).
. "$KD_SRCDIR/lib.sh"

stub=$(fixture_db v1-cond -gdwarf-5 -DKABI_COND) &&
	built=$(fixture_db v1-cond-built -gdwarf-5 -DKABI_COND_BUILT) ||
	{ ok 1 "fixtures"; done_testing; }
scratch cond-syscall

is "$(q "$stub" "SELECT s.nr, s.name, s.entry, s.implemented, f.name, f.decl_file, f.decl_line
	FROM syscalls s JOIN functions f ON f.id = s.func_id WHERE s.abi = 'x64' AND s.nr = 10")" \
	"10|fxcond|__x64_sys_fxcond|0|sys_fxcond|kernel/sys_ni.c|1" \
	"the stub's slot: name, entry and stub kept, not implemented"
is "$(q "$built" "SELECT s.implemented, f.decl_file LIKE '%fixtures/kernel.c'
	FROM syscalls s JOIN functions f ON f.id = s.func_id WHERE s.abi = 'x64' AND s.nr = 10")" \
	"1|1" "  the call built: implemented"
is "$(q "$stub" "SELECT count(*) FROM syscalls WHERE implemented")" \
	"$(q "$built" "SELECT count(*) - 1 FROM syscalls WHERE implemented")" \
	"  nothing else changes"

"$KABI_DIFF" show "$stub" syscalls >out.txt 2>err.txt
is "$?|$(grep fxcond out.txt | tr -s ' ')|$(cat err.txt)" "0|x64 10 fxcond (not implemented)|" \
	"show: the slot says not implemented"

mkdir -p spec
printf 'syscall fxcond(x: int) -> int;\n' >spec/c.kabispec
"$KABI_DIFF" check "$stub" --spec spec >out.txt 2>err.txt
is "$?|$(grep -c 'syscall-missing: fxcond: not implemented' out.txt)|$(grep -c 'syscall-unspecified: fxcond' out.txt)" \
	"4|1|0" "check: the contract's call is syscall-missing, never unspecified"
"$KABI_DIFF" check "$built" --spec spec >out.txt 2>err.txt
is "$?|$(grep -c 'fxcond' out.txt)" "4|0" "  built: no finding about it"

"$KABI_DIFF" diff "$stub" "$built" --format json >in.json 2>err.txt
is "$?|$(jq -r '[.changes[] | select(.name == "fxcond") | "\(.rule) \(.verdict) \(.evidence.text)"] | join(";")' in.json)" \
	"4|syscall-implemented compatible the old kernel's sys_fxcond is the stub at kernel/sys_ni.c:1 (COND_SYSCALL: returns -ENOSYS)" \
	"diff stub -> built: syscall-implemented, compatible, the stub as evidence"
"$KABI_DIFF" diff "$built" "$stub" --format json >out.json 2>err.txt
is "$?|$(jq -r '[.changes[] | select(.name == "fxcond") | "\(.rule) \(.verdict) \(.evidence.text)"] | join(";")' out.json)" \
	"12|syscall-compiled-out breaking the new kernel's sys_fxcond is the stub at kernel/sys_ni.c:1 (COND_SYSCALL: returns -ENOSYS)" \
	"diff built -> stub: syscall-compiled-out, breaking, the stub as evidence"

done_testing
