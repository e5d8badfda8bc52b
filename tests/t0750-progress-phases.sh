#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Progress of a diff off a terminal (issue 29, item 7): a CI log showed
# nothing between "extracting" and "extracted" (50-75 s a side on a real
# kernel), and every line repeated the ~250-character input path. Now one
# line per phase, with counts and rates, the parts named inside the input
# as given and the cache entry by its file name; -q says nothing. When
# both sides are extracted each line starts with its side ("old: ",
# "new: "): the two run at once when neither has modules, and their
# lines alternate. An input over 40 characters is named by its last
# component.
. "$KD_SRCDIR/lib.sh"

k1=$(fixture_kernel v1-dwarf5 -gdwarf-5) && db=$(fixture_db v1-dwarf5 -gdwarf-5) ||
	{ ok 1 "fixture kernel"; done_testing; }
scratch progress-phases
export XDG_CACHE_HOME=$PWD/cache
uapi=$KD_SRCDIR/fixtures/kernel-uapi
mkdir -p A/modules && cp "$k1" A/vmlinux && cp -R "$uapi" A/include &&
	gcc -g -O2 -c -DFXMOD_NAME='"fxmod"' "$KD_SRCDIR/fixtures/module.c" -o A/modules/fxmod.ko
ok $? "a kernel directory: vmlinux, include/, modules/"

"$KABI_DIFF" "$db" A >/dev/null 2>err.txt
is "$?" 0 "the kernel's .kabi against its directory (what both cover): exit 0"
# Times, rates and the cache key vary: replaced.
sed -e 's/[0-9][0-9.]* s\b/T s/g' -e 's/([0-9]* a second)/(R a second)/' \
	-e 's/[0-9a-f]\{40\}-um-[0-9a-f]*\.kabi/ID.kabi/' -e 's/, [0-9]* at a time/, J at a time/' \
	err.txt >phases.txt
is "$(cat phases.txt)" "kabi-diff: new: A (kernel cache): vmlinux vmlinux, UAPI headers include, modules modules
kabi-diff: new: extracting A into ID.kabi
kabi-diff: new: reading the syscall signatures of vmlinux
kabi-diff: new: reading the modules under modules
kabi-diff: new: read 1 modules in T s (R a second)
kabi-diff: new: compiling 3 of 3 UAPI headers for x86_64, 0 cached (/usr/bin/gcc, J at a time)
kabi-diff: new: compiled 3 UAPI headers for x86_64 in T s (R a second)
kabi-diff: new: reading the UAPI headers' constants and ioctls
kabi-diff: new: extracted A in T s" \
	"off a terminal: a line per phase, the parts inside A, the cache entry by its name" ||
	sed 's/^/# /' err.txt
awk 'length > 120' err.txt >long.txt
is "$(wc -l <long.txt)" 0 "  no line over 120 characters"

# Both sides extracted, one after the other (A has modules): each line
# names its side; OLD, a path of 57 characters, by its last component.
# Both are looked up in the cache first, then extracted; the new side's
# headers are the old one's, compiled already (no compile line).
k2=$(fixture_kernel v2-dwarf5 -gdwarf-5 -DKABI_V2) || { ok 1 "fixture kernel V2"; done_testing; }
long=builds/a-long-directory-name-for-the-ci/linux-6.99-old
mkdir -p "$long" B && cp "$k2" "$long/vmlinux" && cp -R "$uapi" "$long/include" &&
	cp "$k2" B/vmlinux && cp -R "$uapi" B/include
ok $? "$long (${#long} characters) and B: the V2 kernel and its headers, no modules"
rm -rf cache
"$KABI_DIFF" "$long" A >/dev/null 2>err.txt
is "$?" 12 "$long against A: both extracted, exit 12"
sed -e 's/[0-9][0-9.]* s\b/T s/g' -e 's/([0-9]* a second)/(R a second)/' \
	-e 's/[0-9a-f]\{40\}-u\{0,1\}m\{0,1\}-[0-9a-f]*\.kabi/ID.kabi/' -e 's/, [0-9]* at a time/, J at a time/' \
	err.txt >phases.txt
is "$(cat phases.txt)" "kabi-diff: old: linux-6.99-old (kernel cache): vmlinux vmlinux, UAPI headers include, modules none
kabi-diff: old: extracting linux-6.99-old into ID.kabi
kabi-diff: new: A (kernel cache): vmlinux vmlinux, UAPI headers include, modules modules
kabi-diff: new: extracting A into ID.kabi
kabi-diff: old: reading the syscall signatures of vmlinux
kabi-diff: old: compiling 3 of 3 UAPI headers for x86_64, 0 cached (/usr/bin/gcc, J at a time)
kabi-diff: old: compiled 3 UAPI headers for x86_64 in T s (R a second)
kabi-diff: old: reading the UAPI headers' constants and ioctls
kabi-diff: old: extracted linux-6.99-old in T s
kabi-diff: new: reading the syscall signatures of vmlinux
kabi-diff: new: reading the modules under modules
kabi-diff: new: read 1 modules in T s (R a second)
kabi-diff: new: reading the UAPI headers' constants and ioctls
kabi-diff: new: extracted A in T s" \
	"  every line starts with its side, 'old: ' then 'new: '" || sed 's/^/# /' err.txt

# Side by side (no modules either side): the lines alternate, each with
# its side; each side's lines in order.
rm -rf cache
"$KABI_DIFF" A/vmlinux B >/dev/null 2>err.txt
is "$?" 12 "A/vmlinux against B: extracted at once, exit 12"
is "$(grep -vc -e '^kabi-diff: old: ' -e '^kabi-diff: new: ' err.txt)|$(wc -l <err.txt)" "0|10" \
	"  each of its 10 lines starts with 'old: ' or 'new: '" || sed 's/^/# /' err.txt
is "$(sed -n 's/^kabi-diff: old: //p' err.txt | sed -e 's/[0-9][0-9.]* s$/T s/' \
	-e 's/[0-9a-f]\{40\}-[0-9a-f]*\.kabi/ID.kabi/' | tr '\n' '|')" \
	"extracting A/vmlinux into ID.kabi|reading the syscall signatures of vmlinux|extracted A/vmlinux in T s|" \
	"  the old side's lines, in order"
is "$(grep -c '^kabi-diff: new: extracted B in ' err.txt)" 1 "  the new side's last"

rm -rf cache
"$KABI_DIFF" -q "$db" A >/dev/null 2>err.txt
is "$?|$(wc -c <err.txt)" "0|0" "-q: nothing"

done_testing
