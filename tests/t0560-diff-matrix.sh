#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabi-diff matrix: three fixture kernels named as Debian names an update
# and a flavour (6.99.1-1-amd64, 6.99.1-2-amd64 with the V2 changes,
# 6.99.1-1-cloud-amd64 the same code as -1), given out of order. The page
# compares -1 -> -2 (update) and -1 -> cloud (flavour) and nothing else;
# the counts, the breaking changes and the exit status are those of the
# two diffs; each kernel is extracted once; text, JSON and Markdown agree.
. "$KD_SRCDIR/lib.sh"

k1=$(fixture_kernel m-1 -DKABI_RELEASE='"6.99.1-1-amd64"') &&
	k2=$(fixture_kernel m-2 -DKABI_V2 -DKABI_RELEASE='"6.99.1-2-amd64"') &&
	k3=$(fixture_kernel m-1-cloud -DKABI_RELEASE='"6.99.1-1-cloud-amd64"') ||
	{ ok 1 "fixture kernels"; done_testing; }
scratch matrix
export XDG_CACHE_HOME=$PWD/cache

"$KABI_DIFF" matrix "$k2" "$k1" "$k3" -f json -o m.json 2>err.txt
is "$?" 12 "matrix: exit 12, the OR of the pairs' (12 and 0)"
is "$(grep -c '^kabi-diff: \(old\|new\): extracting ' err.txt)" 3 "  each kernel extracted once"
is "$(jq -c '[.kernels[] | .release + "/" + .arch]' m.json)" \
	'["6.99.1-2-amd64/x86_64","6.99.1-1-amd64/x86_64","6.99.1-1-cloud-amd64/x86_64"]' \
	"  the kernels in the order given, with their releases"
is "$(jq -c '[.pairs[] | [.kind, .old, .new, .counts.breaking, .counts.compatible, .exit]]' m.json)" \
	'[["update",1,0,6,2,12],["flavour",1,2,0,0,0]]' \
	"  pairs: -1 -> -2 (update, 6 breaking), -1 -> cloud (flavour, no change)"
is "$(jq -r '.pairs[0].breaking[] | [.rule, .subject, .evidence.kind] | join("|")' m.json)" \
"syscall-removed|fxold (x64)|layout
syscall-renumbered|openat2 (x64)|layout
member-bitfield|struct fx_bits.prio|layout
padding-reuse-uncontracted|struct fx_node.reserved_new|layout
tail-growth-uncontracted|struct open_how|layout
tail-growth-uncontracted|struct open_how.newfield|layout" "  the update's breaking changes, each with its rule and evidence"
is "$(jq .exit m.json)" 12 "  exit in the page"

# The same pair through diff: the matrix reports what diff reports.
"$KABI_DIFF" "$k1" "$k2" -q -f json >d.json
is "$?" 12 "diff -1 -> -2: exit 12"
is "$(jq -c '[.changes[] | select(.verdict == "breaking") | .subject]' d.json)" \
	"$(jq -c '[.pairs[0].breaking[] | .subject]' m.json)" "  the same breaking changes as the matrix's update"

"$KABI_DIFF" matrix -q "$k2" "$k1" "$k3" >m.txt 2>err.txt
is "$?" 12 "text: exit 12, from the cache"
is "$(cat err.txt)" "" "  nothing extracted again, nothing on stderr with -q"
is "$(grep -E '^(update|flavour) ' m.txt)" \
"update   6.99.1-1-amd64 -> 6.99.1-2-amd64: 6 breaking, 0 source, 2 compatible, 0 info
flavour  6.99.1-1-amd64 -> 6.99.1-1-cloud-amd64: 0 breaking, 0 source, 0 compatible, 0 info" \
	"  one line a pair"
is "$(grep -c '      evidence (layout): ' m.txt)" 6 "  each breaking change with its evidence"

"$KABI_DIFF" matrix -q "$k2" "$k1" "$k3" -f md >m.md
is "$(grep '^| update ' m.md)" "| update | 6.99.1-1-amd64 | 6.99.1-2-amd64 | 6 | 0 | 2 | 0 |" "md: the update's row"
is "$(grep -c '^## Breaking in ' m.md)" 1 "  one section of breaking changes"

"$KABI_DIFF" matrix -q "$k1" "$k3" >/dev/null
is "$?" 0 "a flavour with no change: exit 0"

"$KABI_DIFF" matrix "$k1" 2>err.txt
is "$?" 2 "one kernel: usage error"
is "$(head -1 err.txt)" "kabi-diff: matrix: expected at least two kernels, got 1" "  says why"
"$KABI_DIFF" matrix -f sarif "$k1" "$k2" 2>/dev/null
is "$?" 2 "an unknown format: usage error"
"$KABI_DIFF" matrix -q "$k1" "$k2" -o "$k1" 2>err.txt
is "$?" 1 "-o naming an input: refused"
"$KABI_DIFF" matrix -q "$k1" nonexistent 2>err.txt
is "$?" 1 "a missing kernel: error"

done_testing
