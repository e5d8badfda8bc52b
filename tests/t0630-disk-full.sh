#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Writing a .kabi when the space runs out: past a file size limit (ulimit -f,
# whose SIGXFSZ would kill the process) and, when this test may mount one, on
# a full tmpfs. Each: one line naming the output, exit 1, no temporary file
# left, an existing output untouched.
. "$KD_SRCDIR/lib.sh"

k=$(fixture_kernel v1-dwarf5 -gdwarf-5)
scratch disk-full

echo OLD > out.kabi
msg=$(ulimit -f 20; "$KABI_DIFF" extract "$k" -o out.kabi 2>&1)
rc=$?
is "$rc|$(echo "$msg" | wc -l)" "1|1" "ulimit -f: exit 1, one line" || echo "#   $msg"
case "$msg" in "kabi-diff: out.kabi: "*) r=0 ;; *) r=1 ;; esac
ok $r "ulimit -f: the message names the output" || echo "#   $msg"
is "$(ls out.kabi.tmp.* 2>/dev/null)" "" "ulimit -f: no temporary file left"
is "$(cat out.kabi)" "OLD" "ulimit -f: the old output is untouched"

mkdir -p mnt
if mount -t tmpfs -o size=48k tmpfs mnt 2>/dev/null; then
	echo OLD > mnt/out.kabi
	msg=$("$KABI_DIFF" extract "$k" -o mnt/out.kabi 2>&1)
	rc=$?
	is "$rc|$(echo "$msg" | wc -l)" "1|1" "full tmpfs: exit 1, one line" || echo "#   $msg"
	echo "$msg" | grep -q "^kabi-diff: mnt/out.kabi: .*full"
	ok $? "full tmpfs: the message names the output and says full" || echo "#   $msg"
	is "$(ls mnt/out.kabi.tmp.* 2>/dev/null)" "" "full tmpfs: no temporary file left"
	is "$(cat mnt/out.kabi)" "OLD" "full tmpfs: the old output is untouched"
	umount mnt
else
	skip "full tmpfs: cannot mount a tmpfs here (not root)"
fi
done_testing
