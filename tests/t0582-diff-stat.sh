#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# diff --stat (abidiff's): the summary only, text or Markdown. On the
# sample pair (8 changes, 6 breaking): the report's header, summary table
# and coverage exactly as without --stat, no section, the count of changes
# not listed, the exit status unchanged; JSON and SARIF refuse it (their
# summary is .summary), as does --review.
. "$KD_SRCDIR/lib.sh"

old=$(fixture_db v1-dwarf5 -gdwarf-5) && new=$(fixture_db v2-dwarf5 -gdwarf-5 -DKABI_V2) ||
	{ ok 1 "fixture pair"; done_testing; }

"$KABI_DIFF" "$old" "$new" >full.txt
is "$?" 12 "without --stat: exit 12"
"$KABI_DIFF" "$old" "$new" --stat >stat.txt 2>err.txt
is "$?" 12 "--stat: exit 12, as without it"
n=$(grep -n '^Breaking changes' full.txt | cut -d: -f1)
is "$(head -n $((n - 2)) full.txt)" "$(head -n $((n - 2)) stat.txt)" \
	"  the header, the summary table and the coverage as the full report has them"
is "$(tail -n +$((n - 1)) stat.txt)" "
--stat: 8 changes not listed" "  then only the count of changes not listed"
grep -q '^total                6       0           2      0           0$' stat.txt
ok $? "  the summary: 6 breaking, 2 compatible"
is "$(cat err.txt)" "" "  nothing on stderr"

"$KABI_DIFF" "$old" "$new" --stat -f md >stat.md
is "$?" 12 "--stat -f md: exit 12"
grep -q '^| \*\*total\*\* | 6 | 0 | 2 | 0 | 0 |$' stat.md; ok $? "  the summary table"
lacks stat.md '^### ' "  no section"
grep -qxF '*Summary only (--stat): 8 changes not listed.*' stat.md; ok $? "  says what it did not list"

"$KABI_DIFF" "$old" "$old" --stat >same.txt
is "$?:$(grep -c 'not listed' same.txt)" "0:0" "a kernel against itself: exit 0, nothing left unlisted"

for f in json sarif; do
	"$KABI_DIFF" "$old" "$new" --stat -f $f >out 2>err.txt
	is "$?:$(head -1 err.txt)" "2:kabi-diff: diff: --stat is a text or Markdown summary (JSON has .summary)" \
		"--stat -f $f: usage error"
done
"$KABI_DIFF" "$old" "$new" --stat --review >out 2>err.txt
is "$?" 2 "--stat --review: usage error"

done_testing
