#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The manual page: lints clean (mandoc), installs with `make install-data`
# (the data half of `make install`, with the completion and kabi-gate),
# and lists exactly the options and commands the program's --help texts
# list: every option of `kabi-diff CMD --help` is an item (.It Fl ...) of
# the page's section for CMD, and every such item is in that --help. A
# failure names the option, the command and which side lacks it.
. "$KD_SRCDIR/lib.sh"

top=$KD_SRCDIR/..
man=$top/doc/kabi-diff.1

if command -v mandoc >/dev/null 2>&1; then
	lint=$(mandoc -Tlint -W warning "$man" 2>&1); rc=$?
	is "$rc:$lint" "0:" "mandoc -Tlint: no error or warning"
	# Bold and underline are overstruck (X BS X, _ BS X); sed drops them
	# (col -b would too, but col is in bsdextrautils, which a minimal
	# Debian lacks and make deps does not install).
	text=$(mandoc -Tascii "$man" | sed 's/.\x08//g')
	echo "$text" | grep -q '^     kabi-diff - compare the user-space ABI of two Linux kernel builds$'
	ok $? "renders: NAME line"
	for s in SYNOPSIS DESCRIPTION COMMANDS OPTIONS ENVIRONMENT FILES 'EXIT STATUS' EXAMPLES 'SEE ALSO'; do
		echo "$text" | grep -qx "$s"
		ok $? "renders: section $s"
	done
else
	ok 1 "mandoc is not installed (make deps installs it)"
fi

# help_opts CMD...: the options `kabi-diff CMD --help` mentions, one a line.
help_opts() {
	"$KABI_DIFF" "$@" --help |
		grep -oE '(^|[^A-Za-z0-9_-])--?[A-Za-z][A-Za-z0-9-]*' |
		sed 's/^[^-]*//' | grep -E '^(--[a-z][a-z0-9-]+|-[A-Za-z])$' | sort -u
}

# man_opts SECTION: the options of the .It items of .Ss/.Sh SECTION.
man_opts() {
	awk -v sec="$1" '/^\.S[sh] / { cur = $2 } cur == sec && /^\.It / { print }' "$man" |
		grep -oE 'Fl \\?-?[A-Za-z][A-Za-z0-9-]*' | sed 's/^Fl \\\{0,1\}/-/' | sort -u
}

# compare WHAT SECTION CMD...
compare() {
	what=$1 sec=$2; shift 2
	h=$(help_opts "$@") m=$(man_opts "$sec")
	[ -n "$h" ]; ok $? "$what --help lists options"
	missing=$(for o in $h; do echo "$m" | grep -qx -- "$o" || echo "$o"; done)
	is "$missing" "" "every option of '$what --help' is in doc/kabi-diff.1 (section $sec); got: the ones missing there"
	extra=$(for o in $m; do echo "$h" | grep -qx -- "$o" || echo "$o"; done)
	is "$extra" "" "every option doc/kabi-diff.1 lists under $sec is in '$what --help'; got: the ones '$what --help' lacks"
}

compare "kabi-diff" OPTIONS
for c in diff extract show check spec probe; do
	compare "kabi-diff $c" "$c" "$c"
done

# The commands: the page has a subsection for each command of --help and
# no other.
cmds=$("$KABI_DIFF" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' | sort)
sections=$(awk '/^\.Sh / { cur = $2 } cur == "COMMANDS" && /^\.Ss / { print $2 }' "$man" | sort)
is "$sections" "$cmds" "doc/kabi-diff.1 has a subsection under COMMANDS for each command of 'kabi-diff --help'"

# The exit status section names every status the program uses.
for st in 0 1 2 4 12; do
	awk '/^\.Sh EXIT STATUS/ { on = 1; next } /^\.Sh / { on = 0 } on' "$man" | grep -qx "\.It $st"
	ok $? "EXIT STATUS lists $st"
done

# make install-data puts the page and the completion in place.
inst=$KD_TMPDIR/t0700-inst
make -s -C "$top" install-data DESTDIR="$inst" PREFIX=/usr >/dev/null
ok $? "make install-data"
cmp -s "$man" "$inst/usr/share/man/man1/kabi-diff.1"
ok $? "installs usr/share/man/man1/kabi-diff.1"
cmp -s "$top/contrib/bash-completion/kabi-diff" "$inst/usr/share/bash-completion/completions/kabi-diff"
ok $? "installs usr/share/bash-completion/completions/kabi-diff"
cmp -s "$top/contrib/ci/kabi-gate" "$inst/usr/bin/kabi-gate" && [ -x "$inst/usr/bin/kabi-gate" ]
ok $? "installs the CI gate, usr/bin/kabi-gate, executable"
if command -v man >/dev/null 2>&1 && command -v mandoc >/dev/null 2>&1; then
	MANPATH=$inst/usr/share/man MANPAGER=cat man -w kabi-diff 2>/dev/null | grep -q "$inst/usr/share/man/man1/kabi-diff.1"
	ok $? "man -w finds the installed page under its MANPATH"
fi

done_testing
