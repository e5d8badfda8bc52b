// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAPI reader: the file names the tree's line directives make up; see
 * line_names_internal.h. Every file below the tree's directories is read
 * (not only the roots: asm-generic/ and any file a header may include),
 * its comments and backslash-newlines removed as the preprocessor does,
 * and each directive line -- '#' or its digraph "%:" -- that sets a file
 * name is kept: "#line N "name"", the GNU form "# N "name"", and
 * "#line N NAME" or "#line NAME", whose file a macro gives (then any
 * name). Directives under a false #if count too: a name too many only
 * gives back to the tree what no C library header declares under it.
 */
#include "extract/uapi/line_names_internal.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/path.h"

#define STR_(x) #x
#define STR(x) STR_(x)

struct directive {
	const char *header;	/* the file that has it, include-relative */
	int line;		/* its physical line */
	long number;		/* the line number it gives the next line */
	size_t next;		/* index + 1 of the next directive naming the same file */
};

struct uline_names {
	struct kd_arena arena;
	struct directive *v;
	size_t n, cap;
	struct umap names;	/* file name -> (index + 1 of its first directive), as a pointer */
	size_t first_macro;	/* index + 1 of the first directive whose name a macro gives */
	char **problems;
	size_t nr_problems, cap_problems;
	struct { dev_t dev; ino_t ino; } *seen;
	size_t nr_seen, cap_seen;
};

static int add_problem(struct uline_names *ln, const char *name, const char *why)
{
	struct kd_buf b = KD_BUF_INIT;

	if (KD_GROW(ln->problems, ln->cap_problems, ln->nr_problems + 1) ||
	    kd_buf_addf(&b, "%s: %s; its line directives are not known to the header view", name, why)) {
		kd_buf_release(&b);
		return -ENOMEM;
	}
	ln->problems[ln->nr_problems++] = kd_buf_detach(&b);
	return ln->problems[ln->nr_problems - 1] ? 0 : -ENOMEM;
}

/* The value of one octal or hex escape, or of a simple one ("\n"); *p past it. */
static int unescape(const char **p, const char *end)
{
	const char *s = *p;
	int v = 0, digits;

	if (*s >= '0' && *s <= '7') {
		for (digits = 0; digits < 3 && s < end && *s >= '0' && *s <= '7'; digits++)
			v = v * 8 + (*s++ - '0');
	} else if (*s == 'x') {
		for (s++; s < end && strchr("0123456789abcdefABCDEF", *s) && *s; s++)
			v = (v * 16 + (*s <= '9' ? *s - '0' : (*s | 0x20) - 'a' + 10)) & 0xff;
	} else {
		static const char from[] = "abfnrtv", to[] = "\a\b\f\n\r\t\v";
		const char *k = strchr(from, *s);

		v = k && *s ? to[k - from] : *s;
		s++;
	}
	*p = s;
	return v & 0xff;
}

/* The file name string token @t spells, escapes decoded as gcc decodes them. */
static int string_value(const struct utok *t, struct kd_buf *b)
{
	const char *p = t->s + 1, *end = t->s + t->len - 1;
	int err = 0;

	kd_buf_reset(b);
	while (!err && p < end) {
		if (*p == '\\' && p + 1 < end) {
			p++;
			err = kd_buf_addc(b, (char)unescape(&p, end));
		} else {
			err = kd_buf_addc(b, *p++);
		}
	}
	return err;
}

static int add_directive(struct uline_names *ln, const char *header, int line, long number,
			 const struct kd_buf *name)
{
	struct directive *d;
	char *key = NULL;
	size_t first;
	int err = KD_GROW(ln->v, ln->cap, ln->n + 1);

	if (err)
		return err;
	d = &ln->v[ln->n];
	*d = (struct directive){ header, line, number, 0 };
	if (!name) {
		if (!ln->first_macro)
			ln->first_macro = ln->n + 1;
		ln->n++;
		return 0;
	}
	first = (size_t)(uintptr_t)umap_get(&ln->names, name->s, name->len);
	if (first) {
		/* Appended to its name's chain, which stays in scan order. */
		size_t i = first - 1;

		while (ln->v[i].next)
			i = ln->v[i].next - 1;
		ln->v[i].next = ln->n + 1;
		ln->n++;
		return 0;
	}
	key = kd_arena_strndup(&ln->arena, name->s, name->len);
	if (!key)
		return -ENOMEM;
	err = umap_put(&ln->names, key, name->len, (void *)(uintptr_t)(ln->n + 1));
	if (!err)
		ln->n++;
	return err;
}

/* The line number a directive gives (a digit sequence, read as decimal); 0 when none. */
static long line_number(const struct utok *t)
{
	long v = 0;
	uint32_t i;

	for (i = 0; i < t->len && t->s[i] >= '0' && t->s[i] <= '9'; i++)
		v = v < LONG_MAX / 10 ? v * 10 + (t->s[i] - '0') : LONG_MAX;
	return i == t->len ? v : 0;
}

/* One directive's tokens (after the '#'): a file name it sets, if any. */
static int directive(struct uline_names *ln, const char *header, int line, const struct utok *t,
		     size_t n, struct kd_buf *name)
{
	bool gnu = n && t[0].kind == UT_NUMBER;
	size_t num = gnu ? 0 : 1;

	if (!gnu && !(n && utok_is(&t[0], "line")))
		return 0;
	/* #line NAME, #line N NAME: macros give the operands, any file name may come out. */
	if (!gnu && n > num && t[num].kind == UT_IDENT)
		return add_directive(ln, header, line, 0, NULL);
	if (n <= num + 1 || t[num].kind != UT_NUMBER)
		return 0;	/* a line number alone keeps the file */
	if (t[num + 1].kind == UT_STRING && t[num + 1].s[0] == '"') {
		int err = string_value(&t[num + 1], name);

		/* DWARF drops a leading "./" (srcfiles.c), so the name is kept without it. */
		while (!err && name->len >= 2 && name->s[0] == '.' && name->s[1] == '/') {
			memmove(name->s, name->s + 2, name->len - 1);
			name->len -= 2;
		}
		return err ? err : add_directive(ln, header, line, line_number(&t[num]), name);
	}
	/* GNU's form takes no macro; #line does. */
	return gnu ? 0 : add_directive(ln, header, line, 0, NULL);
}

/* Every directive line of @f, '#' or "%:" first: its line directives. */
static int scan_text(struct uline_names *ln, const struct ufile *f, const char *header)
{
	struct kd_buf name = KD_BUF_INIT;
	struct utoks toks = { 0 };
	const char *p = f->text;
	size_t i;
	int err = 0;

	for (i = 0; !err && i < f->nr_text_lines && *p; i++) {
		const char *eol = strchr(p, '\n'), *q = p;
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		while (q < p + len && strchr(" \t\r\f\v", *q))
			q++;
		if (q < p + len && (*q == '#' || (*q == '%' && q + 1 < p + len && q[1] == ':'))) {
			const char *w = q + (*q == '#' ? 1 : 2);

			q = w;
			while (w < p + len && strchr(" \t\r\f\v", *w))
				w++;
			/* Only "line" or a number can follow: the #defines need no tokens. */
			if (w == p + len || !(*w == 'l' || (*w >= '0' && *w <= '9'))) {
				p += len + (eol ? 1 : 0);
				continue;
			}
			toks.n = 0;
			err = ulex(q, len - (size_t)(q - p), &toks);
			if (!err)
				err = directive(ln, header, f->line_starts[i], toks.v, toks.n, &name);
		}
		p += len + (eol ? 1 : 0);
	}
	utoks_release(&toks);
	kd_buf_release(&name);
	return err;
}

/* File @path, include-relative @name: its directives, or a problem row's reason. */
static int scan_file(struct uline_names *ln, const char *path, const char *name)
{
	struct kd_buf b = KD_BUF_INIT;
	struct ufile *f = NULL;
	const char *header;
	size_t i;
	int err = kd_buf_read_regular(&b, path, (size_t)ULINE_MAX_FILE_MB << 20);

	if (err == -ENOMEM)
		goto out;
	if (err) {
		err = add_problem(ln, name, err == -KD_ELIMIT ? "larger than " STR(ULINE_MAX_FILE_MB)
				  " MiB, the limit of a header the view scans" : kd_strerror(err));
		goto out;
	}
	/* gcc reads on past a NUL byte; the text would end there. */
	for (i = 0; i < b.len; i++)
		if (!b.s[i])
			b.s[i] = ' ';
	if (!memchr(b.s, '#', b.len) && !strstr(b.s, "%:"))
		goto out;	/* no directive at all: most files */
	header = kd_arena_strdup(&ln->arena, name);
	err = header ? ufile__from_text(b.s, name, &f) : -ENOMEM;
	if (!err)
		err = scan_text(ln, f, header);
out:
	ufile__free(f);
	kd_buf_release(&b);
	return err;
}

/* Has the directory @path been walked (by device and inode)? If not, remember it. */
static int walked_before(struct uline_names *ln, const struct stat *st, bool *seen)
{
	size_t i;

	*seen = false;
	for (i = 0; i < ln->nr_seen; i++)
		if (ln->seen[i].dev == st->st_dev && ln->seen[i].ino == st->st_ino) {
			*seen = true;
			return 0;
		}
	if (KD_GROW(ln->seen, ln->cap_seen, ln->nr_seen + 1))
		return -ENOMEM;
	ln->seen[ln->nr_seen].dev = st->st_dev;
	ln->seen[ln->nr_seen++].ino = st->st_ino;
	return 0;
}

/* Every regular file below @base/@rel (links followed, each directory once). */
static int walk(struct uline_names *ln, const char *base, const char *rel, int depth)
{
	struct kd_buf path = KD_BUF_INIT, sub = KD_BUF_INIT;
	struct dirent *de;
	struct stat st;
	DIR *d = NULL;
	bool seen;
	int err = -ENOMEM;

	if (kd_buf_addf(&path, "%s%s%s", base, *rel ? "/" : "", rel))
		goto out;
	err = 0;
	if (stat(path.s, &st) || depth > UTREE_MAX_DEPTH)
		goto out;	/* the tree's walk reports both (utree__open()) */
	err = walked_before(ln, &st, &seen);
	if (err || seen)
		goto out;
	d = opendir(path.s);
	if (!d)
		goto out;
	while (!err && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		kd_buf_reset(&sub);
		kd_buf_reset(&path);
		err = kd_buf_addf(&sub, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
		if (!err)
			err = kd_buf_addf(&path, "%s/%s", base, sub.s);
		if (err || stat(path.s, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			err = walk(ln, base, sub.s, depth + 1);
		else if (S_ISREG(st.st_mode))
			err = scan_file(ln, path.s, sub.s);
	}
out:
	if (d)
		closedir(d);
	kd_buf_release(&path);
	kd_buf_release(&sub);
	return err;
}

int uline_names__scan(const struct utree *tree, struct uline_names **out)
{
	struct uline_names *ln = kd_calloc(1, sizeof(*ln));
	int i, err = ln ? 0 : -ENOMEM;

	*out = NULL;
	for (i = 0; !err && i < tree->nr_dirs; i++)
		err = walk(ln, tree->dirs[i], "", 0);
	if (err) {
		uline_names__free(ln);
		return err;
	}
	*out = ln;
	return 0;
}

void uline_names__free(struct uline_names *ln)
{
	size_t i;

	if (!ln)
		return;
	for (i = 0; i < ln->nr_problems; i++)
		free(ln->problems[i]);
	free(ln->problems);
	free(ln->seen);
	free(ln->v);
	umap_release(&ln->names);
	kd_arena_release(&ln->arena);
	free(ln);
}

size_t uline_names__nr_problems(const struct uline_names *ln)
{
	return ln ? ln->nr_problems : 0;
}

const char *uline_names__problem(const struct uline_names *ln, size_t i)
{
	return ln && i < ln->nr_problems ? ln->problems[i] : NULL;
}

int uline_names__find(const struct uline_names *ln, const char *file, int presumed_line,
		      const char **header, int *line)
{
	size_t at = ln ? (size_t)(uintptr_t)umap_get(&ln->names, file, strlen(file)) : 0, i;
	const struct directive *d;

	if (!at && (!ln || !ln->first_macro))
		return 0;
	d = &ln->v[(at ? at : ln->first_macro) - 1];
	*header = d->header;
	*line = d->line;
	/* The first directive of the name that can number @presumed_line places it. */
	for (i = at; i; i = ln->v[i - 1].next) {
		const struct directive *c = &ln->v[i - 1];

		if (c->number && presumed_line >= c->number &&
		    presumed_line - c->number < INT_MAX - c->line - 1) {
			*header = c->header;
			*line = c->line + 1 + (int)(presumed_line - c->number);
			break;
		}
	}
	return 1;
}
