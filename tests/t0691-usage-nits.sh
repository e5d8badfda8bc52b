#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Exit statuses and messages that said less than they should (issue 12):
# an --abi typo compared no syscalls and exited 0; `show K info extra`
# exited 0; --old-spec without --new-spec exited 1 (a usage error is 2);
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

# e_ident[EI_VERSION] = 2
cp "$k" badver && printf '\002' | dd of=badver bs=1 seek=6 conv=notrunc 2>/dev/null
is "$(first_line extract badver -o badver.kabi)" \
	"1|kabi-diff: badver: bad ELF header: version 2 (EV_CURRENT is 1)|0" "ELF header version 2: named"
test ! -e badver.kabi; ok $? "  nothing written"

done_testing
