#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabi-diff check on the fixture kernel (tests/fixtures/kernel.c with its
# UAPI tree tests/fixtures/kernel-uapi): a clean contract (exit 0), a
# drifting one with every rule of spec/check/CHECK.md (exact report, exit 4), the
# kernel without UAPI data, JSON, where the contract comes from (--spec, the
# DB, $KABI_DIFF_SPEC), CHECK.md and the rule table agreeing, and errors.
. "$KD_SRCDIR/lib.sh"

fx=$KD_SRCDIR/fixtures/check
k=$(fixture_kernel v1-dwarf5 -gdwarf-5) || { ok 1 "fixture kernel"; done_testing; }
"$KABI_DIFF" extract -q "$k" --uapi "$KD_SRCDIR/fixtures/kernel-uapi" -o k.kabi
ok $? "extract with UAPI headers"
"$KABI_DIFF" extract -q "$k" -o bare.kabi
mkdir clean drift && cp "$fx/clean.kabispec" clean/ && cp "$fx/drift.kabispec" drift/
export KABI_DIFF_SPEC=none

"$KABI_DIFF" check k.kabi --spec clean >out.txt 2>err.txt
is "$?" 0 "clean contract: exit 0"
is "$(sed 1d out.txt)" "coverage: 7/7 syscalls specified
no findings" "  no findings, full coverage (fxfuture since 7.0 may be absent)"
is "$(head -1 out.txt)" "check: 6.99.1-fixture (k.kabi) against clean (1 files, spec hash $(
	"$KABI_DIFF" spec lint clean | sed 's/.*spec hash //'))" "  header: kernel, contract, hash"
is "$(cat err.txt)" "" "  nothing on stderr"

"$KABI_DIFF" check k.kabi --spec drift >out.txt
is "$?" 4 "drifting contract: exit 4"
is "$(sed 1d out.txt)" "drift.kabispec:9: flag-unlisted: fxk_flags.FXK_FLAGS: FXK_FLAGS (0x118, linux/fxkernel.h) is of the family FXK_* but not in the set
drift.kabispec:9: flag-unlisted: fxk_flags.FXK_FLAG_B: FXK_FLAG_B (0x10, linux/fxkernel.h) is of the family FXK_* but not in the set
drift.kabispec:10: flag-undefined: fxk_flags.FXK_FLAG_C: FXK_FLAG_C is not defined by the UAPI headers
drift.kabispec:15: struct-field-unlisted: struct open_how.mode: a member of the kernel's layout (at byte 8) the spec does not mention
drift.kabispec:15: struct-field-unlisted: struct open_how.resolve: a member of the kernel's layout (at byte 16) the spec does not mention
drift.kabispec:16: struct-size-constant: struct open_how: FXK_HOW_SIZE_VER0 is not defined by the UAPI headers
drift.kabispec:17: struct-size-constant: struct open_how: FX_MODE_ON is 1 in the UAPI headers; the spec says 20
drift.kabispec:19: struct-field-missing: struct open_how.nofield: no such member in the kernel's layout
drift.kabispec:23: struct-size: struct fx_stat: 64 bytes in the kernel; the spec lists 60
drift.kabispec:23: struct-field-unlisted: struct fx_stat.mask: a member of the kernel's layout (at byte 0) the spec does not mention
drift.kabispec:23: struct-field-unlisted: struct fx_stat.blksize: a member of the kernel's layout (at byte 4) the spec does not mention
drift.kabispec:23: struct-field-unlisted: struct fx_stat.ino: a member of the kernel's layout (at byte 8) the spec does not mention
drift.kabispec:23: struct-field-unlisted: struct fx_stat.ino_lo: a member of the kernel's layout (at byte 8) the spec does not mention
drift.kabispec:23: struct-field-unlisted: struct fx_stat.mode: a member of the kernel's layout (at byte 16) the spec does not mention
drift.kabispec:23: struct-field-unlisted: struct fx_stat.times: a member of the kernel's layout (at byte 24) the spec does not mention
drift.kabispec:23: struct-field-unlisted: struct fx_stat.nr_extra: a member of the kernel's layout (at byte 56) the spec does not mention
drift.kabispec:23: struct-field-unlisted: struct fx_stat.extra: a member of the kernel's layout (at byte 60) the spec does not mention
drift.kabispec:25: struct-field-missing: struct fx_stat.bits.nope: no such member in the kernel's layout
drift.kabispec:26: struct-field-gate: struct fx_stat.ino_hi: FXK_GATE_NOPE is not defined by the UAPI headers
drift.kabispec:31: struct-size: struct fx_legacy: 4 bytes in the kernel; the spec says 8 since 6.0
drift.kabispec:34: struct-field-unlisted: struct fx_node.u: a member of the kernel's layout (at byte 8) the spec does not mention
drift.kabispec:34: struct-field-unlisted: struct fx_node.callback: a member of the kernel's layout (at byte 16) the spec does not mention
drift.kabispec:35: struct-field-type: struct fx_node.next: spec: int; kernel: it is a pointer
drift.kabispec:38: struct-missing: struct fx_nowhere: not among the types the kernel's syscalls and ioctls reach
drift.kabispec:42: syscall-param-name: read(buffer): parameter 2 is 'buf' in the kernel
drift.kabispec:43: syscall-params-count: openat: the spec has 3 parameters, the kernel 4
drift.kabispec:44: syscall-param-type: openat2(how): spec: ptr in struct fx_stat; kernel: struct open_how * (it points to another type than struct fx_stat)
drift.kabispec:45: syscall-param-type: fxstat(st): spec: flags fxk_flags; kernel: struct fx_stat * (it is a pointer)
drift.kabispec:46: syscall-param-type: fxold(x): spec: path; kernel: int (it is not a pointer)
drift.kabispec:47: syscall-missing: fxgone: not in the kernel's x64 syscall table
drift.kabispec:50: ioctl-missing: FXK_IOC_NOPE: not among the ioctls the UAPI headers define
drift.kabispec:51: ioctl-dir: FXK_IOC_STAT: the spec's direction is in (_IOC_DIR w); the command's is r
drift.kabispec:52: ioctl-arg-type: FXK_IOC_HOW: the spec's argument is struct fx_stat; the command's is struct open_how
drift.kabispec:53: ioctl-arg-unknown: FXK_IOC_GHOST: the spec's argument type struct fxk_ghost is in no compiled header and no DWARF of this kernel: its layout cannot be checked or compared
drift.kabispec:57: struct-missing: struct fx_udata_resp: in neither the kernel's DWARF nor its header views (a prefix struct, a message, or one whose members are unused or gated, crosses outside typed arguments: extract with --modules and --uapi)
6.99.1-fixture: syscall-unspecified: getpid: no spec entry
6.99.1-fixture: syscall-unspecified: fxlegacy: no spec entry
coverage: 5/7 syscalls specified
37 findings" \
	"  every drift kind, in spec order, then the kernel's own"

"$KABI_DIFF" check bare.kabi --spec drift >out.txt
is "$?" 4 "without UAPI data: exit 4"
is "$(sed -n 2p out.txt)" "note: bare.kabi holds no UAPI constants (extract --uapi DIR): flag sets, size constants and ioctls not checked" \
	"  says what it could not check"
is "$(grep -c 'flag-\|ioctl-\|size-constant' out.txt)" 0 "  and reports none of it"

"$KABI_DIFF" check k.kabi --spec drift --format json >out.json
is "$?" 4 "--format json: exit 4"
is "$(jq -c '[.kernel.release, .uapi, .coverage, (.findings | length)]' out.json)" \
	'["6.99.1-fixture",true,{"specified":5,"total":7},37]' "  release, uapi, coverage, count"
is "$(jq -c '.findings[0], .findings[36]' out.json)" \
'{"rule":"flag-unlisted","file":"drift.kabispec","line":9,"subject":"fxk_flags.FXK_FLAGS","message":"FXK_FLAGS (0x118, linux/fxkernel.h) is of the family FXK_* but not in the set"}
{"rule":"syscall-unspecified","file":null,"line":null,"subject":"fxlegacy","message":"no spec entry"}' \
	"  findings as objects"
# The vdso-* rules need kernels with vDSO images: t0405-check-vdso.sh exercises them;
# ioctl-compat-broken modules and the 32-bit header view: t0187-fops-compat.sh.
is "$(jq -r '.findings[].rule' out.json | sort -u | tr '\n' ' ')" \
	"$(sed -n 's/^| `\([a-z-]*\)` |.*/\1/p' "$KD_SRCDIR/../spec/check/CHECK.md" |
		grep -v '^vdso-\|^ioctl-compat-broken$' | sort | tr '\n' ' ')" \
	"  the drifting contract exercises every rule of spec/check/CHECK.md but the vdso-* ones and ioctl-compat-broken"

# What a probe measured joins the report: text and JSON.
cp k.kabi probed.kabi
q probed.kabi "INSERT INTO probe_cases VALUES ('openat2.usize.small', 'openat2', 437, 'errno',
	'-100, \"/\", &how, 8', 'errno', 'EINVAL', 'usize below the first version', 'builtin',
	NULL, NULL);
	INSERT INTO probe_results VALUES ('openat2.usize.small', 'ret', -1, 7, 'E2BIG', 0, '6.99.1-fixture')"
"$KABI_DIFF" check probed.kabi --spec drift --format json >probe.json
is "$?" 4 "probe mismatch: exit 4"
is "$(jq -c '.probe_mismatches' probe.json)" \
	'[{"rule":"probe.errno-mismatch","case":"openat2.usize.small","call":"openat2","args":"-100, \"/\", &how, 8","expected":"EINVAL","observed":"E2BIG","origin":"builtin"}]' \
	"  --format json lists it with the rule"
"$KABI_DIFF" check probed.kabi --spec drift >probe.txt
grep -q 'probe.errno-mismatch' probe.txt
ok $? "  the text report lists it too"

# Where the contract comes from.
"$KABI_DIFF" check k.kabi >out.txt 2>err.txt
is "$?" 1 "no --spec, none stored, none installed: exit 1"
is "$(cat err.txt)" "kabi-diff: k.kabi holds no contract and none is installed: give --spec DIR" "  says so"
cp k.kabi stored.kabi && "$KABI_DIFF" spec load stored.kabi drift >/dev/null
"$KABI_DIFF" check stored.kabi >out.txt
is "$?" 4 "the contract stored in the DB"
is "$(head -1 out.txt | sed 's/ (1 files.*//')" "check: 6.99.1-fixture (stored.kabi) against the contract stored in stored.kabi" \
	"  header names it"
"$KABI_DIFF" check stored.kabi --spec clean >/dev/null
is "$?" 0 "  --spec wins over the stored one"
KABI_DIFF_SPEC=clean "$KABI_DIFF" check k.kabi >out.txt
is "$?" 0 "\$KABI_DIFF_SPEC as the installed contract"
is "$(head -1 out.txt | sed 's/ (1 files.*//')" "check: 6.99.1-fixture (k.kabi) against clean (installed)" "  header names it"

# Errors.
"$KABI_DIFF" check >/dev/null 2>&1; is "$?" 2 "no argument: usage error"
"$KABI_DIFF" check k.kabi --format xml >/dev/null 2>&1; is "$?" 2 "unknown format: usage error"
"$KABI_DIFF" check nothere.kabi --spec clean >/dev/null 2>&1; is "$?" 1 "missing DB: exit 1"
mkdir bad && printf 'syscall x(a: nokind) -> 0;\n' >bad/bad.kabispec
"$KABI_DIFF" check k.kabi --spec bad >/dev/null 2>err.txt; is "$?" 1 "a spec with errors: exit 1"
is "$(tail -1 err.txt)" "kabi-diff: bad: the spec has errors" "  says so"
done_testing
