#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A header that compiled on its own in the old tree and does not in the
# new one (issue 25, R42) took its types out of the comparison without a
# word: struct b_t growing from 4 to 16 bytes behind a new
# `#include <linux/doesnotexist.h>` was "No changes", exit 0. Its failure
# is now a change (header-compile-failed, source: user space can no
# longer include it) naming the compiler's first error, and its old types
# that no other new header declares are listed as not compared, in the
# text report and in JSON's coverage. A header failing on both sides, or
# one the old tree did not have, is no change; a type moved out of the
# failing header to one that compiles is compared as usual.
. "$KD_SRCDIR/lib.sh"

scratch header-stops-compiling
XDG_CACHE_HOME=$PWD/cache
export XDG_CACHE_HOME
for t in old new; do header_tree $t; done
printf '#define B_X 1\nstruct b_t { int x; };\nenum b_e { B_A = 1 };\nstruct b_moved { int m; };\n' >old/linux/pqb.h
printf '#include <linux/doesnotexist.h>\n#define B_X 1\nstruct b_t { long x; long y; };\nenum b_e { B_A = 1 };\n' \
	>new/linux/pqb.h
printf 'struct b_moved { int m; };\n' >new/linux/pqe.h
# Only constants, failing in the new tree: a change, no type to list.
printf '#define D_X 1\n' >old/linux/pqd.h
printf '#define D_X 1\n#error pqd is broken\n' >new/linux/pqd.h
# Failing on both sides, and new in the new tree and failing: no change.
for t in old new; do printf '#include <linux/missing.h>\n#define C_X 1\nstruct c_t { int c; };\n' >$t/linux/pqc.h; done
printf '#include <linux/missing.h>\n#define F_X 1\n' >new/linux/pqf.h
for t in old new; do "$KABI_DIFF" extract -q --uapi $t -o $t.kabi || ok 1 "extract $t"; done

"$KABI_DIFF" old.kabi new.kabi -q -f json >out.json
is "$?" 20 "linux/pqb.h and linux/pqd.h stop compiling: source-level, exit 20"
is "$(jq -r '.changes[] | select(.kind != "constant.added") | "\(.rule) \(.verdict) \(.kind) \(.subject) \(.old) -> \(.new): \(.note)"' out.json)" \
"header-compile-failed source header.compile linux/pqb.h compiles on its own -> does not compile on its own: linux/pqb.h:1:10: fatal error: linux/doesnotexist.h: No such file or directory
header-compile-failed source header.compile linux/pqd.h compiles on its own -> does not compile on its own: linux/pqd.h:2:2: error: #error pqd is broken" \
	"  each failure names the compiler's first error; b_moved, moved to linux/pqe.h as it was, no change"
is "$(jq -c '.coverage.headers_not_compared' out.json)" \
	'[{"header":"linux/pqb.h","why":"the new linux/pqb.h does not compile on its own: linux/pqb.h:1:10: fatal error: linux/doesnotexist.h: No such file or directory","types":["enum b_e","struct b_t"]},{"header":"linux/pqd.h","why":"the new linux/pqd.h does not compile on its own: linux/pqd.h:2:2: error: #error pqd is broken","types":[]}]' \
	"  JSON coverage: the old types not compared, per header"
is "$(jq -r '[.changes[] | select(.kind != "constant.added" and (.subject | test("b_t|b_e|b_moved|pqc|C_X")))] | length' out.json)" 0 \
	"  b_t and b_e neither compared nor removed, b_moved compared; pqc.h (failing on both sides) and pqf.h (new) no change"
"$KABI_DIFF" old.kabi new.kabi -q >out.txt
is "$(grep '^not compared: linux/' out.txt)" \
"not compared: linux/pqb.h: enum b_e, struct b_t (the new linux/pqb.h does not compile on its own: linux/pqb.h:1:10: fatal error: linux/doesnotexist.h: No such file or directory)
not compared: linux/pqd.h (the new linux/pqd.h does not compile on its own: linux/pqd.h:2:2: error: #error pqd is broken)" \
	"  text: the same, below the summary"
"$KABI_DIFF" old.kabi new.kabi -q -f md >out.md
grep -q '^<br>\*\*Not compared\*\*: `linux/pqb.h`: `enum b_e`, `struct b_t` (the new linux/pqb\.h' out.md
ok $? "  Markdown: the same"
"$KABI_DIFF" old.kabi new.kabi -q -f sarif >out.sarif
is "$(jq -r '[.runs[0].results[] | select(.ruleId == "header-compile-failed") | .locations[0].logicalLocations[0] | "\(.name) \(.kind)"] | join(",")' out.sarif)|$(jq -c '[.runs[0].properties.coverage.headers_not_compared[].types]' out.sarif)" \
	'linux/pqb.h module,linux/pqd.h module|[["enum b_e","struct b_t"],[]]' \
	"  SARIF: a result per header (a module, not a member), the coverage in the run's properties"

"$KABI_DIFF" new.kabi old.kabi -q -f json >back.json
is "$?|$(jq -c '[.changes[] | .rule] | unique' back.json)|$(jq -r '.coverage.headers_not_compared // "absent"' back.json)" \
	'20|["constant-removed"]|absent' \
	"the other direction: the headers compile again, no failure and nothing uncompared (pqf.h's F_X removed)"
done_testing
