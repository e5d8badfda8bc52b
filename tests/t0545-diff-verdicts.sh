#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Verdicts from evidence (diff/RULES.md), on two kernel directories made
# here: the fixture vmlinux, modules compiled now (fxmod, whose
# struct fxmod_query grows in the new one; fxping, gone in the new one)
# and a header tree with tests/fixtures/verdicts/ (fxverdict-v1.h ->
# fxverdict-v2.h: constants of every role; ioctls whose types the old
# kernel's binaries do or do not define; a header no binary serves,
# dropped; a size-tolerant family). Each rule in both directions, with and
# without the contract (verdicts/contract/), its evidence, the exit bits
# and the findings.
. "$KD_SRCDIR/lib.sh"

k1=$(fixture_kernel v1-dwarf5 -gdwarf-5) || { ok 1 "fixture kernel"; done_testing; }
fx=$KD_SRCDIR/fixtures/verdicts
uapi=$KD_SRCDIR/fixtures/kernel-uapi
export XDG_CACHE_HOME=$PWD/cache
mod() { gcc -g -O2 -c -DFXMOD_NAME="\"$1\"" "$2" -o "$3" "$KD_SRCDIR/fixtures/module.c"; }

for v in old new; do
	mkdir -p "$v/modules" && cp "$k1" "$v/vmlinux" && cp -R "$uapi" "$v/include" &&
		mkdir -p "$v/include/uapi/drm"
done
cp "$fx/fxverdict-v1.h" old/include/uapi/linux/fxverdict.h &&
	cp "$fx/fxverdict-v2.h" new/include/uapi/linux/fxverdict.h &&
	cp "$fx/fxghost_drm.h" old/include/uapi/drm/ &&
	cp "$fx/fxping.h" "$fx/fxcard.h" "$fx/fxnocard.h" old/include/uapi/linux/ &&
	mod fxreader -DFXMOD_CARD old/modules/fxreader.ko &&
	cp "$fx/fxtol_drm.h" old/include/uapi/drm/ && cp "$fx/fxtol_drm.h" new/include/uapi/drm/ &&
	mod fxmod -DFXMOD_V0 old/modules/fxmod.ko && mod fxping -DFXMOD_V0 old/modules/fxping.ko &&
	mod fxmod -DFXMOD_V2 new/modules/fxmod.ko
ok $? "two kernel directories: headers and modules of each version"

"$KABI_DIFF" old new -q --no-spec -f json >none.json
rc=$?
"$KABI_DIFF" old new -q --spec "$fx/contract" -f json >with.json
rc_with=$?
# rule verdict evidence-kind subject, for the changes of @1 matching the jq filter @2
rows() { jq -r ".changes[] | select($2) | \"\(.rule) \(.verdict) \(.evidence.kind) \(.subject)\"" "$1" | sort; }

is "$(rows none.json '.category == "constants"')" \
"constant-count info convention FXV_ATTR_MAX
constant-count info convention FXV_OPS_CNT
constant-count info convention __FXV_ATTR_MAX
constant-mask-grown compatible convention FXV_BITS_MASK
constant-mask-grown compatible convention FXV_LEVEL_MASK
constant-mask-grown compatible layout FXV_ALL_FLAGS
constant-mask-lost breaking layout FXV_KEEP_FLAGS
constant-minimum-down compatible convention FXV_COMPAT_VERSION_MIN
constant-minimum-up breaking convention FXV_ABI_VERSION_MIN
constant-removed source layout FXG_CMD_A
constant-removed source layout FXV_FLAG_B
constant-removed source layout FXV_FLAG_C
constant-reserved-grown breaking convention FXV_FEAT_RESERVED
constant-reserved-shrunk compatible convention FXV_CAPS_RESERVED
constant-value breaking layout FXV_NAME_MAX
constant-value breaking layout FXV_REG_SIZEOF
constant-value breaking layout FXV_SLOTS
constant-value breaking layout FXV_VALUE
constant-version-down breaking convention FXV_PROTO_VERSION
constant-version-major breaking convention FXV_VERSION_MAJOR
constant-version-up compatible convention FXV_API_VERSION" \
	"no contract: each constant by its role (expression, then names); removals are source-level"
is "$(rows with.json '.category == "constants" and (.evidence.kind == "contract")')" \
"constant-count info contract FXV_SLOTS
constant-hardware source contract FXV_REG_SIZEOF
constant-removed-set-value breaking contract FXV_FLAG_B
constant-value breaking contract FXV_LEVEL_MASK" \
	"contract: a set's value removed breaks, the contract's roles override the names, a fact of hardware is source-level"
is "$(jq -r '.changes[] | select(.subject == "FXV_FLAG_B") | .evidence.text' with.json | sed 's|.*/||')" \
	"fxverdict.kabispec:6: FXV_FLAG_B is a value of fxv_flags (unknown values refused)" \
	"  the evidence names the contract's line"

is "$(rows none.json '.category == "ioctls"')" \
"ioctl-cmd breaking layout FXT_IOC_QUERY
ioctl-removed breaking kernel FXC_IOC_GETATR
ioctl-removed breaking kernel FXPING_IOC_PING
ioctl-removed breaking kernel FXV_IOC_LIVE
ioctl-removed breaking layout FXC_IOC_OFF
ioctl-removed breaking layout FXC_IOC_STATUS
ioctl-removed breaking layout FXV_IOC_OFF
ioctl-removed breaking layout FXV_IOC_STUB
ioctl-removed-unbuilt source kernel FXG_IOC_A
ioctl-removed-unbuilt source kernel FXG_IOC_B
ioctl-removed-unbuilt source kernel FXN_IOC_GETATR
ioctl-removed-unbuilt source kernel FXN_IOC_OFF
ioctl-removed-unbuilt source kernel FXN_IOC_STATUS
ioctl-removed-unbuilt source kernel FXV_IOC_GONE" \
	"no contract: removed ioctls the old kernel served break, those it had no code for are source-level"
is "$(jq -r '.changes[] | select(.subject == "FXPING_IOC_PING" or .subject == "FXV_IOC_GONE" or .subject == "FXG_IOC_B") | "\(.subject): \(.evidence.text)"' none.json | sort)" \
"FXG_IOC_B: no binary of the old kernel (vmlinux and 3 modules) defines a type of drm/fxghost_drm.h's ioctls: none of them was served
FXPING_IOC_PING: module fxping (named after linux/fxping.h) is in the old kernel and not in the new one
FXV_IOC_GONE: no binary of the old kernel (vmlinux and 3 modules) defines struct fxv_nobody: no code served FXV_IOC_GONE" \
	"  the kernel's evidence: types no binary defines, a module that is gone"
# A pointer argument (cm4000_cs.h's atreq_t *): the binaries searched for
# what it points to. fxreader's DWARF defines fxcard_req_t: served, and the
# header's other ioctls with it; no binary defines fxnocard_req_t.
is "$(jq -r '.changes[] | select(.subject == "FXC_IOC_GETATR" or .subject == "FXN_IOC_GETATR" or .subject == "FXN_IOC_OFF") | "\(.subject): \(.evidence.text)"' none.json | sort)" \
"FXC_IOC_GETATR: the old kernel's binaries define what its argument points to (fxcard_req_t *); the new headers do not define FXC_IOC_GETATR
FXN_IOC_GETATR: no binary of the old kernel (vmlinux and 3 modules) defines what its argument points to, fxnocard_req_t *: no code served FXN_IOC_GETATR
FXN_IOC_OFF: no binary of the old kernel (vmlinux and 3 modules) defines a type of linux/fxnocard.h's ioctls: none of them was served" \
	"  pointer arguments: the pointee's binary decides (served: breaking; in no binary: source-level)"
is "$(rows with.json '.category == "ioctls" and .evidence.kind == "contract"')" \
"ioctl-removed-unimplemented source contract FXV_IOC_STUB
ioctl-size-tolerant compatible contract FXT_IOC_QUERY" \
	"contract: an unimplemented ioctl's removal is source-level, a size-tolerant family's size change compatible"
is "$(jq -r '.changes[] | select(.subject == "FXV_IOC_STUB" or .subject == "FXT_IOC_QUERY") | .evidence.text' with.json)" \
"$fx/contract/fxverdict.kabispec:15: FXV_IOC_STUB is unimplemented: the old kernel already failed it
$fx/contract/fxverdict.kabispec:21: the ioctls of type 0x64 in drm/fxtol_drm.h are size tolerant" \
	"  the evidence names the contract's line"
is "$(jq -r '.changes[] | select(.subject == "FXT_IOC_QUERY") | "\(.cause) \(.note)"' with.json)" \
	"struct fxmod_query size 32 -> 40" "  the number belongs to the finding of its struct"

is "$rc" 28 "exit 28: changes (4), breaking (8) and source-level (16)"
is "$(jq -c '[.exit_status, .summary.total.source]' none.json)" "[28,11]" "  the report says so; 11 source-level changes"
is "$(jq -r '.changes[] | select(.rule == "header-type-removed") | "\(.subject) \(.old)"' none.json)" \
"struct fxcard_req linux/fxcard.h:16
struct fxnocard_req linux/fxnocard.h:11" \
	"  two of them the argument structs the new headers no longer declare (header-type-removed)"
is "$(jq -r '[.changes[] | select(.cause == "drm/fxghost_drm.h") | .kind] | join(",")' none.json)" \
	"constant.removed,ioctl.removed,ioctl.removed" "the dropped header is one finding: its constant and ioctls"
"$KABI_DIFF" old new -q --no-spec >none.txt
grep -q '^Source-level changes (11 in 5 findings); --full lists each change:$' none.txt
ok $? "text: the source-level section, a line per finding"
grep -q '^  drm/fxghost_drm.h: 1 constant.removed, 2 ioctl.removed$' none.txt
ok $? "text: a finding per header"
"$KABI_DIFF" old new -q --no-spec --full >full.txt
grep -q '^  drm/fxghost_drm.h (1 constant.removed, 2 ioctl.removed)$' full.txt
ok $? "text --full: the source-level changes listed"

# Without the old kernel's modules, absence proves nothing.
mkdir -p bare && cp old/vmlinux bare/ && cp -R old/include bare/
"$KABI_DIFF" bare new -q --no-spec -f json >bare.json
is "$(rows bare.json '.subject == "FXV_IOC_GONE" or .subject == "FXG_IOC_A"')" \
"ioctl-removed breaking layout FXG_IOC_A
ioctl-removed breaking layout FXV_IOC_GONE" \
	"old kernel read without modules: a removed ioctl stays breaking"

# The other direction: new -> old.
"$KABI_DIFF" new old -q --no-spec -f json >back.json
is "$(rows back.json '.subject | test("^FXV_(ALL_FLAGS|KEEP_FLAGS|API_VERSION|PROTO_VERSION|ABI_VERSION_MIN|CAPS_RESERVED|FEAT_RESERVED|FLAG_B|IOC_GONE)$")')" \
"constant-added compatible layout FXV_FLAG_B
constant-mask-lost breaking layout FXV_ALL_FLAGS
constant-mask-lost breaking layout FXV_KEEP_FLAGS
constant-minimum-down compatible convention FXV_ABI_VERSION_MIN
constant-reserved-grown breaking convention FXV_CAPS_RESERVED
constant-reserved-shrunk compatible convention FXV_FEAT_RESERVED
constant-version-down breaking convention FXV_API_VERSION
constant-version-up compatible convention FXV_PROTO_VERSION
ioctl-added compatible layout FXV_IOC_GONE" \
	"the reverse diff: each role's rule flips (a mask that traded a bit loses one either way)"
done_testing
