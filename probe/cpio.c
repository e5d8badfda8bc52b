// SPDX-License-Identifier: GPL-2.0-only
/*
 * A writer of cpio "newc" archives (the format the kernel unpacks as an
 * initramfs), written from the format's description: each entry is a
 * 110-byte ASCII header ("070701" and thirteen 8-digit hex fields: ino,
 * mode, uid, gid, nlink, mtime, filesize, devmajor, devminor, rdevmajor,
 * rdevminor, namesize with its NUL, check), the name and its NUL padded to
 * a multiple of 4 bytes, then the data padded to 4; the archive ends with
 * the entry "TRAILER!!!". Output goes through zlib when gzip is asked for,
 * plain otherwise (the kernel takes both). Owner root, mtime 0: the same
 * inputs give the same bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "lib/err.h"
#include "lib/mem.h"
#include "probe/probe.h"

struct probe_cpio {
	FILE *f;		/* plain output */
	gzFile gz;		/* or gzip'ed */
	char *path;
	unsigned ino;
	int err;		/* first write error, sticky */
};

int probe_cpio__new(const char *path, bool gzip, struct probe_cpio **out)
{
	struct probe_cpio *a = kd_calloc(1, sizeof(*a));
	int err;

	*out = NULL;
	if (!a)
		return -ENOMEM;
	a->path = kd_strdup(path);
	if (!a->path) {
		free(a);
		return -ENOMEM;
	}
	if (gzip)
		a->gz = gzopen(path, "wb1");
	else
		a->f = fopen(path, "wb");
	if (!a->gz && !a->f) {
		err = errno ? -errno : -EIO;
		kd_err("%s: cannot create the initramfs: %s", path, kd_strerror(err));
		free(a->path);
		free(a);
		return err;
	}
	a->ino = 1;
	*out = a;
	return 0;
}

static void put(struct probe_cpio *a, const void *data, size_t len)
{
	if (a->err || !len)
		return;
	if (a->gz) {
		if (gzwrite(a->gz, data, (unsigned)len) != (int)len)
			a->err = -EIO;
	} else if (fwrite(data, 1, len, a->f) != len) {
		a->err = errno ? -errno : -EIO;
	}
}

static void pad4(struct probe_cpio *a, size_t len)
{
	static const char zeros[4];

	put(a, zeros, (4 - len % 4) % 4);
}

static int add_entry(struct probe_cpio *a, const char *name, unsigned mode, unsigned rmaj,
		     unsigned rmin, const void *data, size_t len)
{
	char hdr[111];
	size_t namesize = strlen(name) + 1;

	if (!*name || namesize > 4096 || len > 0xffffffffu) {
		kd_err("%s: cpio entry '%s' is too long", a->path, name);
		return -EINVAL;
	}
	snprintf(hdr, sizeof(hdr),
		 "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 strcmp(name, "TRAILER!!!") ? a->ino++ : 0, mode, 0u, 0u,
		 S_ISDIR(mode) ? 2u : 1u, 0u, (unsigned)len, 0u, 0u, rmaj, rmin,
		 (unsigned)namesize, 0u);
	put(a, hdr, 110);
	put(a, name, namesize);
	pad4(a, 110 + namesize);
	put(a, data, len);
	pad4(a, len);
	if (a->err)
		kd_err("%s: cannot write: %s", a->path, kd_strerror(a->err));
	return a->err;
}

int probe_cpio__add_dir(struct probe_cpio *a, const char *name, unsigned mode)
{
	return add_entry(a, name, S_IFDIR | (mode & 07777), 0, 0, NULL, 0);
}

int probe_cpio__add_file(struct probe_cpio *a, const char *name, unsigned mode,
			 const void *data, size_t len)
{
	return add_entry(a, name, S_IFREG | (mode & 07777), 0, 0, data, len);
}

int probe_cpio__add_chardev(struct probe_cpio *a, const char *name, unsigned mode,
			    unsigned major, unsigned minor)
{
	return add_entry(a, name, S_IFCHR | (mode & 07777), major, minor, NULL, 0);
}

int probe_cpio__finish(struct probe_cpio *a)
{
	int err = add_entry(a, "TRAILER!!!", 0, 0, 0, NULL, 0);

	if (a->gz) {
		if (gzclose(a->gz) != Z_OK && !err)
			err = -EIO;
		a->gz = NULL;
	} else {
		if (fclose(a->f) && !err)
			err = -errno;
		a->f = NULL;
	}
	if (err && !a->err)
		kd_err("%s: cannot write: %s", a->path, kd_strerror(err));
	probe_cpio__free(a);
	return err;
}

void probe_cpio__free(struct probe_cpio *a)
{
	if (!a)
		return;
	if (a->gz)
		gzclose(a->gz);
	if (a->f)
		fclose(a->f);
	free(a->path);
	free(a);
}
