#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# diff --format sarif: the document validates against the SARIF 2.1.0 JSON
# schema (installed by `make deps`, see the Makefile's sarif-schema), one
# result per change in the JSON report's order with the same rule ids,
# levels from the verdicts, exact source locations (DWARF's decl_file for
# types and syscalls, the UAPI header line, mapped into the kernel's
# source tree, for constants and ioctls), the impact path in the message,
# suppressions, --only breaking, and an empty report.
. "$KD_SRCDIR/lib.sh"

schema=${SARIF_SCHEMA:-/usr/local/share/sarif/sarif-schema-2.1.0.json}
py=
for p in /usr/bin/python3 python3; do
	"$p" -c 'import jsonschema' 2>/dev/null && { py=$p; break; }
done
# validate FILE: the schema's verdict ("valid" or the first error).
validate() {
	"$py" - "$schema" "$1" <<'EOF'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(json.load(open(sys.argv[2]))),
                key=lambda e: list(e.absolute_path))
print("valid" if not errors else "%s at %s" % (errors[0].message, "/".join(map(str, errors[0].absolute_path))))
EOF
}
[ -r "$schema" ] && [ -n "$py" ]
ok $? "the SARIF 2.1.0 schema ($schema) and python3-jsonschema are installed (make deps)" || done_testing

old=$(fixture_db v1-dwarf5 -gdwarf-5) && new=$(fixture_db v2-dwarf5 -gdwarf-5 -DKABI_V2) ||
	{ ok 1 "fixture pair"; done_testing; }
"$KABI_DIFF" diff "$old" "$new" --format sarif >out.sarif 2>err.txt
is "$?" 12 "breaking changes: exit 12, as with the other formats"
is "$(cat err.txt)" "" "nothing on stderr"
is "$(validate out.sarif)" "valid" "validates against the SARIF 2.1.0 schema"
jq '.runs[0].results[0].level = "fatal"' out.sarif >bad.sarif
is "$(validate bad.sarif)" "'fatal' is not one of ['none', 'note', 'warning', 'error'] at runs/0/results/0/level" \
	"the validator refuses a wrong level (it can fail)"
jq 'del(.version)' out.sarif >bad.sarif
is "$(validate bad.sarif)" "'version' is a required property at " "  and a missing version"

"$KABI_DIFF" diff "$old" "$new" --format json >out.json
is "$(jq '.runs | length' out.sarif):$(jq -r '.version' out.sarif):$(jq -r '.runs[0].tool.driver.name' out.sarif)" \
	"1:2.1.0:kabi-diff" "one run of 2.1.0 by kabi-diff"
is "$(jq -r '.runs[0].results[] | "\(.ruleId) \(.properties.kind) \(.properties.subject)"' out.sarif)" \
	"$(jq -r '.changes[] | "\(.rule) \(.kind) \(.subject)"' out.json)" \
	"one result per change, in the JSON report's order, ruleId the rule id"
is "$(jq -r '.runs[0].results[] | "\(.level) \(.properties.verdict)"' out.sarif | sort -u)" \
"error breaking
note compatible" "levels: breaking error, compatible note"
is "$(jq -r '.runs[0].tool.driver.rules[].id' out.sarif)" \
	"$(sed -n 's/^| `\([a-z0-9-]*\)` | .*/\1/p' "$KD_SRCDIR/../diff/RULES.md")" \
	"the driver's rules: every rule of diff/RULES.md, in its order"
is "$(jq -r '.runs[0] as $r | [.runs[0].results[] | $r.tool.driver.rules[.ruleIndex].id == .ruleId] | all' out.sarif)" \
	"true" "ruleIndex points at the rule"
is "$(jq -r '.runs[0].tool.driver.rules[] | select(.id == "member-moved") | "\(.defaultConfiguration.level)|\(.fullDescription.text)"' out.sarif)" \
	"error|old binaries read and write it at the old offset" "a rule: its level and its reason"
is "$(jq -r '.runs[0].invocations[0].exitCode' out.sarif)" 12 "the invocation's exit code"

# r SUBJECT: one result as "uri|uriBaseId|line|message".
r() {
	jq -r --arg s "$1" '.runs[0].results[] | select(.properties.subject == $s) |
		.locations[0] as $l | "\($l.physicalLocation.artifactLocation.uri // "-")|\($l.physicalLocation.artifactLocation.uriBaseId // "-")|\($l.physicalLocation.region.startLine // "-")|\(.message.text)"' "$2"
}
line_of() { grep -n "$1" "$2" | head -1 | cut -d: -f1; }
# The fixtures are compiled from an absolute path: DWARF names files so,
# and an absolute path can be any file (#line): no physical location
# (t0532), the logical one only. Debian's and in-tree builds have relative
# paths, as the kernel built below and the header cases.
is "$(r 'struct fx_bits.prio' out.sarif)" \
	"-|-|-|breaking (member-bitfield): struct fx_bits.prio: bit 8, width 4 -> bit 8, width 5. old binaries mask and shift the old bits. Evidence (layout): the layouts of both kernels (DWARF). Reached from: fxstat -> st -> struct fx_stat -> bits -> struct fx_bits." \
	"a member change: the impact path in the message; an absolute decl_file: no physical location"
is "$(jq -r '.runs[0].results[] | select(.properties.subject == "struct fx_bits.prio") | .locations[0].logicalLocations[0] | "\(.name)|\(.fullyQualifiedName)|\(.kind)"' out.sarif)" \
	"struct fx_bits|struct fx_bits.prio|member" "  and its logical location"
is "$(jq -r '.runs[0].results[] | select(.properties.subject == "struct fx_bits.prio") | .partialFingerprints["kabiDiffChange/v1"]' out.sarif)" \
	"type.member.bitfield struct fx_bits.prio" "  a fingerprint stable across runs"

# An info change (a parameter renamed), from a kernel built here from a
# relative path, as in-tree and Debian builds are: a relative location.
cp "$KD_SRCDIR/fixtures/kernel.c" "$KD_SRCDIR/fixtures/build-kernel.sh" .
sed -i 's/^SYSCALL_DEFINE1(fxold, int, x)$/SYSCALL_DEFINE1(fxold, int, y)/; s/fx_sink += x;/fx_sink += y;/' kernel.c
sh ./build-kernel.sh v3 -gdwarf-5 && "$KABI_DIFF" extract -q v3 -o v3.kabi
ok $? "a kernel with fxold's parameter renamed, built from ./kernel.c"
"$KABI_DIFF" "$old" v3.kabi -f sarif >i.sarif
is "$?:$(validate i.sarif)" "4:valid" "an info change only: exit 4, validates"
is "$(jq -r '.runs[0].results[] | "\(.ruleId) \(.level) \(.properties.verdict)"' i.sarif)" \
	"syscall-param-renamed note info" "  info: level note"
is "$(r 'fxold(y)' i.sarif | cut -d'|' -f1-3)" "kernel.c|SRCROOT|$(line_of 'SYSCALL_DEFINE1(fxold' kernel.c)" \
	"  a relative DWARF path: relative to SRCROOT"
"$KABI_DIFF" v3.kabi "$new" -f sarif >rm.sarif
is "$(r 'fxold (x64)' rm.sarif | cut -d'|' -f1-3)" "kernel.c|SRCROOT|$(line_of 'SYSCALL_DEFINE1(fxold' kernel.c)" \
	"a removed syscall: its definition in the old kernel"

# Constants and ioctls: header lines, as paths of the kernel's source tree.
uapi=$KD_SRCDIR/fixtures/kernel-uapi
cp -R "$uapi" uapi-v2
sed -i "s/_IO('F', 5)/_IO('F', 6)/" uapi-v2/uapi/linux/fxkernel.h
sed -i 's/0x100$/0x200/' uapi-v2/arch/x86/include/uapi/asm/fxarch.h
k=$(fixture_kernel v1-dwarf5 -gdwarf-5)
"$KABI_DIFF" extract -q "$k" --uapi "$uapi" -o u1.kabi && "$KABI_DIFF" extract -q "$k" --uapi uapi-v2 -o u2.kabi
ok $? "two header trees extracted"
"$KABI_DIFF" u1.kabi u2.kabi -f sarif >u.sarif
is "$?" 12 "header changes: exit 12"
is "$(validate u.sarif)" "valid" "  validates"
is "$(r FXK_IOC_RESET u.sarif | cut -d'|' -f1-3)" \
	"include/uapi/linux/fxkernel.h|SRCROOT|$(line_of FXK_IOC_RESET uapi-v2/uapi/linux/fxkernel.h)" \
	"an ioctl: its header line under include/uapi/"
is "$(r FXK_ARCH_FLAG u.sarif | cut -d'|' -f1-3)" \
	"arch/x86/include/uapi/asm/fxarch.h|SRCROOT|$(line_of FXK_ARCH_FLAG uapi-v2/arch/x86/include/uapi/asm/fxarch.h)" \
	"an asm/ constant: under arch/x86/include/uapi/"
is "$(r FXK_FLAGS u.sarif | cut -d'|' -f1-3)" \
	"include/uapi/linux/fxkernel.h|SRCROOT|$(line_of '^#define FXK_FLAGS' uapi-v2/uapi/linux/fxkernel.h)" \
	"a constant whose value follows another"

# Suppressed changes: results with the reason as the justification.
printf 'member-bitfield struct\\ fx_bits reviewed: prio never had 16 levels\n' >sup.txt
"$KABI_DIFF" "$old" "$new" -f sarif -s sup.txt >s.sarif
is "$(validate s.sarif)" "valid" "suppressions: validates"
is "$(jq -r '.runs[0].results[] | select(.suppressions) | "\(.ruleId)|\(.suppressions[0].kind)|\(.suppressions[0].justification)"' s.sarif)" \
	"member-bitfield|external|reviewed: prio never had 16 levels" "a suppressed change carries its reason"

"$KABI_DIFF" "$old" "$new" -f sarif --only breaking >b.sarif
is "$(jq -r '[.runs[0].results[].level] | unique | join(",")' b.sarif)" "error" "--only breaking: errors only"
is "$(jq '.runs[0].results | length' b.sarif)" "$(jq '[.changes[] | select(.verdict == "breaking")] | length' out.json)" \
	"  every breaking change"

"$KABI_DIFF" "$old" "$old" -f sarif >same.sarif
is "$?:$(jq '.runs[0].results | length' same.sarif)" "0:0" "no change: exit 0, no result"
is "$(validate same.sarif)" "valid" "  validates"

done_testing
