#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# An ioctl argument type found by name in the kernel's DWARF is the UAPI
# header's type only when it is declared where a UAPI header can see it.
# 6.12's linux/synclink.h passes its own 16-byte struct gpio_desc to
# MGSL_IOCGGPIO; drivers/gpio/gpiolib.h declares the kernel's 32-byte
# descriptor of that name. With no header view (arm64 without a cross
# compiler) the kernel's one sized the ioctl and led the diff from
# MGSL_IOCGGPIO into struct module, struct task_struct and struct zone: 61
# "breaking" changes between arm64 and arm64-16k. A definition in a
# driver's or subsystem's private header (a .h with no include/ or uapi/
# directory on its path) is another type; one in the UAPI header, or in
# the kernel's include trees (include/linux/usbdevice_fs.h's compat
# layouts), is taken.
. "$KD_SRCDIR/lib.sh"

scratch private-header-type
tree=$PWD/uapi
cp -R "$KD_SRCDIR/fixtures/kernel-uapi" "$tree"
cat >"$tree/uapi/linux/fxg.h" <<'HDR'
#include <asm/ioctl.h>
struct fxg_desc { unsigned int state, smask, dmask, dir; };
#define FXG_IOC_GET _IOR('m', 17, struct fxg_desc)
HDR

# extract WHERE: the fixture kernel declaring struct fxg_desc in WHERE,
# extracted with no compiler (no header view); prints the exit status and
# the ioctl's size|cmd|decl_file.
extract() {
	k=$(fixture_kernel "named-$(echo "$1" | tr / _)" "-DKD_NAMED_IN=\"$1\"")
	KABI_DIFF_CC=/nonexistent/cc "$KABI_DIFF" extract -q "$k" --uapi "$tree" -o "$PWD/k.kabi" 2>/dev/null
	echo "$?|$(q "$PWD/k.kabi" "SELECT ifnull(i.size, '-'),
		CASE WHEN i.cmd IS NULL THEN '-' ELSE printf('0x%08x', i.cmd) END, ifnull(t.decl_file, '-')
		FROM ioctls i LEFT JOIN types t ON t.id = i.arg_type WHERE i.name = 'FXG_IOC_GET'")"
}

is "$(extract drivers/fx/fxg.h)" "0|-|-|-" \
	"a driver's private header: its type only shares the name, the ioctl is left unsized"
is "$(q "$PWD/k.kabi" "SELECT count(*) FROM problems WHERE message LIKE 'FXG_IOC_GET: type ''struct fxg_desc''%'")" "1" \
	"the unsized ioctl is a problem row"
is "$(extract include/uapi/linux/fxg.h)" "0|32|0x80206d11|include/uapi/linux/fxg.h" \
	"the UAPI header's declaration in the kernel's DWARF sizes the ioctl"
is "$(extract include/linux/fxg.h)" "0|32|0x80206d11|include/linux/fxg.h" \
	"a header of the kernel's include tree is shared: taken"
is "$(extract arch/x86/include/asm/fxg.h)" "0|32|0x80206d11|arch/x86/include/asm/fxg.h" \
	"an architecture's include tree too"
done_testing
