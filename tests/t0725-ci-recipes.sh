#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The GitLab and GitHub jobs of doc/ci.md, run as written: tests/ci-recipes.py
# reads the doc's yaml blocks and runs each job's commands in order, with
# bash, in a clone of a fixture kernel git tree (tests/fixtures/ci-kernel:
# kbuild's targets on the fixture kernel), doing the forge's part itself
# (checkout, caches, artifacts, SARIF upload); the forge's API (curl to
# GitLab, gh) are stubs here that serve the baseline artifact and record
# the posted reports. kabi-diff is built from a repository of this tree's
# files, by the jobs' own commands, once: the second forge's jobs find it
# in the cache. Events: a push to master (the baseline), a merge request
# that breaks the ABI (the gate fails, the report is posted, SARIF is
# uploaded), one that does not (the gate passes). The breaking one changes
# 150 headers too: its review is cut to fit a comment, and the whole
# report is the job's artifact, which the note names and links.
. "$KD_SRCDIR/lib.sh"

top=$KD_SRCDIR/..
py=
for p in /usr/bin/python3 python3; do
	"$p" -c 'import yaml' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ]
ok $? "python3 with yaml (python3-yaml, which make deps installs)" || done_testing
git -C "$top" rev-parse --git-dir >/dev/null 2>&1 || { skip "the source tree is not a git checkout"; done_testing; }

GIT_CONFIG_NOSYSTEM=1 HOME=$PWD/home XDG_CACHE_HOME=$PWD/home/.cache KD_FORGE=$PWD/forge
GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
export GIT_CONFIG_NOSYSTEM HOME XDG_CACHE_HOME KD_FORGE GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL \
	GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
mkdir -p home forge stubs

# The forge's API and the runner's root: stubs.
cat >stubs/curl <<'EOF'
#!/bin/sh
# GitLab's API for the jobs: an artifact of a ref's latest job, a note.
out= data= post= token= url=
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift 2 ;;
	-H) case $2 in "JOB-TOKEN: "?*|"PRIVATE-TOKEN: "?*) token=1 ;; esac; shift 2 ;;
	-X) [ "$2" = POST ] && post=1; shift 2 ;;
	--data) data=$2; shift 2 ;;
	-*) shift ;;
	*) url=$1; shift ;;
	esac
done
[ -n "$token" ] || exit 22
case $url in
https://gitlab.invalid/api/v4/projects/1/jobs/artifacts/*/raw/*\?job=*)
	p=${url#*/jobs/artifacts/} && ref=${p%%/raw/*} && rest=${p#*/raw/}
	src=$KD_FORGE/artifacts/$ref/${rest#*\?job=}/${rest%%\?job=*}
	[ -f "$src" ] && cp "$src" "$out" || exit 22 ;;
https://gitlab.invalid/api/v4/projects/1/merge_requests/7/notes)
	[ -n "$post" ] && [ "$data" = @- ] || exit 2
	mkdir -p "$KD_FORGE/notes" && cat >"$KD_FORGE/notes/gitlab-$(ls "$KD_FORGE/notes" | wc -l).json" ;;
*) exit 6 ;;
esac
EOF
cat >stubs/gh <<'EOF'
#!/bin/sh
# gh pr comment N --body-file FILE, with the job's token.
[ -n "${GH_TOKEN:-}" ] && [ "$1 $2 $4" = "pr comment --body-file" ] || exit 2
mkdir -p "$KD_FORGE/notes" && cp "$5" "$KD_FORGE/notes/github-pr$3-$(ls "$KD_FORGE/notes" | wc -l).md"
EOF
printf '#!/bin/sh\necho "$*" >>"$KD_FORGE/apt.log"\n' >stubs/apt-get
printf '#!/bin/sh\nexec "$@"\n' >stubs/sudo
chmod +x stubs/*
PATH=$PWD/stubs:$PATH

# kabi-diff's repository: this tree's files, as they are now.
mkdir kabi-diff && (cd "$top" && git ls-files -z -co --exclude-standard) |
	tar --null -C "$top" -cf - -T - --ignore-failed-read 2>/dev/null | tar -C kabi-diff -xf - &&
	git -C kabi-diff init -q -b gate-test && git -C kabi-diff add -A && git -C kabi-diff commit -qm tree
ok $? "kabi-diff's repository, branch gate-test"

# kdc_headers DIR OLD|NEW: 150 headers, each a struct whose member grows
# and 12 constants whose values change from OLD to NEW (t0745's: a report
# of ~670 KB, 450 findings).
kdc_headers() {
	if [ "$2" = old ]; then t=__u32 add=0; else t=__u64 add=100; fi
	i=1
	while [ $i -le 150 ]; do
		{
			printf '#ifndef KDC%d\n#define KDC%d\n#include <linux/types.h>\n' $i $i
			printf 'struct kdc%d_args { %s a; __u32 b; };\n' $i $t
			j=1
			while [ $j -le 12 ]; do
				printf '#define KDC%d_FLAG_%d %d\n' $i $j $((j + add)); j=$((j + 1))
			done
			printf '#endif\n'
		} >"$1/kdc$i.h"
		i=$((i + 1))
	done
}

# The kernel: master has the fixture kernel and its headers; 'break'
# renumbers an ioctl, changes the 150 headers and builds the V2 kernel;
# 'fine' changes a comment.
fx=$KD_SRCDIR/fixtures
mkdir -p linux/kernel linux/include linux/arch/x86/include &&
	cp -R "$fx/ci-kernel/." linux/ && cp "$fx/kernel.c" linux/kernel/fx.c &&
	cp -R "$fx/kernel-uapi/uapi" linux/include/ && cp -R "$fx/kernel-uapi/arch/x86/include/uapi" linux/arch/x86/include/ &&
	kdc_headers linux/include/uapi/linux old &&
	echo '# reviewed user-space ABI changes (kabi-diff suppressions)' >linux/.kabi-suppressions &&
	git -C linux init -q -b master && git -C linux add -A && git -C linux commit -qm v1 &&
	git -C linux checkout -q -b break && sed -i '1i #define KABI_V2' linux/kernel/fx.c &&
	sed -i "s/_IO('F', 5)/_IO('F', 6)/" linux/include/uapi/linux/fxkernel.h &&
	kdc_headers linux/include/uapi/linux new &&
	git -C linux commit -qam 'break the ABI' &&
	git -C linux checkout -q -b fine master && echo '/* a comment */' >>linux/include/uapi/linux/fxkernel.h &&
	git -C linux commit -qam 'a comment' && git -C linux checkout -q master
ok $? "a kernel git tree: master, break, fine"

# run FORGE EVENT BRANCH: the jobs of FORGE's recipe for that event.
run() {
	"$py" "$KD_SRCDIR/ci-recipes.py" "$top/doc/ci.md" "$1" "$KD_FORGE" "$PWD/linux" "$2" "$3" \
		KABI_DIFF_GIT="file://$PWD/kabi-diff" KABI_DIFF_REF=gate-test KABI_BOT_TOKEN=bot-token \
		>"$1-$2-$3.log" 2>&1
	grep -E '^[a-z-]+: (success|failed)' "$1-$2-$3.log"
}
notes() { ls "$KD_FORGE/notes" 2>/dev/null | wc -l; }

is "$(run gitlab push master)" "kabi-baseline: success" "GitLab, push to master: kabi-baseline builds the baseline"
is "$(ls "$KD_FORGE/artifacts/master/kabi-baseline")" "kabi-baseline.kabi" "  kept as the job's artifact"
is "$(q "$KD_FORGE/artifacts/master/kabi-baseline/kabi-baseline.kabi" \
	"SELECT (SELECT count(*) FROM syscalls) > 0, (SELECT count(*) FROM ioctls)")" "1|5" \
	"  of the debug vmlinux and its headers"
ls "$KD_FORGE"/cache/kabi-diff-gate-test/.kabi-diff/bin/kabi-gate "$KD_FORGE"/cache/kabi-diff-gate-test/.kabi-diff/bin/kabi-diff >/dev/null
ok $? "  kabi-diff and kabi-gate built by make install, cached"
# Every library the Makefile links: a recipe lacking one fails on a clean runner.
lacks_dev() {
	for pkg in $(sed -n 's/^DEB_DEV_LIBS = //p' "$KD_SRCDIR/../Makefile"); do
		grep -qw -- "$pkg" "$KD_FORGE/apt.log" || printf ' %s' "$pkg"
	done
}
is "$(lacks_dev)" "" "  the build dependencies installed with apt-get: every -dev package the Makefile names"

is "$(run gitlab mr break)" "kabi-gate: failed (script: exit 1)" "GitLab, a merge request that breaks the ABI: the gate fails"
is "$(notes)" 1 "  one note posted"
jq -j .body "$KD_FORGE/notes/gitlab-0.json" >note.md &&
	cmp -s note.md "$KD_FORGE/artifacts/refs/merge-requests/7/kabi-gate/kabi-report.md"
ok $? "  the note is the Markdown report, kept as an artifact"
grep -q 'FXK_IOC_RESET' note.md
ok $? "  it lists the renumbered ioctl"
mr=$KD_FORGE/artifacts/refs/merge-requests/7/kabi-gate
test "$(wc -c <note.md)" -le 60000
ok $? "  cut to fit a comment ($(wc -c <note.md) bytes)"
is "$(grep -o 'the whole report: .*' note.md)" \
	"the whole report: [\`kabi-report-full.md\`](https://gitlab.invalid/k/linux/-/jobs/1/artifacts/file/kabi-report-full.md)." \
	"  its note names the whole report and links the job's artifact file"
# left NOTE: the findings the note says were left out, summed.
left() { grep -o 'left out.*' "$1" | grep -oE '[0-9]+ [a-z-]+ findings?' | awk '{ n += $1 } END { print n }'; }
is "$(grep -c '^#### ' "$mr/kabi-report-full.md")|$(( $(grep -c '^#### ' note.md) + $(left note.md) ))" "460|460" \
	"  kabi-report-full.md kept as an artifact: every finding (450 of the headers, 10 of the V2 kernel), as many as the note's shown and left out"
is "$(jq -r '.runs[0].invocations[0].exitCode' "$KD_FORGE/artifacts/refs/merge-requests/7/kabi-gate/gl-kabi.sarif")" 28 \
	"  SARIF kept as an artifact (breaking and source-level changes: 28)"
is "$(run gitlab mr fine)" "kabi-gate: success" "GitLab, a merge request that keeps the ABI: the gate passes"
is "$(notes)" 2 "  its report posted too"

: >"$KD_FORGE/apt.log"
is "$(run github push master)" "kabi: success" "GitHub, push to master: the baseline"
is "$(lacks_dev)" "" "  every -dev package the Makefile names installed with apt-get"
ls "$KD_FORGE"/cache/kabi-baseline-"$(git -C linux rev-parse master)"/kabi-baseline.kabi >/dev/null
ok $? "  cached under the commit"
lacks github-push-master.log 'LINK +kabi-diff' "  kabi-diff came from the cache: no second build"
is "$(run github mr break)" "kabi: failed (step 10: exit 1)" "GitHub, a pull request that breaks the ABI: the gate fails"
is "$(ls "$KD_FORGE/notes" | grep -c github-pr7)" 1 "  the report commented on the pull request"
grep -q 'FXK_IOC_RESET' "$KD_FORGE"/notes/github-pr7-*.md
ok $? "  it lists the renumbered ioctl"
is "$(grep -o 'the whole report: .*' "$KD_FORGE"/notes/github-pr7-*.md)" \
	"the whole report: [\`kabi-report-full.md\`](https://github.invalid/k/linux/actions/runs/1)." \
	"  cut to fit: its note names the whole report and links the run's page"
is "$(grep -c '^#### ' "$KD_FORGE/gh-artifacts/mr-break/kabi-report/kabi-report-full.md")" 460 \
	"  the run's artifact kabi-report: kabi-report-full.md, every finding"
is "$(jq -r '[.runs[0].results[] | select(.ruleId == "ioctl-cmd")][0].locations[0].physicalLocation.artifactLocation.uri' \
	"$KD_FORGE/uploads/mr-break.sarif")" "include/uapi/linux/fxkernel.h" "  SARIF uploaded, on the header line of the tree"
is "$(run github mr fine)" "kabi: success" "GitHub, a pull request that keeps the ABI: the gate passes"

# Without its base's baseline in the cache, a pull request fails, never passes.
rm -r "$KD_FORGE"/cache/kabi-baseline-*
is "$(run github mr fine)" "kabi: failed (actions/cache/restore@v4: exit 1)" "GitHub, no baseline for the base commit: fails"
done_testing
