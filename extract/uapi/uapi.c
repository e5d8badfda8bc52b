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

#include "db/kdb-uapi.h"
#include "extract/uapi/uapi_internal.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/str.h"

/*
 * Headers that are not x86_64's view of the ABI: asm/unistd.h picks
 * unistd_64.h, and the 32-bit and x32 tables and types would otherwise
 * give __NR_read the i386 number; i386's view (ia32) the other way round.
 * (arm64's tree has no such headers: its compat numbers are not UAPI.)
 */
static const char *const not_roots[] = {
	"asm/unistd_32.h", "asm/unistd_x32.h", "asm/posix_types_32.h", "asm/posix_types_x32.h",
};
static const char *const not_roots_ia32[] = {
	"asm/unistd_64.h", "asm/unistd_x32.h", "asm/posix_types_64.h", "asm/posix_types_x32.h",
};

enum rec_kind { REC_SKIPPED, REC_CONST, REC_IOCTL };

struct rec {
	enum rec_kind kind;
	size_t idx;		/* into consts or ioctls */
	size_t pending;		/* REC_SKIPPED: its first definition waiting in scan.pending + 1, or 0 */
	bool conflict_reported;
};

/*
 * A definition that did not evaluate, kept to be tried again once every
 * header is read (an identifier another header defines: x25.h's
 * SIOCPROTOPRIVATE), and else reported with why.
 */
struct pending {
	struct umacro m;	/* its pointers stay valid: the files live as long as the scan */
	struct rec *rec;
	struct utok *toks;	/* the expansion, spellings in the scan's arena */
	size_t n;
	const char *root;
	const char *why;	/* the evaluator's reason */
	const char *unknown;	/* the identifier it stopped at, or NULL */
	const char *shape;	/* what it is when not a value: "a type", or NULL */
	bool tried;
};

struct uapi_scan {
	struct kd_arena arena;	/* every string of the result */
	struct utree tree;
	struct ucpp *cpp;
	struct usizer sizer;
	struct umap names;	/* macro name -> struct rec * */
	struct umap defs;	/* definitions already evaluated (by name pointer) */
	struct umap typedef_files;	/* files whose typedefs are in sizer.tags (by pointer) */
	size_t cap_consts, cap_croots, cap_ioctls, cap_iroots, cap_problems, cap_families;
	struct pending *pending;
	size_t nr_pending, cap_pending;
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

/*
 * What an ioctl number is written as: a #define, an enumerator (checked
 * against the value the compiler gave it), the command a retry with
 * <sys/ioctl.h> before the header found.
 */
enum eval_mode { EV_DEFINE, EV_RETRY, EV_ENUMERATOR };

static int new_ioctl(struct uapi_result *r, const struct umacro *m, struct ueval *e,
		     const struct uexpand *x, int call, struct rec *rec, enum eval_mode mode)
{
	struct uapi_scan *s = r->priv;
	struct kd_buf text = KD_BUF_INIT;
	struct uval dir, type, nr, cmd;
	struct usize_ans size;
	struct kd_ioctl *io;
	int64_t compiled = 0;
	const char *ctype;
	bool has_compiled = false;
	int err, ev;

	ev = ueval_ioctl(e, (size_t)call, &dir, &type, &nr, &size, &cmd);
	if (s->sizer.hard_error)
		return s->sizer.hard_error;
	if (mode == EV_ENUMERATOR && s->sizer.enum_cb)
		has_compiled = s->sizer.enum_cb(m->name, m->nlen, &compiled, &ctype, s->sizer.ctx) > 0;
	if (mode == EV_ENUMERATOR && !has_compiled && s->sizer.enum_cb)
		return 1;	/* under a false #if: the compiler never saw it */
	if (ev && !e->unknown_size)
		return 1;	/* eval_macro() reported it */
	/* An enumerator's value is what the compiler computed: it fills an unknown size. */
	if (ev && has_compiled) {
		ev = 0;
		cmd.v = (uint32_t)compiled;
		size.known = size.trusted = true;
		size.info.size = ((uint32_t)compiled >> 16) & 0x3fff;
	}
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
	io->source = mode == EV_ENUMERATOR ? "enumerator" : "macro";
	r->ioctl_roots[r->nr_ioctls] = s->root;
	err = s->err;
	if (err)
		goto out;
	rec->kind = REC_IOCTL;
	rec->idx = r->nr_ioctls++;
	r->stats.ioctls++;
	if (has_compiled && io->has_cmd && (uint32_t)compiled != io->cmd)
		err = problemf(r, m, "%s: 0x%08x here, but the compiler gives the enumerator 0x%08x",
			       io->name, io->cmd, (uint32_t)compiled);
	if (err)
		goto out;
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

/* A call of an ioctl macro (_IO, _IOR, _IOW, _IOWR, _IOC) left unexpanded: not defined in this unit. */
static const char *undefined_ioctl_macro(const struct utoks *t)
{
	static const char *const names[] = { "_IO", "_IOR", "_IOW", "_IOWR", "_IOC" };
	size_t i, j;

	/* A call: _IOR( ...; a bare name (#define _SIO _IO) is only an alias. */
	for (i = 0; i + 1 < t->n; i++)
		for (j = 0; t->v[i].kind == UT_IDENT && j < sizeof(names) / sizeof(names[0]); j++)
			if (utok_is(&t->v[i], names[j]) && utok_is(&t->v[i + 1], "("))
				return names[j];
	return NULL;
}

struct typedef_ctx {
	struct uapi_scan *s;
	const struct ufile *f;
};

static int on_typedef(const struct utok *name, const struct utok *keyword, const struct utok *tag,
		      void *ctx)
{
	struct uapi_scan *s = ((struct typedef_ctx *)ctx)->s;
	struct kd_buf b = KD_BUF_INIT;
	char *key, *val;
	int err;

	if (umap_get(&s->sizer.tags, name->s, name->len))
		return 0;	/* two headers typedef the name: the first one read wins */
	err = kd_buf_addf(&b, "%.*s %.*s", (int)keyword->len, keyword->s, (int)tag->len, tag->s);
	key = err ? NULL : save(s, name->s, name->len);
	val = key ? save(s, b.s, b.len) : NULL;
	kd_buf_release(&b);
	if (!val)
		return -ENOMEM;
	return umap_put(&s->sizer.tags, key, name->len, val);
}

static int on_plain_typedef(const struct utok *name, const struct utok *spec, size_t n, void *ctx)
{
	struct typedef_ctx *tc = ctx;
	struct uapi_scan *s = tc->s;
	struct utypedef_decl *d, *first;
	struct kd_buf b = KD_BUF_INIT;
	char *key;
	int err;

	first = umap_get(&s->sizer.typedefs, name->s, name->len);
	err = utoks_text(&b, spec, n);
	d = err ? NULL : kd_arena_alloc(&s->arena, sizeof(*d));
	key = d ? save(s, name->s, name->len) : NULL;
	if (key) {
		d->file = tc->f;
		d->spelling = save(s, b.s, b.len);
		d->next = NULL;
	}
	kd_buf_release(&b);
	if (!key || !d->spelling)
		return -ENOMEM;
	if (!first)
		return umap_put(&s->sizer.typedefs, key, name->len, d);
	while (first->next)
		first = first->next;
	first->next = d;	/* header order: the first read stays first */
	return 0;
}

/*
 * The typedefs of @f, once: the tags they name (the first header read
 * wins) and the typedefs of names only, which casts resolve through.
 */
static int note_typedefs(struct uapi_scan *s, const struct ufile *f)
{
	struct typedef_ctx tc = { s, f };
	char *key;
	int err;

	if (!f || f->libc || umap_get(&s->typedef_files, (const char *)&f, sizeof(f)))
		return 0;
	key = kd_arena_alloc(&s->arena, sizeof(f));
	if (!key)
		return -ENOMEM;
	memcpy(key, &f, sizeof(f));
	err = umap_put(&s->typedef_files, key, sizeof(f), key);
	return err ? err : utypedef_scan_all(f, on_typedef, on_plain_typedef, &tc);
}

/* The typedefs of every header the last unit read: a cast may name any of them. */
static int note_unit_typedefs(struct uapi_scan *s)
{
	size_t i;
	int err = 0;

	for (i = 0; !err && i < ucpp__nr_files(s->cpp); i++)
		if (ucpp__in_unit(s->cpp, ucpp__file_at(s->cpp, i)))
			err = note_typedefs(s, ucpp__file_at(s->cpp, i));
	return err;
}

/* What a body that is no value is: a type name (#define __kernel_foo unsigned long). */
static const char *shape_of(const struct utoks *t)
{
	static const char *const kw[] = {
		"struct", "union", "enum", "const", "volatile", "signed", "unsigned", "char",
		"short", "int", "long", "_Bool", "void", "float", "double",
	};
	size_t i;

	if (!t || !t->n || t->v[0].kind != UT_IDENT)
		return NULL;
	if (utok_is(&t->v[0], "__attribute__"))
		return "an attribute";
	for (i = 0; i < sizeof(kw) / sizeof(*kw); i++)
		if (utok_is(&t->v[0], kw[i]))
			return "a type";
	return NULL;
}

static int keep_pending(struct uapi_scan *s, const struct umacro *m, struct rec *rec,
			const struct utoks *t, const char *why, const struct utok *unknown)
{
	struct pending *p;
	size_t i;
	int err;

	err = KD_GROW(s->pending, s->cap_pending, s->nr_pending + 1);
	if (err)
		return err;
	p = &s->pending[s->nr_pending];
	memset(p, 0, sizeof(*p));
	p->m = *m;
	p->rec = rec;
	p->root = s->root;
	p->why = why ? why : "not a constant";
	p->shape = shape_of(t);
	if (unknown)
		p->unknown = save(s, unknown->s, unknown->len);
	for (i = 0; t && i < t->n && t->v[i].kind != UT_IOCTL; i++)
		;
	/* Worth another try: a value naming an identifier, and no ioctl call in it. */
	if (t && t->n && i == t->n && p->unknown && !p->shape) {
		p->toks = kd_arena_alloc_array(&s->arena, t->n, sizeof(*p->toks));
		for (i = 0; p->toks && i < t->n; i++) {
			p->toks[i] = t->v[i];
			p->toks[i].hide = NULL;
			p->toks[i].s = save(s, t->v[i].s, t->v[i].len);
		}
		p->n = t->n;
		if (!p->toks && !s->err)
			s->err = -ENOMEM;
	}
	if (s->err)
		return s->err;
	s->nr_pending++;
	return 0;
}

/*
 * The value of expansion @out: a constant's, or the ioctl number of its
 * single call @call (-1: none; UINT64_MAX when it does not evaluate but
 * only a size is unknown). Whether it is known.
 */
static bool evaluate(struct ueval *e, const struct utoks *out, int call, struct uval *v)
{
	struct uval d, t, n;
	struct usize_ans sz;

	if (call < 0)
		return !ueval(e, out->v, out->n, v);
	/* Its value, to compare with another definition. */
	if (!ueval_ioctl(e, (size_t)call, &d, &t, &n, &sz, v))
		return true;
	v->v = UINT64_MAX;
	return e->unknown_size;
}

/*
 * The problems of definition @m that has no value (@ok false; @call its
 * single ioctl call or -1, @out its expansion): an ioctl macro still
 * undefined on the retry (*@undef: its name, also when not said), an
 * ioctl number that does not evaluate, a bound hit. 0 or a negative code.
 */
static int report_unevaluated(struct uapi_result *r, const struct umacro *m, enum eval_mode mode,
			      const struct uexpand *x, const struct ueval *e,
			      const struct utoks *out, bool ok, int call, const char **undef)
{
	struct uapi_scan *s = r->priv;
	int err = 0;

	if (!ok && !x->limit && !e->limit)
		*undef = undefined_ioctl_macro(out);
	if (*undef && mode == EV_RETRY)
		err = problemf(r, m, "%.*s: %s is not defined, even with <sys/ioctl.h> included first;"
			       " the ioctl number is unknown", (int)m->nlen, m->name, *undef);
	if (!err && !ok && call >= 0 && !x->limit && !e->limit) {
		int64_t v64;
		const char *ctype;

		/* Shaped like an ioctl but no constant: never dropped in silence (but an
		 * enumerator the compiler never saw, under __KERNEL__, is not user space's). */
		if (mode != EV_ENUMERATOR || !s->sizer.enum_cb ||
		    s->sizer.enum_cb(m->name, m->nlen, &v64, &ctype, s->sizer.ctx) > 0)
			err = problemf(r, m, "%.*s: an ioctl number that does not evaluate: %s",
				       (int)m->nlen, m->name, e->error ? e->error : "not a constant");
	}
	/* A bound, not a non-constant: say so, once per definition. */
	if (!err && !ok && (x->limit || e->limit))
		err = problemf(r, m, "%.*s: %s", (int)m->nlen, m->name, x->limit ? x->error : e->error);
	return err < 0 ? err : 0;
}

/* *@out: a new record of @m's name, skipped until a value is kept. 0 or a negative code. */
static int skipped_rec(struct uapi_result *r, const struct umacro *m, struct rec **out)
{
	struct uapi_scan *s = r->priv;
	struct rec *rec = kd_arena_alloc(&s->arena, sizeof(*rec));
	int err = rec ? umap_put(&s->names, save(s, m->name, m->nlen), m->nlen, rec) : -ENOMEM;

	if (err || (err = s->err))
		return err;
	rec->kind = REC_SKIPPED;
	rec->conflict_reported = false;
	rec->pending = 0;
	r->stats.skipped++;
	*out = rec;
	return 0;
}

/*
 * Evaluate one definition (or, EV_ENUMERATOR, one enumerator's
 * initializer: only an ioctl number is kept). Returns 0, a negative code,
 * or, for EV_DEFINE, 2 when the expansion used an ioctl macro this unit
 * does not define: the caller retries with <sys/ioctl.h> first.
 */
static int eval_macro(struct uapi_result *r, const struct umacro *m, enum eval_mode mode)
{
	const char *undef = NULL;
	struct uapi_scan *s = r->priv;
	struct kd_arena arena = KD_ARENA_INIT;
	struct uexpand x = { .cpp = s->cpp, .arena = &arena, .ioctls = true, .self = m };
	struct ueval e = { .sizer = &s->sizer, .x = &x, .arch = s->tree.arch };
	struct utoks out = { 0 };
	struct rec *rec;
	struct uval v = { 0 };
	int err, call;
	bool ok;

	rec = umap_get(&s->names, m->name, m->nlen);
	err = note_typedefs(s, m->file);
	if (!err)
		err = uexpand(&x, m->body, m->nbody, &out);
	if (err && err != -EINVAL)
		goto out;
	ok = !err;
	call = ok ? single_call(&out) : -1;
	err = 0;
	if (mode == EV_ENUMERATOR && call < 0)
		goto out;	/* a plain enumerator: the types table has it */
	if (ok)
		ok = evaluate(&e, &out, call, &v);
	err = s->sizer.hard_error;
	if (!err)
		err = report_unevaluated(r, m, mode, &x, &e, &out, ok, call, &undef);
	if (!err && !rec)
		err = skipped_rec(r, m, &rec);
	else if (!err && rec->kind != REC_SKIPPED) {
		if (ok)
			err = check_conflict(r, m, rec, call >= 0, v);
		goto out;
	}
	if (!err && !ok && call < 0 && !undef && !x.limit && !e.limit && mode == EV_DEFINE &&
	    rec->kind == REC_SKIPPED)
		err = keep_pending(s, m, rec, x.error ? NULL : &out, x.error ? x.error : e.error,
				   e.unknown);
	if (err)
		goto out;
	if (ok && call >= 0)
		err = new_ioctl(r, m, &e, &x, call, rec, mode);
	else if (ok)
		err = new_const(r, m, v, rec);
	if (err > 0)
		err = 0;
	else if (!err && rec->kind != REC_SKIPPED)
		r->stats.skipped--;
	if (!err && undef && mode == EV_DEFINE)
		err = 2;
out:
	utoks_release(&out);
	uexpand_release(&x);
	kd_arena_release(&arena);
	return err;
}

struct retry {
	const char **names;	/* definitions (by name pointer) to evaluate again */
	size_t n, cap;
};

struct enum_ctx {
	struct uapi_result *r;
	const struct ufile *f;
};

static int on_enumerator(const struct utok *name, const struct utok *init, size_t n, int line,
			 void *ctx)
{
	struct enum_ctx *ec = ctx;
	struct umacro m = { .name = name->s, .nlen = name->len, .body = init, .nbody = (uint32_t)n,
			    .file = ec->f, .line = line };

	if (umap_get(&ec->r->priv->names, name->s, name->len))
		return 0;	/* a macro of that name (or this enumerator, seen before) */
	return eval_macro(ec->r, &m, EV_ENUMERATOR);
}

/* The function-like macro @m, when an ioctl family, as a row of @r (the first definition read). */
static int add_family(struct uapi_result *r, const struct umacro *m)
{
	struct uapi_scan *s = r->priv;
	struct kd_arena arena = KD_ARENA_INIT;
	struct uexpand x = { .cpp = s->cpp, .arena = &arena, .ioctls = true };
	struct ueval e = { .sizer = &s->sizer, .x = &x, .arch = s->tree.arch };
	struct ufamily_fields f;
	struct kd_ioctl_family *row;
	int err = note_typedefs(s, m->file);

	if (!err)
		err = ufamily_read(&e, &x, m, &f);
	if (err <= 0 || err == 2 || (err = s->sizer.hard_error) != 0)
		goto out;
	err = KD_GROW(r->families, s->cap_families, r->nr_families + 1);
	if (!err) {
		row = &r->families[r->nr_families];
		*row = (struct kd_ioctl_family){
			.name = save(s, m->name, m->nlen), .params = save(s, f.params.s, f.params.len),
			.dir = save(s, f.dir.s, f.dir.len), .type = save(s, f.type.s, f.type.len),
			.nr = save(s, f.nr.s, f.nr.len), .size = save(s, f.size.s, f.size.len),
			.file = m->file->name, .line = m->line,
		};
		err = s->err;
		r->nr_families += !err;
	}
	ufamily_fields_release(&f);
out:
	uexpand_release(&x);
	kd_arena_release(&arena);
	return err < 0 || err == 2 ? err : 0;
}

static int scan_unit(struct uapi_result *r, const char *root)
{
	struct uapi_scan *s = r->priv;
	struct retry retry = { 0 };
	const struct ufile *f;
	size_t i, j;
	int err;

	s->root = root;
	err = ucpp__run(s->cpp, root);
	if (!err)
		err = s->err;
	if (!err)
		err = note_unit_typedefs(s);
	for (i = 0; !err && i < ucpp__nr_macros(s->cpp); i++) {
		const struct umacro *m = ucpp__macro(s->cpp, i);
		char *key;

		if (!m || !m->file || m->file->libc || !m->nbody)
			continue;
		if (umap_get(&s->defs, (const char *)&m->name, sizeof(m->name)))
			continue;
		key = kd_arena_alloc(&s->arena, sizeof(m->name));
		if (!key) {
			err = -ENOMEM;
			break;
		}
		memcpy(key, &m->name, sizeof(m->name));
		err = umap_put(&s->defs, key, sizeof(m->name), key);
		if (!err)
			err = m->funclike ? add_family(r, m) : eval_macro(r, m, EV_DEFINE);
		if (err == 2) {
			err = KD_GROW(retry.names, retry.cap, retry.n + 1);
			if (!err)
				retry.names[retry.n++] = m->name;
		}
	}
	/* Ioctl numbers written as enumerators of the root's own enums. */
	f = ucpp__file(s->cpp, root);
	if (!err && f) {
		struct enum_ctx ec = { r, f };

		err = uenum_scan(f, on_enumerator, &ec);
		if (!err)
			err = s->err;
	}
	/*
	 * Ioctls whose header takes _IOR() from <sys/ioctl.h> without including
	 * it (<sound/asound.h> on Linux): as a program that includes it first.
	 */
	if (!err && retry.n) {
		err = ucpp__run_after(s->cpp, "sys/ioctl.h", root);
		if (!err)
			err = s->err;
		if (!err)
			err = note_unit_typedefs(s);
		for (i = 0; !err && i < ucpp__nr_macros(s->cpp); i++) {
			const struct umacro *m = ucpp__macro(s->cpp, i);

			for (j = 0; m && j < retry.n && retry.names[j] != m->name; j++)
				;
			if (m && j < retry.n)
				err = m->funclike ? add_family(r, m) : eval_macro(r, m, EV_RETRY);
			err = err == 2 ? 0 : err;	/* a family still without _IOC: not one */
		}
	}
	free(retry.names);
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
	copy = kd_malloc_array(n, size);
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

/* Definitions tried again name each other at most this deep (a hostile tree: any depth). */
#define MAX_SETTLE_DEPTH 64

struct settle {
	struct uapi_result *r;
	int depth;
};

static int settle_one(struct uapi_result *r, struct pending *p, int depth);

/*
 * The value of a constant of the tree, for a definition tried again; one
 * that is itself waiting is settled first (each is tried once: linear).
 */
static int tree_constant(const struct utok *t, struct uval *out, void *ctx)
{
	struct settle *st = ctx;
	struct uapi_scan *s = st->r->priv;
	struct rec *rec = umap_get(&s->names, t->s, t->len);
	const struct kd_constant *c;

	if (rec && rec->kind == REC_SKIPPED && rec->pending && st->depth < MAX_SETTLE_DEPTH) {
		int err = settle_one(st->r, &s->pending[rec->pending - 1], st->depth + 1);

		if (err && !s->err)
			s->err = err;
	}
	if (!rec || rec->kind != REC_CONST)
		return 0;
	c = &st->r->consts[rec->idx];
	*out = uval_of_ctype((uint64_t)c->value, c->ctype);
	return 1;
}

static int settle_one(struct uapi_result *r, struct pending *p, int depth)
{
	struct uapi_scan *s = r->priv;
	struct settle st = { r, depth };
	struct ueval e = { .sizer = &s->sizer, .arch = s->tree.arch, .ident = tree_constant,
			   .ident_ctx = &st };
	struct uval v;
	int err;

	if (p->tried || !p->n || p->rec->kind != REC_SKIPPED)
		return 0;
	p->tried = true;	/* a definition naming itself, through others, fails */
	if (ueval(&e, p->toks, p->n, &v))
		return s->sizer.hard_error ? s->sizer.hard_error : s->err;
	err = s->sizer.hard_error ? s->sizer.hard_error : s->err;
	s->root = p->root;
	if (!err)
		err = new_const(r, &p->m, v, p->rec);
	if (!err)
		r->stats.skipped--;
	return err;
}

/*
 * The definitions that named an identifier their unit does not define,
 * with the constants of the whole tree: linux/x25.h's (SIOCPROTOPRIVATE +
 * 0) takes linux/sockios.h's, as a program that includes both reads it.
 * What is left is a problem row saying why.
 */
static int settle_pending(struct uapi_result *r)
{
	struct uapi_scan *s = r->priv;
	size_t i;
	int err = 0;

	for (i = 0; !err && i < s->nr_pending; i++)
		if (!s->pending[i].rec->pending)
			s->pending[i].rec->pending = i + 1;	/* the first definition of the name */
	for (i = 0; !err && i < s->nr_pending; i++)
		err = settle_one(r, &s->pending[i], 0);
	for (i = 0; !err && i < s->nr_pending; i++) {
		const struct pending *p = &s->pending[i];
		const struct umacro *m = &p->m;

		if (p->rec->kind != REC_SKIPPED || p->rec->conflict_reported)
			continue;
		p->rec->conflict_reported = true;	/* one row per name */
		if (p->shape)
			err = problemf(r, m, "%.*s: not an integer constant (%s)", (int)m->nlen, m->name,
				       p->shape);
		else if (p->unknown)
			err = problemf(r, m, "%.*s: not an integer constant: %s%s is defined neither by"
				       " the header, what it includes, nor as a constant of the tree",
				       (int)m->nlen, m->name, p->unknown,
				       strstr(p->why, "call") ? "()" : "");
		else
			err = problemf(r, m, "%.*s: %s%s", (int)m->nlen, m->name,
				       !kd_starts_with(p->why, "not ") ? "not an integer constant: " : "", p->why);
	}
	return err;
}

int uapi__scan(const char *dir, const struct kd_arch *arch, const struct uapi_lookup *lk,
	       struct uapi_result **out)
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
	if (!arch)
		arch = kd_arch__by_name("x86_64");
	s->sizer = (struct usizer){ .cb = lk ? lk->size : NULL, .enum_cb = lk ? lk->enumerator : NULL,
				    .offset_cb = lk ? lk->offset : NULL, .align_cb = lk ? lk->align : NULL,
				    .ctx = lk ? lk->ctx : NULL, .arena = &s->arena, .arch = arch };
	err = utree__open(dir, arch, &s->tree);
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
		const char *const *skip = arch->ilp32 ? not_roots_ia32 : not_roots;

		for (j = 0; j < sizeof(not_roots) / sizeof(*not_roots); j++)
			if (!strcmp(s->tree.roots[i], skip[j]))
				break;
		if (j < sizeof(not_roots) / sizeof(*not_roots))
			continue;
		err = scan_unit(r, s->tree.roots[i]);
		if (err)
			goto fail;
	}
	for (i = 0; s->tree.src && i < s->tree.src->nr_outside; i++) {
		err = scan_unit(r, s->tree.src->outside[i]->path);
		if (err)
			goto fail;
	}
	err = settle_pending(r);
	if (err)
		goto fail;
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
		umap_release(&s->sizer.tags);
		umap_release(&s->sizer.typedefs);
		free(s->pending);
		umap_release(&s->typedef_files);
		kd_arena_release(&s->arena);
		ucpp__free(s->cpp);
		utree__release(&s->tree);
		free(s);
	}
	free(r->consts);
	free(r->const_roots);
	free(r->ioctls);
	free(r->ioctl_roots);
	free(r->families);
	free(r->problems);
	free(r);
}

/*
 * meta "uapi_headers": the directories read, in search order, and whose
 * view: "arm64: DIR/arch/arm64/include/uapi DIR/uapi" (an installed tree:
 * "arm64: DIR"; its asm/ is what headers_install wrote).
 */
static int set_tree_meta(struct kdb *db, const struct uapi_scan *s)
{
	struct kd_buf b = KD_BUF_INIT;
	int i, err;

	err = kd_buf_addf(&b, "%s:", s->tree.arch->name);
	for (i = 0; !err && i < s->tree.nr_dirs; i++)
		err = kd_buf_addf(&b, " %s", s->tree.dirs[i]);
	if (!err)
		err = kdb__set_meta(db, "uapi_headers", b.s);
	kd_buf_release(&b);
	return err;
}

/* meta "uapi_outside" (db/kdb-uapi.h): the headers outside include/uapi read, and their users. */
static int set_outside_meta(struct kdb *db, const struct uapi_scan *s)
{
	struct kd_buf b = KD_BUF_INIT;
	size_t i;
	int err = 0;

	for (i = 0; !err && s->tree.src && i < s->tree.src->nr_outside; i++)
		err = kd_buf_addf(&b, "%s%s: %s", i ? "; " : "", s->tree.src->outside[i]->path,
				  s->tree.src->outside[i]->user);
	if (!err && b.len)
		err = kdb__set_meta(db, KDB_META_UAPI_OUTSIDE, b.s);
	kd_buf_release(&b);
	return err;
}

/*
 * meta "uapi_constants": what became of the tree's object-like macros,
 * "45950 evaluated, 733 not (863 problems)": evaluated to a constant or an
 * ioctl, or not, each of those with a problem row saying why (problems:
 * every row of the stage, the tree's other troubles too).
 */
static int set_count_meta(struct kdb *db, const struct uapi_stats *st)
{
	struct kd_buf b = KD_BUF_INIT;
	int err;

	err = kd_buf_addf(&b, "%lld evaluated, %lld not (%lld problems)",
			  (long long)(st->constants + st->ioctls), (long long)st->skipped,
			  (long long)st->problems);
	if (!err)
		err = kdb__set_meta(db, "uapi_constants", b.s);
	kd_buf_release(&b);
	return err;
}

int uapi__extract(struct kdb *db, const char *dir, const struct kd_arch *arch,
		  const struct uapi_lookup *lk, struct uapi_stats *stats)
{
	struct uapi_result *r = NULL;
	size_t i;
	int err;

	err = uapi__scan(dir, arch, lk, &r);
	if (err)
		return err;
	err = set_tree_meta(db, r->priv);
	if (!err)
		err = set_outside_meta(db, r->priv);
	if (!err)
		err = set_count_meta(db, &r->stats);
	if (!err)
		err = kdb__put_constants(db, r->consts, r->nr_consts);
	if (!err)
		err = kdb__put_ioctls(db, r->ioctls, r->nr_ioctls);
	if (!err)
		err = kdb__put_ioctl_families(db, r->families, r->nr_families);
	for (i = 0; !err && i < r->nr_problems; i++)
		err = kdb__put_problem(db, "uapi", r->problems[i].file, r->problems[i].location,
				       "%s", r->problems[i].message);
	if (!err && stats)
		*stats = r->stats;
	uapi_result__free(r);
	return err;
}
