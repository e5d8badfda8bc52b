#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Progress of a diff off a terminal (issue 29, item 7): a CI log showed
# nothing between "extracting" and "extracted" (50-75 s a side on a real
# kernel), and every line repeated the ~250-character input path. Now one
# line per phase, with counts and rates, the parts named inside the input
# as given and the cache entry by its file name; -q says nothing.
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
is "$(cat phases.txt)" "kabi-diff: A (kernel cache): vmlinux vmlinux, UAPI headers include, modules modules
kabi-diff: extracting A into ID.kabi
kabi-diff: reading the syscall signatures of vmlinux
kabi-diff: reading the modules under modules
kabi-diff: read 1 modules in T s (R a second)
kabi-diff: compiling 3 of 3 UAPI headers for x86_64, 0 cached (/usr/bin/gcc, J at a time)
kabi-diff: compiled 3 UAPI headers for x86_64 in T s (R a second)
kabi-diff: reading the UAPI headers' constants and ioctls
kabi-diff: extracted A in T s" \
	"off a terminal: a line per phase, the parts inside A, the cache entry by its name" ||
	sed 's/^/# /' err.txt
awk 'length > 120' err.txt >long.txt
is "$(wc -l <long.txt)" 0 "  no line over 120 characters"
rm -rf cache
"$KABI_DIFF" -q "$db" A >/dev/null 2>err.txt
is "$?|$(wc -c <err.txt)" "0|0" "-q: nothing"

done_testing
