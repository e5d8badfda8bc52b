// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAPI reader: the enumerators of a header's enum bodies with their
 * initializers, for ioctl numbers defined as enumerators rather than
 * #defines (6.12's <linux/android/binder.h>: enum { BINDER_FREEZE =
 * _IOW('b', 14, struct binder_freeze_info), ... }; binder's BR_/BC_
 * protocol commands). The preprocessor only reads directive lines; this
 * reads the rest of the text, with directive lines blanked out, so an
 * enumerator under a false #if is seen too: the caller checks each value
 * against the compiled header view, which only has what the compiler saw.
 */
#include "extract/uapi/uapi_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mem.h"

/* f->text with directive lines blanked and newlines as spaces: same offsets. */
static char *declarations_only(const struct ufile *f, size_t *len)
{
	size_t n = strlen(f->text), i = 0;
	char *b = kd_malloc(n + 1);

	if (!b)
		return NULL;
	memcpy(b, f->text, n + 1);
	while (i < n) {
		size_t eol = i + strcspn(b + i, "\n"), j = i;

		while (j < eol && (b[j] == ' ' || b[j] == '\t' || b[j] == '\r' || b[j] == '\f'))
			j++;
		if (j < eol && b[j] == '#')
			memset(b + i, ' ', eol - i);
		if (eol < n)
			b[eol] = ' ';
		i = eol + 1;
	}
	*len = n;
	return b;
}

/* Items of one enum body t[0..n) (after '{', before '}'). */
static int scan_body(const struct ufile *f, const char *base, const struct utok *t, size_t n,
		     uenum_fn fn, void *ctx)
{
	size_t i = 0;
	int err = 0;

	while (!err && i < n) {
		size_t start = i, eq = 0;
		int depth = 0;

		for (; i < n; i++) {
			if (utok_is(&t[i], "(") || utok_is(&t[i], "["))
				depth++;
			else if (utok_is(&t[i], ")") || utok_is(&t[i], "]"))
				depth--;
			else if (depth == 0 && utok_is(&t[i], ","))
				break;
			else if (depth == 0 && !eq && utok_is(&t[i], "="))
				eq = i;
		}
		/* IDENT = initializer: the rest of the item. */
		if (eq == start + 1 && t[start].kind == UT_IDENT && i > eq + 1)
			err = fn(&t[start], &t[eq + 1], i - eq - 1,
				 ufile__line_at(f, (size_t)(t[start].s - base)), ctx);
		i++;
	}
	return err;
}

int udecl_lex(const struct ufile *f, char **text, struct utoks *t)
{
	size_t len = 0;
	int err;

	memset(t, 0, sizeof(*t));
	*text = declarations_only(f, &len);
	if (!*text)
		return -ENOMEM;
	err = ulex(*text, len, t);
	if (err) {
		utoks_release(t);
		free(*text);
		*text = NULL;
	}
	return err;
}

size_t udecl_body_end(const struct utok *t, size_t open, size_t n)
{
	size_t i;
	int depth = 0;

	for (i = open + 1; i < n; i++) {
		if (utok_is(&t[i], "{"))
			depth++;
		else if (utok_is(&t[i], "}") && depth-- == 0)
			return i;
	}
	return n;
}

int uenum_scan(const struct ufile *f, uenum_fn fn, void *ctx)
{
	struct utoks t;
	size_t i;
	char *text;
	int err;

	/* Cheap test first: no enum, or no ioctl macro, in most headers. */
	if (!strstr(f->text, "enum") || !strstr(f->text, "_IO"))
		return 0;
	err = udecl_lex(f, &text, &t);
	if (err)
		return err;
	for (i = 0; !err && i + 1 < t.n; i++) {
		size_t open, close;

		if (!utok_is(&t.v[i], "enum"))
			continue;
		open = i + 1;
		if (t.v[open].kind == UT_IDENT)
			open++;
		if (open >= t.n || !utok_is(&t.v[open], "{"))
			continue;
		close = udecl_body_end(t.v, open, t.n);
		if (close == t.n)
			break;	/* unterminated: the compiler says so */
		err = scan_body(f, text, &t.v[open + 1], close - open - 1, fn, ctx);
		i = close;
	}
	utoks_release(&t);
	free(text);
	return err;
}
