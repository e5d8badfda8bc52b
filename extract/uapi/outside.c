// SPDX-License-Identifier: GPL-2.0-only
/*
 * User ABI kept outside include/uapi: headers of a kernel source tree that
 * user-space programs copy or include although headers_install does not
 * install them (syzkaller describes their ioctls too). This is data about
 * the kernel, one row per header: its path in the source tree and which
 * program uses it from user space. It is no verdict list: what a header
 * defines is read and compared like any UAPI header's, only its origin is
 * named in the report. Checked against the 6.12 sources.
 */
#include "extract/uapi/uapi_internal.h"

static const struct uoutside outside[] = {
	{ "fs/xfs/libxfs/xfs_fs.h", "xfsprogs" },		/* copied as include/xfs/xfs_fs.h */
	{ "include/scsi/sg.h", "sg3_utils" },			/* SG_IO, SG_GET_VERSION_NUM */
	{ "include/net/bluetooth/hci_sock.h", "bluez" },	/* HCIDEVUP, HCIGETDEVLIST */
	{ "include/net/bluetooth/rfcomm.h", "bluez" },		/* RFCOMMCREATEDEV */
	{ "net/bluetooth/hidp/hidp.h", "bluez" },		/* HIDPCONNADD */
	{ "fs/bcachefs/bcachefs_ioctl.h", "bcachefs-tools" },	/* BCH_IOCTL_* */
	/* usbmon's MON_IOC* are defined in drivers/usb/mon/mon_bin.c: no header. */
};

const struct uoutside *uoutside__nth(size_t i)
{
	return i < sizeof(outside) / sizeof(outside[0]) ? &outside[i] : NULL;
}

const char *uapi__outside_path(size_t i)
{
	const struct uoutside *o = uoutside__nth(i);

	return o ? o->path : NULL;
}
