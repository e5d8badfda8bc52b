#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A spec's include may not leave the spec directory (issue 12): an
# absolute path, '..' or a link out of the directory named a secret whose
# first word the parse error then quoted ("found 'ghp_...'"); a FIFO hung
# the reader and /dev/zero read until out of memory. Each is one error
# naming the include line, no foreign content quoted, within seconds; a
# file over 16 MiB is refused; includes inside the directory still work.
. "$KD_SRCDIR/lib.sh"

scratch hostile-include
echo 'ghp_0123456789abcdef' > secret
mkdir -p spec/sub
printf 'flags f_flags {\n\tA = 1;\n}\n' > spec/sub/ok.kabispec

# lint LINE: a spec whose one file includes LINE; "EXIT|stderr".
lint() {
	printf 'include "%s";\n' "$1" > spec/a.kabispec
	timeout 20 "$KABI_DIFF" spec lint spec >out.txt 2>err.txt
	echo "$?|$(cat err.txt)"
}
stay="includes stay in the spec directory"
end="kabi-diff: spec: the spec has errors"

is "$(lint sub/ok.kabispec)" "0|" "an include inside the directory: read"
grep -q "1 flag sets" out.txt; ok $? "  its flag set counted"
is "$(lint "$PWD/secret")" "1|kabi-diff: spec/a.kabispec:1:1: cannot include '$PWD/secret': an absolute path; $stay
$end" "an absolute include: refused, unread"
out="outside the spec directory; includes stay in it"
is "$(lint ../secret)" "1|kabi-diff: spec/a.kabispec:1:1: cannot include '../secret': $out
$end" "include '../secret': refused"
is "$(lint sub/../../secret)" "1|kabi-diff: spec/a.kabispec:1:1: cannot include 'sub/../../secret': $out
$end" "include 'sub/../../secret': refused"
printf 'include "../a.kabispec";\n' > spec/sub/up.kabispec
printf 'include "sub/up.kabispec";\ninclude "sub/ok.kabispec";\n' > spec/a.kabispec
timeout 20 "$KABI_DIFF" spec lint spec >out.txt 2>err.txt
is "$?|$(cat err.txt)" "0|" "  '..' that stays inside the directory: read"
rm spec/sub/up.kabispec
ln -s "$PWD/secret" spec/innocent.h
is "$(lint innocent.h)" "1|kabi-diff: spec/a.kabispec:1:1: cannot include 'innocent.h': $out
$end" "a link out of the directory: refused"
ln -s /dev/zero spec/zero.h
is "$(lint zero.h)" "1|kabi-diff: spec/a.kabispec:1:1: cannot include 'zero.h': $out
$end" "a link to /dev/zero: refused"
mkfifo spec/fifo.h
is "$(lint fifo.h)" "1|kabi-diff: spec/a.kabispec:1:1: cannot include 'spec/fifo.h': not a regular file
$end" "a FIFO: refused, no hang"
mknod spec/zero-dev.h c 1 5 2>/dev/null && {
	is "$(lint zero-dev.h)" "1|kabi-diff: spec/a.kabispec:1:1: cannot include 'spec/zero-dev.h': not a regular file
$end" "a device node (/dev/zero's numbers): refused"
} || skip "a device node: mknod needs root"
head -c $((16 * 1024 * 1024 + 1)) /dev/zero | tr '\0' ' ' > spec/big.h
is "$(lint big.h)" "1|kabi-diff: spec/a.kabispec:1:1: cannot include 'spec/big.h': larger than 16 MiB, the limit of a spec file
$end" "a file of 16 MiB + 1 byte: refused"
head -c $((16 * 1024 * 1024)) /dev/zero | tr '\0' ' ' > spec/big.h
is "$(lint big.h)" "0|" "  16 MiB exactly: read"
rm -f spec/big.h spec/zero-dev.h
grep -rq ghp_ err.txt; is "$?" 1 "  no secret quoted"

# Includes nest at most 16 deep (SPEC_MAX_INCLUDE_DEPTH): a chain of 20.
mkdir -p deep
for i in $(seq 0 19); do printf 'include "i%d.h";\n' $((i + 1)) > deep/i$i.h; done
printf 'fdkind z;\n' > deep/i20.h && printf 'include "i0.h";\n' > deep/a.kabispec
timeout 20 "$KABI_DIFF" spec lint deep >out.txt 2>err.txt
is "$?|$(cat err.txt)" "1|kabi-diff: deep/i15.h:1:1: includes nested too deeply (more than 16 levels)
kabi-diff: deep: the spec has errors" "includes 20 deep: an error at the 17th"
rm deep/i15.h && printf 'fdkind z;\n' > deep/i15.h
timeout 20 "$KABI_DIFF" spec lint deep >out.txt 2>err.txt
is "$?|$(cat err.txt)" "0|" "  16 deep: read"

# Spec files of the directory itself may link out (a directory of links to
# the starter contract), but only to a *.kabispec, never read otherwise.
rm -f spec/a.kabispec
notspec="links to a file not named *.kabispec outside the spec directory"
ln -s "$PWD/secret" spec/leak.kabispec
timeout 20 "$KABI_DIFF" spec lint spec >out.txt 2>err.txt
is "$?|$(cat err.txt)" "1|kabi-diff: spec/leak.kabispec: $notspec" \
	"a *.kabispec linking to a secret: refused, unread"
rm spec/leak.kabispec
ln -s /dev/zero spec/zero.kabispec
timeout 20 "$KABI_DIFF" spec lint spec >out.txt 2>err.txt
is "$?|$(cat err.txt)" "1|kabi-diff: spec/zero.kabispec: $notspec" "a *.kabispec linking to /dev/zero: refused"
rm spec/zero.kabispec
printf 'flags g_flags {\n\tB = 2;\n}\n' > elsewhere.kabispec
ln -s "$PWD/elsewhere.kabispec" spec/g.kabispec
timeout 20 "$KABI_DIFF" spec lint spec >out.txt 2>err.txt
is "$?|$(cat err.txt)" "0|" "a *.kabispec linking to another *.kabispec: read"
rm spec/g.kabispec
mkfifo spec/pipe.kabispec
timeout 20 "$KABI_DIFF" spec lint spec >out.txt 2>err.txt
is "$?|$(cat err.txt)" "1|kabi-diff: spec/pipe.kabispec: cannot read: not a regular file" \
	"a FIFO named *.kabispec: refused, no hang"

done_testing
