#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Which types a header of the tree declares is decided from where the
# declaration is, not from the file name a line directive gives it (issue
# 25, R33): `#line 1 "/usr/include/stdio.h"` before a struct made DWARF's
# decl_file glibc's, the header view dropped the struct as a C library
# type, and its growth from 4 to 16 bytes was "No changes". Every line
# directive of the tree's files is read (line_names_internal.h): the
# #line and GNU forms, the "%:" digraph, escapes in the name, a name a
# macro gives, a file outside the roots (asm-generic/), one behind a NUL
# byte. Each struct is in the header view, declared by the header that
# wrote it, at its physical line; the C library's own types still are not.
. "$KD_SRCDIR/lib.sh"

scratch line-directive
XDG_CACHE_HOME=$PWD/cache
export XDG_CACHE_HOME

# tree DIR SIZE_TYPE: linux/pq.h hiding its structs behind line directives.
tree() {
	header_tree "$1"
	cat >"$1/linux/pq.h" <<HDR
#ifndef PQ_H
#define PQ_H
#include <sys/time.h>
#include <asm-generic/pq_gen.h>
struct keep_t { struct timeval tv; };
#line 1 "/usr/include/stdio.h"
struct hide_line { $2 a; };
# 20 "/usr/include/x86_64-linux-gnu/bits/types.h" 1 3
struct hide_gnu { $2 a; };
%:line 7 "<built-in>"
struct hide_digraph { $2 a; };
#line 3 "\\057etc\\057passwd"
struct hide_escaped { $2 a; };
#endif
HDR
	printf '#line 1 "/usr/include/stdint.h"\nstruct hide_generic { %s a; };\n' "$2" >"$1/asm-generic/pq_gen.h"
	printf 'struct nul_t { int a; };\n\000\n#line 4 "/usr/include/unistd.h"\nstruct hide_nul { %s a; };\n' \
		"$2" >"$1/linux/pq_nul.h"
}
tree old int
tree new long
for t in old new; do "$KABI_DIFF" extract -q --uapi $t -o $t.kabi || ok 1 "extract $t"; done
decl() {
	q "$1" "SELECT t.name || ' ' || u.file || ':' || u.line FROM uapi_types u JOIN types t ON t.id = u.type_id
		WHERE t.kind = 'struct' ORDER BY t.name"
}
line_of() { grep -n "$1" "$2" | head -1 | cut -d: -f1; }
h=new/linux/pq.h
is "$(decl new.kabi)" "hide_digraph linux/pq.h:$(($(line_of '^struct hide_digraph' $h)))
hide_escaped linux/pq.h:$(line_of '^struct hide_escaped' $h)
hide_generic asm-generic/pq_gen.h:2
hide_gnu linux/pq.h:$(line_of '^struct hide_gnu' $h)
hide_line linux/pq.h:$(line_of '^struct hide_line' $h)
hide_nul linux/pq_nul.h:4
keep_t linux/pq.h:5
nul_t linux/pq_nul.h:1" \
	"every struct behind a line directive is the tree's, at its physical line"
is "$(q new.kabi "SELECT count(*) FROM uapi_types u JOIN types t ON t.id = u.type_id WHERE t.name = 'timeval'")" 0 \
	"  glibc's struct timeval, which keep_t uses, is still no type of the tree"
is "$(q new.kabi "SELECT count(*) FROM problems")" 0 "  no problem row"

"$KABI_DIFF" old new -q --no-spec -f json >out.json
is "$?" 12 "each struct 4 -> 8 bytes: breaking, exit 12"
is "$(jq -r '[.changes[] | select(.kind == "type.size") | .subject] | join(",")' out.json)" \
	"struct hide_digraph,struct hide_escaped,struct hide_generic,struct hide_gnu,struct hide_line,struct hide_nul" \
	"  a type.size change for each"

# A file name a macro gives can be any: every type whose file is outside
# the tree is then that header's, the C library's too (doc/LIMITS.md).
header_tree mac
printf '#include <sys/time.h>\n#define PQ_FILE "/usr/include/stdlib.h"\n#line 9 PQ_FILE\nstruct hide_macro { int a; };\n' \
	>mac/linux/pq.h
"$KABI_DIFF" extract -q --uapi mac -o mac.kabi
is "$(decl mac.kabi | grep -E '^(hide_macro|timeval) ')" "hide_macro linux/pq.h:3
timeval linux/pq.h:3" \
	"#line 9 PQ_FILE: the struct is the tree's, at the directive's line; so is glibc's timeval"

# A file over the scan's limit is a problem row, not silence.
head -c $((16 * 1024 * 1024 + 1)) /dev/zero | tr '\0' ' ' >new/linux/pq_big.h
"$KABI_DIFF" extract -q --uapi new -o big.kabi
is "$?|$(q big.kabi "SELECT message FROM problems")" \
	"0|linux/pq_big.h: larger than 16 MiB, the limit of a header the view scans; its line directives are not known to the header view" \
	"a file of 16 MiB + 1 byte: a problem row"
done_testing
