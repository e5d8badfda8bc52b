// SPDX-License-Identifier: GPL-2.0-only
/*
 * The caps on unpacking one input (unpack-limits.h). A member is checked
 * twice: its declared size before anything is written (a 1 TiB vmlinux is
 * refused at once, and one that would not fit in the free space too,
 * instead of filling the disk first), then every block as it is copied,
 * because the declared size is only what the archive says.
 */
#include "extract/input/unpack-limits.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/mem.h"

const struct unpack_caps unpack_default_caps = {
	.member = { [UNPACK_IMAGE] = UNPACK_MAX_IMAGE, [UNPACK_MODULE] = UNPACK_MAX_MODULE,
		    [UNPACK_HEADER] = UNPACK_MAX_HEADER },
	.kind = { [UNPACK_IMAGE] = UINT64_MAX, [UNPACK_MODULE] = UINT64_MAX,
		  [UNPACK_HEADER] = UNPACK_MAX_HEADERS },
	.input = UNPACK_MAX_INPUT,
	.files = UNPACK_MAX_FILES,
};

static const char *const kind_one[UNPACK_KINDS] = { "vmlinux", "module", "header" };
static const char *const kind_all[UNPACK_KINDS] = { "vmlinux images", "modules", "headers" };

#define COPY_BLOCK (256u << 10)

static const struct unpack_caps *override;

void unpack__override_caps(const struct unpack_caps *caps)
{
	override = caps;
}

static const struct unpack_caps *caps_of(const struct unpack_budget *b)
{
	return b->caps ? b->caps : override ? override : &unpack_default_caps;
}

/* @n bytes as people read them: "4 GiB", "1.5 MiB", "700 bytes". */
static const char *size_text(uint64_t n, char buf[32])
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	int u = -1;

	while (u + 1 < 6 && n >> (10 * (u + 2)))
		u++;
	if (u < 0)
		snprintf(buf, 32, "%" PRIu64 " bytes", n);
	else if (!(n & ((1ULL << (10 * (u + 1))) - 1)))
		snprintf(buf, 32, "%" PRIu64 " %s", n >> (10 * (u + 1)), units[u]);
	else
		snprintf(buf, 32, "%.1f %s", (double)n / (double)(1ULL << (10 * (u + 1))), units[u]);
	return buf;
}

/*
 * Would @add more bytes of a member of @kind, @member_bytes long with them,
 * pass a cap? @declared: the size is the archive's word, not yet written.
 */
static int check_caps(const struct unpack_budget *b, const char *input, const char *member,
		      enum unpack_kind kind, uint64_t member_bytes, uint64_t add, bool declared)
{
	const struct unpack_caps *c = caps_of(b);
	char x[32], y[32];

	if (member_bytes > c->member[kind]) {
		if (declared)
			kd_err("%s: %s: declares %s, more than %s, the limit of one %s", input, member,
			       size_text(member_bytes, x), size_text(c->member[kind], y), kind_one[kind]);
		else
			kd_err("%s: %s: more than %s, the limit of one %s", input, member,
			       size_text(c->member[kind], y), kind_one[kind]);
		return -KD_ELIMIT;
	}
	if (add > c->kind[kind] - b->kind_bytes[kind]) {
		kd_err("%s: %s: the %s would take more than %s, the limit of one input's %s", input,
		       member, kind_all[kind], size_text(c->kind[kind], y), kind_all[kind]);
		return -KD_ELIMIT;
	}
	if (add > c->input - b->bytes) {
		kd_err("%s: %s: more than %s written, the limit of one input", input, member,
		       size_text(c->input, y));
		return -KD_ELIMIT;
	}
	return 0;
}

int unpack__admit(struct unpack_budget *b, const char *input, const char *member,
		  enum unpack_kind kind, int64_t declared, const char *dir)
{
	const struct unpack_caps *c = caps_of(b);
	struct statvfs vfs;
	char x[32], y[32];
	int err;

	if (b->files >= c->files) {
		kd_err("%s: %s: more than %" PRIu64 " members written, the limit of one input", input,
		       member, c->files);
		return -KD_ELIMIT;
	}
	if (declared > 0) {
		err = check_caps(b, input, member, kind, (uint64_t)declared, (uint64_t)declared, true);
		if (err)
			return err;
		/*
		 * A file system that cannot say (statvfs fails) is written
		 * anyway: the write's ENOSPC still stops it, later.
		 */
		if (!statvfs(dir, &vfs) && vfs.f_frsize &&
		    (uint64_t)declared / vfs.f_frsize >= vfs.f_bavail) {
			kd_err("%s: %s: declares %s, more than the %s free in %s", input, member,
			       size_text((uint64_t)declared, x),
			       size_text((uint64_t)vfs.f_bavail * vfs.f_frsize, y), dir);
			return -ENOSPC;
		}
	}
	b->files++;
	return 0;
}

int unpack__check_depth(const char *input, const char *member, const char *rel)
{
	int depth = 0;

	for (const char *p = strchr(rel, '/'); p; p = strchr(p + 1, '/'))
		depth++;
	if (depth > UNPACK_MAX_DEPTH) {
		kd_err("%s: %s: more than %d directories deep, the limit", input, member,
		       UNPACK_MAX_DEPTH);
		return -KD_ELIMIT;
	}
	return 0;
}

int unpack__copy(struct unpack_budget *b, const char *input, const char *member,
		 enum unpack_kind kind, int64_t declared, unpack_read_fn read, void *ctx, int fd)
{
	char *block = kd_malloc(COPY_BLOCK);
	uint64_t copied = 0;
	ssize_t n = 0;
	int err = block ? 0 : -ENOMEM;

	while (!err && (n = read(ctx, block, COPY_BLOCK)) > 0) {
		if (declared >= 0 && (uint64_t)n > (uint64_t)declared - copied) {
			kd_err("%s: %s: more data than the %" PRId64 " bytes it declares", input,
			       member, declared);
			err = -KD_EFORMAT;
			break;
		}
		err = check_caps(b, input, member, kind, copied + (uint64_t)n, (uint64_t)n, false);
		for (ssize_t off = 0; !err && off < n;) {
			ssize_t w = write(fd, block + off, (size_t)(n - off));

			if (w < 0 && errno != EINTR)
				err = -errno;
			else if (w > 0)
				off += w;
		}
		if (!err) {
			copied += (uint64_t)n;
			b->kind_bytes[kind] += (uint64_t)n;
			b->bytes += (uint64_t)n;
		}
	}
	if (!err && n < 0)
		err = (int)n;
	free(block);
	return err;
}
