#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What the documentation promised and show or check did not do (issue 29,
# item 9): `show --abi x32` on a kernel without that ABI printed nothing
# and exited 0; a misspelled name got no suggestion; a glob
# (`struct 'fx_*'`) was a name like any other; `check --no-spec`, which
# the README listed, was "unrecognized option" (check needs a contract:
# the README now says so, and check says why).
. "$KD_SRCDIR/lib.sh"

db=$(fixture_db v1-dwarf5 -gdwarf-5) || { ok 1 "fixture"; done_testing; }
scratch show-names
cp "$db" k.kabi

# run CMD...: "EXIT|stderr|lines on stdout".
run() {
	"$KABI_DIFF" "$@" >out.txt 2>err.txt
	echo "$?|$(cat err.txt)|$(grep -c '' out.txt)"
}

is "$(run show k.kabi syscalls --abi x32)" \
	"1|kabi-diff: k.kabi: no syscalls of ABI 'x32' (this kernel has x64)|0" \
	"--abi x32 on an x86_64 kernel without it: exit 1, the ABIs it has named"
is "$(run show k.kabi syscalls --abi x64)" "0||8" "  --abi x64: its table"

# An ABI without a table (6.1.87+ call ia32's entry points from a switch):
# entry points only, no numbers, sys_ni.c stubs of other architectures'
# calls among them. Listed without the stubs, a first line saying why.
cp k.kabi ia32.kabi && q ia32.kabi "INSERT INTO syscalls (abi, nr, name, entry, implemented) VALUES
	('ia32', NULL, 'read', '__ia32_sys_read', 1), ('ia32', NULL, 'openat', '__ia32_compat_sys_openat', 1),
	('ia32', NULL, 's390_ipc', '__ia32_sys_s390_ipc', 0),
	('x64', NULL, 'x32_rt_sigreturn', '__x64_sys_x32_rt_sigreturn', 1)"
is "$(run show ia32.kabi syscalls --abi ia32)" "0||3" "--abi ia32 without a table: exit 0, a line and two entry points"
is "$(head -1 out.txt)" "# ia32: no syscall table in this kernel (its entry points are called from a switch, not an array): 2 entry points without numbers, which every syscall gets whether the ia32 switch calls it or not; 1 stub of calls it does not build (kernel/sys_ni.c, other architectures' too) not listed" \
	"  the first line says why they have no number and what was left out"
lacks out.txt 's390_ipc' "  the stub of another architecture's call not listed"
is "$(run show ia32.kabi syscalls --abi x64)" "0||9" "--abi x64 with a table and an entry point it does not number"
is "$(tail -1 out.txt)" "# x64: 1 entry point without a number in its table not listed" "  only the numbered slots, the rest counted"
lacks out.txt 'x32_rt_sigreturn' "  the unnumbered one not listed"

is "$(run show k.kabi syscall opnat2)" \
	"1|kabi-diff: k.kabi: no syscall named 'opnat2'; did you mean 'openat2'?|0" \
	"a syscall one letter off: did you mean"
is "$(run show k.kabi struct fx_bitz)" \
	"1|kabi-diff: k.kabi: no struct named 'fx_bitz'; did you mean 'fx_bits'?|0" \
	"a struct one letter off"
is "$(run show k.kabi type FX_NODE)" \
	"1|kabi-diff: k.kabi: no type named 'FX_NODE'; did you mean 'fx_node'?|0" \
	"  case aside"
is "$(run show k.kabi union fx_bitz)" \
	"1|kabi-diff: k.kabi: no union named 'fx_bitz' (only types reachable from syscalls and ioctls are recorded)|0" \
	"  among the names of that kind only (fx_bits is a struct)"
is "$(run show k.kabi struct nosuch)" \
	"1|kabi-diff: k.kabi: no struct named 'nosuch' (only types reachable from syscalls and ioctls are recorded)|0" \
	"  nothing near: no guess"

"$KABI_DIFF" show k.kabi struct 'fx_*' >out.txt 2>err.txt
is "$?|$(cat err.txt)|$(grep '^struct ' out.txt | tr '\n' ' ')" \
	"0||struct fx_bits { struct fx_legacy { struct fx_node { struct fx_stat { " \
	"struct 'fx_*': every struct it matches, sorted"
"$KABI_DIFF" show k.kabi struct fx_node >one.txt
sed -n '/^struct fx_node {/,/^\/\* declared/p' out.txt >glob-node.txt
same_rows one.txt glob-node.txt 5 "  each as if named alone"
"$KABI_DIFF" show k.kabi syscall 'fx[ls]*' >out.txt 2>err.txt
is "$?|$(grep -o '^x64 *[a-z]*:' out.txt | tr -s ' ' | tr '\n' ' ')" "0|x64 fxlegacy: x64 fxstat: " \
	"syscall 'fx[ls]*': a bracket too"
is "$(run show k.kabi struct 'zz*')" "1|kabi-diff: k.kabi: no struct matches 'zz*'|0" \
	"a glob matching nothing: exit 1"

is "$(run check k.kabi --no-spec)" \
	"2|kabi-diff: check: no --no-spec: check holds the kernel against a contract (--spec DIR)
kabi-diff: see 'kabi-diff check --help'|0" "check --no-spec: a usage error saying why"

done_testing
