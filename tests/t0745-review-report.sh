#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A Markdown report for a review (issue 29, item 3): 6.1 -> 6.12's is
# ~1 MB where a GitHub comment stops at 65,536 characters, so the gate's
# --post failed. --review keeps it under 60,000: findings in the report's
# order (breaking first) while they fit, the rest left out and counted in
# a note under the summary. Here 150 headers, each with a struct whose
# member grows and 12 constants whose values change (~670 KB of report).
. "$KD_SRCDIR/lib.sh"

scratch review
header_tree old && header_tree new
i=1
while [ $i -le 150 ]; do
	for side in old new; do
		if [ $side = old ]; then t=__u32 add=0; else t=__u64 add=100; fi
		{
			printf '#ifndef KDC%d\n#define KDC%d\n#include <linux/types.h>\n' $i $i
			printf 'struct kdc%d_args { %s a; __u32 b; };\n' $i $t
			j=1
			while [ $j -le 12 ]; do
				printf '#define KDC%d_FLAG_%d %d\n' $i $j $((j + add)); j=$((j + 1))
			done
			printf '#endif\n'
		} >$side/linux/kdc$i.h
	done
	i=$((i + 1))
done

"$KABI_DIFF" old new -q -f md >full.md
is "$?|$(test "$(wc -c <full.md)" -gt 600000 && echo big)" "28|big" "the whole report: exit 28, over 600 KB"
"$KABI_DIFF" old new -q --review >review.md
is "$?" 28 "--review: the same exit status"
size=$(wc -c <review.md)
test "$size" -le 60000 && test "$size" -gt 50000
ok $? "  at most 60,000 bytes, and not much less (got $size)"
is "$(grep '^> \*\*Cut' review.md)" \
	"> **Cut to fit a review comment** (at most 60000 characters): left out 281 breaking findings (2022 changes), 150 source-level findings (150 changes); the whole report: the same command without \`--review\`." \
	"  a note saying what was left out, per verdict"
# The note sits under the summary (before the first section).
is "$(grep -n -e '^> \*\*Cut' -e '^### ' review.md | cut -d: -f2- | cut -c1-12 | tr '\n' '|')" \
	"> **Cut to f|### Breaking|" "  under the summary, before the breaking section (the only one shown)"
# Shown: the full report's first findings, whole.
grep '^#### ' review.md >shown.txt
grep '^#### ' full.md | head -n "$(wc -l <shown.txt)" >first.txt
same_rows first.txt shown.txt 5 "  the findings shown are the whole report's first ones"
is "$(grep -c '^| `constant.value`' review.md)|$(wc -l <shown.txt)" "228|19" \
	"  each whole: 19 header findings of 12 constants each"
is "$(grep -c '^\*281 of these findings left out: see the note under the summary.\*$' review.md)" 1 \
	"  the breaking section says how many of its findings were left out"
# Everything is closed: as many <details> as </details>.
is "$(grep -c '<details>' review.md)" "$(grep -c '</details>' review.md)" "  every <details> closed"

# --full-report: the rest in the same run, as a file a CI job keeps (an
# artifact the comment links to): the whole report, uncut, and the note
# names it.
"$KABI_DIFF" old new -q --review -o cut.md --full-report whole.md
is "$?" 28 "--review --full-report FILE: the same exit status"
size=$(wc -c <cut.md)
test "$size" -le 60000 && test "$size" -gt 50000
ok $? "  the review still at most 60,000 bytes (got $size)"
cmp -s whole.md full.md
ok $? "  FILE is the whole Markdown report, byte for byte"
is "$(grep -c '^#### ' whole.md)|$(grep -c '^| `constant.value`' whole.md)" "450|1800" \
	"  every finding in it: 450 (19 shown + 281 + 150 left out), every constant of 150 headers"
is "$(grep '^> \*\*Cut' cut.md)" \
	"> **Cut to fit a review comment** (at most 60000 characters): left out 281 breaking findings (2022 changes), 150 source-level findings (150 changes); the whole report: \`whole.md\`." \
	"  the note names the file"
grep -v '^> \*\*Cut' cut.md >cut-body.md && grep -v '^> \*\*Cut' review.md >review-body.md
cmp -s cut-body.md review-body.md
ok $? "  the review is --review's, but for the note"
"$KABI_DIFF" old new -q --review -o cut2.md --full-report 'whole (2).md' \
	--full-report-url 'https://ci.example/-/jobs/7/artifacts/file/whole (2).md'
is "$?|$(grep -o 'the whole report: .*' cut2.md)" \
	"28|the whole report: [\`whole (2).md\`](https://ci.example/-/jobs/7/artifacts/file/whole%20%282%29.md)." \
	"--full-report-url: the note links the file, the URL percent-encoded where it would end the link"
# What was left out is counted against this file: nothing cut, no note.
"$KABI_DIFF" old new -q --review --only breaking -o cut3.md --full-report whole3.md
"$KABI_DIFF" old new -q -f md --only breaking -o only.md
cmp -s whole3.md only.md
ok $? "  with --only breaking, FILE is the whole report of the same filter"
# Usage errors: one line, exit 2, nothing written.
rm -f err-out.md
for args in "--full-report err-out.md|diff: --full-report goes with --review (without it, -o writes the whole report)" \
	"--review --full-report-url https://x|diff: --full-report-url goes with --full-report" \
	"--review --full-report err-out.md --full-report-url javascript:alert(1)|diff: --full-report-url javascript:alert(1): not an http:// or https:// URL" \
	"--review -o err-out.md --full-report err-out.md|diff: --full-report err-out.md: also the -o file" \
	"--review --full-report -|diff: --full-report takes a file name"; do
	# shellcheck disable=SC2086
	"$KABI_DIFF" old new -q ${args%%|*} >out.txt 2>err.txt
	is "$?|$(head -1 err.txt)|$(test -e err-out.md && echo written)" "2|kabi-diff: ${args#*|}|" \
		"usage error: ${args%%|*}"
done
# One file under two names: refused before any is written.
: >same.md
"$KABI_DIFF" old new -q --review -o same.md --full-report ./same.md >out.txt 2>err.txt
is "$?|$(head -1 err.txt)|$(wc -c <same.md)" "2|kabi-diff: diff: --full-report ./same.md: also the -o file|0" \
	"-o FILE --full-report ./FILE: a usage error, FILE untouched"
# The whole report cannot be written: an error naming it, exit 1, and no
# review written that would name a file that is not there.
"$KABI_DIFF" old new -q --review -o cut4.md --full-report nodir/whole.md >out.txt 2>err.txt
is "$?|$(cat err.txt)|$(test -e cut4.md && echo written)" \
	"1|kabi-diff: nodir/whole.md: cannot create: No such file or directory|" \
	"--full-report in a missing directory: exit 1, one line naming it, no review"

# A report that fits is the same with or without --review.
header_tree small-old && header_tree small-new
cp old/linux/kdc1.h small-old/linux/ && cp new/linux/kdc1.h small-new/linux/
"$KABI_DIFF" small-old small-new -q -f md >small.md
"$KABI_DIFF" small-old small-new -q --review >small-review.md
cmp -s small.md small-review.md
ok $? "a report that fits: --review changes nothing"
"$KABI_DIFF" small-old small-new -q --review -f json >out.txt 2>err.txt
is "$?|$(head -1 err.txt)" "2|kabi-diff: diff: --review is Markdown (-f md)" "--review -f json: usage error"
"$KABI_DIFF" small-old small-new -q --review -f md >/dev/null 2>&1
is "$?" 28 "  --review -f md: fine"

# kabi-gate posts --review's report, with --only breaking passed on.
gate=$KD_SRCDIR/../contrib/ci/kabi-gate
"$KABI_DIFF" extract -q --uapi old -o base.kabi
sh "$gate" check base.kabi new -r gate.md --only breaking --post 'wc -c <"$1" >posted.txt' 2>gate.err
is "$?|$(tail -1 gate.err)" "1|kabi-gate: breaking changes to the user-space ABI (see gate.md)" \
	"kabi-gate check: breaking, exit 1"
test "$(cat posted.txt)" -le 60000
ok $? "  the report it posts fits a comment ($(cat posted.txt) bytes)"
is "$(grep -c -e '^### Source' -e 'Source-level changes (' gate.md)" 0 "  --only breaking: no source-level section"
grep -q '^> \*\*Cut to fit a review comment\*\*' gate.md
ok $? "  and the note on what was left out"
is "$(grep -o 'the whole report: .*' gate.md)" "the whole report: \`gate-full.md\`." \
	"  naming the whole report, written beside it (no forge: no link)"
is "$(grep -c '^#### ' gate-full.md)|$(grep -c '^#### ' only.md)" "300|300" \
	"  which has every breaking finding"
# In a forge's job the gate links the artifact: the file of the GitLab
# job's artifacts, the GitHub run's page.
mkdir -p proj/out
(cd proj && CI_JOB_URL=https://gitlab.example/g/linux/-/jobs/42 CI_PROJECT_DIR=$PWD \
	sh "$gate" check ../base.kabi ../new -r out/gl.md --only breaking >/dev/null 2>&1)
is "$?|$(grep -o 'the whole report: .*' proj/out/gl.md)" \
	"1|the whole report: [\`out/gl-full.md\`](https://gitlab.example/g/linux/-/jobs/42/artifacts/file/out/gl-full.md)." \
	"GitLab (\$CI_JOB_URL): the note links the job's artifact, its path in the project"
(cd proj/out && CI_JOB_URL=https://gitlab.example/g/linux/-/jobs/42 CI_PROJECT_DIR=$PWD/.. \
	sh "$gate" check ../../base.kabi ../../new -r gl2.md --only breaking >/dev/null 2>&1)
is "$?|$(grep -o 'the whole report: .*' proj/out/gl2.md)" \
	"1|the whole report: [\`gl2-full.md\`](https://gitlab.example/g/linux/-/jobs/42/artifacts/file/out/gl2-full.md)." \
	"  from a subdirectory: the path from the project's top"
CI_JOB_URL=https://gitlab.example/g/linux/-/jobs/42 CI_PROJECT_DIR=$PWD/proj \
	sh "$gate" check base.kabi new -r gl3.md --only breaking >/dev/null 2>&1
is "$?|$(grep -o 'the whole report: .*' gl3.md)" "1|the whole report: \`gl3-full.md\`." \
	"  outside the project: no artifact path, no link"
GITHUB_SERVER_URL=https://github.com GITHUB_REPOSITORY=o/linux GITHUB_RUN_ID=99 \
	sh "$gate" check base.kabi new -r gh.md --only breaking >/dev/null 2>&1
is "$?|$(grep -o 'the whole report: .*' gh.md)" \
	"1|the whole report: [\`gh-full.md\`](https://github.com/o/linux/actions/runs/99)." \
	"GitHub (\$GITHUB_SERVER_URL/\$GITHUB_REPOSITORY, \$GITHUB_RUN_ID): the run's page"
GITHUB_SERVER_URL=https://github.com GITHUB_REPOSITORY=o/linux GITHUB_RUN_ID=99 \
	sh "$gate" check base.kabi new -r gh2.md --only breaking --full-report-url https://x.example/r >/dev/null 2>&1
is "$?|$(grep -o 'the whole report: .*' gh2.md)" \
	"1|the whole report: [\`gh2-full.md\`](https://x.example/r)." "  --full-report-url: that one"

done_testing
