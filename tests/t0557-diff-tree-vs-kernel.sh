#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Like with like (issue 29, item 6): a kernel against its own UAPI headers
# read alone was "breaking" (6.1: struct sockaddr, the C library's view
# in the headers against the kernel's DWARF, exit 12). Kernel vs header
# is a difference within one kernel, judged against the old kernel's own
# (t0180); a header tree has no kernel layouts, so the new kernel's types
# that differ from its headers are listed as not compared, not as changes.
# The fixture: t0180's module, whose DWARF lays out fxhk.h's structs
# otherwise, extracted with that header; the header tree is the same one.
. "$KD_SRCDIR/lib.sh"

fx=$KD_SRCDIR/fixtures
k=$(fixture_kernel v1) || { ok 1 "fixture kernel"; done_testing; }
scratch tree-vs-kernel
cp -r "$fx/kernel-uapi" inc && cp "$fx/header-kernel/fxhk.h" inc/uapi/linux/ && mkdir ne &&
	gcc -g -O2 -c "$fx/header-kernel/module.c" -o ne/fxhk.ko &&
	"$KABI_DIFF" extract -q "$k" --uapi inc --modules ne -o kernel.kabi &&
	"$KABI_DIFF" extract -q --uapi inc -o tree.kabi
ok $? "the kernel with its headers and module, and its headers alone"

"$KABI_DIFF" tree.kabi kernel.kabi -f json >tk.json
rc=$?
is "$(jq -r '[.changes[] | select(.kind == "type.header-kernel")] | length' tk.json)" 0 \
	"headers alone -> the kernel: no kernel vs header change (there were 5, 3 breaking)"
is "$(jq -r '[.changes[] | select(.verdict == "breaking")] | length' tk.json)|$((rc & 8))" "0|0" \
	"  nothing breaking, exit status without 8 (it was 12)"
is "$(jq -r '.. | objects | .headers_not_compared? // empty | .[] | select(.header == "linux/fxhk.h") | (.types | join(", ")) + " | " + .why' tk.json)" \
	"struct fxhk_extra, struct fxhk_moved | kernel vs header: the old side is a header tree, with no kernel layouts to tell whether its kernel differed from its headers as the new one does" \
	"  its types listed as not compared, saying why" || jq -c '.. | objects | .headers_not_compared? // empty' tk.json
"$KABI_DIFF" tree.kabi kernel.kabi >tk.txt
grep -qx 'not compared: linux/fxhk.h: struct fxhk_extra, struct fxhk_moved (kernel vs header: the old side is a header tree, with no kernel layouts to tell whether its kernel differed from its headers as the new one does)' tk.txt
ok $? "  the text report says so too"

# Kernel against kernel: still judged (t0180 has the verdicts).
mkdir eq && gcc -g -O2 -c -DFXHK_EQUAL "$fx/header-kernel/module.c" -o eq/fxhk.ko &&
	"$KABI_DIFF" extract -q "$k" --uapi inc --modules eq -o eq.kabi
"$KABI_DIFF" eq.kabi kernel.kabi -f json >kk.json
is "$?|$(jq -r '[.changes[] | select(.kind == "type.header-kernel" and .verdict == "breaking")] | length' kk.json)" "12|3" \
	"kernel -> kernel: the new kernel's differences from its headers still breaking"

# A constant sized by a C library type (6.1's IW_EV_ADDR_LEN is
# IW_EV_LCP_LEN + sizeof(struct sockaddr)): a header tree alone could not
# evaluate it, the kernel's extraction did, and it read as added. The
# header view's compile sizes glibc's struct sockaddr for both.
printf '#ifndef KDL_H\n#define KDL_H\n#include <linux/types.h>\n#include <sys/socket.h>\nstruct kdl_req { __u32 flags; struct sockaddr addr; };\n#define KDL_ADDR_LEN (4 + sizeof(struct sockaddr))\n#endif\n' \
	>inc/uapi/linux/kdl.h
"$KABI_DIFF" extract -q "$k" --uapi inc --modules ne -o kernel2.kabi &&
	"$KABI_DIFF" extract -q --uapi inc -o tree2.kabi
is "$(q tree2.kabi "SELECT value FROM constants WHERE name = 'KDL_ADDR_LEN'")" 20 \
	"a header tree alone: 4 + sizeof(struct sockaddr) evaluated with glibc's (it was absent)"
"$KABI_DIFF" tree2.kabi kernel2.kabi -f json >tk2.json
is "$(jq -r '[.changes[] | select(.subject | startswith("KDL"))] | length' tk2.json)" 0 \
	"  against the kernel of the same headers: no change of it"

# An ioctl sized by a type only the kernel defines (privcmd.h's
# sizeof(domid_t), its typedef in a header that does not compile alone):
# the header tree alone has the ioctl with an unknown number, not no
# ioctl, so against its kernel it is not "added".
printf '#ifndef KDT_H\n#define KDT_H\n#include <asm/ioctl.h>\n#define KDT_IOC_RESTRICT _IOC(_IOC_NONE, 0x54, 6, sizeof(kdt_domid_t))\n#endif\n' \
	>inc/uapi/linux/kdt.h
printf 'typedef unsigned short kdt_domid_t;\nkdt_domid_t kdt_dom;\n' >kdt.c && gcc -g -c kdt.c -o ne/kdt.ko &&
	"$KABI_DIFF" extract -q "$k" --uapi inc --modules ne -o kernel3.kabi &&
	"$KABI_DIFF" extract -q --uapi inc -o tree3.kabi
ok $? "a header whose ioctl is sized by a typedef only a module defines"
is "$(q kernel3.kabi "SELECT printf('0x%08x', cmd) FROM ioctls WHERE name = 'KDT_IOC_RESTRICT'")|$(q tree3.kabi "SELECT ifnull(cmd, '?') FROM ioctls WHERE name = 'KDT_IOC_RESTRICT'")" \
	"0x00025406|?" "  the kernel's extraction numbers it (2 bytes); the tree alone has it unnumbered"
"$KABI_DIFF" tree3.kabi kernel3.kabi -f json >tk3.json
is "$(jq -r '[.changes[] | select(.subject | startswith("KDT"))] | length' tk3.json)" 0 \
	"  against the kernel of the same headers: no change of it (it read as added)"

done_testing
