#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The contract's vdso blocks (tests/fixtures/check/vdso.kabispec) against
# fixture kernels with vDSO images (tests/fixtures/vdso): spec lint's
# errors for a bad ABI, node or statement; check with every promise kept
# (exit 0), an entry point missing, a node renamed, the native image gone
# (exit 4, exact findings), what is not held (an entry since a later
# release, another architecture's block, an ABI the kernel does not run),
# a .kabi without the vDSO; diff citing the contract line for a promised
# entry point or image removed.
. "$KD_SRCDIR/lib.sh"
scratch t0405

v1=$(fixture_vdso_db vd1 "LINUX_2.6" -DVDSO_64 -DVDSO_32 -DVDSO_X32) &&
v2=$(fixture_vdso_db vd2 "LINUX_2.6 -DVDSO_V2" -DVDSO_64 -DVDSO_32 -DVDSO_X32) &&
v3=$(fixture_vdso_db vd3 "LINUX_2.7" -DVDSO_64 -DVDSO_32) &&
v5=$(fixture_vdso_db vd5 "LINUX_2.6" -DVDSO_32) || { ok 1 "fixture kernels"; done_testing; }

mkdir c && cp "$KD_SRCDIR/fixtures/check/clean.kabispec" "$KD_SRCDIR/fixtures/check/vdso.kabispec" c/
"$KABI_DIFF" spec lint c >out.txt 2>err.txt
is "$?|$(cat err.txt)" "0|" "spec lint: the vdso blocks are valid"

# --- spec lint: one line per error, file:line:col ---------------------------
mkdir bad
cat >bad/bad.kabispec <<'EOF'
vdso x86 {
	version LINUX_2.6;
}
vdso arm64 {
	version LINUX_2.6.39;
	version LINUX_2.6.39;
	__kernel_a@LINUX_2.6.3;
	__kernel_b@LINUX_2.6. ;
	__kernel_c@LINUX_2 .6;
	__kernel_d LINUX_2.6.39;
	__kernel_e@LINUX_2.6.39 since 6.x;
	__kernel_e@LINUX_2.6.39;
	__kernel_e@LINUX_2.6.39;
}
vdso arm64 { }
EOF
"$KABI_DIFF" spec lint bad >out.txt 2>err.txt
is "$?" 1 "spec lint of bad vdso blocks: exit 1"
is "$(cat err.txt)" "kabi-diff: bad/bad.kabispec:1:6: unknown ABI 'x86' (a vDSO is of x64, ia32, x32, arm64 or aarch32)
kabi-diff: bad/bad.kabispec:8:22: malformed version node 'LINUX_2.6.': a name and numbers joined by dots, without spaces (LINUX_2.6.39)
kabi-diff: bad/bad.kabispec:9:21: malformed version node 'LINUX_2.': a name and numbers joined by dots, without spaces (LINUX_2.6.39)
kabi-diff: bad/bad.kabispec:10:13: expected '@' and the version node after the entry point's name (NAME@LINUX_2.6), found 'LINUX_2'
kabi-diff: bad/bad.kabispec:11:32: expected a kernel version after 'since' (like 5.6), found '6'
kabi-diff: bad/bad.kabispec:6:2: version 'LINUX_2.6.39' written twice in vdso arm64 (first at line 5)
kabi-diff: bad/bad.kabispec:7:2: __kernel_a@LINUX_2.6.3: vdso arm64 declares no version 'LINUX_2.6.3' (write 'version LINUX_2.6.3;' in the block) (did you mean 'LINUX_2.6.39'?)
kabi-diff: bad/bad.kabispec:13:2: entry point __kernel_e@LINUX_2.6.39 written twice in vdso arm64 (first at line 12)
kabi-diff: bad/bad.kabispec:15:1: duplicate vdso block 'arm64' (first at bad/bad.kabispec:4:1)
kabi-diff: bad: the spec has errors" "  every error on one line, at its place, and nothing on stdout: $(cat out.txt)"

# --- check ---------------------------------------------------------------------
"$KABI_DIFF" check "$v2" --spec c >out.txt 2>err.txt
is "$?" 0 "every promise kept (getrandom too): exit 0"
is "$(sed '1,2d' out.txt)" "coverage: 7/7 syscalls specified
no findings" "  no findings: __vdso_later since 7.0, the arm64 block not held to 6.99.1-fixture x86_64"

"$KABI_DIFF" check "$v1" --spec c >out.txt 2>err.txt
is "$?" 4 "an entry point promised since 6.11 missing: exit 4"
is "$(sed '1,2d' out.txt)" "vdso.kabispec:12: vdso-entry-missing: __vdso_getrandom@LINUX_2.6 (x64): not exported by the kernel's x64 image (vdso_image_64)
coverage: 7/7 syscalls specified
1 finding" "  the finding cites the contract line"

"$KABI_DIFF" check "$v3" --spec c >out.txt 2>err.txt
is "$?" 4 "the version node renamed, no x32 image: exit 4"
is "$(sed '1,2d' out.txt)" "vdso.kabispec:7: vdso-version-missing: LINUX_2.6 (x64): the kernel's x64 image (vdso_image_64) defines no version node LINUX_2.6
vdso.kabispec:8: vdso-entry-missing: __vdso_time@LINUX_2.6 (x64): the kernel's x64 image exports __vdso_time at LINUX_2.7, not at LINUX_2.6
vdso.kabispec:9: vdso-entry-missing: time@LINUX_2.6 (x64): the kernel's x64 image exports time at LINUX_2.7, not at LINUX_2.6
vdso.kabispec:10: vdso-entry-missing: __vdso_getcpu@LINUX_2.6 (x64): the kernel's x64 image exports __vdso_getcpu at LINUX_2.7, not at LINUX_2.6
vdso.kabispec:11: vdso-entry-missing: getcpu@LINUX_2.6 (x64): the kernel's x64 image exports getcpu at LINUX_2.7, not at LINUX_2.6
vdso.kabispec:12: vdso-entry-missing: __vdso_getrandom@LINUX_2.6 (x64): not exported by the kernel's x64 image (vdso_image_64)
vdso.kabispec:17: vdso-version-missing: LINUX_2.6 (ia32): the kernel's ia32 image (vdso_image_32) defines no version node LINUX_2.6
vdso.kabispec:18: vdso-entry-missing: __vdso_time@LINUX_2.6 (ia32): the kernel's ia32 image exports __vdso_time at LINUX_2.7, not at LINUX_2.6
coverage: 7/7 syscalls specified
8 findings" "  each node and entry point, where the kernel exports it; x32 not run (no x32 table): no finding"

"$KABI_DIFF" check "$v5" --spec c >out.txt 2>err.txt
is "$?" 4 "no x64 image: exit 4"
is "$(grep vdso- out.txt)" "vdso.kabispec:6: vdso-image-missing: vdso x64: the kernel runs x64 processes but embeds no vDSO image for them" \
	"  one finding for the image, none per entry point; the ia32 image checked and kept"

for v in "$v1" "$v3" "$v5"; do
	"$KABI_DIFF" check "$v" --spec c --format json
done | jq -r '.findings[].rule' | grep '^vdso-' | sort -u >rules.txt
is "$(tr '\n' ' ' <rules.txt)" \
	"$(sed -n 's/^| `\(vdso-[a-z-]*\)` |.*/\1/p' "$KD_SRCDIR/../spec/check/CHECK.md" | sort | tr '\n' ' ')" \
	"  these kernels exercise every vdso-* rule of spec/check/CHECK.md"

"$KABI_DIFF" check "$v1" --spec c --format json >out.json
is "$(jq -c '[.vdso, (.findings[] | select(.rule | startswith("vdso")) | [.rule, .file, .line, .subject])]' out.json)" \
	'[true,["vdso-entry-missing","vdso.kabispec",12,"__vdso_getrandom@LINUX_2.6 (x64)"]]' \
	"--format json: vdso read, the finding with its file and line"

"$KABI_DIFF" extract -q --uapi "$KD_SRCDIR/fixtures/kernel-uapi" -o h.kabi
"$KABI_DIFF" check h.kabi --spec c >out.txt 2>err.txt
is "$(grep '^note: h.kabi holds no vDSO' out.txt)|$(grep -c 'vdso-' out.txt)" \
	"note: h.kabi holds no vDSO (extracted without a vmlinux): the contract's vdso blocks not checked|0" \
	"a .kabi of headers alone: the vdso blocks not checked, and it says so"
is "$("$KABI_DIFF" check h.kabi --spec c --format json | jq .vdso)" false "  JSON: vdso false"

# --- diff: the contract line as evidence -------------------------------------------
ev() {
	jq -r '.changes[] | select(.category == "vdso" and (.rule | endswith("removed") or endswith("version")))
		| "\(.subject) \(.verdict) \(.evidence.kind): \(.evidence.text)"' "$1"
}
"$KABI_DIFF" diff "$v2" "$v1" --spec c --format json >rm.json 2>err.txt
is "$?" 12 "diff, getrandom removed: exit 12"
is "$(ev rm.json | grep '(x64)')" "__vdso_getrandom@LINUX_2.6 (x64) breaking contract: c/vdso.kabispec:12: the contract promises __vdso_getrandom@LINUX_2.6 in the x64 vDSO
getrandom@LINUX_2.6 (x64) breaking layout: the vDSO images both vmlinux embed (dynamic symbols, version definitions)" \
	"  the promised entry point cites the contract line; its alias, which the contract does not list, the images"
"$KABI_DIFF" diff "$v2" "$v1" --format json >rm0.json 2>err.txt
is "$(ev rm0.json | grep -c ' contract: ')" 0 "  without a contract: no contract evidence"

"$KABI_DIFF" diff "$v1" "$v3" --spec c --format json >node.json 2>err.txt
is "$(ev node.json | grep -e '^vdso x32' -e '^__vdso_time (x64)' -e '^time (ia32)')" \
"time (ia32) breaking layout: the vDSO images both vmlinux embed (dynamic symbols, version definitions)
vdso x32 breaking contract: c/vdso.kabispec:21: the contract promises a vDSO to x32 processes
__vdso_time (x64) breaking contract: c/vdso.kabispec:8: the contract promises __vdso_time@LINUX_2.6 in the x64 vDSO" \
	"node renamed: the promised entry point cites its line; the x32 image gone cites the block"

done_testing
