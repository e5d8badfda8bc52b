#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The header compiler reads nothing outside the header tree and its own
# system include directories (extract/uapi/compile-confine.c): gcc follows
# `#include "/abs/path"` and "../../x" anywhere, and quoted the file it
# read into the problem rows and stderr (a token file, redteam R30). A
# header that reads outside is refused, its message not shown: through an
# absolute path, through "../..", through a link in the tree, and one
# that compiles (an enumerator whose value is another file's content,
# which would have gone into the .kabi); an error in an outside file that
# ends in a fatal error (no list of what was read) is not quoted either.
# The C library's headers stay allowed.
. "$KD_SRCDIR/lib.sh"

KABI_DIFF_NO_UAPI_CACHE=1
export KABI_DIFF_NO_UAPI_CACHE
top=$PWD
mkdir -p secret u/linux u/asm
printf 'API_KEY=ghp_R3alLookingT0kenValue0123456789\n' >secret/token
printf '4242\n' >secret/number
echo '#define KX_ARCH 1' >u/asm/kxarch.h
printf '#include "%s/secret/token"\nstruct evil { int a; };\n' "$top" >u/linux/abs.h
printf '#include "../../secret/token"\n' >u/linux/rel.h
ln -s "$top/secret/token" u/linux/tok.inc
printf '#include "tok.inc"\n' >u/linux/via_link.h
printf 'enum { LEAKED = \n#include "%s/secret/number"\n};\n' "$top" >u/linux/num.h
printf '#include "%s/secret/token"\n;\n#include <linux/not_there.h>\n' "$top" >u/linux/fatal.h
printf '#include <sys/socket.h>\nstruct uses_libc { struct sockaddr sa; };\n' >u/linux/libc.h

"$KABI_DIFF" extract --uapi u -o u.kabi 2>err.txt
is "$?" 0 "extract: exit 0"
outside="a file outside the header tree and the compiler's include directories"
is "$(q u.kabi "SELECT location || ': ' || message FROM problems WHERE stage = 'uapi'
	AND message LIKE 'does not compile on its own%' ORDER BY location")" \
"linux/abs.h: does not compile on its own, so its types have no header view: it reads $top/secret/token, $outside
linux/fatal.h: does not compile on its own, so its types have no header view: an error in $top/secret/token, $outside (not shown)
linux/num.h: does not compile on its own, so its types have no header view: it reads $top/secret/number, $outside
linux/rel.h: does not compile on its own, so its types have no header view: it reads linux/../../secret/token, $outside
linux/via_link.h: does not compile on its own, so its types have no header view: it reads linux/tok.inc, $outside" \
	"each header that reads outside the tree is refused, saying which file"
n=$( (q u.kabi "SELECT message FROM problems"; cat err.txt) | grep -c 'ghp_R3al')
is "$n" 0 "  the token's text is in no problem row and not on stderr"
is "$(q u.kabi "SELECT count(*) FROM enumerators WHERE name = 'LEAKED' OR value = 4242")" 0 \
	"  the header that compiled with the outside file's bytes adds nothing to the .kabi"
is "$(q u.kabi "SELECT t.size FROM uapi_types u JOIN types t ON t.id = u.type_id WHERE t.name = 'uses_libc'")" 16 \
	"  a header that includes the C library's <sys/socket.h> compiles"
is "$(q u.kabi "SELECT value FROM meta WHERE key = 'uapi_compiled'")" "2 of 7" "  2 of 7 headers compiled"
done_testing
