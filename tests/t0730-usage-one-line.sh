#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A usage error is one line naming what was wrong and one pointing at the
# command's --help, as git says it (issue 29, item 8): the whole --help
# (up to 45 lines) after it scrolled the error off the screen. getopt's
# own message ("diff: unrecognized option") is not printed as well.
. "$KD_SRCDIR/lib.sh"

scratch usage-one-line

# usage CMD...: "EXIT|stderr|bytes on stdout".
usage() {
	"$KABI_DIFF" "$@" >out.txt 2>err.txt
	echo "$?|$(cat err.txt)|$(wc -c <out.txt)"
}

is "$(usage diff a b --bogus)" "2|kabi-diff: diff: unknown option '--bogus'
kabi-diff: see 'kabi-diff diff --help'|0" "diff --bogus: the option named, a pointer to --help"
is "$(usage a b --bogus=1)" "2|kabi-diff: diff: unknown option '--bogus'
kabi-diff: see 'kabi-diff diff --help'|0" "  the headline form: the same, without its value"
is "$(usage diff a b -qz)" "2|kabi-diff: diff: unknown option '-z'
kabi-diff: see 'kabi-diff diff --help'|0" "  a letter in a cluster: that letter"
is "$(usage diff a b --s x)" "2|kabi-diff: diff: option '--s' is ambiguous
kabi-diff: see 'kabi-diff diff --help'|0" "  an ambiguous abbreviation: said so"
is "$(usage diff a b --full=3)" "2|kabi-diff: diff: option '--full' takes no argument
kabi-diff: see 'kabi-diff diff --help'|0" "  a value to a flag: said so"
is "$(usage check k.kabi --spec)" "2|kabi-diff: check: option '--spec' needs an argument
kabi-diff: see 'kabi-diff check --help'|0" "check --spec without DIR"
is "$(usage check k.kabi -s)" "2|kabi-diff: check: option '-s' needs an argument
kabi-diff: see 'kabi-diff check --help'|0" "  -s without DIR"
is "$(usage diff a b c)" "2|kabi-diff: diff: expected OLD and NEW, got 3 arguments
kabi-diff: see 'kabi-diff diff --help'|0" "three inputs: the count, then the pointer"
is "$(usage show k.kabi bogus)" "2|kabi-diff: show: unknown item 'bogus'
kabi-diff: see 'kabi-diff show --help'|0" "show: an unknown item"
# show parses its options as every command does (it said "unexpected
# argument '--bogus'" for an option it did not know).
is "$(usage show k.kabi struct x --bogus)" "2|kabi-diff: show: unknown option '--bogus'
kabi-diff: see 'kabi-diff show --help'|0" "show: an unknown option named as such"
is "$(usage show k.kabi struct x --abi)" "2|kabi-diff: show: option '--abi' needs an argument
kabi-diff: see 'kabi-diff show --help'|0" "  --abi without its ABI"
is "$(usage show k.kabi struct x y)" "2|kabi-diff: show: unexpected argument 'y'
kabi-diff: see 'kabi-diff show --help'|0" "  a fourth operand"
is "$(usage extract)" "2|kabi-diff: extract: expected one VMLINUX, got 0 arguments
kabi-diff: see 'kabi-diff extract --help'|0" "extract without input"
is "$(usage matrix k1 --format xml)" "2|kabi-diff: matrix: unknown format 'xml' (text, json or md)
kabi-diff: see 'kabi-diff matrix --help'|0" "matrix: an unknown format"
is "$(usage probe k.kabi --kernel v --timeout 0)" "2|kabi-diff: --timeout: seconds, 1..3600
kabi-diff: see 'kabi-diff probe --help'|0" "probe: a bad timeout"
is "$(usage probe k.kabi --bogus)" "2|kabi-diff: probe: unknown option '--bogus'
kabi-diff: see 'kabi-diff probe --help'|0" "probe: an unknown option (it said nothing of its own)"
is "$(usage spec init k.kabi --bogus)" "2|kabi-diff: spec: unknown option '--bogus'
kabi-diff: see 'kabi-diff spec --help'|0" "spec init: an unknown option"
is "$(usage spec frob)" "2|kabi-diff: unknown subcommand 'frob'
kabi-diff: see 'kabi-diff spec --help'|0" "spec: an unknown subcommand"
is "$(usage frob)" "2|kabi-diff: 'frob' is not a command; see 'kabi-diff --help'|0" \
	"an unknown command: one line"
# The headline form's options may come first (`kabi-diff -q OLD NEW`,
# which said "'-q' is not a command"); an option no command knows is
# diff's usage error.
old=$(fixture_db v1-dwarf5 -gdwarf-5) && new=$(fixture_db v2-dwarf5 -gdwarf-5 -DKABI_V2)
"$KABI_DIFF" -q "$old" "$new" -f json >lead.json 2>err.txt
is "$?|$(wc -c <err.txt)|$(jq -r .new.release lead.json)" "12|0|6.99.2-fixture" \
	"kabi-diff -q OLD NEW -f json: compared, quiet"
is "$(usage --bogus)" "2|kabi-diff: diff: unknown option '--bogus'
kabi-diff: see 'kabi-diff diff --help'|0" "kabi-diff --bogus: diff's unknown option"
is "$(usage -q)" "2|kabi-diff: diff: expected OLD and NEW, got 0 arguments
kabi-diff: see 'kabi-diff diff --help'|0" "kabi-diff -q alone: no inputs"

# --help itself is the whole text, on standard output, exit 0.
"$KABI_DIFF" diff --help >out.txt 2>err.txt
is "$?|$(head -1 out.txt)|$(wc -c <err.txt)" "0|usage: kabi-diff OLD NEW [options]|0" "diff --help: the usage, exit 0"

# kabi-gate says its usage errors as kabi-diff does; --help on stdout.
gate=$KD_SRCDIR/../contrib/ci/kabi-gate
sh "$gate" check base.kabi >out.txt 2>err.txt
is "$?|$(cat err.txt)|$(wc -c <out.txt)" "2|kabi-gate: check needs a BASELINE and a BUILD
kabi-gate: see 'kabi-gate --help'|0" "kabi-gate check without BUILD: one line and the pointer"
sh "$gate" check base.kabi mr --bogus >/dev/null 2>err.txt
is "$?|$(cat err.txt)" "2|kabi-gate: check: unknown option '--bogus'
kabi-gate: see 'kabi-gate --help'" "  an unknown option named"
sh "$gate" --help >out.txt 2>err.txt
is "$?|$(head -1 out.txt)|$(wc -c <err.txt)" "0|kabi-gate: the user-space ABI as a merge gate (see doc/ci.md).|0" \
	"kabi-gate --help: the text on standard output, exit 0"

done_testing
