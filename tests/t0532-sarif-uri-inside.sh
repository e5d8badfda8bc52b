#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SARIF physical locations stay inside the kernel's source tree (issue 25,
# R37): DWARF's decl_file is whatever a #line says, so a struct declared
# after `#line 9 "../../../../etc/passwd"` gave an artifactLocation.uri
# leaving SRCROOT, and `#line 1 "/etc/passwd"` a file: URI anywhere. A
# path with a "." or ".." segment, or an absolute one, now gives the result
# its logical location only; relative paths of the tree keep theirs. A
# fixture kernel built here, from a relative path, with those #lines; and
# two header trees, whose types are where the header view says.
. "$KD_SRCDIR/lib.sh"

scratch sarif-uri
cp "$KD_SRCDIR/fixtures/kernel.c" "$KD_SRCDIR/fixtures/build-kernel.sh" .
# Before struct fx_bits: a path up and out; before struct fx_node: an
# absolute one; before the syscalls: a "." segment inside the tree.
sed -i -e 's|^struct fx_bits {$|#line 200 "../../../../etc/passwd"\n&|' \
	-e 's|^struct fx_node {$|#line 1 "/etc/passwd"\n&|' \
	-e 's|^#define __MAP0(m, ...)$|#line 300 "include/./x.h"\n&|' kernel.c
is "$(grep -c '^#line [0-9]* "\(\.\./\|/etc/\|include/\./\)' kernel.c)" 3 \
	"three #line directives planted in the fixture kernel"
sh ./build-kernel.sh v1 -gdwarf-5 && sh ./build-kernel.sh v2 -gdwarf-5 -DKABI_V2 &&
	"$KABI_DIFF" extract -q v1 -o v1.kabi && "$KABI_DIFF" extract -q v2 -o v2.kabi
ok $? "both kernels built from ./kernel.c and extracted"
"$KABI_DIFF" v1.kabi v2.kabi -q -f sarif >out.sarif
is "$?" 12 "diff -f sarif: exit 12"

# loc SUBJECT: "uri|uriBaseId|line|logical name" of its result.
loc() {
	jq -r --arg s "$1" '.runs[0].results[] | select(.properties.subject == $s) | .locations[0] as $l |
		"\($l.physicalLocation.artifactLocation.uri // "-")|\($l.physicalLocation.artifactLocation.uriBaseId // "-")|\($l.physicalLocation.region.startLine // "-")|\($l.logicalLocations[0].name)"' out.sarif
}
line_of() { grep -n "$1" "$2" | head -1 | cut -d: -f1; }
is "$(loc 'struct open_how')" "kernel.c|SRCROOT|$(line_of '^struct open_how {' kernel.c)|struct open_how" \
	"a struct before the #lines: its line of kernel.c under SRCROOT"
is "$(loc 'struct fx_bits.prio')" "-|-|-|struct fx_bits" \
	"a struct behind #line \"../../../../etc/passwd\": no physical location, its logical one"
is "$(loc 'struct fx_node.reserved_new')" "-|-|-|struct fx_node" \
	"a struct behind #line \"/etc/passwd\": none either"
is "$(loc 'fxold (x64)')" "-|-|-|fxold" "a syscall behind #line \"include/./x.h\": none either"
is "$(jq -r '[.runs[0].results[].locations[0].physicalLocation.artifactLocation.uri // empty] | unique | join(",")' out.sarif)" \
	"kernel.c" "  no uri in the whole log but kernel.c"

# Header trees: a header type is located where the header view says it is
# declared, not where a #line sent DWARF.
for t in ha hb; do
	header_tree $t
	sz=int; [ $t = hb ] && sz=long
	printf '#ifndef P_H\n#define P_H\n#line 9 "../../../../etc/passwd"\nstruct up_t { %s c; };\nstruct plain_t { %s c; };\n#endif\n' \
		$sz $sz >$t/linux/pq.h
done
"$KABI_DIFF" ha hb -q --no-spec -f sarif >h.sarif
is "$(jq -r '[.runs[0].results[] | select(.ruleId == "type-size") | .locations[0].physicalLocation | "\(.artifactLocation.uri):\(.region.startLine)"] | join(",")' h.sarif)" \
	"include/uapi/linux/pq.h:5,include/uapi/linux/pq.h:4" \
	"a header type behind #line \"../../../../etc/passwd\": its header's line, as the source tree has it"
done_testing
