/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kd_buf: the one growable string buffer of kabi-diff.
 *
 * Invariants: buf->s is never NULL and always NUL-terminated (an empty
 * buffer points at a shared static ""), so a kd_buf can be printed at any
 * time. KD_BUF_INIT gives a valid empty buffer without allocation.
 * On allocation failure the buffer keeps what it had and the call returns
 * -ENOMEM; kd_buf_detach() hands the string to the caller, who frees it.
 */
#ifndef KD_BUF_H
#define KD_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct kd_buf {
	char *s;	/* never NULL, NUL-terminated */
	size_t len;	/* bytes before the NUL */
	size_t cap;	/* bytes allocated; 0 while s is the static "" */
};

extern char kd_buf__empty[];
#define KD_BUF_INIT { .s = kd_buf__empty, .len = 0, .cap = 0 }

/* Make room for at least @extra more bytes (plus the NUL). */
int kd_buf_grow(struct kd_buf *b, size_t extra);
int kd_buf_add(struct kd_buf *b, const void *data, size_t len);
int kd_buf_adds(struct kd_buf *b, const char *s);
int kd_buf_addc(struct kd_buf *b, char c);
int kd_buf_addf(struct kd_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int kd_buf_vaddf(struct kd_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/*
 * Append the whole file @path to @b. Returns 0, -errno when it cannot be
 * opened, -EIO on a read error or -ENOMEM; nothing is reported (the caller
 * names the file in its message). On failure @b may hold part of the file.
 */
int kd_buf_read_file(struct kd_buf *b, const char *path);
/*
 * Append @path to @b when it is a regular file of at most @max bytes. A
 * FIFO or a device (/dev/zero) is never read: -KD_ENOTREG, and it is
 * opened without blocking; a larger file: -KD_ELIMIT. Otherwise as
 * kd_buf_read_file(); nothing is reported.
 */
int kd_buf_read_regular(struct kd_buf *b, const char *path, size_t max);
/* Drop the contents but keep the allocation. */
void kd_buf_reset(struct kd_buf *b);
/* Return the string (malloc'ed, caller frees) and leave @b empty. NULL on ENOMEM. */
char *kd_buf_detach(struct kd_buf *b);
/* Free the storage; @b is empty and valid afterwards. */
void kd_buf_release(struct kd_buf *b);

#endif
