#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Removed modules (diff/RULES.md): kernel directories made here from the
# fixture vmlinux, a header linux/fxgone.h and modules compiled now from
# fixtures/served-module.c, whose line tables say which UAPI header each
# includes. Both ways: fxgone.ko alone serves the header and goes with it
# (its constants and ioctl breaking, fxgone named); the same, but fxkeep.ko
# of the new kernel still includes the header (source, nothing concluded);
# a personality built on fxcore.ko (depends) and naming no header goes
# with a constant of fxcore's header (breaking, the plugin named). Every
# removed module is listed in text, JSON and Markdown.
. "$KD_SRCDIR/lib.sh"

k1=$(fixture_kernel v1-dwarf5 -gdwarf-5) || { ok 1 "fixture kernel"; done_testing; }
uapi=$KD_SRCDIR/fixtures/kernel-uapi
export XDG_CACHE_HOME=$PWD/cache

header() {	# header DIR [CONSTANTS...]: linux/fxgone.h with those constants
	dir=$1; shift
	{
		printf '#ifndef FXGONE_H\n#define FXGONE_H\n#include <asm/ioctl.h>\n'
		printf 'struct fxgone_arg {\n\tint level;\n};\n'
		printf '#define FXGONE_IOC_SET _IOW(0x47, 1, struct fxgone_arg)\n'
		for c in "$@"; do printf '#define %s\n' "$c"; done
		printf '#endif\n'
	} >"$dir/include/uapi/linux/fxgone.h"
}
# mod DIR NAME "DESCRIPTION" [gcc flags]: a module compiled in DIR, the
# header found as include/uapi/linux/fxgone.h, as Kbuild names it.
mod() {
	dir=$1 name=$2 desc=$3; shift 3
	(cd "$dir" && gcc -g -O2 -c -Iinclude/uapi -I"$uapi/uapi" -DFXS_NAME="\"$name\"" \
		-DFXS_DESC="\"$desc\"" "$@" "$KD_SRCDIR/fixtures/served-module.c" -o "modules/$name.ko")
}
kernel() {	# kernel DIR: the fixture vmlinux and headers, no module yet
	mkdir -p "$1/modules" && cp "$k1" "$1/vmlinux" && cp -R "$uapi" "$1/include"
}

# old: fxgone.ko serves linux/fxgone.h; fxcore.ko too, with its personality fxpers.ko.
kernel old && header old 'FXGONE_LEVEL_A 3' 'FXGONE_LEVEL_B 4' 'FXGONE_LEVEL_P 5' &&
	mod old fxgone "Fx gone driver" -DFXS_HEADER &&
	mod old fxcore "Fx core" -DFXS_HEADER && mod old fxpers "Fx personality" -DFXS_DEPENDS='"fxcore"'
ok $? "old kernel: fxgone, fxcore and its personality fxpers"
# gone: the header and every module serving it are gone.
kernel gone && mod gone fxother "Fx other" 
ok $? "gone: no fxgone.h, no module including it"
# kept: fxgone.ko gone, but fxkeep.ko still includes the header, which lost FXGONE_LEVEL_B.
kernel kept && header kept 'FXGONE_LEVEL_A 3' 'FXGONE_LEVEL_P 5' && mod kept fxkeep "Fx keep" -DFXS_HEADER
ok $? "kept: fxgone.h served by fxkeep.ko"
# plugin: fxcore.ko stays with the header; fxpers.ko and FXGONE_LEVEL_P go.
kernel plugin && header plugin 'FXGONE_LEVEL_A 3' 'FXGONE_LEVEL_B 4' &&
	mod plugin fxgone "Fx gone driver" -DFXS_HEADER && mod plugin fxcore "Fx core" -DFXS_HEADER
ok $? "plugin: fxcore.ko without its personality"

row() {	# row REPORT.json SUBJECT: "rule verdict evidence"
	jq -r --arg s "$2" '.changes[] | select(.subject == $s) | [.rule, .verdict, .evidence.text] | join("|")' "$1"
}

"$KABI_DIFF" old gone -f json >gone.json 2>err.txt
is "$?" 28 "old -> gone: exit 28 (breaking, and the source-level loss of its struct)"
is "$(for f in cache/kabi-diff/*-um-*.kabi; do q "$f" "SELECT m.name || ':' || h.header FROM binary_headers h
	JOIN modules m ON m.id = h.module_id WHERE m.name = 'fxgone' OR m.name = 'fxcore'"; done | sort -u | tr '\n' ' ')" \
	"fxcore:linux/fxgone.h fxgone:linux/fxgone.h " "  the line tables name the header fxcore and fxgone include"
is "$(row gone.json FXGONE_LEVEL_A)" \
	"constant-removed-module|breaking|only modules fxcore (\"Fx core\"), fxgone (\"Fx gone driver\") of the old kernel included linux/fxgone.h, and the new kernel lacks them; no binary of the new kernel (vmlinux, 1 module) includes it" \
	"  a constant only removed modules served: breaking, the modules named"
is "$(row gone.json FXGONE_IOC_SET | cut -d'|' -f1,2)" "ioctl-removed|breaking" "  its ioctl: breaking"
is "$(row gone.json FXGONE_IOC_SET | grep -c 'fxgone (\"Fx gone driver\")')" 1 "  with the same evidence"
is "$(jq -r '.modules_removed[] | [.name, .description, (.headers | join(",")), (.served | join(","))] | join("|")' gone.json)" \
"fxcore|Fx core|linux/fxgone.h|FXGONE_IOC_SET,FXGONE_LEVEL_A,FXGONE_LEVEL_B,FXGONE_LEVEL_P
fxgone|Fx gone driver|linux/fxgone.h|FXGONE_IOC_SET,FXGONE_LEVEL_A,FXGONE_LEVEL_B,FXGONE_LEVEL_P
fxpers|Fx personality||" "  JSON: every removed module, its description, headers, what it alone served"
"$KABI_DIFF" old gone >gone.txt 2>/dev/null
is "$(sed -n '/^Modules removed/,$p' gone.txt | head -4)" \
"Modules removed (3): the old kernel has them, the new one does not
  fxcore: Fx core
      includes: linux/fxgone.h
      alone served: FXGONE_IOC_SET, FXGONE_LEVEL_A, FXGONE_LEVEL_B, FXGONE_LEVEL_P (see their changes)" \
	"  text: the section, each module with its description, headers and what it alone served"
"$KABI_DIFF" old gone -f md >gone.md 2>/dev/null
is "$(grep -A8 '^### Modules removed' gone.md | tail -1)" \
	'| `fxpers` | Fx personality | — | — |' "  Markdown: a table row per module"

"$KABI_DIFF" old kept -f json >kept.json 2>/dev/null
is "$(row kept.json FXGONE_LEVEL_B)" \
	"constant-removed|source|FXGONE_LEVEL_B is in linux/fxgone.h of the old headers only; the contract lists it in no set" \
	"old -> kept: fxkeep.ko still includes the header: a removed constant stays source-level"
is "$(jq '[.changes[] | select(.verdict == "breaking")] | length' kept.json)" 0 "  nothing breaking"
is "$(jq -r '[.modules_removed[] | .name + ":" + (.served | length | tostring)] | join(" ")' kept.json)" \
	"fxcore:0 fxgone:0 fxpers:0" "  the removed modules still listed, serving nothing alone"

"$KABI_DIFF" old plugin -f json >plugin.json 2>/dev/null
is "$(row plugin.json FXGONE_LEVEL_P)" \
	"constant-removed-module|breaking|linux/fxgone.h is included by fxcore, not by vmlinux; of the modules built on fxcore (.modinfo depends), the new kernel lacks fxpers (\"Fx personality\"): the name left the header with them" \
	"old -> plugin: a constant gone with the personality built on its header's server: breaking"
is "$(jq -r '[.modules_removed[] | .name + ":" + (.served | join(","))] | join(" ")' plugin.json)" \
	"fxpers:FXGONE_LEVEL_P" "  fxpers alone served it"
is "$(jq '[.changes[] | select(.verdict == "breaking")] | length' plugin.json)" 1 "  nothing else breaking"
# orphan: the header unchanged, every module that included it gone.
kernel orphan && header orphan 'FXGONE_LEVEL_A 3' 'FXGONE_LEVEL_B 4' 'FXGONE_LEVEL_P 5' && mod orphan fxother "Fx other"
"$KABI_DIFF" old orphan -f json >orphan.json 2>/dev/null
is "$(jq -r '.changes[] | select(.verdict == "breaking") | [.kind, .subject, .old, .new, .note, .rule] | join("|")' orphan.json)" \
	"header.unserved|linux/fxgone.h|fxcore, fxgone|none|the new headers still define 3 constants and 1 ioctl in it|header-unserved" \
	"old -> orphan: the header kept, nothing serving it: one breaking header.unserved"
is "$(jq -r '.changes[] | select(.kind == "header.unserved") | .evidence.text' orphan.json | grep -c 'only modules fxcore ("Fx core"), fxgone')" 1 \
	"  the modules named"
"$KABI_DIFF" old orphan -f sarif >orphan.sarif 2>/dev/null
is "$(jq -r '.runs[0].results[] | select(.ruleId == "header-unserved") | .locations[0] |
	[.physicalLocation.artifactLocation.uri, .physicalLocation.region.startLine, .logicalLocations[0].kind] | join(" ")' orphan.sarif)" \
	"include/uapi/linux/fxgone.h 1 module" "  SARIF: at the header's top"
# plugin2: two personalities of fxcore gone, fxpers and fxpers2: which one
# served FXGONE_LEVEL_P the binaries do not say; both named, neither alone.
mkdir -p old2 && cp -R old/vmlinux old/include old2/ && mkdir -p old2/modules && cp old/modules/*.ko old2/modules/ &&
	mod old2 fxpers2 "Fx personality 2" -DFXS_DEPENDS='"fxcore,fxother"'
"$KABI_DIFF" old2 plugin -f json >plugin2.json 2>/dev/null
is "$(row plugin2.json FXGONE_LEVEL_P | cut -d'|' -f1,2)" "constant-removed-module|breaking" "old2 -> plugin: breaking still"
is "$(row plugin2.json FXGONE_LEVEL_P | grep -c 'lacks fxpers ("Fx personality"), fxpers2 ("Fx personality 2"): ')" 1 \
	"  both personalities named"
is "$(jq -r '[.modules_removed[] | .name + ":" + (.served | join(",")) + ":" + (.served_maybe | join(","))] | join(" ")' plugin2.json)" \
	"fxpers::FXGONE_LEVEL_P fxpers2::FXGONE_LEVEL_P" "  each may have served it, neither alone"
"$KABI_DIFF" old2 plugin 2>/dev/null | grep -A3 '^  fxpers2:' >plugin2.txt
is "$(tail -1 plugin2.txt)" "      may have served (with others gone, the binaries do not say which): FXGONE_LEVEL_P (see their changes)" \
	"  text: what it may have served"

"$KABI_DIFF" old old -f json >same.json 2>/dev/null
is "$(jq '.modules_removed | length' same.json)" 0 "a kernel against itself: no module removed"

done_testing
