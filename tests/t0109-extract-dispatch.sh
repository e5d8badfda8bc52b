#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# x86_64's switch dispatch (tests/fixtures/dispatch.c): the ia32 and x32
# ABIs hold the entry points their dispatcher calls, as DWARF's call sites
# say (DWARF 5 and DWARF 4's GNU call sites), not every symbol of their
# prefix: the by-product alias __ia32_compat_sys_x32_fxsigreturn is no
# ia32 syscall, and x32's entries are __x64_ symbols. Without call sites
# (-O0) the entries are taken by name, and meta syscall_dispatch says so.
# A kernel without the x32 dispatcher lacks the x32 ABI: one breaking
# change for x32 programs only, not one per syscall; the reverse is one
# compatible change, and two kernels with it differ in nothing.
. "$KD_SRCDIR/lib.sh"

d=$KD_SRCDIR/fixtures/dispatch.c
x5=$(fixture_db dispatch-x32 -gdwarf-5 -DKABI_X32 "$d") &&
	x4=$(fixture_db dispatch-x32-dw4 -gdwarf-4 -DKABI_X32 "$d") &&
	no=$(fixture_db dispatch-ia32 -gdwarf-5 "$d") &&
	o0=$(fixture_db dispatch-O0 -gdwarf-5 -O0 -DKABI_X32 "$d") ||
	{ ok 1 "fixtures"; done_testing; }
scratch dispatch

rows() {
	q "$1" "SELECT abi || ' ' || coalesce(nr, '-') || ' ' || name || ' ' || entry FROM syscalls
		WHERE abi <> 'x64' ORDER BY abi, name" | tr '\n' ';'
}
want="ia32 - getpid __ia32_sys_getpid;ia32 - read __ia32_sys_read;x32 - getpid __x64_sys_getpid;x32 - read __x64_sys_read;x32 - x32_fxsigreturn __x64_compat_sys_x32_fxsigreturn;"
is "$(rows "$x5")" "$want" "DWARF 5: each ABI holds what its dispatcher calls, unnumbered"
is "$(rows "$x4")" "$want" "  DWARF 4 (DW_TAG_GNU_call_site): the same"
is "$(q "$x5" "SELECT count(*) FROM syscalls WHERE entry LIKE '__ia32_compat_sys_x32%'")" 0 \
	"  the alias ia32_sys_call() never calls is no ia32 syscall"
is "$(q "$x5" "SELECT value FROM meta WHERE key = 'syscall_dispatch'")" \
	"ia32: 2 entry points, the calls of ia32_sys_call (DWARF call sites); x32: 3 entry points, the calls of x32_sys_call (DWARF call sites)" \
	"  meta syscall_dispatch: by call sites"
is "$(rows "$no")" "ia32 - getpid __ia32_sys_getpid;ia32 - read __ia32_sys_read;" \
	"no x32_sys_call: no x32 ABI"
is "$(q "$o0" "SELECT value FROM meta WHERE key = 'syscall_dispatch'")" \
	"ia32: 3 entry points by name (__ia32_sys_*, __ia32_compat_sys_*), no call sites in the dispatcher's DWARF; x32: 0 entry points by name (__x32_compat_sys_*), no call sites in the dispatcher's DWARF" \
	"-O0, no call sites: by name, and the meta says so"

changes() {
	jq -r '[.changes[] | "\(.rule) \(.subject) \(.verdict) \(.old // "-") -> \(.new // "-") | \(.note // "")"] | join(";")' "$1"
}
"$KABI_DIFF" diff "$x5" "$no" --format json >gone.json 2>err.txt
is "$?|$(changes gone.json)|$(cat err.txt)" \
	"12|syscall-abi-removed x32 ABI breaking 3 syscalls -> - | the x32 ABI is gone: breaking for x32 programs only (none of its 3 syscalls is listed one by one)|" \
	"x32 gone: one breaking change for x32 programs only, exit 12"
"$KABI_DIFF" diff "$x5" "$no" >gone.txt 2>&1
is "$(grep -c 'syscall-removed\]' gone.txt)|$(grep -c 'x32 ABI (1 syscall.removed)' gone.txt)" "0|1" \
	"  text: one finding, no syscall-removed line"
"$KABI_DIFF" diff "$no" "$x5" --format json >new.json 2>err.txt
is "$?|$(changes new.json)" \
	"4|syscall-abi-added x32 ABI compatible - -> 3 syscalls | the x32 ABI is new: 3 syscalls x32 programs could not make before" \
	"x32 new: one compatible change, exit 4"
"$KABI_DIFF" diff "$x5" "$x4" --format json >same.json 2>err.txt
is "$?|$(changes same.json)" "0|" "both with x32 (DWARF 5 and 4): no change"

done_testing
