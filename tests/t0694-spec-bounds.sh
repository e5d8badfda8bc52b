#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Spec resolution in linear time (issue 12): an 'extends' chain of 2,000
# sets took 8 s (4,000: 30 s of CPU), each set walking its chain with a
# linear name lookup; duplicate names were found pairwise (100,000 sets,
# or one set of 100,000 values: 5*10^9 comparisons). A chain may cross at
# most 64 sets (the values of a longer one were cut silently), names are
# looked up through an index. Each case: the exact errors, within seconds.
. "$KD_SRCDIR/lib.sh"

scratch spec-bounds

# chain N: sets s0 .. sN, each but s0 extending the one before.
chain() {
	awk -v n="$1" 'BEGIN { print "flags s0 {\n\tA0 = 1;\n}"
		for (i = 1; i <= n; i++) printf "flags s%d extends s%d {\n\tA%d = %d;\n}\n", i, i - 1, i, i }'
}
lint() {
	timeout 60 "$KABI_DIFF" spec lint "$1" >out.txt 2>err.txt
	echo "$?|$(cat err.txt)"
}

mkdir long && chain 4000 > long/c.kabispec
is "$(lint long | tr '\n' '@' | cut -d@ -f1,2,3936,3937)" \
	"1|kabi-diff: long/c.kabispec:196:1: 's65' extends a chain of more than 64 sets@kabi-diff: long/c.kabispec:199:1: 's66' extends a chain of more than 64 sets@kabi-diff: long/c.kabispec:12001:1: 's4000' extends a chain of more than 64 sets@kabi-diff: long: the spec has errors" \
	"a chain of 4,000 sets: one error per set beyond 64 hops"
is "$(grep -c 'more than 64' err.txt)" 3936 "  3,936 of them"

mkdir ok && chain 64 > ok/c.kabispec
is "$(lint ok)" "0|" "64 hops: fine"

mkdir cyc && printf 'flags a extends b {\n\tA = 1;\n}\nflags b extends a {\n\tB = 2;\n}\n' > cyc/c.kabispec
is "$(lint cyc)" "1|kabi-diff: cyc/c.kabispec:1:1: 'a' extends itself (a cycle of 'extends')
kabi-diff: cyc/c.kabispec:4:1: 'b' extends itself (a cycle of 'extends')
kabi-diff: cyc: the spec has errors" "a cycle: still named a cycle"

mkdir sets && awk 'BEGIN { for (i = 0; i < 100000; i++) printf "flags f%d {\n\tA = 1;\n}\n", i
	print "flags f5 {\n\tB = 2;\n}" }' > sets/s.kabispec
is "$(lint sets)" "1|kabi-diff: sets/s.kabispec:300001:1: duplicate flag set 'f5' (first at sets/s.kabispec:16:1)
kabi-diff: sets: the spec has errors" "100,000 sets and one duplicate: named"

mkdir vals && awk 'BEGIN { print "flags big {"; for (i = 0; i < 100000; i++) printf "\tV%d = %d;\n", i, i
	print "\tV7 = 7;\n}" }' > vals/v.kabispec
is "$(lint vals)" "1|kabi-diff: vals/v.kabispec:100002:2: duplicate value 'V7' in 'big'
kabi-diff: vals: the spec has errors" "a set of 100,000 values and one duplicate: named"

done_testing
