#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Exit statuses and messages that said less than they should (issue 12):
# an --abi typo compared no syscalls and exited 0; `show K info extra`
# exited 0; `show K constants` said "'constants' needs a NAME" (no such
# item); --old-spec without --new-spec exited 1 (a usage error is 2);
# `1 / 0` in a spec was silently "unknown"; an ELF header of another
# version was "unreadable ELF file: no error".
. "$KD_SRCDIR/lib.sh"

k=$(fixture_kernel v1-dwarf5 -gdwarf-5) && old=$(fixture_db v1-dwarf5 -gdwarf-5) &&
	new=$(fixture_db v2-dwarf5 -gdwarf-5 -DKABI_V2) || { ok 1 "fixtures"; done_testing; }
scratch usage-nits

# first_line CMD...: run it; "EXIT|first line of stderr|bytes on stdout".
first_line() {
	"$KABI_DIFF" "$@" >out.txt 2>err.txt
	echo "$?|$(head -n 1 err.txt)|$(wc -c <out.txt)"
}

is "$(first_line diff "$old" "$new" --abi x46)" \
	"2|kabi-diff: diff: --abi x46: neither kernel has syscalls of that ABI|0" "--abi typo: usage error"
"$KABI_DIFF" diff "$old" "$new" --abi x64 -f json >abi.json
is "$?|$(jq '[.changes[] | select(.kind | startswith("syscall"))] | length > 0' abi.json)" "12|true" \
	"--abi x64: exit 12, syscall changes compared"
is "$(first_line show "$old" info extra)" "2|kabi-diff: show: 'info' takes no NAME (got 'extra')|0" \
	"show K info extra: usage error"
is "$(first_line show "$old" syscalls read)" "2|kabi-diff: show: 'syscalls' takes no NAME (got 'read')|0" \
	"show K syscalls NAME: usage error"
is "$(first_line show "$old" constants)" "2|kabi-diff: show: unknown item 'constants'|0" \
	"show K constants (no such item): usage error naming it (it said \"'constants' needs a NAME\")"
is "$(first_line show missing.kabi bogus)" "2|kabi-diff: show: unknown item 'bogus'|0" \
	"  checked before the file is opened"
is "$(first_line show missing.kabi struct)" "2|kabi-diff: show: 'struct' needs a NAME|0" \
	"show K struct without a NAME: usage error, before the file is opened"
is "$(first_line diff "$old" "$new" --old-spec spec)" \
	"2|kabi-diff: diff: --old-spec and --new-spec go together|0" "--old-spec alone: usage error"
is "$(first_line diff "$old" "$new" --new-spec spec)" \
	"2|kabi-diff: diff: --old-spec and --new-spec go together|0" "--new-spec alone: usage error"

mkdir -p spec
printf 'flags f_flags {\n\tA = 1 / 0;\n\tB = 8 %% (2 - 2);\n\tC = 8 / 2;\n}\n' > spec/div.kabispec
"$KABI_DIFF" spec lint spec >out.txt 2>err.txt
is "$?|$(cat err.txt)" "1|kabi-diff: spec/div.kabispec:2:8: division by zero
kabi-diff: spec/div.kabispec:3:8: division by zero
kabi-diff: spec: the spec has errors" "1 / 0 and 8 % (2 - 2) in a spec: errors at the operator"
printf 'flags f_flags {\n\tC = 8 / 2;\n\tD = 8 / X;\n}\n' > spec/div.kabispec
"$KABI_DIFF" spec lint spec >/dev/null 2>err.txt
is "$?|$(cat err.txt)" "0|" "  8 / 2 and 8 / NAME are fine"
# Through a name: another explicit value of the spec that is 0 (spec lint,
# without a kernel), or a UAPI constant that is 0 in the kernel (spec load).
printf 'flags f_flags {\n\tA = 0;\n\tB = 1 / A;\n\tC = 8 %% (A + A);\n\tE = 1 / (C + 1);\n}\n' >spec/div.kabispec
printf 'flags g_flags {\n\tZ = 0x0;\n\tD = 1 / Z;\n\tF = G;\n\tG = F;\n\tH = 1 / F;\n\tI = 1 / (A + 1);\n}\n' >>spec/div.kabispec
"$KABI_DIFF" spec lint spec >/dev/null 2>err.txt
is "$?|$(cat err.txt)" "1|kabi-diff: spec/div.kabispec:3:2: 'B' divides by zero (a value it names is 0)
kabi-diff: spec/div.kabispec:4:2: 'C' divides by zero (a value it names is 0)
kabi-diff: spec/div.kabispec:9:2: 'D' divides by zero (a value it names is 0)
kabi-diff: spec: the spec has errors" \
	"A = 0; B = 1 / A: an error at B (C too; D through another set); E (C unknown), a cycle F = G = F, I are not"
header_tree --arch zero
printf '#define KD_ZERO 0\n#define KD_TWO 2\n' >zero/linux/zero.h
"$KABI_DIFF" extract -q "$k" --uapi zero -o zero.kabi
printf 'flags z_flags {\n\tKD_TWO;\n\tY = 8 / KD_TWO;\n\tX = 1 / KD_ZERO;\n}\n' >spec/div.kabispec
"$KABI_DIFF" spec lint spec >/dev/null 2>err.txt
is "$?|$(cat err.txt)" "0|" "  1 / KD_ZERO (a UAPI constant) lints: its value comes with a kernel"
"$KABI_DIFF" spec load zero.kabi spec >/dev/null 2>err.txt
is "$?|$(cat err.txt)" "1|kabi-diff: spec/div.kabispec:4: 'X' divides by zero with this kernel's constants" \
	"  spec load onto a kernel whose KD_ZERO is 0: an error naming the value"
is "$(q zero.kabi "SELECT count(*) FROM spec_sets")" 0 "  nothing stored"
"$KABI_DIFF" check zero.kabi --spec spec >out.txt 2>err.txt
is "$?|$(cat err.txt)|$(cat out.txt)" "1|kabi-diff: spec/div.kabispec:4: 'X' divides by zero with this kernel's constants|" \
	"  check against that kernel: the same one-line error, no report"

# e_ident[EI_VERSION] = 2
cp "$k" badver && printf '\002' | dd of=badver bs=1 seek=6 conv=notrunc 2>/dev/null
is "$(first_line extract badver -o badver.kabi)" \
	"1|kabi-diff: badver: bad ELF header: version 2 (EV_CURRENT is 1)|0" "ELF header version 2: named"
test ! -e badver.kabi; ok $? "  nothing written"

done_testing
