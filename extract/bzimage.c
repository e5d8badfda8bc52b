// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ELF inside an x86 bzImage (a distribution's /boot/vmlinuz-*). The
 * setup header (Documentation/arch/x86/boot.rst, protocol 2.08 and up)
 * says where the compressed kernel is: payload_offset and payload_length,
 * counted from the protected-mode code, which starts after the
 * (setup_sects + 1) sectors of the real-mode part. The payload is
 * vmlinux stripped of its symbols (.BTF, .rodata and .data kept),
 * compressed with gzip, xz, zstd, lz4, bzip2 or lzma; libarchive's "raw"
 * format undoes any of them. The ELF goes to an anonymous memory file, so
 * the ELF reader maps it as it maps a vmlinux on disk.
 *
 * Every size comes from the file and is checked against the file before
 * it is used; the decompressed size is bounded, so a small hostile
 * payload cannot fill memory.
 */
#include "extract/btf_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/mem.h"
#include "lib/path.h"
#include "lib/tmpfile.h"

#define BZ_SETUP_SECTS 0x1f1
#define BZ_MAGIC 0x202			/* "HdrS" */
#define BZ_VERSION 0x206
#define BZ_PAYLOAD_OFFSET 0x248		/* protocol 2.08 */
#define BZ_PAYLOAD_LENGTH 0x24c
#define BZ_HEADER_END 0x250
/* Debian's vmlinux.bin is ~60-70 MiB; a kernel ELF of 1 GiB is no kernel. */
#define BZ_MAX_ELF (1ull << 30)

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

bool bzimage_is(const unsigned char *head, size_t n)
{
	return n >= BZ_MAGIC + 4 && !memcmp(head + BZ_MAGIC, "HdrS", 4);
}

/* The payload's place in the file, checked against the file's size. */
static int payload_range(const char *path, const unsigned char *img, size_t size,
			 size_t *off, size_t *len)
{
	unsigned version, sects;
	uint64_t start, o, l;

	if (size < BZ_HEADER_END || !bzimage_is(img, size)) {
		kd_err("%s: not a bzImage (no setup header)", path);
		return -KD_EFORMAT;
	}
	version = (unsigned)img[BZ_VERSION] | (unsigned)img[BZ_VERSION + 1] << 8;
	if (version < 0x208) {
		kd_err("%s: bzImage boot protocol %u.%02u has no payload fields (2.08 and up)",
		       path, version >> 8, version & 0xff);
		return -KD_EUNSUPPORTED;
	}
	sects = img[BZ_SETUP_SECTS] ? img[BZ_SETUP_SECTS] : 4;
	start = ((uint64_t)sects + 1) * 512;
	o = le32(img + BZ_PAYLOAD_OFFSET);
	l = le32(img + BZ_PAYLOAD_LENGTH);
	if (!l || start + o > size || l > size - (start + o)) {
		kd_err("%s: bzImage payload (offset %llu, %llu bytes) lies outside the file"
		       " (%zu bytes): truncated or damaged", path, (unsigned long long)(start + o),
		       (unsigned long long)l, size);
		return -KD_EFORMAT;
	}
	*off = (size_t)(start + o);
	*len = (size_t)l;
	return 0;
}

struct fd_sink {
	const char *path;
	int fd;
};

static int write_out(void *ctx, const void *buf, size_t n)
{
	struct fd_sink *o = ctx;
	int err = kd_write_all(o->fd, buf, n);

	if (err)
		kd_err("%s: decompressing the payload: %s", o->path, strerror(-err));
	return err;
}

int bzimage_open_elf(const char *path, struct kelf **out)
{
	const unsigned char *img = NULL;
	unsigned char magic[4];
	size_t size = 0, off = 0, len = 0;
	int mfd = -1, err;

	*out = NULL;
	err = kd_map_file(path, &img, &size);
	if (err) {
		kd_err("%s: %s", path, err == -KD_ENOTREG ? "not a regular file" : kd_strerror(err));
		return err;
	}
	if (size < BZ_HEADER_END) {
		kd_err("%s: truncated bzImage (%zu bytes)", path, size);
		err = -KD_EFORMAT;
		goto out;
	}
	err = payload_range(path, img, size, &off, &len);
	if (err)
		goto out;
	mfd = memfd_create("kabi-diff-vmlinux", MFD_CLOEXEC);
	if (mfd < 0) {
		err = -errno;
		kd_err("%s: memfd_create: %s", path, strerror(errno));
		goto out;
	}
	err = boot_inflate(path, "bzImage payload", img + off, len, BZ_MAX_ELF, write_out,
			   &(struct fd_sink){ path, mfd });
	if (err)
		goto out;
	if (pread(mfd, magic, sizeof(magic), 0) != (ssize_t)sizeof(magic) ||
	    memcmp(magic, "\177ELF", 4)) {
		kd_err("%s: bzImage payload decompresses to something other than an ELF kernel", path);
		err = -KD_EFORMAT;
		goto out;
	}
	err = kelf_open_fd(mfd, path, out);
	mfd = -1;	/* taken by kelf_open_fd() */
out:
	if (mfd >= 0)
		close(mfd);
	kd_unmap_file(img, size);
	return err;
}
