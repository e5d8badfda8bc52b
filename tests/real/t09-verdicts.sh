#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The verdicts established by reading the kernel sources, one file per pair
# in tests/real/verdicts/ ("VERDICT RULE SUBJECT | why", and the report's
# totals on a "summary" line), held against kabi-diff's report with the
# starter contract: every listed change has exactly that verdict, every
# breaking change of the report is listed, and the totals are the file's.
# Pairs: 6.1.0-47 -> 6.12.107 (vmlinux), 6.1.0-47 -> 6.1.0-57 and
# 6.1.0-47 -> 6.12.107 as kernel directories (vmlinux, modules, headers:
# fetch --modules --headers), and the arm64 builds of 6.1.0-47 -> 6.12.107
# as kernel directories.
. "$KD_SRCDIR/lib.sh"

K=${KABI_KERNELS:-/root/.cache/kabi-kernels}
old=6.1.0-47-amd64 stable=6.1.0-57-amd64 new=6.12.107+deb12-amd64
spec=$KD_SRCDIR/../spec/contract
export XDG_CACHE_HOME=$KD_TMPDIR/t09-cache

# check_verdicts FILE REPORT.json
check_verdicts() {
	f=$1 r=$2 name=$(basename "$1" .txt)
	want=$(sed -n 's/^summary //p' "$f")
	got=$(jq -r '.summary.total | "breaking \(.breaking) source \(.source) compatible \(.compatible) info \(.info)"' "$r")
	is "$got" "$want" "$name: totals"
	grep -v '^#' "$f" | grep -v '^summary ' | sed 's/ | .*//' | sort >"$name.want"
	# Each listed change, as the report judges it (absent: "missing").
	while read -r verdict rule subject; do
		v=$(jq -r --arg r "$rule" --arg s "$subject" \
			'[.changes[] | select(.rule == $r and .subject == $s) | .verdict] | first // "missing"' "$r")
		echo "$v $rule $subject"
	done <"$name.want" | sort >"$name.got"
	is "$(cat "$name.got")" "$(cat "$name.want")" "$name: every listed change has the verdict established from the sources"
	jq -r '.changes[] | select(.verdict == "breaking") | "breaking \(.rule) \(.subject)"' "$r" | sort >"$name.breaking"
	is "$(comm -23 "$name.breaking" "$name.want")" "" "$name: no breaking change the file does not list"
}

# kdir RELEASE: a kernel directory (vmlinux, include, modules), or fail.
kdir() {
	[ -r "$K/$1/vmlinux" ] && [ -d "$K/$1/include/uapi" ] && [ -d "$K/$1/modules" ] && echo "$K/$1"
}

V=$KD_REALDIR/verdicts
# diff_verdicts OLD NEW OUT RC WHAT VERDICTS: OLD -> NEW with the contract in
# JSON into OUT, exit status RC, and the verdicts $V/VERDICTS lists.
diff_verdicts() {
	"$KABI_DIFF" "$1" "$2" --spec "$spec" -q -f json >"$3"
	is "$?" "$4" "$5"
	check_verdicts "$V/$6" "$3"
}

if [ -r "$K/$old/vmlinux" ] && [ -r "$K/$new/vmlinux" ]; then
	diff_verdicts "$K/$old/vmlinux" "$K/$new/vmlinux" vm.json 20 \
		"$old -> $new (vmlinux): exit 20, no breaking bit" 6.1.0-47-to-6.12.107-vmlinux.txt
else
	skip "$old or $new not in $K"
fi
if d0=$(kdir $old) && d1=$(kdir $stable); then
	diff_verdicts "$d0" "$d1" st.json 20 \
		"$old -> $stable (directories): exit 20, no breaking bit" 6.1.0-47-to-6.1.0-57-dirs.txt
else
	skip "$old or $stable: no modules or headers in $K (fetch --modules --headers $stable)"
fi
if d0=$(kdir $old) && d2=$(kdir $new); then
	diff_verdicts "$d0" "$d2" dir.json 28 "$old -> $new (directories): exit 28" \
		6.1.0-47-to-6.12.107-dirs.txt
else
	skip "$old or $new: no modules or headers in $K"
fi
a0=6.1.0-47-arm64 a1=6.12.107+deb12-arm64
if d0=$(kdir $a0) && d1=$(kdir $a1); then
	"$KABI_DIFF" "$d0" "$d1" --spec "$spec" -q -f json >arm.json
	is "$?" 28 "$a0 -> $a1 (directories): exit 28"
	check_verdicts "$V/6.1.0-47-to-6.12.107-arm64-dirs.txt" arm.json
else
	skip "$a0 or $a1: no modules or headers in $K (fetch --modules --headers $a0 $a1)"
fi
done_testing
