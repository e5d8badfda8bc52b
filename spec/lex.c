// SPDX-License-Identifier: GPL-2.0-only
/*
 * The spec lexer and the plumbing every spec parser shares:
 * "FILE:LINE:COL: msg" errors and the did-you-mean hints (edit distance).
 * A file is tokenized whole before parsing so that the parser can look
 * ahead and resynchronize freely; bad characters, unterminated strings and
 * oversized numbers are reported and skipped, never fatal.
 */
#include "spec/spec_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/mem.h"

/* --- errors and hints ------------------------------------------------- */
/*
 * "FILE:LINE:COL: msg", with " (did you mean 'BEST'?)" when @best is set,
 * through kd_err(); counted as an error. -ENOMEM when the message could not
 * be built whole ("out of memory" is reported in its place).
 */
static int vreport(struct spec *s, const struct spec_loc *loc, const char *best,
		   const char *fmt, va_list ap)
{
	struct kd_buf b = KD_BUF_INIT;
	int rc = 0;

	s->nr_errors++;
	if (kd_buf_vaddf(&b, fmt, ap) || (best && kd_buf_addf(&b, " (did you mean '%s'?)", best))) {
		kd_buf_reset(&b);
		rc = -ENOMEM;
	}
	kd_err("%s:%d:%d: %s", loc->file, loc->line, loc->col, b.len ? b.s : "out of memory");
	kd_buf_release(&b);
	return rc;
}

int spec_error_hint(struct spec *s, const struct spec_loc *loc, const char *best,
		    const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vreport(s, loc, best, fmt, ap);
	va_end(ap);
	return rc;
}

/* Optimal string alignment distance (Levenshtein plus transpositions). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, d;
	size_t *row0, *row1, *row2, *mem;

	if (la > 64 || lb > 64)
		return (size_t)-1;
	mem = kd_calloc(3 * (lb + 1), sizeof(*mem));
	if (!mem)
		return (size_t)-1;
	row0 = mem;		/* i - 2 */
	row1 = mem + lb + 1;	/* i - 1 */
	row2 = mem + 2 * (lb + 1);	/* i */
	for (j = 0; j <= lb; j++)
		row1[j] = j;
	for (i = 1; i <= la; i++) {
		row2[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];

			d = row1[j - 1] + cost;
			if (row1[j] + 1 < d)
				d = row1[j] + 1;
			if (row2[j - 1] + 1 < d)
				d = row2[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    row0[j - 2] + 1 < d)
				d = row0[j - 2] + 1;
			row2[j] = d;
		}
		{
			size_t *t = row0;

			row0 = row1;
			row1 = row2;
			row2 = t;
		}
	}
	d = row1[lb];
	free(mem);
	return d;
}

const char *did_you_mean(const char *word, const char *const *cands, size_t n)
{
	size_t len = strlen(word), best_d = (size_t)-1, limit, i;
	const char *best = NULL;

	/* One letter is too little to guess from; longer names allow more typos. */
	limit = len < 2 ? 0 : len <= 3 ? 1 : len <= 8 ? 2 : 3;
	for (i = 0; i < n && cands[i]; i++) {
		size_t d = edit_distance(word, cands[i]);

		if (d && d <= limit && d < best_d) {
			best_d = d;
			best = cands[i];
		}
	}
	return best;
}

/* --- lexer ----------------------------------------------------------- */
struct lexer {
	struct spec *s;
	const char *file;
	const char *text;
	size_t len, i;
	int line, col, depth;
	struct token *toks;
	size_t n, cap;
};

static int is_ident0(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int is_ident(int c)
{
	return is_ident0(c) || is_digit(c);
}

static void lex_error(struct lexer *lx, int line, int col, const char *fmt, const char *arg)
{
	struct spec_loc loc = { lx->file, line, col };

	spec_error(lx->s, &loc, fmt, arg);
}

static int push(struct lexer *lx, enum tok_kind kind, const char *text, size_t tlen,
		int line, int col)
{
	struct token *t;

	if (KD_GROW(lx->toks, lx->cap, lx->n + 1))
		return -ENOMEM;
	t = &lx->toks[lx->n++];
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->line = line;
	t->col = col;
	t->text = kd_arena_strndup(&lx->s->arena, text, tlen);
	if (!t->text)
		return -ENOMEM;
	if (kind == T_PUNCT && !strcmp(t->text, "}") && lx->depth > 0)
		lx->depth--;
	t->depth = lx->depth;
	if (kind == T_PUNCT && !strcmp(t->text, "{"))
		lx->depth++;
	return 0;
}

static void advance(struct lexer *lx, size_t k)
{
	while (k-- && lx->i < lx->len) {
		if (lx->text[lx->i] == '\n') {
			lx->line++;
			lx->col = 1;
		} else {
			lx->col++;
		}
		lx->i++;
	}
}

/* A number: decimal, 0x hex, 0 octal, 0b binary; or a version a.b[.c]. */
static int lex_number(struct lexer *lx)
{
	const char *p = lx->text + lx->i, *end = lx->text + lx->len;
	const char *q = p;
	int line = lx->line, col = lx->col, base = 10, err;
	uint64_t v = 0;
	bool overflow = false, bad = false;

	/* version: digits '.' digit ... */
	while (q < end && is_digit(*q))
		q++;
	if (q + 1 < end && *q == '.' && is_digit(q[1])) {
		while (q < end && (is_digit(*q) || (*q == '.' && q + 1 < end && is_digit(q[1]))))
			q++;
		err = push(lx, T_VERSION, p, (size_t)(q - p), line, col);
		advance(lx, (size_t)(q - p));
		return err;
	}
	q = p;
	if (q + 1 < end && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		base = 16;
		q += 2;
	} else if (q + 1 < end && q[0] == '0' && (q[1] == 'b' || q[1] == 'B')) {
		base = 2;
		q += 2;
	} else if (q[0] == '0') {
		base = 8;
	}
	for (; q < end && is_ident(*q); q++) {
		int c = *q, d;

		if (is_digit(c))
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			d = 99;
		if (d >= base) {
			/* C suffixes are accepted and ignored: 1UL, 0x10ULL */
			if (c == 'u' || c == 'U' || c == 'l' || c == 'L')
				continue;
			bad = true;
			continue;
		}
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			overflow = true;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	if ((base == 16 || base == 2) && q == p + 2)
		bad = true;
	err = push(lx, T_NUMBER, p, (size_t)(q - p), line, col);
	if (err)
		return err;
	lx->toks[lx->n - 1].num = v;
	if (bad || overflow)
		lex_error(lx, line, col, bad ? "malformed number '%s'" : "number '%s' does not fit in 64 bits",
			  lx->toks[lx->n - 1].text);
	advance(lx, (size_t)(q - p));
	return 0;
}

static int lex_string(struct lexer *lx)
{
	struct kd_buf b = KD_BUF_INIT;
	int line = lx->line, col = lx->col, err = 0;

	advance(lx, 1);
	for (;;) {
		char c;

		if (lx->i >= lx->len || lx->text[lx->i] == '\n') {
			lex_error(lx, line, col, "unterminated string%s", "");
			goto out;
		}
		c = lx->text[lx->i];
		if (c == '"') {
			advance(lx, 1);
			break;
		}
		if (c == '\\' && lx->i + 1 < lx->len && lx->text[lx->i + 1] != '\n') {
			char e = lx->text[lx->i + 1];

			advance(lx, 1);
			c = e == 'n' ? '\n' : e == 't' ? '\t' : e;
			if (e != '"' && e != '\\' && e != 'n' && e != 't') {
				char s[2] = { e, 0 };

				lex_error(lx, lx->line, lx->col - 1, "unknown escape '\\%s' in string", s);
			}
		}
		err = kd_buf_addc(&b, c);
		if (err)
			goto out;
		advance(lx, 1);
	}
	err = push(lx, T_STRING, b.s, b.len, line, col);
out:
	kd_buf_release(&b);
	return err;
}

static const char *const puncts[] = {
	"..", "->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"{", "}", "(", ")", "[", "]", ";", ",", ":", ".", "=", "|", "&", "^",
	"~", "!", "<", ">", "+", "-", "*", "/", "%", "@", NULL
};

int spec_lex(struct spec *s, const char *file, const char *text, size_t len,
	     struct token **toks, size_t *n)
{
	struct lexer lx = { .s = s, .file = file, .text = text, .len = len, .line = 1, .col = 1 };
	int err = 0;

	while (lx.i < len) {
		unsigned char c = (unsigned char)text[lx.i];
		size_t k;

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
			advance(&lx, 1);
			continue;
		}
		if (c == '#') {
			while (lx.i < len && text[lx.i] != '\n')
				advance(&lx, 1);
			continue;
		}
		if (is_ident0(c)) {
			for (k = lx.i; k < len && is_ident(text[k]); k++)
				;
			err = push(&lx, T_IDENT, text + lx.i, k - lx.i, lx.line, lx.col);
			advance(&lx, k - lx.i);
		} else if (is_digit(c)) {
			err = lex_number(&lx);
		} else if (c == '"') {
			err = lex_string(&lx);
		} else {
			const char *const *pp;

			for (pp = puncts; *pp; pp++) {
				size_t pl = strlen(*pp);

				if (lx.i + pl <= len && !memcmp(text + lx.i, *pp, pl))
					break;
			}
			if (*pp) {
				size_t pl = strlen(*pp);

				err = push(&lx, T_PUNCT, *pp, pl, lx.line, lx.col);
				advance(&lx, pl);
			} else {
				char desc[8];

				if (c >= 0x20 && c < 0x7f)
					desc[0] = (char)c, desc[1] = 0;
				else
					snprintf(desc, sizeof(desc), "\\x%02x", c);
				lex_error(&lx, lx.line, lx.col, "unexpected character '%s'", desc);
				advance(&lx, 1);
			}
		}
		if (err)
			goto out;
	}
	err = push(&lx, T_EOF, "", 0, lx.line, lx.col);
out:
	if (err) {
		free(lx.toks);
		return err;
	}
	*toks = lx.toks;
	*n = lx.n;
	return 0;
}

/* --- token helpers ----------------------------------------------------- */
bool tok_is(const struct token *t, const char *s)
{
	return (t->kind == T_PUNCT || t->kind == T_IDENT) && !strcmp(t->text, s);
}

int parser_grow(struct parser *p, void **arr, size_t *cap, size_t need, size_t size)
{
	if (!kd_grow_array(arr, cap, need, size))
		return 0;
	p->oom = -ENOMEM;
	return -1;
}

struct spec_loc tok_loc(const struct parser *p, const struct token *t)
{
	struct spec_loc loc = { p->file, t->line, t->col };

	return loc;
}

const char *tok_desc(struct parser *p, const struct token *t)
{
	struct kd_buf b = KD_BUF_INIT;
	const char *r;

	switch (t->kind) {
	case T_EOF:
		return "end of file";
	case T_STRING:
		return "a string";
	default:
		if (kd_buf_addf(&b, "'%s'", t->text))
			return "?";
	}
	r = kd_arena_strdup(&p->s->arena, b.s);
	kd_buf_release(&b);
	return r ? r : "?";
}

int perr_hint(struct parser *p, const struct token *t, const char *const *cands, size_t n,
	      const char *fmt, ...)
{
	struct spec_loc loc = tok_loc(p, t);
	const char *best = cands && t->kind == T_IDENT ? did_you_mean(t->text, cands, n) : NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vreport(p->s, &loc, best, fmt, ap))
		p->oom = -ENOMEM;
	va_end(ap);
	return -1;
}
bool accept_tok(struct parser *p, const char *what)
{
	if (!tok_is(peek(p), what))
		return false;
	p->pos++;
	return true;
}

void accept_flags(struct parser *p, const struct word_flag *flags, size_t n)
{
	size_t i = 0;

	while (i < n)
		if (accept_tok(p, flags[i].word)) {
			*flags[i].flag = true;
			i = 0;		/* the next word may be any of them again */
		} else {
			i++;
		}
}

int expect(struct parser *p, const char *what, const char *context)
{
	const struct token *t = peek(p);

	if (t->kind == T_PUNCT && !strcmp(t->text, what)) {
		p->pos++;
		return 0;
	}
	return perr(p, t, "expected '%s' %s, found %s", what, context, tok_desc(p, t));
}
