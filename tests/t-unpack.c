// SPDX-License-Identifier: GPL-2.0-only
/*
 * extract/input/unpack-limits.c: the caps on what one input unpacks, with
 * small caps and a reader that makes up its data. A member that goes on
 * past its declared size, or declares none, is stopped while it is
 * written, with the cap in the message; the caps of a member, of a kind,
 * of the input and of the file count; the free space; the depth.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "extract/input/unpack-limits.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "tests/tap.h"

/* A reader of @left zero bytes, given at most 1000 at a time. */
struct zeros {
	uint64_t left;
};

static ssize_t read_zeros(void *ctx, void *buf, size_t len)
{
	struct zeros *z = ctx;
	size_t n = len < 1000 ? len : 1000;

	if (n > z->left)
		n = (size_t)z->left;
	memset(buf, 0, n);
	z->left -= n;
	return (ssize_t)n;
}

static ssize_t read_fails(void *ctx, void *buf, size_t len)
{
	(void)ctx;
	(void)buf;
	(void)len;
	return -KD_EFORMAT;
}

static const struct unpack_caps small = {
	.member = { [UNPACK_IMAGE] = 10000, [UNPACK_MODULE] = 5000, [UNPACK_HEADER] = 3000 },
	.kind = { [UNPACK_IMAGE] = UINT64_MAX, [UNPACK_MODULE] = UINT64_MAX,
		  [UNPACK_HEADER] = 4000 },
	.input = 12000,
	.files = 5,
};

/* The size of the file open as @fd. */
static long long size_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? -1 : (long long)st.st_size;
}

/* unpack__copy of @bytes zeros declaring @declared into a new file; its messages in @log. */
static int copy(struct unpack_budget *b, enum unpack_kind kind, int64_t declared, uint64_t bytes,
		struct kd_buf *log, long long *written)
{
	char *path = tap_tmp_path("member");
	struct zeros z = { bytes };
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644), err;

	kd_buf_reset(log);
	kd_log_capture(log);
	err = unpack__copy(b, "in.deb", "m", kind, declared, read_zeros, &z, fd);
	kd_log_capture(NULL);
	*written = size_of(fd);
	close(fd);
	unlink(path);
	free(path);
	return err;
}

static int admit(struct unpack_budget *b, enum unpack_kind kind, int64_t declared, struct kd_buf *log)
{
	int err;

	kd_buf_reset(log);
	kd_log_capture(log);
	err = unpack__admit(b, "in.deb", "m", kind, declared, tap_tmpdir());
	kd_log_capture(NULL);
	return err;
}

static void test_while_written(void)
{
	struct unpack_budget b = { .caps = &small };
	struct kd_buf log = KD_BUF_INIT;
	long long written;

	is_int(copy(&b, UNPACK_IMAGE, -1, 1000000, &log, &written), -KD_ELIMIT,
	       "a member of no declared size, 1 MB long: stopped at the cap");
	ok(written <= 10000, "  no more than the 10,000-byte cap written (%lld)", written);
	is_str(log.s, "in.deb: m: more than 9.8 KiB, the limit of one vmlinux", "  the message names the cap");
	b = (struct unpack_budget){ .caps = &small };
	is_int(copy(&b, UNPACK_MODULE, 2000, 4000, &log, &written), -KD_EFORMAT,
	       "a member that declares 2,000 bytes and has 4,000: stopped");
	ok(written <= 2000, "  no more than it declared written (%lld)", written);
	is_str(log.s, "in.deb: m: more data than the 2000 bytes it declares", "  the message says so");
	b = (struct unpack_budget){ .caps = &small };
	is_int(copy(&b, UNPACK_HEADER, 2500, 2500, &log, &written), 0, "a header within its caps: copied");
	is_int(written, 2500, "  whole");
	is_int(copy(&b, UNPACK_HEADER, -1, 2500, &log, &written), -KD_ELIMIT,
	       "a second header: the headers together pass their cap");
	is_str(log.s, "in.deb: m: the headers would take more than 3.9 KiB, the limit of one input's headers",
	       "  the message names the headers' cap");
	/* 3,500 bytes of headers written: the second one's first 1,000 too. */
	is_int(copy(&b, UNPACK_IMAGE, 8000, 8000, &log, &written), 0,
	       "a vmlinux after them: within the input's cap");
	is_int(copy(&b, UNPACK_MODULE, -1, 4000, &log, &written), -KD_ELIMIT,
	       "a module then: the input passes its cap");
	is_str(log.s, "in.deb: m: more than 11.7 KiB written, the limit of one input",
	       "  the message names the input's cap");
	b = (struct unpack_budget){ .caps = &small };
	kd_log_capture(&log);
	{
		int fd = open("/dev/null", O_WRONLY);

		is_int(unpack__copy(&b, "in.deb", "m", UNPACK_IMAGE, -1, read_fails, NULL, fd),
		       -KD_EFORMAT, "a reader's error is returned as it is");
		close(fd);
	}
	kd_log_capture(NULL);
	kd_buf_release(&log);
}

static void test_admitted(void)
{
	static const struct unpack_caps huge = {
		.member = { UINT64_MAX, UINT64_MAX, UINT64_MAX },
		.kind = { UINT64_MAX, UINT64_MAX, UINT64_MAX },
		.input = UINT64_MAX,
		.files = 100,
	};
	struct unpack_budget b = { .caps = &small };
	struct kd_buf log = KD_BUF_INIT;
	int i, err = 0;

	is_int(admit(&b, UNPACK_IMAGE, 1LL << 40, &log), -KD_ELIMIT,
	       "a vmlinux that declares 1 TiB: refused before a byte is written");
	is_str(log.s, "in.deb: m: declares 1 TiB, more than 9.8 KiB, the limit of one vmlinux",
	       "  the message names the member, its size and the cap");
	is_int(admit(&b, UNPACK_HEADER, 3001, &log), -KD_ELIMIT, "a header one byte over its cap: refused");
	is_int(admit(&b, UNPACK_HEADER, 3000, &log), 0, "  one at its cap: admitted");
	for (i = 0; i < 4 && !err; i++)
		err = admit(&b, UNPACK_HEADER, 0, &log);
	is_int(err, 0, "5 members: admitted");
	is_int(admit(&b, UNPACK_HEADER, 0, &log), -KD_ELIMIT, "  the 6th: refused");
	is_str(log.s, "in.deb: m: more than 5 members written, the limit of one input",
	       "  the message names the file cap");
	b = (struct unpack_budget){ .caps = &huge };
	is_int(admit(&b, UNPACK_IMAGE, 1LL << 62, &log), -ENOSPC,
	       "a member larger than the free space: refused before a byte is written");
	ok(!strncmp(log.s, "in.deb: m: declares 4 EiB, more than the ", 41) &&
	   strstr(log.s, " free in "), "  the message names the member and the free space (%s)", log.s);
	/* The free space here may be less: only the caps are asked about. */
	b = (struct unpack_budget){ 0 };
	ok(admit(&b, UNPACK_IMAGE, 700LL << 20, &log) != -KD_ELIMIT &&
	   admit(&b, UNPACK_MODULE, 600LL << 20, &log) != -KD_ELIMIT &&
	   admit(&b, UNPACK_HEADER, 1 << 20, &log) != -KD_ELIMIT,
	   "the default caps admit Debian's sizes: a 700 MiB vmlinux, a 600 MiB module, a 1 MiB header");
	kd_buf_release(&log);
}

static void test_depth(void)
{
	struct kd_buf rel = KD_BUF_INIT, log = KD_BUF_INIT;
	int i;

	for (i = 0; i < UNPACK_MAX_DEPTH; i++)
		kd_buf_adds(&rel, "d/");
	kd_buf_adds(&rel, "x.h");
	is_int(unpack__check_depth("in.deb", "m", rel.s), 0, "a file 64 directories deep: written");
	kd_buf_reset(&rel);
	for (i = 0; i <= UNPACK_MAX_DEPTH; i++)
		kd_buf_adds(&rel, "d/");
	kd_buf_adds(&rel, "x.h");
	kd_log_capture(&log);
	is_int(unpack__check_depth("in.deb", "m", rel.s), -KD_ELIMIT, "  65: refused");
	kd_log_capture(NULL);
	is_str(log.s, "in.deb: m: more than 64 directories deep, the limit", "  the message names the limit");
	kd_buf_release(&rel);
	kd_buf_release(&log);
}

int main(void)
{
	test_while_written();
	test_admitted();
	test_depth();
	return tap_done();
}
