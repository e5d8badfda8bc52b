// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAPI reader, the driver: every header of the tree is one translation
 * unit (as if a program wrote #include <linux/fs.h>); after each unit, the
 * object-like macros it defined are evaluated in that unit's final macro
 * table, the way a use of the name after the #include would see them.
 * A definition (one #define line) is evaluated once per scan; a name that
 * two headers define with different values keeps the first (headers in
 * path order) and the disagreement becomes a problem. Macros that expand
 * to one ioctl call become ioctls; other integer constant expressions
 * become constants; everything else is counted as skipped.
 */
#include "extract/uapi/uapi.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "extract/uapi/uapi_internal.h"
#include "lib/err.h"
#include "lib/mem.h"

/*
 * Headers that are not x86_64's view of the ABI: asm/unistd.h picks
 * unistd_64.h, and the 32-bit and x32 tables and types would otherwise
 * give __NR_read the i386 number.
 */
static const char *const not_roots[] = {
	"asm/unistd_32.h", "asm/unistd_x32.h", "asm/posix_types_32.h", "asm/posix_types_x32.h",
};

enum rec_kind { REC_SKIPPED, REC_CONST, REC_IOCTL };

struct rec {
	enum rec_kind kind;
	size_t idx;		/* into consts or ioctls */
	bool conflict_reported;
};

struct uapi_scan {
	struct kd_arena arena;	/* every string of the result */
	struct utree tree;
	struct ucpp *cpp;
	struct usizer sizer;
	struct umap names;	/* macro name -> struct rec * */
	struct umap defs;	/* definitions already evaluated (by name pointer) */
	size_t cap_consts, cap_croots, cap_ioctls, cap_iroots, cap_problems;
	const char *root;	/* current unit */
	int err;		/* first hard error met in a callback */
};

static char *save(struct uapi_scan *s, const char *str, size_t len)
{
	char *p = kd_arena_strndup(&s->arena, str, len);

	if (!p && !s->err)
		s->err = -ENOMEM;
	return p;
}

static int add_problem(struct uapi_result *r, const char *file, int line, const char *msg)
{
	struct uapi_scan *s = r->priv;
	struct uapi_problem *p;
	struct kd_buf loc = KD_BUF_INIT;
	int err;

	err = KD_GROW(r->problems, s->cap_problems, r->nr_problems + 1);
	if (err)
		return err;
	p = &r->problems[r->nr_problems];
	memset(p, 0, sizeof(*p));
	if (file) {
		err = line > 0 ? kd_buf_addf(&loc, "%s:%d", file, line) : kd_buf_adds(&loc, file);
		if (err)
			goto out;
		p->file = save(s, file, strlen(file));
		p->location = save(s, loc.s, loc.len);
	}
	p->message = save(s, msg, strlen(msg));
	err = s->err;
	if (!err) {
		r->nr_problems++;
		r->stats.problems++;
	}
out:
	kd_buf_release(&loc);
	return err;
}

static void cpp_problem(const struct ufile *f, int line, const char *msg, void *ctx)
{
	struct uapi_result *r = ctx;
	int err = add_problem(r, f ? f->name : NULL, line, msg);

	if (err && !r->priv->err)
		r->priv->err = err;
}

static int problemf(struct uapi_result *r, const struct umacro *m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int problemf(struct uapi_result *r, const struct umacro *m, const char *fmt, ...)
{
	struct kd_buf b = KD_BUF_INIT;
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = kd_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (!err)
		err = add_problem(r, m->file->name, m->line, b.s);
	kd_buf_release(&b);
	return err;
}

/* The single ioctl call the expansion is, (parentheses around it allowed), or -1. */
static int single_call(const struct utoks *t)
{
	size_t a = 0, b = t->n;

	while (b - a >= 3 && utok_is(&t->v[a], "(") && utok_is(&t->v[b - 1], ")")) {
		a++;
		b--;
	}
	return b - a == 1 && t->v[a].kind == UT_IOCTL ? (int)t->v[a].ioctl : -1;
}

static const char *const dir_names[] = { "none", "w", "r", "rw" };

static int new_ioctl(struct uapi_result *r, const struct umacro *m, struct ueval *e,
		     const struct uexpand *x, int call, struct rec *rec)
{
	struct uapi_scan *s = r->priv;
	struct kd_buf text = KD_BUF_INIT;
	struct uval dir, type, nr, cmd;
	struct usize_ans size;
	struct kd_ioctl *io;
	int err, ev;

	ev = ueval_ioctl(e, (size_t)call, &dir, &type, &nr, &size, &cmd);
	if (s->sizer.hard_error)
		return s->sizer.hard_error;
	if (ev && !e->unknown_size)
		return 1;	/* not a constant ioctl: skipped */
	err = KD_GROW(r->ioctls, s->cap_ioctls, r->nr_ioctls + 1);
	if (!err)
		err = KD_GROW(r->ioctl_roots, s->cap_iroots, r->nr_ioctls + 1);
	if (err)
		goto out;
	io = &r->ioctls[r->nr_ioctls];
	memset(io, 0, sizeof(*io));
	io->name = save(s, m->name, m->nlen);
	io->dir = dir_names[dir.v & 3];
	io->type_char = (int)type.v;
	io->nr = (int)nr.v;
	if (!x->calls[call].ioc && x->calls[call].dir != UIO_NONE) {
		err = utype_text(&text, x->calls[call].args[2].v, x->calls[call].args[2].n);
		if (err)
			goto out;
		io->arg_type_text = save(s, text.s, text.len);
	}
	io->has_size = size.known;
	io->size = size.info.size;
	io->size_trusted = size.trusted;
	io->arg_type = size.info.type_id;
	io->module_id = size.info.module_id;
	io->has_cmd = !ev;
	io->cmd = (uint32_t)cmd.v;
	io->file = m->file->name;
	io->line = m->line;
	r->ioctl_roots[r->nr_ioctls] = s->root;
	err = s->err;
	if (err)
		goto out;
	rec->kind = REC_IOCTL;
	rec->idx = r->nr_ioctls++;
	r->stats.ioctls++;
	if (!size.known) {
		r->stats.ioctls_unsized++;
		if (io->arg_type_text)
			err = problemf(r, m, "%s: type '%s' is declared by no header that compiles for"
				       " this architecture and is in no DWARF of the kernel; size and"
				       " command number unknown", io->name, io->arg_type_text);
		else
			err = problemf(r, m, "%s: the _IOC size is a sizeof of a type no compiled header"
				       " and no kernel DWARF has; command number unknown", io->name);
	}
out:
	kd_buf_release(&text);
	return err;
}

static int new_const(struct uapi_result *r, const struct umacro *m, struct uval v, struct rec *rec)
{
	struct uapi_scan *s = r->priv;
	struct kd_buf expr = KD_BUF_INIT;
	struct kd_constant *c;
	int err;

	err = KD_GROW(r->consts, s->cap_consts, r->nr_consts + 1);
	if (!err)
		err = KD_GROW(r->const_roots, s->cap_croots, r->nr_consts + 1);
	if (!err)
		err = utoks_text(&expr, m->body, m->nbody);
	if (err)
		goto out;
	c = &r->consts[r->nr_consts];
	memset(c, 0, sizeof(*c));
	c->name = save(s, m->name, m->nlen);
	c->value = (int64_t)v.v;
	c->ctype = uval_type(&v);
	c->expr = save(s, expr.s, expr.len);
	c->file = m->file->name;
	c->line = m->line;
	r->const_roots[r->nr_consts] = s->root;
	err = s->err;
	if (err)
		goto out;
	rec->kind = REC_CONST;
	rec->idx = r->nr_consts++;
	r->stats.constants++;
out:
	kd_buf_release(&expr);
	return err;
}

/* A second definition that also evaluates: same value, or a problem. */
static int check_conflict(struct uapi_result *r, const struct umacro *m, struct rec *rec,
			  bool is_ioctl, struct uval v)
{
	int64_t old = rec->kind == REC_CONST ? r->consts[rec->idx].value
		      : r->ioctls[rec->idx].has_cmd ? (int64_t)r->ioctls[rec->idx].cmd : -1;

	if (is_ioctl && v.v == UINT64_MAX)
		v.v = (uint64_t)-1;
	const char *where = rec->kind == REC_CONST ? r->consts[rec->idx].file : r->ioctls[rec->idx].file;

	if (rec->conflict_reported || (is_ioctl == (rec->kind == REC_IOCTL) && old == (int64_t)v.v))
		return 0;
	rec->conflict_reported = true;
	return problemf(r, m, "%.*s: %#llx here but %#llx in %s (kept)", (int)m->nlen, m->name,
			(unsigned long long)v.v, (unsigned long long)old, where);
}

static int eval_macro(struct uapi_result *r, const struct umacro *m)
{
	struct uapi_scan *s = r->priv;
	struct kd_arena arena = KD_ARENA_INIT;
	struct uexpand x = { .cpp = s->cpp, .arena = &arena, .ioctls = true };
	struct ueval e = { .sizer = &s->sizer, .x = &x };
	struct utoks out = { 0 };
	struct rec *rec;
	struct uval v = { 0 };
	int err, call, ok;

	rec = umap_get(&s->names, m->name, m->nlen);
	err = uexpand(&x, m->body, m->nbody, &out);
	if (err && err != -EINVAL)
		goto out;
	ok = !err;
	call = ok ? single_call(&out) : -1;
	if (ok && call < 0)
		ok = !ueval(&e, out.v, out.n, &v);
	else if (ok) {	/* its value, to compare with another definition */
		struct uval d, t, n;
		struct usize_ans sz;

		if (ueval_ioctl(&e, (size_t)call, &d, &t, &n, &sz, &v)) {
			ok = e.unknown_size;
			v.v = UINT64_MAX;
		}
	}
	err = s->sizer.hard_error;
	if (err)
		goto out;
	if (!ok && (x.limit || e.limit)) {
		/* A bound, not a non-constant: say so, once per definition. */
		err = problemf(r, m, "%.*s: %s", (int)m->nlen, m->name, x.limit ? x.error : e.error);
		if (err < 0)
			goto out;
		err = 0;
	}
	if (!rec) {
		rec = kd_arena_alloc(&s->arena, sizeof(*rec));
		err = rec ? umap_put(&s->names, save(s, m->name, m->nlen), m->nlen, rec) : -ENOMEM;
		if (err || (err = s->err))
			goto out;
		rec->kind = REC_SKIPPED;
		rec->conflict_reported = false;
		r->stats.skipped++;
	} else if (rec->kind != REC_SKIPPED) {
		if (ok)
			err = check_conflict(r, m, rec, call >= 0, v);
		goto out;
	}
	if (ok && call >= 0)
		err = new_ioctl(r, m, &e, &x, call, rec);
	else if (ok)
		err = new_const(r, m, v, rec);
	if (err > 0)
		err = 0;
	else if (!err && rec->kind != REC_SKIPPED)
		r->stats.skipped--;
out:
	utoks_release(&out);
	uexpand_release(&x);
	kd_arena_release(&arena);
	return err;
}

static int scan_unit(struct uapi_result *r, const char *root)
{
	struct uapi_scan *s = r->priv;
	size_t i;
	int err;

	s->root = root;
	err = ucpp__run(s->cpp, root);
	if (!err)
		err = s->err;
	for (i = 0; !err && i < ucpp__nr_macros(s->cpp); i++) {
		const struct umacro *m = ucpp__macro(s->cpp, i);
		char *key;

		if (!m || !m->file || m->funclike || !m->nbody)
			continue;
		if (umap_get(&s->defs, (const char *)&m->name, sizeof(m->name)))
			continue;
		key = kd_arena_alloc(&s->arena, sizeof(m->name));
		if (!key)
			return -ENOMEM;
		memcpy(key, &m->name, sizeof(m->name));
		err = umap_put(&s->defs, key, sizeof(m->name), key);
		if (!err)
			err = eval_macro(r, m);
	}
	return err;
}

struct order {
	const char *name;
	size_t idx;
};

static int cmp_order(const void *a, const void *b)
{
	return strcmp(((const struct order *)a)->name, ((const struct order *)b)->name);
}

/* Sort @n elements of @size bytes at @arr, and @roots with them, by the name at offset 0. */
static int sort_by_name(void *arr, const char **roots, size_t n, size_t size)
{
	struct order *o;
	unsigned char *copy;
	const char **rcopy;
	size_t i;
	int err = -ENOMEM;

	/* A tree without constants: @arr and @roots are NULL, and memcpy(NULL, ..., 0) is UB. */
	if (n == 0)
		return 0;
	o = kd_calloc(n, sizeof(*o));
	copy = kd_malloc(n * size);
	rcopy = kd_calloc(n, sizeof(*rcopy));
	if (!o || !copy || !rcopy)
		goto out;
	memcpy(copy, arr, n * size);
	memcpy(rcopy, roots, n * sizeof(*roots));
	for (i = 0; i < n; i++)
		o[i] = (struct order){ *(const char **)(copy + i * size), i };
	qsort(o, n, sizeof(*o), cmp_order);
	for (i = 0; i < n; i++) {
		memcpy((unsigned char *)arr + i * size, copy + o[i].idx * size, size);
		roots[i] = rcopy[o[i].idx];
	}
	err = 0;
out:
	free(o);
	free(copy);
	free(rcopy);
	return err;
}

int uapi__scan(const char *dir, uapi_sizeof_fn sizeof_cb, void *ctx, struct uapi_result **out)
{
	struct uapi_result *r = kd_calloc(1, sizeof(*r));
	struct uapi_scan *s = kd_calloc(1, sizeof(*s));
	size_t i, j;
	int err = -ENOMEM;

	*out = NULL;
	if (!r || !s) {
		free(r);
		free(s);
		return -ENOMEM;
	}
	r->priv = s;
	s->sizer = (struct usizer){ .cb = sizeof_cb, .ctx = ctx, .arena = &s->arena };
	err = utree__open(dir, &s->tree);
	if (err)
		goto fail;
	s->cpp = ucpp__new(&s->tree, cpp_problem, r);
	if (!s->cpp) {
		err = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < s->tree.nr_unreadable; i++) {
		err = add_problem(r, NULL, 0, s->tree.unreadable[i]);
		if (err)
			goto fail;
	}
	for (i = 0; i < s->tree.nr_roots; i++) {
		for (j = 0; j < sizeof(not_roots) / sizeof(*not_roots); j++)
			if (!strcmp(s->tree.roots[i], not_roots[j]))
				break;
		if (j < sizeof(not_roots) / sizeof(*not_roots))
			continue;
		err = scan_unit(r, s->tree.roots[i]);
		if (err)
			goto fail;
	}
	r->stats.headers = (int64_t)ucpp__nr_files(s->cpp);
	err = sort_by_name(r->consts, r->const_roots, r->nr_consts, sizeof(*r->consts));
	if (!err)
		err = sort_by_name(r->ioctls, r->ioctl_roots, r->nr_ioctls, sizeof(*r->ioctls));
	if (err)
		goto fail;
	*out = r;
	return 0;
fail:
	if (err == -ENOMEM)
		kd_err("%s: out of memory reading the UAPI headers", dir);
	uapi_result__free(r);
	return err;
}

void uapi_result__free(struct uapi_result *r)
{
	struct uapi_scan *s;

	if (!r)
		return;
	s = r->priv;
	if (s) {
		/* The ucpp owns the files whose names the rows point to: free it last. */
		umap_release(&s->names);
		umap_release(&s->defs);
		umap_release(&s->sizer.cache);
		kd_arena_release(&s->arena);
		ucpp__free(s->cpp);
		utree__release(&s->tree);
		free(s);
	}
	free(r->consts);
	free(r->const_roots);
	free(r->ioctls);
	free(r->ioctl_roots);
	free(r->problems);
	free(r);
}

int uapi__extract(struct kdb *db, const char *dir, uapi_sizeof_fn sizeof_cb, void *ctx,
		  struct uapi_stats *stats)
{
	struct uapi_result *r = NULL;
	size_t i;
	int err;

	err = uapi__scan(dir, sizeof_cb, ctx, &r);
	if (err)
		return err;
	err = kdb__put_constants(db, r->consts, r->nr_consts);
	if (!err)
		err = kdb__put_ioctls(db, r->ioctls, r->nr_ioctls);
	for (i = 0; !err && i < r->nr_problems; i++)
		err = kdb__put_problem(db, "uapi", r->problems[i].file, r->problems[i].location,
				       "%s", r->problems[i].message);
	if (!err && stats)
		*stats = r->stats;
	uapi_result__free(r);
	return err;
}
