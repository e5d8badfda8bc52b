#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# diff on the sample kernel pair (tests/fixtures/kernel.c, plain and
# -DKABI_V2), DWARF 5 and 4: the exact JSON report (golden, paths and
# build-ids aside), the text report's groups and impact paths, exit status
# bits, the headline form `kabi-diff OLD NEW`, vmlinux inputs through the
# build-id cache, --only breaking, -o (atomic), suppressions and usage errors.
# After an intended change to tests/fixtures/kernel.c, review the report and
# rewrite the golden file with: KD_REGEN_GOLDEN=1 tests/run t0500
. "$KD_SRCDIR/lib.sh"

golden=$KD_SRCDIR/fixtures/diff/v1-v2.json
norm() { jq -S 'del(.old.path, .new.path, .old.kabi, .new.kabi, .old.build_id, .new.build_id)'; }

for dw in 5 4; do
	old=$(fixture_db v1-dwarf$dw -gdwarf-$dw) && new=$(fixture_db v2-dwarf$dw -gdwarf-$dw -DKABI_V2) ||
		{ ok 1 "DWARF $dw: fixture pair"; continue; }
	"$KABI_DIFF" diff "$old" "$new" --format json >out.json 2>err.txt
	is "$?" 12 "DWARF $dw: breaking changes: exit 12 (4|8)"
	[ -n "${KD_REGEN_GOLDEN:-}" ] && [ "$dw" = 5 ] && norm <out.json >"$golden"
	is "$(norm <out.json)" "$(norm <"$golden")" "DWARF $dw: JSON report equals the golden file"
done

old=$KD_TMPDIR/fixtures/v1-dwarf5.kabi new=$KD_TMPDIR/fixtures/v2-dwarf5.kabi
"$KABI_DIFF" "$old" "$new" >out.txt 2>err.txt
is "$?" 12 "headline form 'kabi-diff OLD NEW': exit 12"
is "$(sed -n '5,11p' out.txt)" "$(printf '%-12s %9s %7s %11s %6s %11s\n' '' breaking source compatible info suppressed
	jq -r '["syscalls", "types", "constants", "ioctls", "vdso", "total"][] as $k | .summary[$k] |
		"\($k) \(.breaking) \(.source) \(.compatible) \(.info) \(.suppressed)"' "$golden" |
	while read -r k b src c i s; do
		if [ "$b" = null ]; then printf '%-12s %9s\n' "$k" "not compared"
		else printf '%-12s %9s %7s %11s %6s %11s\n' "$k" "$b" "$src" "$c" "$i" "$s"; fi
	done)" \
	"text: summary table matches the JSON summary (categories neither side read: not compared, null in JSON)"
is "$(jq -c '[.summary.constants, .summary.ioctls, .coverage.not_compared.constants]' "$golden")" \
	'[null,null,"neither side was read with UAPI headers"]' \
	"  the fixture kernels read without headers: constants and ioctls not compared, no zeros"
grep -q '^  struct open_how (1 type.size, 1 type.member.added)$' out.txt
ok $? "text: breaking changes grouped by cause, with the kinds of the finding"
# Said once for a run of a finding's changes with the same rule and evidence.
is "$(grep -c '^        evidence (' out.txt)" "$(jq '[.changes[] | select(.verdict == "breaking") |
	[.cause, .rule, .evidence.kind, .evidence.text]] | reduce .[] as $c ({n: 0, p: null};
	{n: (if $c == .p then .n else .n + 1 end), p: $c}) | .n' "$golden")" \
	"text: every breaking change names its evidence (once for a run with the same rule and evidence)"
grep -q '^        via fxstat -> st -> struct fx_stat -> bits -> struct fx_bits$' out.txt
ok $? "text: impact path through a nested struct"
grep -q '^        potentially breaking: no contract says the struct is extensible' out.txt
ok $? "text: tail growth without a contract is potentially breaking"
is "$(cat err.txt)" "" "nothing on stderr"

"$KABI_DIFF" diff "$old" "$old" >same.txt 2>&1
is "$?" 0 "a kernel against itself: exit 0"
grep -q '^No changes\.$' same.txt; ok $? "  and says so"

"$KABI_DIFF" diff "$old" "$new" --only breaking >only.txt 2>err.txt
is "$?" 12 "--only breaking: exit status unchanged (12)"
grep -q '^  struct open_how (1 type.size, 1 type.member.added)$' only.txt
ok $? "--only breaking: the breaking changes are listed"
lacks only.txt '^Compatible|^Info|^Source' "--only breaking: no other section"
grep -q "^--only breaking: $(jq '.summary.total.compatible + .summary.total.info + .summary.total.source' "$golden") other changes not listed" only.txt
ok $? "--only breaking: says how many changes it left out"
is "$(cat err.txt)" "" "--only breaking: nothing on stderr"

rm -f report.md
"$KABI_DIFF" diff "$old" "$new" -f md -o report.md >stdout.txt
is "$?" 12 "-o: exit status unchanged"
is "$(wc -c <stdout.txt)" 0 "-o: nothing on stdout"
grep -q '^#### `struct open_how` (1 type.size, 1 type.member.added)$' report.md
ok $? "-o: the Markdown report is written"
is "$(ls report.md.tmp.* 2>/dev/null | wc -l)" 0 "-o: no temporary file left"
"$KABI_DIFF" diff "$old" "$new" -o /nonexistent/dir/r.txt 2>err.txt
is "$?" 1 "-o into a missing directory: exit 1"

cat >ok.supp <<'SUPP'
# reviewed in the fixture's design
tail-growth-uncontracted struct\ open_how  open_how is extensible (copy_struct_from_user)
syscall-renumbered openat2                  the fixture moved it on purpose
SUPP
"$KABI_DIFF" diff "$old" "$new" -s ok.supp -f json >supp.json
is "$?" 12 "suppressions: other breaking changes still count"
is "$(jq -c '.summary.total.suppressed' supp.json)" 3 "suppressions: three changes counted as suppressed"
is "$(jq -c '.summary.total.breaking' supp.json)" "$(jq '.summary.total.breaking - 3' "$golden")" \
	"  and no longer counted as breaking"
is "$(jq -r '[.changes[] | select(.suppressed != null) | .rule] | unique | join(",")' supp.json)" \
	"syscall-renumbered,tail-growth-uncontracted" "suppressed changes listed with their rules"
# An entry that matches nothing (a stale or mistyped one) is said, in every
# format and on stderr, and changes nothing else.
cat >stale.supp <<'SUPP'
syscall-renumbered openat2   the fixture moved it on purpose
member-moved struct\ fx_gone  the struct was removed long ago
ioctl-*      NO_SUCH_IOCTL   typo
SUPP
"$KABI_DIFF" diff "$old" "$new" -s stale.supp -f json >stale.json 2>stale.err
is "$?" 12 "a suppression matching nothing: exit status unchanged"
is "$(cat stale.err)" "kabi-diff: warning: stale.supp:2: member-moved struct\\ fx_gone: this suppression matches no change
kabi-diff: warning: stale.supp:3: ioctl-* NO_SUCH_IOCTL: this suppression matches no change" \
	"  each entry matching nothing is a warning naming FILE:LINE"
is "$(jq -c '[.unmatched_suppressions, .summary.total.suppressed]' stale.json)" \
	'[["stale.supp:2: member-moved struct\\ fx_gone","stale.supp:3: ioctl-* NO_SUCH_IOCTL"],1]' \
	"  JSON: unmatched_suppressions; the matching entry still suppresses"
"$KABI_DIFF" diff "$old" "$new" -s stale.supp -q >stale.txt 2>stale.err
is "$(grep -c 'this suppression matches no change' stale.txt) $(wc -c <stale.err)" "2 0" \
	"  text report: the warnings are in the report too (-q: none on stderr)"
"$KABI_DIFF" diff "$old" "$new" -s stale.supp -q -f md | grep -c '^> \*\*Warning\*\*: `stale.supp:[23]: ' >stale.md.count
is "$(cat stale.md.count)" 2 "  Markdown: a warning line each"
"$KABI_DIFF" diff "$old" "$new" -s stale.supp -q -f sarif |
	jq -r '.runs[0].invocations[0].toolExecutionNotifications[] | "\(.level) \(.message.text)"' >stale.sarif.txt
is "$(cat stale.sarif.txt)" "warning stale.supp:2: member-moved struct\\ fx_gone: this suppression matches no change
warning stale.supp:3: ioctl-* NO_SUCH_IOCTL: this suppression matches no change" \
	"  SARIF: toolExecutionNotifications"
"$KABI_DIFF" diff "$old" "$new" -s ok.supp -f json 2>ok.err | jq -c .unmatched_suppressions >ok.unmatched
is "$(cat ok.unmatched; cat ok.err)" "[]" "  every entry matching: no warning, an empty list"
printf 'member-moved struct\\ fx_stat\n' >bad.supp
"$KABI_DIFF" diff "$old" "$new" -s bad.supp >/dev/null 2>err.txt
is "$?" 1 "a suppression without a reason: exit 1"
is "$(cat err.txt)" "kabi-diff: bad.supp:1: expected 'RULE NAME REASON...' (the reason is mandatory)" \
	"  FILE:LINE error"

"$KABI_DIFF" diff "$old" >/dev/null 2>&1; is "$?" 2 "one input: usage error"
"$KABI_DIFF" diff "$old" "$new" --format xml >/dev/null 2>&1; is "$?" 2 "unknown format: usage error"
"$KABI_DIFF" diff "$old" /nonexistent >/dev/null 2>err.txt; is "$?" 1 "missing input: exit 1"

# vmlinux inputs: extracted once into the build-id cache, then reused.
k1=$(fixture_kernel v1-dwarf5 -gdwarf-5) && k2=$(fixture_kernel v2-dwarf5 -gdwarf-5 -DKABI_V2)
export XDG_CACHE_HOME=$PWD/cache
"$KABI_DIFF" "$k1" "$k2" -f json >v.json 2>err.txt
is "$?" 12 "two vmlinux images: exit 12"
is "$(norm <v.json | jq -c .changes)" "$(norm <"$golden" | jq -c .changes)" "  same changes as on the DBs"
is "$(ls cache/kabi-diff | grep -c '\.kabi$'):$(ls cache/kabi-diff | grep -c '^file-[0-9a-f]\{16\}\.ref$')" 2:2 \
	"  both cached by build-id, each vmlinux's digest remembered"
bid=$(q "$old" "SELECT value FROM meta WHERE key='build_id'")
is "$(ls cache/kabi-diff | grep -c "^$bid-[0-9a-f]\{32\}\.kabi\$")" 1 "  cache file named by the build-id and a key"
"$KABI_DIFF" "$k1" "$k2" -f json >v2.json 2>err2.txt
is "$?" 12 "second run: exit 12"
is "$(cat err2.txt)" "" "second run: no extraction (nothing on stderr)"
cmp -s v.json v2.json; ok $? "second run: same report"
"$KABI_DIFF" "$k1" "$KD_SRCDIR/fixtures/kernel.c" >/dev/null 2>err.txt
is "$?" 1 "a non-ELF input: exit 1"

done_testing
