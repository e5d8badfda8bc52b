// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compressed kernel inside a bootable image (a bzImage's payload, an
 * arm64 Image.gz or zboot payload), decompressed with libarchive's "raw"
 * format over whichever filter the data needs (gzip, xz, zstd, lz4,
 * bzip2, lzma), bounded so that a small hostile payload cannot fill
 * memory or disk.
 */
#include "extract/btf_internal.h"

#include <archive.h>
#include <errno.h>

#include "lib/err.h"
#include "lib/mem.h"

#define CHUNK (1 << 16)

int boot_inflate(const char *path, const char *what, const void *data, size_t len, uint64_t max,
		 boot_sink_fn sink, void *ctx)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	char *buf = NULL;
	uint64_t total = 0;
	int err = 0;

	if (!a)
		return -ENOMEM;
	if (archive_read_support_filter_all(a) < ARCHIVE_WARN ||
	    archive_read_support_format_raw(a) != ARCHIVE_OK ||
	    archive_read_open_memory(a, data, len) != ARCHIVE_OK ||
	    archive_read_next_header(a, &e) != ARCHIVE_OK) {
		kd_err("%s: %s is not in a known compression: %s", path, what,
		       archive_error_string(a) ? archive_error_string(a) : "unknown");
		err = -KD_EFORMAT;
		goto out;
	}
	if (archive_filter_count(a) < 2) {
		/* raw over no filter: not compressed at all */
		kd_err("%s: %s is not compressed data", path, what);
		err = -KD_EFORMAT;
		goto out;
	}
	buf = kd_malloc(CHUNK);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	for (;;) {
		la_ssize_t n = archive_read_data(a, buf, CHUNK);

		if (n == 0)
			break;
		if (n < 0) {
			/* The kernel appends the size after an xz/zstd stream: data already read is whole. */
			if (total)
				break;
			kd_err("%s: %s does not decompress: %s", path, what,
			       archive_error_string(a) ? archive_error_string(a) : "unknown");
			err = -KD_EFORMAT;
			goto out;
		}
		total += (uint64_t)n;
		if (total > max) {
			kd_err("%s: %s decompresses to more than %llu bytes", path, what,
			       (unsigned long long)max);
			err = -KD_ELIMIT;
			goto out;
		}
		err = sink(ctx, buf, (size_t)n);
		if (err)
			goto out;
	}
out:
	free(buf);
	archive_read_free(a);
	return err;
}
