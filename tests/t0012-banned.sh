#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# lib/banned.h: the calls the program's sources may not make. Each banned
# call planted in a scratch source fails to compile with the header the
# Makefile force-includes, the allowed spelling compiles, and the Makefile
# gives the header to every source outside tests/ (and only lib/mem.c
# undoes it), so the bans cannot silently stop applying.
. "$KD_SRCDIR/lib.sh"

top=$KD_SRCDIR/..
cd "$KD_TMPDIR" || exit 1
mkdir -p t0012 && cd t0012 || exit 1

# compiles CALL: whether a function calling CALL compiles under the bans.
compiles() {
	printf '#include <stdarg.h>\nvoid *f(char *d, const char *s, va_list ap)\n{\n\t(void)d; (void)s; (void)ap;\n\treturn (void *)(%s);\n}\n' "$1" >probe.c
	${CC:-cc} -std=c11 -D_GNU_SOURCE -Wall -Werror -I"$top" -include "$top/lib/banned.h" \
		-c probe.c -o probe.o 2>probe.err
}

for call in 'malloc(8)' 'calloc(1, 8)' 'realloc(d, 8)' 'strdup(s)' 'strndup(s, 2)' \
	'strcpy(d, s)' 'strcat(d, s)' 'strncpy(d, s, 2)' 'strncat(d, s, 2)' \
	'(long)sprintf(d, "%s", s)' '(long)vsprintf(d, s, ap)'; do
	compiles "$call"
	rc=$?
	grep -q 'is_banned_see_lib_banned_h' probe.err
	ok $((rc == 0 || $? != 0)) "$call does not compile under lib/banned.h"
done
compiles '(long)snprintf(d, 8, "%s", s) + (long)memcpy(d, s, 2) + (long)strlen(s)'
ok $? "snprintf, memcpy and strlen still compile"

# The Makefile's compile line of a source outside tests/ carries the header;
# a test's does not (tests call libc directly to check lib/ against it).
line=$(make -s -n -C "$top" -B V=1 build/diff/diff.o 2>/dev/null | grep -- ' -c ')
case $line in *'-include lib/banned.h'*) r=0 ;; *) r=1 ;; esac
ok $r "a diff/ source is compiled with -include lib/banned.h"
line=$(make -s -n -C "$top" -B V=1 build/tests/tap.o 2>/dev/null | grep -- ' -c ')
case $line in *'-include lib/banned.h'*) r=1 ;; *) r=0 ;; esac
ok $r "a tests/ source is not"
is "$(cd "$top" && grep -l '^#undef malloc' lib/*.c db/*.c extract/*.c extract/*/*.c \
	spec/*.c diff/*.c probe/*.c cli/*.c 2>/dev/null)" "lib/mem.c" \
	"only lib/mem.c undoes the bans"
# One way to sequence steps that may fail: `if (!err) err = step();`, never
# the `err = err ? err : step();` chains probe/ once had (issue 28, item 9).
is "$(cd "$top" && grep -n 'err = err ? err :' lib/*.c db/*.c extract/*.c extract/*/*.c spec/*.c \
	diff/*.c probe/*.c cli/*.c tests/*.c 2>/dev/null)" "" "no 'err = err ? err :' chains"
# A prefix is tested with kd_starts_with() (lib/str.h), never by a length
# counted by hand: strncmp(s, "struct ", 7) with a miscount tests another prefix.
is "$(cd "$top" && grep -nE 'strncmp\([^,]+, "[^"]*", [0-9]+\)' lib/*.c db/*.c extract/*.c \
	extract/*/*.c spec/*.c spec/*/*.c diff/*.c probe/*.c cli/*.c 2>/dev/null | grep -v '^lib/str\.c:')" "" \
	"no strncmp() against a literal with its length counted by hand"
done_testing
