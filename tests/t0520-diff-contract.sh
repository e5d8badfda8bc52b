#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# diff with a contract: the fixture pair judged by tests/fixtures/check/
# clean.kabispec (open_how extensible, fx_node's padding zero) turns the
# "potentially breaking" tail growth and padding reuse into compatible
# verdicts with their rule ids, and the report names the contract; the
# default contract comes from $KABI_DIFF_SPEC, --no-spec disables it; the
# new kernel's stored contract comes before the default; two
# contract versions (contract-v1/-v2.kabispec) give exact errno and
# flag-set changes.
. "$KD_SRCDIR/lib.sh"

fx=$KD_SRCDIR/fixtures/check
old=$(fixture_db v1-dwarf5 -gdwarf-5) && new=$(fixture_db v2-dwarf5 -gdwarf-5 -DKABI_V2) ||
	{ ok 1 "fixture pair"; done_testing; }
mkdir clean v1 v2 && cp "$fx/clean.kabispec" clean/ && cp "$fx/contract-v1.kabispec" v1/ &&
	cp "$fx/contract-v2.kabispec" v2/
hash=$("$KABI_DIFF" spec lint clean | sed 's/.*spec hash //')
pick='.changes[] | select(.subject | test("open_how|fx_node")) | "\(.rule) \(.verdict) \(.subject)"'

"$KABI_DIFF" diff "$old" "$new" -f json >none.json
is "$(jq -r "$pick" none.json)" "padding-reuse-uncontracted breaking struct fx_node.reserved_new
tail-growth-uncontracted breaking struct open_how
tail-growth-uncontracted breaking struct open_how.newfield" "no contract: potentially breaking"
is "$(jq -c '[.contract, .contract_source]' none.json)" '[false,null]' "  and the report says none"

"$KABI_DIFF" diff "$old" "$new" --spec clean -f json >with.json
is "$?" 12 "--spec: other breaking changes remain (exit 12)"
is "$(jq -r "$pick" with.json)" "padding-reuse compatible struct fx_node.reserved_new
tail-growth-extensible compatible struct open_how
tail-growth-extensible compatible struct open_how.newfield" "--spec: compatible, with the contract's rules"
is "$(jq -c '[.contract, .contract_source]' with.json)" "[true,\"clean (1 files, spec hash $hash)\"]" \
	"  JSON names the contract"
is "$(jq '.summary.total.breaking' with.json)" "$(jq '.summary.total.breaking - 3' none.json)" \
	"  three breaking verdicts fewer, nothing else"
"$KABI_DIFF" diff "$old" "$new" --spec clean >with.txt
is "$(grep "^contract: " with.txt)" "contract: clean (1 files, spec hash $hash); verdicts follow diff/RULES.md with the contract's facts" \
	"  text names the contract"

KABI_DIFF_SPEC=clean "$KABI_DIFF" diff "$old" "$new" >def.txt
is "$(grep "^contract: " def.txt)" "contract: clean (1 files, spec hash $hash) (installed); verdicts follow diff/RULES.md with the contract's facts" \
	"the default contract (\$KABI_DIFF_SPEC), marked installed"
KABI_DIFF_SPEC=clean "$KABI_DIFF" diff "$old" "$new" --no-spec -f json >nospec.json
is "$(jq -c .contract nospec.json)" false "--no-spec: no contract"

"$KABI_DIFF" diff "$old" "$old" --old-spec v1 --new-spec v2 -f json >sp.json
is "$?" 12 "--old-spec/--new-spec: an errno and a value removed break (exit 12)"
is "$(jq -r '.changes[] | "\(.kind) \(.rule) \(.verdict) \(.subject): \(.old // "-") -> \(.new // "-")"' sp.json)" \
"ioctl.errno.removed errno-removed breaking FXK_IOC_HOW EINVAL: the flags are unknown -> -
set.value.removed set-value-removed breaking fxk_flags.FXK_OLD_BIT: = 1024 -> -
syscall.errno.removed errno-removed breaking openat2 EFAULT: how is outside the accessible address space -> -
syscall.errno.removed errno-removed breaking openat2 EINVAL: how.flags has an unknown bit -> -
set.value.added set-value-added compatible fxk_flags.FXK_ARCH_FLAG: - -> FXK_ARCH_FLAG
syscall.errno.added errno-added compatible openat2 EAGAIN: - -> the lookup could not be done from the caches alone
syscall.errno.added errno-added compatible openat2 EINVAL when how.flags & ~fxk_flags: - -> how.flags has a bit outside fxk_flags" \
	"  exact changes: errnos by name and condition, set values"
is "$(jq -r '[.changes[] | .evidence.kind] | unique | join(",")' sp.json)" contract \
	"  each decided by the contract"
is "$(jq -r '.changes[] | select(.kind == "syscall.errno.added") | .impact[0].root' sp.json | sort -u)" "openat2" \
	"  errno changes reach their syscall"
is "$(jq -r .contract_source sp.json | sed 's/ (.*//')" "v2" "  the new contract judges the verdicts"
"$KABI_DIFF" diff "$old" "$old" --old-spec v1 --new-spec v1 >/dev/null
is "$?" 0 "the same contract twice: no change"
"$KABI_DIFF" diff "$old" "$old" --old-spec v1 >/dev/null 2>err.txt
is "$?" 2 "--old-spec without --new-spec: a usage error, exit 2"
is "$(head -n 1 err.txt)" "kabi-diff: diff: --old-spec and --new-spec go together" "  says so"
"$KABI_DIFF" diff "$old" "$new" --spec /nonexistent >/dev/null 2>&1
is "$?" 1 "--spec of a missing directory: exit 1"

# One policy for check, diff and probe (cli/contract.h): --no-spec, --spec
# DIR, the contract stored in the new kernel's .kabi, the default.
cp "$new" stored.kabi && cp "$old" ostored.kabi &&
	"$KABI_DIFF" spec load stored.kabi clean >/dev/null && "$KABI_DIFF" spec load ostored.kabi clean >/dev/null
KABI_DIFF_SPEC=v1 "$KABI_DIFF" diff "$old" stored.kabi >st.txt
is "$?" 12 "the new kernel's stored contract judges (exit 12)"
is "$(grep "^contract: " st.txt)" "contract: the contract stored in stored.kabi (1 files, spec hash $hash); verdicts follow diff/RULES.md with the contract's facts" \
	"  before the default (\$KABI_DIFF_SPEC), and the report names it"
KABI_DIFF_SPEC=v1 "$KABI_DIFF" diff "$old" stored.kabi -f json >st.json
is "$(jq -r "$pick" st.json)" "$(jq -r "$pick" with.json)" "  the same verdicts as with --spec clean"
"$KABI_DIFF" diff ostored.kabi "$new" -f json >ost.json
is "$(jq -c .contract ost.json)" false "the old kernel's stored contract is not asked"
"$KABI_DIFF" diff "$old" stored.kabi --no-spec -f json >stn.json
is "$(jq -c .contract stn.json)" false "  --no-spec wins over the stored one"
"$KABI_DIFF" diff "$old" stored.kabi --spec v1 -f json >sts.json
is "$(jq -r .contract_source sts.json | sed 's/ (.*//')" v1 "  --spec wins over the stored one"
done_testing
