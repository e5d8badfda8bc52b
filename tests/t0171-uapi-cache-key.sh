#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The UAPI compile cache never answers a tree with another tree's layouts
# (issue 25, R29), end to end:
# - two trees that differ only in a dot-file a header includes
#   (linux/.inner.h), or in what a directory link inside the tree points
#   to, have different keys: the second is compiled, and the diff of the
#   two trees finds the change with the cache warm;
# - a file reached through the tree but outside it (#include
#   "../../side.h") is verified in the tree looked up: an edit of it, the
#   tree given by a relative path, is a miss; so is the same tree at
#   another place, beside another side.h;
# - an entry whose object is another tree's (published meanwhile for the
#   same key) is a miss;
# - a tree edited while it is compiled is not stored under the key it had
#   before.
. "$KD_SRCDIR/lib.sh"

export XDG_CACHE_HOME=$PWD/cache
uc=$XDG_CACHE_HOME/kabi-diff/uapi

# mk DIR: a minimal installed tree (linux/, asm/types.h).
mk() {
	mkdir -p "$1/linux" "$1/asm" && printf '#define ASMX 2\n' >"$1/asm/types.h"
}
# ex TREE NAME: extract TREE into NAME.kabi; prints the exit status and
# whether the headers were compiled or taken from the cache.
ex() {
	timeout 120 "$KABI_DIFF" extract -q --uapi "$1" -o "$2.kabi"
	echo "$?|$(q "$2.kabi" "SELECT value FROM meta WHERE key = 'uapi_compiled'")"
}
# size NAME STRUCT: the size NAME.kabi gives struct STRUCT.
size() {
	q "$1.kabi" "SELECT group_concat(DISTINCT size) FROM types WHERE name = '$2' AND kind = 'struct'"
}

# --- a dot-file -------------------------------------------------------------------------
for t in old new; do
	mk $t && printf '#ifndef _L_A_H\n#define _L_A_H\n#include ".inner.h"\n#define FOO 1\n#endif\n' >$t/linux/a.h
done
printf 'struct hid { int a; };\n' >old/linux/.inner.h
printf 'struct hid { long a; long b; };\n' >new/linux/.inner.h
is "$(ex old old)|$(size old hid)" "0|2 of 2|4" "old tree: compiled, struct hid 4 bytes"
is "$(ex new new)|$(size new hid)" "0|2 of 2|16" "new tree, differing in linux/.inner.h only: compiled, 16 bytes"
is "$(ex new new2)|$(size new2 hid)" "0|2 of 2 (cached)|16" "  again: from its own entry"
"$KABI_DIFF" diff -q old new >/dev/null
is "$?" 12 "diff old new with the cache warm: exit 12"

# --- a directory link -------------------------------------------------------------------
mkdir o1 o2 && printf 'struct sl { int a; };\n' >o1/x.h && printf 'struct sl { long a; long b; };\n' >o2/x.h
for t in l1 l2; do
	mk $t && printf '#include <linux/sub/x.h>\n' >$t/linux/b.h
done
ln -s ../../o1 l1/linux/sub && ln -s ../../o2 l2/linux/sub
is "$(ex l1 l1)|$(size l1 sl)" "0|3 of 3|4" "linux/sub a link to o1: struct sl 4 bytes"
is "$(ex l2 l2)|$(size l2 sl)" "0|3 of 3|16" "  to o2 in another tree: compiled, 16 bytes"

# --- a file outside the tree, reached through it -----------------------------------------
mkdir -p p1 p2
for p in p1 p2; do
	mk $p/t && printf '#include "../../side.h"\n' >$p/t/linux/e.h
done
printf 'struct side { int a; };\n' >p1/side.h
printf 'struct side { long long a; };\n' >p2/side.h
is "$(cd p1 && ex t ../rel1)|$(size rel1 side)" "0|2 of 2|4" "a tree given by a relative path: side.h read, 4 bytes"
printf 'struct side { short a, b, c, d; };\n' >p1/side.h
is "$(cd p1 && ex t ../rel2)|$(size rel2 side)" "0|2 of 2|8" "  side.h edited: compiled again, 8 bytes"
printf 'struct side { int a; };\n' >p1/side.h
is "$(ex "$PWD/p1/t" abs1)|$(size abs1 side)" "0|2 of 2|4" "by its absolute path: 4 bytes"
is "$(ex "$PWD/p2/t" abs2)|$(size abs2 side)" "0|2 of 2|8" \
	"the same tree at another place, another side.h beside it: compiled, 8 bytes"
is "$(ex "$PWD/p1/t" abs3)|$(size abs3 side)" "0|2 of 2|4" "  the first again: compiled, 4 bytes"

# --- an object that is another tree's ----------------------------------------------------
is "$(ex old old2)" "0|2 of 2 (cached)" "the old tree from the cache"
so=$(ls -t "$uc"/*.idx | head -1) so=${so%.idx}.so
cp "$(ls "$uc"/*.so | grep -v "$so" | head -1)" "$so"
is "$(ex old old3)|$(size old3 hid)" "0|2 of 2|4" "  its object replaced by another's: compiled, struct hid 4 bytes"

# --- a tree edited while it is compiled --------------------------------------------------
mk m && printf 'struct mm { int a; };\n' >m/linux/m.h
cat >cc.sh <<EOF
#!/bin/sh
# gcc, that edits the tree m the first time it compiles
case " \$* " in
*" -dumpfullversion "*) ;;
*) mkdir "$PWD/edited" 2>/dev/null && printf 'struct mm { long a; long b; };\\n' >"$PWD/m/linux/m.h" ;;
esac
exec gcc "\$@"
EOF
chmod +x cc.sh
n=$(ls "$uc" | grep -c '\.idx$')
is "$(KABI_DIFF_CC=$PWD/cc.sh ex m m1)|$(ls "$uc" | grep -c '\.idx$')" "0|2 of 2|$n" \
	"a tree edited while compiled: nothing stored"
printf 'struct mm { int a; };\n' >m/linux/m.h
is "$(KABI_DIFF_CC=$PWD/cc.sh ex m m2)|$(size m2 mm)" "0|2 of 2|4" "  as it was again: compiled, 4 bytes"
done_testing
