// SPDX-License-Identifier: GPL-2.0-only
/* Control characters of the inputs' text as \xNN (lib/plain.h). */
#include "plain.h"

#include <errno.h>

#include "buf.h"

size_t kd_control_len(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;

	if (u[0] < 0x20 || u[0] == 0x7f)
		return 1;
	if (u[0] == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f)
		return 2;
	return 0;
}

const char *kd_plain(struct kd_buf *b, const char *s)
{
	const char *p;
	size_t n;

	if (!s)
		return "";
	for (p = s; *p && !kd_control_len(p); p++)
		;
	if (!*p)
		return s;
	kd_buf_reset(b);
	for (p = s; *p; p += n ? n : 1) {
		n = kd_control_len(p);
		if (n == 2 ? kd_buf_addf(b, "\\x%02x\\x%02x", (unsigned char)p[0], (unsigned char)p[1]) :
		    n ? kd_buf_addf(b, "\\x%02x", (unsigned char)*p) : kd_buf_addc(b, *p))
			return "(out of memory)";
	}
	return b->s;
}

int kd_fwrite_plain(FILE *f, const char *s, size_t len)
{
	size_t i, start = 0, n;

	for (i = 0; i < len; i += n ? n : 1) {
		/* kd_control_len() reads a second byte only after 0xc2: not past @len. */
		if (s[i] == '\n' || s[i] == '\t' || ((unsigned char)s[i] == 0xc2 && i + 1 == len))
			n = 0;
		else
			n = kd_control_len(s + i);
		if (!n)
			continue;
		if (fwrite(s + start, 1, i - start, f) != i - start)
			return -EIO;
		if (n == 2)
			fprintf(f, "\\x%02x\\x%02x", (unsigned char)s[i], (unsigned char)s[i + 1]);
		else
			fprintf(f, "\\x%02x", (unsigned char)s[i]);
		start = i + n;
	}
	if (fwrite(s + start, 1, len - start, f) != len - start || ferror(f))
		return -EIO;
	return 0;
}
