#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# pahole as an oracle: for every named struct and union of the sample kernel
# (V1 and V2, DWARF 5 and DWARF 4), `kabi-diff show` prints the same
# members in the same order, at the same offsets (byte:bit for bitfields)
# and with the same sizes as `pahole -C` on the same binary. pahole reads
# the DWARF with elfutils, kabi-diff with libdwarf: two independent readers.
# Needs pahole (Debian package dwarves); skipped without it.
. "$KD_SRCDIR/lib.sh"

if ! command -v pahole >/dev/null 2>&1; then
	skip "pahole not installed (apt-get install dwarves)"
	done_testing
fi

for v in v1 v2; do
	flags=
	[ "$v" = v2 ] && flags=-DKABI_V2
	for dw in 5 4; do
		name=$v-dwarf$dw
		# $flags is empty or one word: split on purpose.
		# shellcheck disable=SC2086
		k=$(fixture_kernel "$name" $flags -gdwarf-$dw) &&
			db=$(fixture_db "$name" $flags -gdwarf-$dw)
		ok $? "$name: fixture built and extracted" || continue
		types=$(q "$db" "SELECT DISTINCT kind || ' ' || name FROM types
			WHERE kind IN ('struct','union') AND name IS NOT NULL ORDER BY 1")
		# The fixture has five named structs; an empty list would make
		# the loop below vacuous.
		n=$(printf '%s\n' "$types" | grep -c .)
		[ "$n" -ge 5 ]
		ok $? "$name: $n named structs/unions to compare"
		printf '%s\n' "$types" >types.txt
		while read -r kind tname; do
			"$KABI_DIFF" show "$db" "$kind" "$tname" | layout >got.txt
			pahole -C "$tname" "$k" | layout >want.txt
			# An empty pahole answer must not make two empty lists equal.
			[ -s want.txt ] && cmp -s got.txt want.txt
			if ! ok $? "$name: $kind $tname equals pahole"; then
				echo "#   (DEPTH NAME OFFSET SIZE; - pahole, + kabi-diff)"
				diff -u want.txt got.txt | tail -n +3 | sed 's/^/#   /'
			fi
		done <types.txt
	done
done
done_testing
