// SPDX-License-Identifier: GPL-2.0-only
/*
 * kd_buf implementation. All growth goes through kd_buf_grow(), which
 * checks for size_t overflow so no caller has to.
 */
#include "buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "mem.h"

char kd_buf__empty[1];

int kd_buf_grow(struct kd_buf *b, size_t extra)
{
	size_t need, cap;
	char *s;

	if (extra > SIZE_MAX - b->len - 1)
		return -ENOMEM;
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	s = kd_realloc(b->cap ? b->s : NULL, cap);
	if (!s)
		return -ENOMEM;
	if (!b->cap)
		s[0] = '\0';
	b->s = s;
	b->cap = cap;
	return 0;
}

int kd_buf_add(struct kd_buf *b, const void *data, size_t len)
{
	int err = kd_buf_grow(b, len);

	if (err)
		return err;
	memcpy(b->s + b->len, data, len);
	b->len += len;
	b->s[b->len] = '\0';
	return 0;
}

int kd_buf_read_file(struct kd_buf *b, const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t n;
	int err = 0;

	if (!f)
		return -errno;
	/* fread() straight into the buffer: no bounce copy of a large file. */
	do {
		err = kd_buf_grow(b, 65536);
		if (err)
			break;
		n = fread(b->s + b->len, 1, b->cap - b->len - 1, f);
		b->len += n;
		b->s[b->len] = '\0';
	} while (n > 0);
	if (!err && ferror(f))
		err = -EIO;
	fclose(f);
	return err;
}

int kd_buf_read_regular(struct kd_buf *b, const char *path, size_t max)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), err = 0;
	size_t start = b->len;
	struct stat st;
	ssize_t n;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		err = -errno;
	else if (!S_ISREG(st.st_mode))
		err = -KD_ENOTREG;
	else if ((uint64_t)st.st_size > max)
		err = -KD_ELIMIT;
	/* Read to the end, not to st_size: the file may have grown since. */
	while (!err) {
		err = kd_buf_grow(b, 65536);
		if (err)
			break;
		n = read(fd, b->s + b->len, b->cap - b->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -EIO;
			break;
		}
		b->len += (size_t)n;
		b->s[b->len] = '\0';
		if (b->len - start > max)
			err = -KD_ELIMIT;
		if (!n)
			break;
	}
	close(fd);
	return err;
}

int kd_buf_adds(struct kd_buf *b, const char *s)
{
	return kd_buf_add(b, s, strlen(s));
}

int kd_buf_addc(struct kd_buf *b, char c)
{
	return kd_buf_add(b, &c, 1);
}

int kd_buf_vaddf(struct kd_buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	int n, err;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return -EINVAL;
	err = kd_buf_grow(b, (size_t)n);
	if (err)
		return err;
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int kd_buf_addf(struct kd_buf *b, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = kd_buf_vaddf(b, fmt, ap);
	va_end(ap);
	return err;
}

void kd_buf_reset(struct kd_buf *b)
{
	b->len = 0;
	if (b->cap)
		b->s[0] = '\0';
}

char *kd_buf_detach(struct kd_buf *b)
{
	char *s;

	if (!b->cap) {
		s = kd_strdup("");
	} else {
		s = b->s;
	}
	b->s = kd_buf__empty;
	b->len = b->cap = 0;
	return s;
}

void kd_buf_release(struct kd_buf *b)
{
	if (b->cap)
		free(b->s);
	b->s = kd_buf__empty;
	b->len = b->cap = 0;
}
