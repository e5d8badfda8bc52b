// SPDX-License-Identifier: GPL-2.0-only
/*
 * The probe's initramfs: what goes into it, not how cpio writes it. Apart
 * from cpio.c so that the archive writer knows nothing of its users: fs.c
 * adds its ext4 image through cpio.c's API, and this file, which calls
 * both, keeps cpio.c and fs.c from calling each other.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "probe/probe.h"

int probe__pack(const char *init_bin, const char *cpio_path, bool gzip,
		const struct probe_fs *fs)
{
	struct kd_buf bin = KD_BUF_INIT;
	struct probe_cpio *a = NULL;
	int err;

	err = kd_buf_read_file(&bin, init_bin);
	if (err && err != -ENOMEM)
		kd_err("%s: %s", init_bin, kd_strerror(err));
	if (!err)
		err = probe_cpio__new(cpio_path, gzip, &a);
	if (!err)
		err = probe_cpio__add_dir(a, "dev", 0755);
	/* The kernel opens /dev/console for init's stdio before running it. */
	if (!err)
		err = probe_cpio__add_chardev(a, "dev/console", 0600, 5, 1);
	if (!err)
		err = probe_cpio__add_file(a, "init", 0755, bin.s, bin.len);
	err = err || !fs ? err : probe__pack_fs(a, fs);
	if (!err) {
		err = probe_cpio__finish(a);
		a = NULL;
	}
	probe_cpio__free(a);
	kd_buf_release(&bin);
	return err;
}
