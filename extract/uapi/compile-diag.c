// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the compiler says about a batch: its diagnostics (which #include
 * line of the batch each error came through, and the first error's text)
 * and its dependency file (every file it read, for the cache).
 */
#include "extract/uapi/compile_internal.h"

#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"

/* @path made tree-relative ("linux/coda.h") when it is in the tree or the wrappers. */
static const char *display_path(const char *const *prefixes, const char *path, size_t *len)
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

/* The batch file's line an #include chain or a diagnostic goes through, or 0. */
static long batch_line(const char *p, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (len > n + 1 && !strncmp(p, src, n) && p[n] == ':')
		return strtol(p + n + 1, NULL, 10);
	return 0;
}

/* "error" and "fatal error" diagnostics; notes and warnings end an include chain too. */
static int diag_kind(const char *p, size_t len)
{
	const char *e = memmem(p, len, ": error: ", 9), *f = memmem(p, len, ": fatal error: ", 15);

	if (e || f)
		return 'e';
	return memmem(p, len, ": note: ", 8) || memmem(p, len, ": warning: ", 11) ? 'n' : 0;
}

/*
 * Read the diagnostics of a failed run: bad[i] is set for each #include
 * line (1-based) an error came through. @first_line1 receives the first
 * error that came through line 1, @first_any the first of the others,
 * both with tree-relative paths. Returns the number of lines marked.
 */
size_t uapi_cc_parse_errors(const char *text, const char *src, const char *const *prefixes,
			    bool *bad, size_t nr_lines, struct kd_buf *first_line1,
			    struct kd_buf *first_any)
{
	const char *p = text;
	long outer = 0;
	size_t marked = 0;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		int kind = diag_kind(p, len);

		if (!strncmp(p, "In file included from ", 22)) {
			outer = batch_line(p + 22, len - 22, src);
		} else if (len > 22 && !strncmp(p, "                 from ", 22)) {
			long line = batch_line(p + 22, len - 22, src);

			if (line)
				outer = line;
		} else if (kind == 'e') {
			long at = outer ? outer : batch_line(p, len, src);
			struct kd_buf *dest = at == 1 ? first_line1 : first_any;
			size_t plen = strcspn(p, ":"), dlen;
			const char *d;

			if (plen > len)
				plen = len;
			dlen = plen;
			d = display_path(prefixes, p, &dlen);
			if (!dest->len)
				(void)kd_buf_addf(dest, "%.*s%.*s", (int)dlen, d, (int)(len - plen), p + plen);
			if (at > 0 && (size_t)at <= nr_lines && !bad[at - 1]) {
				bad[at - 1] = true;
				marked++;
			}
			outer = 0;
		} else if (kind == 'n') {
			outer = 0;
		}
		p = nl ? nl + 1 : NULL;
	}
	return marked;
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
