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
# compatible change, and two kernels with it differ in nothing. The
# dispatcher's nested blocks are bounded (64): deeper is refused.
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

# The dispatcher's blocks are walked recursively: a hostile image nesting
# them deeper than 64 is refused in one line, not a stack overflow; 64
# levels are read (-O0: blocks with their variables, no call sites).
nested() {
	awk -v n="$1" 'BEGIN {
		print "struct pt_regs;"
		print "long __x64_sys_read(const struct pt_regs *regs);"
		print "__attribute__((noinline, used)) long __ia32_sys_read(const struct pt_regs *regs)"
		print "{ return __x64_sys_read(regs) + 1; }"
		print "long ia32_sys_call(const struct pt_regs *regs, unsigned int nr);"
		print "long ia32_sys_call(const struct pt_regs *regs, unsigned int nr) {"
		printf "volatile unsigned v0 = nr;\n"
		for (i = 1; i <= n; i++) printf "{ volatile unsigned v%d = v%d;\n", i, i - 1
		printf "return __ia32_sys_read(regs) + v%d;\n", n
		for (i = 1; i <= n; i++) print "}"
		print "}" }' >"nest$1.c"
}
nested 64 && nested 65
k64=$(fixture_kernel nest64 -gdwarf-5 -O0 "$PWD/nest64.c") &&
	k65=$(fixture_kernel nest65 -gdwarf-5 -O0 "$PWD/nest65.c") || { ok 1 "nested fixtures"; done_testing; }
"$KABI_DIFF" extract -q "$k64" -o nest64.kabi 2>err.txt
is "$?|$(q nest64.kabi "SELECT name FROM syscalls WHERE abi = 'ia32'")|$(cat err.txt)" "0|read|" \
	"blocks 64 deep in the dispatcher: read"
"$KABI_DIFF" extract -q "$k65" -o nest65.kabi 2>err.txt
rc=$?
is "$rc|$(test -e nest65.kabi; echo $?)|$(cat err.txt)" \
	"1|1|kabi-diff: $k65: DWARF: ia32_sys_call's blocks nest deeper than 64" \
	"  65 deep: refused in one line naming the image, no output"

done_testing
