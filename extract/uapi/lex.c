// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAPI reader, lowest layer: a string-keyed hash map, C tokens,
 * and loading a header into its directive lines. Loading follows the C
 * translation phases that matter here: backslash-newlines are spliced,
 * comments become one space (a block comment may carry a directive over
 * several physical lines), and only lines that start with '#' are
 * tokenized, since everything the reader needs is a directive.
 */
#include "extract/uapi/uapi_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hash.h"
#include "lib/mem.h"

/* --- map ----------------------------------------------------------------- */
static struct umap_ent *umap_find(const struct umap *m, const char *key, size_t klen, uint64_t h,
				  size_t *pos)
{
	uint64_t v;

	*pos = KD_HASHMAP_FIRST;
	while ((v = kd_hashmap_next(&m->idx, h, pos))) {
		struct umap_ent *e = &m->e[v - 1];

		if (e->klen == klen && !memcmp(e->key, key, klen))
			return e;
	}
	return NULL;
}

void *umap_get(const struct umap *m, const char *key, size_t klen)
{
	size_t pos;
	struct umap_ent *e = umap_find(m, key, klen, kd_hash_bytes(KD_HASH_SEED, key, klen), &pos);

	return e ? e->val : NULL;
}

int umap_put(struct umap *m, const char *key, size_t klen, void *val)
{
	uint64_t h = kd_hash_bytes(KD_HASH_SEED, key, klen);
	struct umap_ent *e;
	size_t pos;
	int err;

	err = kd_hashmap_reserve(&m->idx, 1);
	if (!err)
		err = KD_GROW(m->e, m->cap, m->n + 1);
	if (err)
		return err;
	e = umap_find(m, key, klen, h, &pos);
	if (!e) {
		e = &m->e[m->n++];
		e->key = key;
		e->klen = klen;
		kd_hashmap_insert_at(&m->idx, pos, h, m->n);
	}
	e->val = val;
	return 0;
}

void umap_clear(struct umap *m)
{
	kd_hashmap_clear(&m->idx);
	m->n = 0;
}

void umap_release(struct umap *m)
{
	kd_hashmap_release(&m->idx);
	free(m->e);
	m->e = NULL;
	m->n = m->cap = 0;
}

/* --- tokens ------------------------------------------------------------ */
int utoks_push(struct utoks *t, const struct utok *tok)
{
	if (KD_GROW(t->v, t->cap, t->n + 1))
		return -ENOMEM;
	t->v[t->n++] = *tok;
	return 0;
}

void utoks_release(struct utoks *t)
{
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}

bool utok_is(const struct utok *t, const char *s)
{
	return strlen(s) == t->len && !memcmp(t->s, s, t->len);
}

static bool is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static const char *const puncts3[] = { "...", "<<=", ">>=" };
static const char *const puncts2[] = {
	"##", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "->", "++", "--",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
};

/* Length of the quoted literal at @s (quote @q), stopping at @end. */
static size_t quoted_len(const char *s, const char *end, char q)
{
	const char *p = s + 1;

	while (p < end && *p != q) {
		if (*p == '\\' && p + 1 < end)
			p++;
		p++;
	}
	return (size_t)(p < end ? p + 1 - s : end - s);
}

int ulex(const char *s, size_t len, struct utoks *out)
{
	const char *p = s, *end = s + len;
	bool space = false;

	while (p < end) {
		struct utok t = { .s = p, .space = space };
		size_t i;

		if (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\v' || *p == '\r') {
			space = true;
			p++;
			continue;
		}
		space = false;
		if ((*p == 'L' || *p == 'u' || *p == 'U') && p + 1 < end && (p[1] == '\'' || p[1] == '"')) {
			t.kind = p[1] == '\'' ? UT_CHAR : UT_STRING;
			t.len = (uint32_t)(1 + quoted_len(p + 1, end, p[1]));
		} else if (*p == '\'' || *p == '"') {
			t.kind = *p == '\'' ? UT_CHAR : UT_STRING;
			t.len = (uint32_t)quoted_len(p, end, *p);
		} else if ((*p >= '0' && *p <= '9') || (*p == '.' && p + 1 < end && p[1] >= '0' && p[1] <= '9')) {
			const char *q = p + 1;

			while (q < end) {
				if ((*q == '+' || *q == '-') && strchr("eEpP", q[-1]))
					q++;
				else if (is_ident_char(*q) || *q == '.')
					q++;
				else
					break;
			}
			t.kind = UT_NUMBER;
			t.len = (uint32_t)(q - p);
		} else if (is_ident_char(*p) || *p == '$') {
			const char *q = p;

			while (q < end && (is_ident_char(*q) || *q == '$'))
				q++;
			t.kind = UT_IDENT;
			t.len = (uint32_t)(q - p);
		} else {
			t.kind = UT_PUNCT;
			t.len = 1;
			for (i = 0; i < sizeof(puncts3) / sizeof(*puncts3); i++)
				if (end - p >= 3 && !memcmp(p, puncts3[i], 3))
					t.len = 3;
			for (i = 0; t.len == 1 && i < sizeof(puncts2) / sizeof(*puncts2); i++)
				if (end - p >= 2 && !memcmp(p, puncts2[i], 2))
					t.len = 2;
		}
		if (utoks_push(out, &t))
			return -ENOMEM;
		p += t.len;
	}
	return 0;
}

int utoks_text(struct kd_buf *b, const struct utok *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i && t[i].space && kd_buf_addc(b, ' '))
			return -ENOMEM;
		if (kd_buf_add(b, t[i].s, t[i].len))
			return -ENOMEM;
	}
	return 0;
}

/* --- files --------------------------------------------------------------- */

/*
 * Copy @src to a comment-free text: spliced lines joined, each comment one
 * space, string and character literals kept. @starts[i] receives the
 * physical line number where cleaned line i begins.
 */
static int clean_text(const char *src, size_t len, char **out, int **starts, size_t *nr_lines)
{
	char *dst = kd_malloc(len + 1);
	size_t cap = 0, n = 0, o = 0, i = 0;
	int *st = NULL, phys = 1, err = -ENOMEM;
	char quote = 0;

	if (!dst)
		goto fail;
	if (KD_GROW(st, cap, 1))
		goto fail;
	st[n++] = 1;
	while (i < len) {
		char c = src[i];

		if (c == '\\' && i + 1 < len && (src[i + 1] == '\n' ||
						 (src[i + 1] == '\r' && i + 2 < len && src[i + 2] == '\n'))) {
			i += src[i + 1] == '\n' ? 2 : 3;
			phys++;
			continue;
		}
		if (quote) {
			if (c == '\n') {	/* unterminated literal ends with the line */
				quote = 0;
			} else {
				dst[o++] = c;
				if (c == '\\' && i + 1 < len && src[i + 1] != '\n')
					dst[o++] = src[++i];
				else if (c == quote)
					quote = 0;
				i++;
				continue;
			}
		}
		if (c == '/' && i + 1 < len && src[i + 1] == '*') {
			for (i += 2; i < len && !(src[i] == '*' && i + 1 < len && src[i + 1] == '/'); i++)
				if (src[i] == '\n')
					phys++;
			i = i < len ? i + 2 : len;
			dst[o++] = ' ';
			continue;
		}
		if (c == '/' && i + 1 < len && src[i + 1] == '/') {
			while (i < len && src[i] != '\n') {
				if (src[i] == '\\' && i + 1 < len && src[i + 1] == '\n') {
					i++;
					phys++;
				}
				i++;
			}
			dst[o++] = ' ';
			continue;
		}
		if (c == '"' || c == '\'')
			quote = c;
		dst[o++] = c;
		i++;
		if (c == '\n') {
			phys++;
			if (KD_GROW(st, cap, n + 1))
				goto fail;
			st[n++] = phys;
		}
	}
	dst[o] = 0;
	*out = dst;
	*starts = st;
	*nr_lines = n;
	return 0;
fail:
	free(dst);
	free(st);
	return err;
}

static int load_lines(struct ufile *f)
{
	struct utoks toks = { 0 };
	size_t nr_lines = 0, cap = 0, i;
	int *starts = NULL, err;
	char *clean = NULL, *p;

	err = clean_text(f->text, strlen(f->text), &clean, &starts, &nr_lines);
	if (err)
		goto out;
	free(f->text);
	f->text = clean;
	for (i = 0, p = clean; i < nr_lines; i++) {
		char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *q = p;
		struct uline *l;

		while (q < p + len && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\f'))
			q++;
		if (q < p + len && *q == '#') {
			err = KD_GROW(f->lines, cap, f->nr_lines + 1);
			if (err)
				goto out;
			l = &f->lines[f->nr_lines++];
			l->lineno = starts[i];
			l->first = (uint32_t)toks.n;
			err = ulex(q + 1, len - (size_t)(q + 1 - p), &toks);
			if (err)
				goto out;
			l->n = (uint32_t)(toks.n - l->first);
		}
		p += len + (eol ? 1 : 0);
	}
	f->toks = toks.v;
	f->nr_toks = toks.n;
	toks.v = NULL;
	f->line_starts = starts;
	f->nr_text_lines = nr_lines;
	starts = NULL;
out:
	utoks_release(&toks);
	free(starts);
	return err;
}

int ufile__line_at(const struct ufile *f, size_t off)
{
	size_t i, line = 0;

	for (i = 0; i < off && f->text[i]; i++)
		line += f->text[i] == '\n';
	return line < f->nr_text_lines ? f->line_starts[line] : 0;
}

int ufile__from_text(const char *text, const char *name, struct ufile **out)
{
	struct ufile *f = kd_calloc(1, sizeof(*f));
	int err = -ENOMEM;

	*out = NULL;
	if (!f)
		return -ENOMEM;
	f->name = kd_strdup(name);
	f->text = kd_strdup(text);
	if (!f->name || !f->text)
		goto fail;
	err = load_lines(f);
	if (err)
		goto fail;
	*out = f;
	return 0;
fail:
	ufile__free(f);
	return err;
}

int ufile__load(const char *path, const char *name, struct ufile **out)
{
	struct kd_buf b = KD_BUF_INIT;
	int err;

	*out = NULL;
	err = kd_buf_read_file(&b, path);
	if (err)
		goto out;
	/* NUL bytes would cut the text short; headers have none. */
	err = ufile__from_text(b.s, name, out);
	if (!err) {
		(*out)->path = kd_strdup(path);
		if (!(*out)->path) {
			ufile__free(*out);
			*out = NULL;
			err = -ENOMEM;
		}
	}
out:
	kd_buf_release(&b);
	return err;
}

void ufile__free(struct ufile *f)
{
	if (!f)
		return;
	free(f->name);
	free(f->path);
	free(f->text);
	free(f->line_starts);
	free(f->toks);
	free(f->lines);
	free(f);
}
