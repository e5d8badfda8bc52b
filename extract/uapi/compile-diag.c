// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the compiler says about a run of units: its diagnostics (which
 * unit each error came through, and the first error's text) and a unit's
 * dependency file (every file it read, for the cache and for what a
 * header may read).
 */
#include "extract/uapi/compile_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/str.h"

const char *uapi_cc_display_path(const char *const *prefixes, const char *path, size_t *len)
{
	size_t i;

	for (i = 0; prefixes[i]; i++) {
		const char *dir = prefixes[i];
		size_t n = strlen(dir);

		if (n && *len > n && !strncmp(path, dir, n) && path[n] == '/') {
			*len -= n + 1;
			return path + n + 1;
		}
	}
	return path;
}

/* The unit (index into @units) whose line 1 @p ("FILE:LINE...") is, or -1. */
static long unit_at(const char *p, size_t len, const char *const *units, size_t nr_units)
{
	size_t i;

	for (i = 0; i < nr_units; i++) {
		size_t n = strlen(units[i]);

		if (len > n + 1 && !strncmp(p, units[i], n) && p[n] == ':' &&
		    strtol(p + n + 1, NULL, 10) == 1)
			return (long)i;
	}
	return -1;
}

/* "error" and "fatal error" diagnostics; notes and warnings end an include chain too. */
static int diag_kind(const char *p, size_t len)
{
	if (memmem(p, len, ": fatal error: ", 15))
		return 'f';
	if (memmem(p, len, ": error: ", 9))
		return 'e';
	return memmem(p, len, ": note: ", 8) || memmem(p, len, ": warning: ", 11) ? 'n' : 0;
}

/* A program speaking of itself, "cc1: out of memory allocating ...", not of a file. */
static bool tool_line(const char *p, size_t len)
{
	size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-");

	return n && n + 2 <= len && p[n] == ':' && p[n + 1] == ' ' &&
	       !memmem(p, len, ": In function", 13) && !memmem(p, len, ": At top level", 14);
}

int uapi_cc_unit_errors(const char *text, const char *const *units, size_t nr_units,
			const char *const *prefixes,
			bool (*outside)(void *ctx, const char *path, size_t len), void *ctx,
			struct uapi_cc_unit_diag *diag, struct kd_buf *other)
{
	const char *p = text;
	long outer = -1;
	int err = 0;

	while (!err && p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		int kind = diag_kind(p, len);

		if (kd_starts_with(p, "In file included from ")) {
			outer = unit_at(p + 22, len - 22, units, nr_units);
		} else if (len > 22 && kd_starts_with(p, "                 from ")) {
			long at = unit_at(p + 22, len - 22, units, nr_units);

			if (at >= 0)
				outer = at;
		} else if (kind == 'e' || kind == 'f') {
			long at = outer >= 0 ? outer : unit_at(p, len, units, nr_units);
			size_t plen = strcspn(p, ":"), dlen;
			struct kd_buf *dest;
			const char *d;
			bool hide;

			if (plen > len)
				plen = len;
			dlen = plen;
			d = uapi_cc_display_path(prefixes, p, &dlen);
			/* A file outside the tree: its name, never its text (redteam R30). */
			hide = outside && outside(ctx, p, plen);
			dest = at >= 0 ? &diag[at].first : other;
			if (!dest->len && hide)
				err = uapi_cc_hidden_error(prefixes, p, plen, dest);
			else if (!dest->len)
				err = kd_buf_addf(dest, "%.*s%.*s", (int)dlen, d, (int)(len - plen),
						  p + plen);
			if (at >= 0 && !diag[at].where.len && !err)
				err = kd_buf_add(&diag[at].where, p, plen);
			/* Any fatal error ends the unit, an earlier error or not. */
			if (at >= 0 && kind == 'f')
				diag[at].fatal = true;
			outer = -1;
		} else if (kind == 'n') {
			outer = -1;
		} else if (tool_line(p, len) && !other->len) {
			err = kd_buf_add(other, p, len);
		}
		p = nl ? nl + 1 : NULL;
	}
	return err;
}

int uapi_cc_parse_deps(const char *text, int (*add)(const char *path, void *ctx), void *ctx)
{
	struct kd_buf word = KD_BUF_INIT;
	bool prereqs = false;
	const char *p;
	int err = 0;

	for (p = text; !err; p++) {
		if (*p == '\\' && (p[1] == '\n' || p[1] == ' ')) {
			p++;
			if (*p == ' ')
				err = kd_buf_addc(&word, ' ');
			continue;
		}
		if (*p && *p != ' ' && *p != '\t' && *p != '\n') {
			err = kd_buf_addc(&word, *p);
			continue;
		}
		if (word.len && !prereqs)
			prereqs = word.s[word.len - 1] == ':';
		else if (word.len && word.s[word.len - 1] != ':')
			err = add(word.s, ctx);	/* relative ones too: a tree given by a relative path */
		kd_buf_reset(&word);
		if (!*p)
			break;
	}
	kd_buf_release(&word);
	return err;
}
