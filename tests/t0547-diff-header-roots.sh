#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Every struct, union and enum the header views declare is compared from
# its header (linux/kdr.h -> struct kdr_info), but that path is no use of
# the type: a size-tolerant ioctl's argument that grows at the tail stays
# tail-growth-tolerant, a union alternative tail-growth-union, although
# their header declares them too; a type no syscall or ioctl uses keeps
# the verdict the layout gives (tail-growth-uncontracted). Two header trees
# (tests/fixtures/header-roots/) with the contract of a size-tolerant family.
. "$KD_SRCDIR/lib.sh"

fx=$KD_SRCDIR/fixtures
XDG_CACHE_HOME=$PWD/cache
export XDG_CACHE_HOME
for v in v1 v2; do header_tree $v "$fx/header-roots/$v.h" linux/kdr.h; done

"$KABI_DIFF" v1 v2 -q --spec "$fx/header-roots/contract" -f json >with.json
is "$?" 28 "v1 -> v2 with the contract: exit 28 (kdr_info's uncontracted growth; its alignment, which no type places, source)"
rows() { jq -r '.changes[] | select(.category == "types") | "\(.rule) \(.verdict) \(.subject) \([.impact[].root] | join(","))"' "$1" | sort; }
is "$(rows with.json)" \
"tail-growth-tolerant compatible struct kdr_wait KDR_IOC_WAIT,linux/kdr.h
tail-growth-tolerant compatible struct kdr_wait.deadline KDR_IOC_WAIT,linux/kdr.h
tail-growth-uncontracted breaking struct kdr_info linux/kdr.h
tail-growth-uncontracted breaking struct kdr_info.bytes linux/kdr.h
tail-growth-union compatible struct kdr_meta KDR_IOC_FMT,linux/kdr.h
tail-growth-union compatible struct kdr_meta.width KDR_IOC_FMT,linux/kdr.h
type-align-unembedded source struct kdr_info linux/kdr.h" \
	"  reached from the ioctl and the header: the ioctl's use decides; the header alone: the layout"
is "$(jq -r '[.changes[] | select(.kind == "ioctl.cmd") | "\(.subject) \(.rule)"] | join(",")' with.json)" \
	"KDR_IOC_WAIT ioctl-size-tolerant" "  the tolerant ioctl's number changed with its size: compatible"

"$KABI_DIFF" v1 v2 -q --no-spec -f json >none.json
is "$(jq -r '.changes[] | select(.subject == "struct kdr_wait") | .rule' none.json)" "tail-growth-uncontracted" \
	"without the contract, the same growth is potentially breaking"
done_testing
