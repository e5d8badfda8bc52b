#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The CI gate recipe of doc/ci.md, end to end on the fixture kernels laid
# out as two build trees (the target branch's: V1; a merge request's: V2
# kernel, V2 headers): contrib/ci/kabi-gate baseline extracts the target's
# build, check diffs the merge request's build against it with the
# project's suppressions, posts the Markdown report through the post
# command, writes SARIF, and fails exactly on unsuppressed breaking changes.
. "$KD_SRCDIR/lib.sh"

gate=$KD_SRCDIR/../contrib/ci/kabi-gate
export KABI_DIFF XDG_CACHE_HOME=$PWD/cache
k1=$(fixture_kernel v1-dwarf5 -gdwarf-5) && k2=$(fixture_kernel v2-dwarf5 -gdwarf-5 -DKABI_V2) ||
	{ ok 1 "fixture kernels"; done_testing; }
uapi=$KD_SRCDIR/fixtures/kernel-uapi

# build DIR VMLINUX UAPI: a kernel build tree (vmlinux, include/uapi, arch/x86/include/uapi).
build() {
	mkdir -p "$1/include" "$1/arch/x86/include" && cp "$2" "$1/vmlinux" &&
		cp -R "$3/uapi" "$1/include/uapi" && cp -R "$3/arch/x86/include/uapi" "$1/arch/x86/include/uapi" &&
		touch "$1/Makefile"
}
cp -R "$uapi" uapi-v2 && sed -i "s/_IO('F', 5)/_IO('F', 6)/" uapi-v2/uapi/linux/fxkernel.h
build target "$k1" "$uapi" && build mr "$k2" uapi-v2 && build mr-same "$k1" "$uapi"
ok $? "three build trees: target (V1), merge request (V2), an unchanged merge request"

"$gate" baseline target -o base.kabi >out.txt 2>err.txt
is "$?" 0 "baseline: exit 0"
is "$(cat out.txt)" "kabi-gate: baseline base.kabi (6.99.1-fixture: vmlinux, UAPI headers)" \
	"  names the baseline, its release and what it covers"
is "$(q base.kabi "SELECT (SELECT count(*) FROM ioctls), (SELECT count(*) FROM constants WHERE name LIKE 'FX%')")" \
	"5|6" "  the baseline holds the target's UAPI ioctls and constants"

# The post command gets the report's path as $1.
post='cp "$1" posted.md && echo posted >>post.log'
"$gate" check base.kabi mr --post "$post" --sarif mr.sarif >out.txt 2>err.txt
is "$?" 1 "check: breaking changes fail the gate (exit 1)"
is "$(cat err.txt)" "kabi-gate: breaking changes to the user-space ABI (see kabi-report.md)" "  and say so"
is "$(cat post.log)" "posted" "  the report was posted once"
cmp -s posted.md kabi-report.md
ok $? "  the posted report is the Markdown report"
"$KABI_DIFF" diff base.kabi mr -f md >want.md 2>/dev/null
is "$(cat posted.md)" "$(cat want.md)" "  the report is kabi-diff's Markdown for baseline vs build"
grep -q 'FXK_IOC_RESET' posted.md
ok $? "  it lists the ioctl whose number changed"
cmp -s kabi-report-full.md want.md
ok $? "  the whole report beside it, for the job's artifacts: kabi-report-full.md"
is "$(jq -r '.runs[0].invocations[0].exitCode' mr.sarif)" 12 "  SARIF written for the same diff"
is "$(jq -r '[.runs[0].results[] | select(.ruleId == "ioctl-cmd")][0].locations[0].physicalLocation.artifactLocation.uri' mr.sarif)" \
	"include/uapi/linux/fxkernel.h" "  with the ioctl's header as a source-tree path"

# The project's suppressions accept every break: the gate passes, the
# report still lists them as suppressed.
cat >suppressions <<'EOF'
# reviewed ABI changes of this merge request
* struct\ * fixture: layout changes reviewed
syscall-* * fixture: syscall table changes reviewed
ioctl-cmd FXK_IOC_RESET fixture: renumbered on purpose
ioctl-cmd FXK_IOC_HOW fixture: struct open_how grew, the command follows
constant-value FXK_HOW_SIZE fixture: sizeof(struct open_how) grew
EOF
"$gate" check base.kabi mr -s suppressions -r r2.md >out.txt 2>err.txt
is "$?" 0 "check with suppressions covering every break: exit 0"
is "$(cat err.txt)" "kabi-gate: no breaking change to the user-space ABI" "  and say so"
cmp -s out.txt r2.md
ok $? "  without --post the report is printed"
grep -q 'renumbered on purpose' r2.md
ok $? "  the report lists the suppressed change with its reason"
test -s r2-full.md && grep -q 'renumbered on purpose' r2-full.md
ok $? "  -r r2.md: the whole report is r2-full.md"
"$gate" check base.kabi mr -s suppressions -r 'r 2.md' --full-report 'whole *.md' >/dev/null 2>&1
is "$?|$(ls -- *whole*)" "0|whole *.md" "--full-report 'whole *.md': that file, one argument"
"$gate" check base.kabi mr -s suppressions -r nofull.md --no-full-report >/dev/null 2>&1
is "$?|$(ls -- nofull*)" "0|nofull.md" "--no-full-report: the review alone"
"$gate" check base.kabi mr --no-full-report --full-report-url https://x >/dev/null 2>err.txt
is "$?|$(head -1 err.txt)" "2|kabi-gate: check: --full-report-url goes with the full report" \
	"--no-full-report --full-report-url: usage error"

"$gate" check base.kabi mr-same -r r3.md >/dev/null 2>err.txt
is "$?" 0 "an unchanged build: exit 0"

# A contract directory whose name has a space and a glob character is
# handed to kabi-diff as one argument, never split or expanded.
mkdir "my spec *" && cp "$KD_SRCDIR"/../spec/contract/*.kabispec "my spec */"
"$gate" check base.kabi mr --spec "my spec *" -r r4.md >/dev/null 2>err.txt
is "$?" 1 "--spec 'my spec *': the diff runs (exit 1, breaking)"
is "$(cat err.txt)" "kabi-gate: breaking changes to the user-space ABI (see r4.md)" \
	"  no error from kabi-diff"
grep -q '(contract: my spec \\\* \\(' r4.md
ok $? "  the report names that contract"

# A build whose headers kabi-diff does not find (include/uapi without the
# arch's: headers_install not run, a partial checkout) compares no constant
# or ioctl: a breaking constant change in it would pass unseen. The gate
# fails with exit 3 unless told to accept the loss; a build that covers
# more than its baseline is no loss.
build mr-part "$k1" "$uapi" && rm -r mr-part/arch &&
	sed -i 's/1U << 3/1U << 4/' mr-part/include/uapi/linux/fxkernel.h
ok $? "a merge request whose arch headers are missing, with a breaking constant change"
"$gate" check base.kabi mr-part -r r5.md >out.txt 2>err.txt
is "$?" 3 "a build that covers less than the baseline: exit 3"
is "$(cat err.txt)" "kabi-gate: mr-part: covers less than the baseline base.kabi (no UAPI headers): not compared, see the report's 'Not compared'; --allow-coverage-loss accepts that" \
	"  names what is missing and the option"
grep -q 'Not compared.*constants (the new side was read without UAPI headers)' out.txt
ok $? "  the report is printed all the same, with what was not compared"
"$gate" check base.kabi mr-part -r r5.md --allow-coverage-loss >out.txt 2>err.txt
is "$?" 0 "--allow-coverage-loss: exit 0"
is "$(cat err.txt)" "kabi-gate: mr-part: covers less than the baseline base.kabi (no UAPI headers): allowed by --allow-coverage-loss
kabi-gate: no breaking change to the user-space ABI" "  saying what it allowed"
mkdir target-bare && cp "$k1" target-bare/vmlinux && "$gate" baseline target-bare -o bare.kabi >/dev/null &&
	"$gate" check bare.kabi mr-same -r r6.md >/dev/null 2>err.txt
is "$?" 0 "a build with headers against a baseline without: no loss, exit 0"
PATH=/nonexistent "$(command -v sh)" "$gate" check base.kabi mr-same -r r7.md >/dev/null 2>err.txt
is "$?:$(cat err.txt)" "3:kabi-gate: jq: not found (it reads the JSON report)" "without jq: exit 3, never a pass"

# No build: UAPI headers alone, as `kabi-diff OLD_HEADERS NEW_HEADERS`
# reads them. A kernel source tree that was not built is the baseline; a
# merge request's tree with a renumbered ioctl fails the gate.
for t in target mr mr-same; do
	mkdir "$t-src" && cp -R "$t/include" "$t/arch" "$t/Makefile" "$t-src/" || exit 1
done
"$gate" baseline target-src -o hdr.kabi >out.txt 2>err.txt
is "$?:$(cat out.txt)" "0:kabi-gate: baseline hdr.kabi (target-src: UAPI headers)" \
	"baseline of a source tree without vmlinux: its UAPI headers"
"$gate" check hdr.kabi mr-src -r h1.md >/dev/null 2>err.txt
is "$?:$(cat err.txt)" "1:kabi-gate: breaking changes to the user-space ABI (see h1.md)" \
	"check of a source tree against it: the renumbered ioctl fails the gate"
grep -q 'FXK_IOC_RESET' h1.md
ok $? "  the report lists it"
"$gate" check hdr.kabi mr-same-src -r h2.md >/dev/null 2>err.txt
is "$?" 0 "an unchanged source tree: exit 0"
"$gate" check base.kabi mr-same-src -r h3.md >/dev/null 2>err.txt
is "$?:$(cat err.txt)" "3:kabi-gate: mr-same-src: covers less than the baseline base.kabi (no vmlinux): not compared, see the report's 'Not compared'; --allow-coverage-loss accepts that" \
	"headers alone against a baseline with a vmlinux: coverage lost, exit 3"

# --git: the UAPI headers of two revisions, no build and no baseline.
GIT_CONFIG_NOSYSTEM=1 HOME=$PWD && export GIT_CONFIG_NOSYSTEM HOME
mkdir repo && cp -R target-src/include target-src/arch repo/ && git -C repo init -q &&
	git -C repo add -A && git -C repo -c user.name=t -c user.email=t@t commit -qm v1 &&
	cp mr-src/include/uapi/linux/fxkernel.h repo/include/uapi/linux/ &&
	git -C repo -c user.name=t -c user.email=t@t commit -qam v2
ok $? "a kernel git tree: v1, then v2 renumbers an ioctl"
"$gate" check --git -C repo HEAD~1..HEAD -r g1.md --sarif g1.sarif >/dev/null 2>err.txt
is "$?:$(cat err.txt)" "1:kabi-gate: breaking changes to the user-space ABI (see g1.md)" \
	"check --git -C REPO REV1..REV2: the renumbered ioctl fails the gate"
is "$(jq -r '[.runs[0].results[] | select(.ruleId == "ioctl-cmd")][0].locations[0].physicalLocation.artifactLocation.uri' g1.sarif)" \
	"include/uapi/linux/fxkernel.h" "  SARIF on the header of the tree"
(cd repo && "$gate" check --git HEAD~1 HEAD~1 -r ../g2.md) >/dev/null 2>err.txt
is "$?:$(cat err.txt)" "0:kabi-gate: no breaking change to the user-space ABI" \
	"check --git REV REV in the repository: exit 0"
"$gate" check --git -C repo HEAD~1..nosuchrev -r g3.md >/dev/null 2>err.txt
is "$?:$(tail -1 err.txt)" "3:kabi-gate: kabi-diff failed (exit 1)" "an unknown revision: exit 3"
"$gate" check -C repo base.kabi mr >/dev/null 2>&1
is "$?" 2 "-C without --git: usage error"

# Installed, kabi-gate runs the kabi-diff beside it (make install puts
# both in BINDIR), whatever PATH holds.
mkdir bin && cp "$gate" bin/kabi-gate && ln -s "$KABI_DIFF" bin/kabi-diff
(unset KABI_DIFF; PATH=/usr/bin:/bin bin/kabi-gate check base.kabi mr-same -r r8.md >/dev/null 2>err.txt)
is "$?:$(cat err.txt)" "0:kabi-gate: no breaking change to the user-space ABI" \
	"without KABI_DIFF: the kabi-diff installed beside it"

"$gate" check missing.kabi mr >/dev/null 2>err.txt
is "$?" 3 "no baseline: exit 3"
is "$(cat err.txt)" "kabi-gate: missing.kabi: no baseline (run 'kabi-gate baseline' on the target branch)" "  names it"
"$gate" check base.kabi mr --post 'exit 7' >/dev/null 2>err.txt
is "$?" 3 "a failing post command: exit 3, not a pass"
"$gate" check base.kabi >/dev/null 2>&1
is "$?" 2 "usage error: exit 2"
"$gate" --help >/dev/null 2>&1
is "$?" 0 "--help: exit 0"

done_testing
