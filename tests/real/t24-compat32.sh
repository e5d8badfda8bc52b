#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The 32-bit ABI within one kernel (issue 27) on Debian's 6.12.107 with
# its modules: every ioctl whose i386 layout differs, what each serving
# driver's file_operations do for i386 callers, the check findings. The
# entries and their readings in the sources: tests/real/compat32.md.
# Needs the cache's modules/ and include/ (fetch --modules --headers) and
# libc6-dev-i386; about 30 s.
. "$KD_SRCDIR/lib.sh"

KABI_DIFF_NO_COMPAT=
export KABI_DIFF_NO_COMPAT
rel=6.12.107+deb12-amd64
k=${KABI_KERNELS:-/root/.cache/kabi-kernels}/$rel
if [ ! -d "$k/modules" ] || [ ! -d "$k/include/uapi" ]; then
	skip "$rel: no modules/ or include/ in the cache (fetch --modules --headers $rel)"
	done_testing
fi
need_ia32_libc
db=$KD_TMPDIR/compat32-$rel.kabi
"$KABI_DIFF" extract -q "$k/vmlinux" --uapi "$k/include" --modules "$k/modules" -o "$db"
is "$?" "0" "$rel: extract with --uapi and --modules"
is "$(q "$db" "SELECT count(*), sum(module_id IS NULL) FROM fops")" "1869|442" \
	"file_operations objects: all, in vmlinux"
is "$(q "$db" "SELECT count(*) FROM problems WHERE stage = 'modules' AND message LIKE 'file_operations%'")" "0" \
	"no unreadable file_operations"
is "$(q "$db" "SELECT count(*) FROM compat_ioctls c JOIN ioctls i ON i.name = c.name
	WHERE c.abi = 'ia32' AND c.cmd != i.cmd")" "394" "ioctls whose i386 number differs"

"$KABI_DIFF" show "$db" compat-ioctls -f json >c.json
is "$?" "0" "show compat-ioctls -f json"
is "$(jq -r '.[].handling' c.json | sort | uniq -c | awk '{ printf "%s %s\n", $2, $1 }')" \
"ambiguous 318
broken 3
enotty 23
native-translated 8
size-only 9
translated 164
unseen 23
unserved 190" "rows per handling (compat32.md)"
is "$(jq -r '.[] | select(.handling == "broken") | [.ioctl, .binary, .fops, .native_size, .compat_size] | join(" ")' c.json)" \
"USBTMC_IOCTL_CTRL_REQUEST usbtmc fops 16 12
USBTMC_IOCTL_READ usbtmc fops 20 16
USBTMC_IOCTL_WRITE usbtmc fops 20 16" "broken: usbtmc's three, a real bug (EBADRQC for i386 callers)"
is "$(jq -r '.[] | select(.handling == "native-translated") | .binary + " " + .ioctl' c.json | tr '\n' ' ')" \
"ch CHIOGSTATUS usbcore USBDEVFS_BULK usbcore USBDEVFS_CONTROL usbcore USBDEVFS_DISCSIGNAL usbcore USBDEVFS_IOCTL usbcore USBDEVFS_REAPURB usbcore USBDEVFS_REAPURBNDELAY usbcore USBDEVFS_SUBMITURB " \
	"translated in the native handler: ch, usbcore (case ...32:)"
is "$(jq -r '.[] | select(.handling == "size-only") | .binary' c.json | sort | uniq -c | awk '{ print $2, $1 }')" \
	"firewire_core 9" "only the tail padding differs: firewire's"
is "$(jq -r '.[] | select(.handling == "unseen") | .binary' c.json | sort | uniq -c | awk '{ printf "%s %s\n", $2, $1 }')" \
"binder_linux 4
firewire_core 4
mei 4
tap 7
watchdog 4" "neither number in the code: linux/perf_event.h and linux/fs.h includers"

"$KABI_DIFF" check "$db" --spec "$KD_SRCDIR/../spec/contract" >check.txt
is "$?" "4" "check: findings"
is "$(grep ': ioctl-compat-broken: ' check.txt | cut -d: -f3)" \
" USBTMC_IOCTL_CTRL_REQUEST
 USBTMC_IOCTL_READ
 USBTMC_IOCTL_WRITE" "check: the three ioctl-compat-broken findings"
done_testing
