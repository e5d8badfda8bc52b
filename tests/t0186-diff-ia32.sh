#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Changes judged for i386 programs too (issue 27): a member appended into
# x86_64's tail padding past i386's end (16 bytes on x86_64 both times,
# 12 -> 16 on i386) and a long made __s64 (x86_64 alike, i386 8 -> 12)
# change only the i386 command numbers: one ioctl.ia32 change each,
# breaking, with the text "breaking for i386 programs: ..."; a struct that
# grows on both ABIs is the x86_64 report's ioctl.cmd alone (no second
# verdict); no i386 view on one side: nothing compared for i386.
. "$KD_SRCDIR/lib.sh"

KABI_DIFF_NO_COMPAT=
XDG_CACHE_HOME=$PWD/cache
export XDG_CACHE_HOME
CC=${CC:-cc}
need_ia32_libc
fx=$KD_SRCDIR/fixtures/ia32
header_tree v1 "$fx/fxid-v1.h" linux/fxid.h
header_tree v2 "$fx/fxid-v2.h" linux/fxid.h
"$KABI_DIFF" extract -q --uapi v1 -o v1.kabi && "$KABI_DIFF" extract -q --uapi v2 -o v2.kabi
is "$?" "0" "both trees extracted with their 32-bit views"

"$KABI_DIFF" v1.kabi v2.kabi --no-spec -f json >d.json
is "$?" "12" "breaking (exit 12, as today)"
is "$(jq -r '.changes[] | select(.kind == "ioctl.ia32") | [.subject, .old, .new, .rule, .verdict, .note] | join("|")' d.json)" \
"FXID_LONG|0x80087902|0x800c7902|ioctl-cmd-ia32|breaking|breaking for i386 programs: struct fxid_long grew 4 bytes on i386 only (8 -> 12), the _IOR number changed from 0x80087902 to 0x800c7902
FXID_TAIL|0x400c7901|0x40107901|ioctl-cmd-ia32|breaking|breaking for i386 programs: struct fxid_tail grew 4 bytes on i386 only (12 -> 16), the _IOW number changed from 0x400c7901 to 0x40107901" \
	"each i386-only number change: exactly one ioctl.ia32 change"
is "$(jq -r '[.changes[] | select(.subject == "FXID_BOTH") | .kind] | join(",")' d.json)" "ioctl.cmd" \
	"a change both ABIs see: the x86_64 ioctl.cmd only, no i386 duplicate"
is "$(jq -r '[.changes[] | select(.kind == "ioctl.cmd") | .subject] | join(",")' d.json)" "FXID_BOTH" \
	"the x86_64 numbers of FXID_TAIL and FXID_LONG did not change"
"$KABI_DIFF" v1.kabi v2.kabi --no-spec | grep -q '^    ioctl.ia32  *FXID_TAIL: 0x400c7901 -> 0x40107901  \[ioctl-cmd-ia32\]$'
ok $? "the text report lists it"

"$KABI_DIFF" v2.kabi v1.kabi --no-spec -f json >r.json
is "$(jq -r '[.changes[] | select(.kind == "ioctl.ia32") | .subject + " " + .note] | join("\n")' r.json)" \
"FXID_LONG breaking for i386 programs: struct fxid_long shrank 4 bytes on i386 only (12 -> 8), the _IOR number changed from 0x800c7902 to 0x80087902
FXID_TAIL breaking for i386 programs: struct fxid_tail shrank 4 bytes on i386 only (16 -> 12), the _IOW number changed from 0x40107901 to 0x400c7901" \
	"the other direction: the same two, shrinking"
"$KABI_DIFF" v1.kabi v1.kabi --no-spec >/dev/null
is "$?" "0" "a tree against itself: nothing"

KABI_DIFF_NO_COMPAT=1 "$KABI_DIFF" extract -q --uapi v2 -o v2n.kabi
"$KABI_DIFF" v1.kabi v2n.kabi --no-spec -f json >n.json
is "$(jq -r '[.changes[] | select(.kind == "ioctl.ia32")] | length' n.json)" "0" \
	"one side without the 32-bit view: nothing judged for i386"
done_testing
