#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Resource bounds on generated kernels: a struct of 100,000 members (10^6
# measured by hand: 6 s, 126 MB) and structs nested by value 600 deep,
# beyond the 512 levels the layout pass follows, and an array of 2^61
# bytes: the run completes, in
# bounded time, and says where it stopped.
. "$KD_SRCDIR/lib.sh"

scratch bounds

# gen_kernel FILE BODY-GENERATOR: a one-syscall kernel whose argument is struct top *.
gen_kernel() {
	{
		echo "struct pt_regs { unsigned long di; };"
		"$2"
		echo "static inline long __do_sys_big(struct top *t) { return (long)t; }"
		echo "long __x64_sys_big(const struct pt_regs *r);"
		echo "long __x64_sys_big(const struct pt_regs *r) { return __do_sys_big((struct top *)r->di); }"
		echo "typedef long (*sys_call_ptr_t)(const struct pt_regs *);"
		echo "const sys_call_ptr_t sys_call_table[] = { __x64_sys_big };"
		echo "void _start(void) {}"
	} > "$1.c"
	gcc -g -O1 -fno-pie -no-pie -static -nostdlib -ffreestanding -Wl,-e,_start -o "$1" "$1.c"
}

wide() {
	echo "struct top {"
	awk 'BEGIN { for (i = 0; i < 100000; i++) printf "int m%d;\n", i }'
	echo "};"
}
huge() {
	echo "struct top { int n; char huge[1UL << 40][1UL << 21]; };"
}
deep() {
	echo "struct s0 { int x; };"
	awk 'BEGIN { for (i = 1; i < 600; i++) printf "struct s%d { struct s%d in; };\n", i, i - 1 }'
	echo "struct top { struct s599 in; };"
}

gen_kernel wide-k wide
timeout 120 "$KABI_DIFF" extract -q wide-k -o wide.kabi
is "$?" "0" "100,000 members: extracted"
is "$(q wide.kabi "SELECT size, (SELECT count(*) FROM members m WHERE m.type_id = t.id) FROM types t WHERE name = 'top'")" \
	"400000|100000" "100,000 members: all there, size right"

gen_kernel deep-k deep
timeout 120 "$KABI_DIFF" extract -q deep-k -o deep.kabi
is "$?" "0" "600 levels of nesting: extracted"
is "$(q deep.kabi "SELECT count(*) FROM types WHERE kind = 'struct'")" "601" "600 levels: every struct stored"
is "$(q deep.kabi "SELECT DISTINCT message FROM problems")" \
	"types nest deeper than 512 levels; the deeper levels are left out of the identity of the types above them" "600 levels: the depth bound is named in problems"
# 2^61 bytes of array (as large as gcc allows a type): sizes stay exact, no overflow.
gen_kernel huge-k huge
timeout 60 "$KABI_DIFF" extract -q huge-k -o huge.kabi
is "$?" "0" "an array of 2^61 bytes: extracted"
is "$(q huge.kabi "SELECT kind || ':' || size || ':' || ifnull(count, '-') FROM types WHERE kind IN ('struct', 'array') ORDER BY size DESC")" \
"struct:2305843009213693956:-
array:2305843009213693952:1099511627776
array:2097152:2097152" "an array of 2^61 bytes: exact sizes and bounds"
done_testing
