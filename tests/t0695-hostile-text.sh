#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Text from the inputs is printed escaped (issue 12): a release string
# or a name with terminal escape sequences went raw to the terminal
# (ESC ]0; retitled it, ESC [2J cleared it), and Markdown or HTML in a
# name became markup in a pull-request comment. The text report shows
# control characters as \xNN; the Markdown report shows names as written,
# never as markup; JSON keeps the exact bytes; show escapes as the text
# report does.
. "$KD_SRCDIR/lib.sh"

good=$(fixture_db v1-dwarf5 -gdwarf-5) || { ok 1 "fixture"; done_testing; }
scratch hostile-text

cp "$good" evil.kabi
q evil.kabi "UPDATE meta SET value = '6.99' || char(27) || ']0;pwned' || char(7) || char(27) || '[2J'
	WHERE key = 'release';
	UPDATE types SET name = 'fx' || char(27) || '[8m<img src=x onerror=alert(1)>**[x](http://e)**'
	WHERE name = 'fx_node'"

"$KABI_DIFF" diff "$good" evil.kabi --color=never >text.txt 2>err.txt
is "$?|$(cat err.txt)" "12|" "diff against it: exit 12"
is "$(tr -d '\n' <text.txt | tr -dc '\000-\037\177' | wc -c)" 0 "text: no control character but newlines"
is "$(head -n 1 text.txt | sed 's/ (.*) -> / -> /; s/ (.*)$//')" \
	'kabi-diff: 6.99.1-fixture -> 6.99\x1b]0;pwned\x07\x1b[2J' "  the release shown as \\xNN"
grep -q 'struct fx\\x1b\[8m<img src=x onerror=alert(1)>\*\*\[x\](http://e)\*\*' text.txt
ok $? "  the name shown as written, ESC as \\x1b"

"$KABI_DIFF" diff "$good" evil.kabi -f md >md.txt 2>/dev/null
is "$(tr -d '\n' <md.txt | tr -dc '\000-\037\177' | wc -c)" 0 "markdown: no control character but newlines"
sed 's/`[^`]*`//g' md.txt >md-text.txt	# code spans show text as written: no markup there
lacks md-text.txt '<img|\*\*\[' "  no HTML tag or Markdown of the input outside code spans"
is "$(head -n 1 md.txt)" '## kabi-diff: `6.99.1-fixture` → `6.99\x1b]0;pwned\x07\x1b[2J`' \
	"  the release in a code span, escaped"
grep -q 'fx\\x1b\[8m&lt;img src=x onerror=alert\\(1\\)&gt;\\\*\\\*\\\[x\\\]\\(http://e\\)\\\*\\\*' md.txt ||
	grep -q '`struct fx\\x1b\[8m<img' md.txt
ok $? "  the name as text (entities and backslashes) or in a code span"

"$KABI_DIFF" diff "$good" evil.kabi -f json >j.json 2>/dev/null
is "$(jq -r '.new.release' j.json | od -An -c | tr -s ' ' | head -n 1)" \
	"$(printf '6.99\033]0;pwned\007\033[2J\n' | od -An -c | tr -s ' ' | head -n 1)" "json: the exact bytes"

"$KABI_DIFF" show evil.kabi info >info.txt 2>err.txt
is "$?|$(cat err.txt)|$(grep '^release' info.txt)" \
	'0||release         6.99\x1b]0;pwned\x07\x1b[2J' "show info: the release shown as \\xNN"
"$KABI_DIFF" show evil.kabi syscall fxlegacy >sc.txt 2>/dev/null
is "$?|$(tr -d '\n\t' <sc.txt | tr -dc '\000-\037\177' | wc -c)" "0|0" \
	"show syscall: no control character but newlines and tabs"
grep -q 'struct fx\\x1b\[8m<img' sc.txt; ok $? "  the name shown, ESC as \\x1b"

done_testing
