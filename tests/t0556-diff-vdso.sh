#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# diff compares the vDSO images of two fixture kernels (tests/fixtures/vdso):
# an entry point and its alias added (compatible) and, the other way,
# removed (breaking); a version node renamed (breaking); a whole image
# gone (breaking for its ABI); the same images: no change; with the debug
# images, a parameter's layout changed (judged as a syscall's argument).
# Exit bits, the JSON, text, Markdown and SARIF reports, --abi.
. "$KD_SRCDIR/lib.sh"
scratch t0556

v1=$(fixture_vdso_db vd1 "LINUX_2.6" -DVDSO_64 -DVDSO_32 -DVDSO_X32) &&
v2=$(fixture_vdso_db vd2 "LINUX_2.6 -DVDSO_V2" -DVDSO_64 -DVDSO_32 -DVDSO_X32) &&
v3=$(fixture_vdso_db vd3 "LINUX_2.7" -DVDSO_64 -DVDSO_32) || { ok 1 "fixture kernels"; # Signatures from the debug images (-g): a struct the entry point takes grew.
mkdir -p d1 d2
"$KD_SRCDIR/fixtures/build-vdso.sh" d1/vdso64.so LINUX_2.6 -g &&
	"$KD_SRCDIR/fixtures/build-vdso.sh" d2/vdso64.so LINUX_2.6 -g -DVDSO_GETCPU_TS
ok $? "two debug images, struct vdso_ts grown in the second"
k=${v1%.kabi}
"$KABI_DIFF" extract -q "$k" --vdso d1 -o s1.kabi && "$KABI_DIFF" extract -q "$k" --vdso d2 -o s2.kabi
ok $? "extract both with their debug images"
"$KABI_DIFF" diff s1.kabi s2.kabi --format json >sig.json 2>err.txt
is "$?" 12 "a parameter's layout changed: exit 12"
is "$(jq -r '.changes[] | "\(.kind) \(.subject) \(.verdict) \(.old) -> \(.new) \(.impact | map(.path) | join(";"))"' sig.json)" \
"type.size struct vdso_ts breaking 16 -> 24 __vdso_getcpu -> ts -> struct vdso_ts
type.member.added struct vdso_ts.extra breaking null -> long int extra at 16 __vdso_getcpu -> ts -> struct vdso_ts" \
	"judged as a syscall's argument: the struct's size, reached from __vdso_getcpu(ts)"
"$KABI_DIFF" diff s1.kabi s1.kabi >/dev/null 2>&1
is "$?" 0 "the same signatures: exit 0"

done_testing; }

vdso_changes() {
	jq -r '.changes[] | select(.category == "vdso") |
		"\(.kind) \(.subject) \(.verdict) \(.old // "-") -> \(.new // "-")"' "$1"
}

"$KABI_DIFF" diff "$v1" "$v2" --format json >add.json 2>err.txt
is "$?" 4 "entry points added: exit 4 (changes, none breaking)"
is "$(vdso_changes add.json)" \
"vdso.symbol.added __vdso_getrandom@LINUX_2.6 (ia32) compatible - -> global func
vdso.symbol.added getrandom@LINUX_2.6 (ia32) compatible - -> weak func
vdso.symbol.added __vdso_getrandom@LINUX_2.6 (x32) compatible - -> global func
vdso.symbol.added getrandom@LINUX_2.6 (x32) compatible - -> weak func
vdso.symbol.added __vdso_getrandom@LINUX_2.6 (x64) compatible - -> global func
vdso.symbol.added getrandom@LINUX_2.6 (x64) compatible - -> weak func" \
	"added: __vdso_getrandom and its alias getrandom, per ABI, compatible"
is "$(jq -c '.summary.vdso' add.json)" '{"breaking":0,"source":0,"compatible":6,"info":0,"suppressed":0}' \
	"JSON summary: a vdso category"

"$KABI_DIFF" diff "$v2" "$v1" --format json >rm.json 2>err.txt
is "$?" 12 "entry points removed: exit 12 (breaking)"
is "$(vdso_changes rm.json | grep x64)" \
"vdso.symbol.removed __vdso_getrandom@LINUX_2.6 (x64) breaking global func -> -
vdso.symbol.removed getrandom@LINUX_2.6 (x64) breaking weak func -> -" "removed: breaking, with the rule's kind"
is "$(jq -r '[.changes[] | select(.category == "vdso") | .rule] | unique | join(" ")' rm.json)" \
	"vdso-symbol-removed" "removed: rule vdso-symbol-removed"

"$KABI_DIFF" diff "$v1" "$v3" --format json >node.json 2>err.txt
is "$?" 12 "version node renamed, x32 image gone: exit 12"
is "$(vdso_changes node.json)" \
"vdso.symbol.removed LINUX_2.6@LINUX_2.6 (ia32) breaking global object -> -
vdso.symbol.version __vdso_getcpu (ia32) breaking LINUX_2.6 -> LINUX_2.7
vdso.symbol.version __vdso_time (ia32) breaking LINUX_2.6 -> LINUX_2.7
vdso.symbol.version getcpu (ia32) breaking LINUX_2.6 -> LINUX_2.7
vdso.symbol.version time (ia32) breaking LINUX_2.6 -> LINUX_2.7
vdso.image.removed vdso x32 breaking linux-vdso.so.1, $(q "$v1" "SELECT size FROM vdso_images WHERE abi='x32'") bytes -> -
vdso.symbol.removed LINUX_2.6@LINUX_2.6 (x64) breaking global object -> -
vdso.symbol.version __vdso_getcpu (x64) breaking LINUX_2.6 -> LINUX_2.7
vdso.symbol.version __vdso_time (x64) breaking LINUX_2.6 -> LINUX_2.7
vdso.symbol.version getcpu (x64) breaking LINUX_2.6 -> LINUX_2.7
vdso.symbol.version time (x64) breaking LINUX_2.6 -> LINUX_2.7
vdso.symbol.added LINUX_2.7@LINUX_2.7 (ia32) compatible - -> global object
vdso.symbol.added LINUX_2.7@LINUX_2.7 (x64) compatible - -> global object" \
	"a renamed node: each name's version changed (breaking); the x32 image gone: one change"

"$KABI_DIFF" diff "$v1" "$v3" --abi x64 --format json >abi.json 2>err.txt
is "$(jq -r '[.changes[] | select(.category == "vdso") | .subject] | map(select(test("x64") | not)) | length' abi.json)" \
	0 "--abi x64: only the x64 image compared"

"$KABI_DIFF" diff "$v1" "$v1" >same.txt 2>err.txt
is "$?" 0 "the same images: exit 0"
grep -Eq '^vdso +0 +0 +0 +0 +0$' same.txt
ok $? "text summary: a vdso row of zeros"

"$KABI_DIFF" diff "$v2" "$v1" >rm.txt 2>err.txt
grep -q '^  vdso x64 (2 vdso.symbol.removed)$' rm.txt
ok $? "text: the removals grouped by image"
"$KABI_DIFF" diff "$v2" "$v1" --format md >rm.md 2>err.txt
grep -q 'vdso-symbol-removed' rm.md
ok $? "Markdown: the rule cited"
"$KABI_DIFF" diff "$v2" "$v1" --format sarif >rm.sarif 2>err.txt
is "$(jq '[.runs[0].results[] | select(.ruleId == "vdso-symbol-removed")] | length' rm.sarif)" 6 \
	"SARIF: one result per removed name"
is "$(jq -r '[.runs[0].results[] | select(.ruleId == "vdso-symbol-removed") |
	.locations[0].logicalLocations[0].kind] | unique | join(" ")' rm.sarif)" function \
	"SARIF: a vDSO name is a function"

# Signatures from the debug images (-g): a struct the entry point takes grew.
mkdir -p d1 d2
"$KD_SRCDIR/fixtures/build-vdso.sh" d1/vdso64.so LINUX_2.6 -g &&
	"$KD_SRCDIR/fixtures/build-vdso.sh" d2/vdso64.so LINUX_2.6 -g -DVDSO_GETCPU_TS
ok $? "two debug images, struct vdso_ts grown in the second"
k=${v1%.kabi}
"$KABI_DIFF" extract -q "$k" --vdso d1 -o s1.kabi && "$KABI_DIFF" extract -q "$k" --vdso d2 -o s2.kabi
ok $? "extract both with their debug images"
"$KABI_DIFF" diff s1.kabi s2.kabi --format json >sig.json 2>err.txt
is "$?" 12 "a parameter's layout changed: exit 12"
is "$(jq -r '.changes[] | "\(.kind) \(.subject) \(.verdict) \(.old) -> \(.new) \(.impact | map(.path) | join(";"))"' sig.json)" \
"type.size struct vdso_ts breaking 16 -> 24 __vdso_getcpu -> ts -> struct vdso_ts
type.member.added struct vdso_ts.extra breaking null -> long int extra at 16 __vdso_getcpu -> ts -> struct vdso_ts" \
	"judged as a syscall's argument: the struct's size, reached from __vdso_getcpu(ts)"
"$KABI_DIFF" diff s1.kabi s1.kabi >/dev/null 2>&1
is "$?" 0 "the same signatures: exit 0"

done_testing
