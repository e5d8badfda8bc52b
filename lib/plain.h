/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Text from the inputs (a release string, names, a header's values) made
 * safe for a terminal or a log: control characters -- the ESC that starts
 * an escape sequence, CR, BS, and the C1 controls in UTF-8 (U+0080 to
 * U+009F, CSI among them) -- are shown as \xNN. Printable bytes, UTF-8
 * included, pass unchanged.
 */
#ifndef KD_PLAIN_H
#define KD_PLAIN_H

#include <stddef.h>
#include <stdio.h>

struct kd_buf;

/* Is @p the start of a control character? Its length in bytes (1 or 2), else 0. */
size_t kd_control_len(const char *p);
/*
 * @s with its control characters escaped: @s itself when it has none,
 * else the escaped text in @b (the caller releases @b); "" for NULL.
 */
const char *kd_plain(struct kd_buf *b, const char *s);
/*
 * Write @len bytes of @s to @f, control characters escaped except
 * newlines and tabs (a command's own layout). 0, or -EIO.
 */
int kd_fwrite_plain(FILE *f, const char *s, size_t len);

#endif
