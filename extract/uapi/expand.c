// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAPI reader: macro expansion as C11 6.10.3 describes it, with hide sets
 * (each token remembers the macros whose expansion produced it, and a
 * macro is not expanded again inside its own expansion). Arguments are
 * expanded before substitution except next to # and ##; the result is
 * rescanned together with the rest of the input, so a macro expanding to
 * the name of a function-like macro picks up its arguments from what
 * follows. In #if, `defined X` and `defined(X)` are evaluated first.
 *
 * For constants, the ioctl macros (_IO, _IOR, _IOW, _IOWR, _IOC and the
 * _BAD variants), when the headers define them, are not expanded: the call
 * becomes one UT_IOCTL token that keeps its arguments, so the reader knows
 * the argument type as written and asks for its size itself.
 */
#include "extract/uapi/uapi_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mem.h"

static const struct {
	const char *name;
	bool ioc;
	int dir;
} ioctl_macros[] = {
	{ "_IO", false, UIO_NONE }, { "_IOR", false, UIO_READ }, { "_IOW", false, UIO_WRITE },
	{ "_IOWR", false, UIO_RW }, { "_IOR_BAD", false, UIO_READ },
	{ "_IOW_BAD", false, UIO_WRITE }, { "_IOWR_BAD", false, UIO_RW }, { "_IOC", true, 0 },
};

static bool in_hide(const struct uhide *h, const struct umacro *m)
{
	for (; h; h = h->next)
		if (h->m == m)
			return true;
	return false;
}

/*
 * @h ∪ {@m}; NULL with *err set on ENOMEM or when the set would name more
 * than UEXPAND_MAX_NEST macros (an expansion nested that deep: a chain of
 * aliases, each step of which walks the set).
 */
static const struct uhide *hide_add(struct uexpand *x, const struct uhide *h,
				    const struct umacro *m, int *err)
{
	struct uhide *n;

	if (in_hide(h, m))
		return h;
	if (h && h->len >= UEXPAND_MAX_NEST) {
		x->error = "macro expansion nests more than " UEXPAND_STR(UEXPAND_MAX_NEST)
			   " macros deep";
		x->limit = true;
		*err = -EINVAL;
		return NULL;
	}
	n = kd_arena_alloc(x->arena, sizeof(*n));
	if (!n) {
		*err = -ENOMEM;
		return NULL;
	}
	n->m = m;
	n->next = h;
	n->len = h ? h->len + 1 : 1;
	return n;
}

/* @h ∪ @add; NULL result with @err set (see hide_add). */
static const struct uhide *hide_union(struct uexpand *x, const struct uhide *h,
				      const struct uhide *add, int *err)
{
	/* Sets are immutable lists: a body token (no hide set) shares the macro's. */
	if (!h || h == add)
		return add;
	for (; add && h; add = add->next)
		h = hide_add(x, h, add->m, err);
	return h;
}

struct span {
	size_t start, n;
};

/*
 * The arguments of a call whose '(' is at @v[open]: spans of @v, and *close
 * the index of the ')'. For a variadic macro, the arguments beyond
 * @nparams-1 stay in the last span, commas included.
 */
static int collect_args(struct uexpand *x, const struct utok *v, size_t n, size_t open,
			int nparams, bool variadic, struct span **args, int *nargs, size_t *close)
{
	size_t i, cap = 0;
	int depth = 0, err;

	*args = NULL;
	*nargs = 0;
	err = KD_GROW(*args, cap, 1);
	if (err)
		return err;
	(*args)[0] = (struct span){ open + 1, 0 };
	*nargs = 1;
	for (i = open + 1; i < n; i++) {
		if (utok_is(&v[i], "(")) {
			depth++;
		} else if (utok_is(&v[i], ")")) {
			if (!depth--) {
				*close = i;
				return 0;
			}
		} else if (utok_is(&v[i], ",") && !depth && !(variadic && *nargs == nparams)) {
			err = KD_GROW(*args, cap, (size_t)*nargs + 1);
			if (err)
				return err;
			(*args)[*nargs] = (struct span){ i + 1, 0 };
			(*nargs)++;
			continue;
		}
		(*args)[*nargs - 1].n++;
	}
	x->error = "unterminated macro call";
	return -EINVAL;
}

static int param_index(const struct umacro *m, const struct utok *t)
{
	int j;

	if (t->kind != UT_IDENT)
		return -1;
	for (j = 0; j < m->nparams; j++) {
		const struct utok *p = umacro_param(m, j);

		if (p->len == t->len && !memcmp(p->s, t->s, t->len))
			return j;
	}
	return -1;
}

/* Push onto the expansion's output, within UEXPAND_MAX_TOKENS. */
static int push_out(struct uexpand *x, struct utoks *out, const struct utok *t)
{
	if (out->n >= UEXPAND_MAX_TOKENS) {
		x->error = "macro expansion grows past " UEXPAND_STR(UEXPAND_MAX_TOKENS) " tokens";
		x->limit = true;
		return -EINVAL;
	}
	return utoks_push(out, t);
}

static int push_hidden(struct uexpand *x, struct utoks *out, const struct utok *t,
		       const struct uhide *hs)
{
	struct utok c = *t;
	int err = 0;

	c.hide = hide_union(x, t->hide, hs, &err);
	if (err)
		return err;
	return push_out(x, out, &c);
}

/* "#param": the argument's spelling as a string literal. */
static int stringize(struct uexpand *x, const struct utok *v, struct span a, struct utoks *out)
{
	struct kd_buf b = KD_BUF_INIT;
	struct utok t = { .kind = UT_STRING, .space = true };
	size_t i, j;
	int err;

	err = kd_buf_addc(&b, '"');
	for (i = 0; i < a.n && !err; i++) {
		const struct utok *s = &v[a.start + i];

		if (i && s->space)
			err = kd_buf_addc(&b, ' ');
		for (j = 0; j < s->len && !err; j++) {
			if ((s->kind == UT_STRING || s->kind == UT_CHAR) && (s->s[j] == '"' || s->s[j] == '\\'))
				err = kd_buf_addc(&b, '\\');
			if (!err)
				err = kd_buf_addc(&b, s->s[j]);
		}
	}
	if (!err)
		err = kd_buf_addc(&b, '"');
	if (!err) {
		t.s = kd_arena_strndup(x->arena, b.s, b.len);
		t.len = (uint32_t)b.len;
		err = t.s ? utoks_push(out, &t) : -ENOMEM;
	}
	kd_buf_release(&b);
	return err;
}

/* Replace the last token of @out by its concatenation with @r. */
static int paste(struct uexpand *x, struct utoks *out, const struct utok *r)
{
	struct utok *l = &out->v[out->n - 1];
	struct utoks lexed = { 0 };
	char *s;
	int err;

	s = kd_arena_alloc(x->arena, (size_t)l->len + r->len + 1);
	if (!s)
		return -ENOMEM;
	memcpy(s, l->s, l->len);
	memcpy(s + l->len, r->s, r->len);
	err = ulex(s, (size_t)l->len + r->len, &lexed);
	if (!err && lexed.n != 1) {
		x->error = "## does not give one token";
		err = -EINVAL;
	}
	if (!err) {
		lexed.v[0].space = l->space;
		lexed.v[0].hide = l->hide;
		*l = lexed.v[0];
	}
	utoks_release(&lexed);
	return err;
}

/* The body of @m with @args substituted, every token hidden from @hs. */
static int substitute(struct uexpand *x, const struct umacro *m, const struct utok *v,
		      const struct span *args, const struct uhide *hs, struct utoks *out)
{
	const struct utok *b = m->body;
	size_t i, k, start = out->n;
	bool pasting = false;
	int err = 0;

	for (i = 0; i < m->nbody && !err; i++) {
		int p = m->funclike ? param_index(m, &b[i]) : -1;
		bool before_paste = i + 1 < m->nbody && utok_is(&b[i + 1], "##");

		if (utok_is(&b[i], "##") && i > 0 && i + 1 < m->nbody) {
			pasting = true;
			continue;
		}
		if (m->funclike && utok_is(&b[i], "#") && i + 1 < m->nbody &&
		    (p = param_index(m, &b[i + 1])) >= 0) {
			err = stringize(x, v, args[p], out);
			i++;
		} else if (p >= 0 && (pasting || before_paste)) {
			struct span a = args[p];

			/* GNU: ", ## __VA_ARGS__" drops the comma when the arguments are empty. */
			if (pasting && !a.n && m->variadic && p == m->nparams - 1 &&
			    out->n > start && utok_is(&out->v[out->n - 1], ",")) {
				out->n--;
				pasting = false;
				continue;
			}
			for (k = 0; k < a.n && !err; k++) {
				if (pasting && k == 0 && out->n > start)
					err = paste(x, out, &v[a.start]);
				else
					err = push_hidden(x, out, &v[a.start + k], hs);
			}
		} else if (p >= 0) {
			struct span a = args[p];
			struct utoks exp = { 0 };

			err = uexpand(x, v + a.start, a.n, &exp);
			for (k = 0; k < exp.n && !err; k++) {
				if (!k)
					exp.v[0].space = b[i].space;
				err = push_hidden(x, out, &exp.v[k], hs);
			}
			utoks_release(&exp);
		} else if (pasting && out->n > start) {
			err = paste(x, out, &b[i]);
		} else {
			err = push_hidden(x, out, &b[i], hs);
		}
		pasting = false;
	}
	return err;
}

static int ioctl_call(struct uexpand *x, const struct utok *v, const struct span *args, int nargs,
		      int which, struct utok *tok)
{
	struct uioctl_call *c;
	int i, err = 0;

	if (nargs != (ioctl_macros[which].ioc ? 4 : ioctl_macros[which].dir == UIO_NONE ? 2 : 3)) {
		x->error = "ioctl macro with a wrong number of arguments";
		return -EINVAL;
	}
	if (KD_GROW(x->calls, x->cap_calls, x->nr_calls + 1))
		return -ENOMEM;
	c = &x->calls[x->nr_calls++];
	memset(c, 0, sizeof(*c));
	c->ioc = ioctl_macros[which].ioc;
	c->dir = ioctl_macros[which].dir;
	for (i = 0; i < nargs && !err; i++)
		err = uexpand(x, v + args[i].start, args[i].n, &c->args[i]);
	tok->kind = UT_IOCTL;
	tok->ioctl = (uint32_t)(x->nr_calls - 1);
	return err;
}

static int ioctl_which(const struct utok *t)
{
	size_t i;

	if (t->len < 3 || memcmp(t->s, "_IO", 3))
		return -1;
	for (i = 0; i < sizeof(ioctl_macros) / sizeof(*ioctl_macros); i++)
		if (utok_is(t, ioctl_macros[i].name))
			return (int)i;
	return -1;
}

/* `defined X` / `defined ( X )` at @v[i]: a 0/1 token; *used = tokens consumed. */
static int defined_op(struct uexpand *x, const struct utok *v, size_t n, size_t i,
		      struct utoks *out, size_t *used)
{
	static const struct utok one = { .s = "1", .len = 1, .kind = UT_NUMBER, .space = true };
	static const struct utok zero = { .s = "0", .len = 1, .kind = UT_NUMBER, .space = true };
	bool paren = i + 1 < n && utok_is(&v[i + 1], "(");
	size_t name = i + 1 + paren;

	if (name >= n || v[name].kind != UT_IDENT || (paren && (name + 1 >= n || !utok_is(&v[name + 1], ")")))) {
		x->error = "defined without a macro name";
		return -EINVAL;
	}
	*used = name - i + 1 + paren;
	return utoks_push(out, ucpp__lookup(x->cpp, v[name].s, v[name].len) ? &one : &zero);
}

/* The token @k places ahead of the next one in the reversed work stack @w, or NULL. */
static const struct utok *ahead(const struct utoks *w, size_t k)
{
	return k < w->n ? &w->v[w->n - 1 - k] : NULL;
}

/*
 * Move the call at the top of @work (the macro name, then its parenthesized
 * arguments) to @call, in order: as many tokens as the call has, so every
 * token of the input is moved once however often expansions rescan.
 */
static int take_call(struct uexpand *x, struct utoks *work, struct utoks *call)
{
	const struct utok *t;
	int depth = 0, err = 0;
	size_t k;

	call->n = 0;
	for (k = 0; (t = ahead(work, k)); k++) {
		if (k >= 2 && utok_is(t, "(")) {
			depth++;
		} else if (k >= 2 && utok_is(t, ")") && !depth--) {
			for (; !err && call->n <= k; work->n--)
				err = utoks_push(call, &work->v[work->n - 1]);
			return err;
		}
	}
	x->error = "unterminated macro call";
	return -EINVAL;
}

/* `defined` at the top of @work, in an #if: its 0/1 token to @out (defined_op()). */
static int defined_at_top(struct uexpand *x, struct utoks *work, struct utoks *fwd,
			  struct utoks *out)
{
	size_t k, used;
	int err = 0;

	/* At most four tokens: defined ( X ) */
	fwd->n = 0;
	for (k = 0; k < 4 && !err && ahead(work, k); k++)
		err = utoks_push(fwd, ahead(work, k));
	if (!err)
		err = defined_op(x, fwd->v, fwd->n, 0, out, &used);
	if (!err)
		work->n -= used;
	return err;
}

/*
 * The call of function-like macro @m at the top of @work, moved to @call,
 * its arguments into *@args (*@nargs of them; a variadic's empty one
 * added). 1: a macro of an ioctl number, its token pushed to @out; 0: the
 * call is @m's to replace; or a negative code.
 */
static int func_call(struct uexpand *x, const struct umacro *m, struct utoks *work,
		     struct utoks *call, struct span **args, int *nargs, struct utoks *out)
{
	size_t close = 0;
	int which, err = take_call(x, work, call);

	if (err)
		return err;
	free(*args);
	err = collect_args(x, call->v, call->n, 1, m->nparams, m->variadic, args, nargs, &close);
	if (err)
		return err;
	if (*nargs == 1 && !(*args)[0].n && m->nparams == 0)
		*nargs = 0;
	if (*nargs == m->nparams - 1 && m->variadic) {
		struct span *grown = kd_realloc_array(*args, (size_t)m->nparams, sizeof(**args));

		if (!grown)
			return -ENOMEM;
		*args = grown;
		(*args)[(*nargs)++] = (struct span){ close, 0 };
	}
	which = x->ioctls ? ioctl_which(&call->v[0]) : -1;
	if (which >= 0) {
		struct utok tok = call->v[0];

		err = ioctl_call(x, call->v, *args, *nargs, which, &tok);
		if (!err)
			err = utoks_push(out, &tok);
		return err ? err : 1;
	}
	if (*nargs != m->nparams) {
		x->error = "macro called with a wrong number of arguments";
		return -EINVAL;
	}
	return 0;
}

/*
 * The input is kept on a stack, next token on top, so that a replacement
 * is pushed in front of the rest without copying it: each rescan costs
 * what the replacement holds, not what follows it.
 */
int uexpand(struct uexpand *x, const struct utok *in, size_t n, struct utoks *out)
{
	struct utoks work = { 0 }, next = { 0 }, call = { 0 }, fwd = { 0 };
	struct span *args = NULL;
	size_t k, base = out->n;
	int err = 0, nargs = 0;

	for (k = n; k-- > 0 && !err;)
		err = utoks_push(&work, &in[k]);
	while (!err && work.n) {
		const struct utok *t = ahead(&work, 0), *after = ahead(&work, 1);
		const struct umacro *m;
		const struct uhide *hs;

		if (out->n - base + work.n > UEXPAND_MAX_TOKENS) {
			x->error = "macro expansion grows past " UEXPAND_STR(UEXPAND_MAX_TOKENS)
				   " tokens";
			x->limit = true;
			err = -EINVAL;
			break;
		}
		if (t->kind != UT_IDENT) {
			err = utoks_push(out, t);
			work.n--;
			continue;
		}
		if (x->in_if && utok_is(t, "defined")) {
			err = defined_at_top(x, &work, &fwd, out);
			continue;
		}
		m = ucpp__lookup(x->cpp, t->s, t->len);
		if (!m || in_hide(t->hide, m) || (m->funclike && (!after || !utok_is(after, "("))) ||
		    (x->self && t->len == x->self->nlen && !memcmp(t->s, x->self->name, t->len))) {
			err = utoks_push(out, t);
			work.n--;
			continue;
		}
		call.n = 0;
		if (m->funclike) {
			err = func_call(x, m, &work, &call, &args, &nargs, out);
			if (err > 0) {
				err = 0;
				continue;
			}
			if (err)
				break;
		} else {
			err = utoks_push(&call, t);
			work.n--;
		}
		t = &call.v[0];
		hs = hide_add(x, t->hide, m, &err);
		if (!hs)
			break;
		next.n = 0;
		err = substitute(x, m, call.v, args, hs, &next);
		if (!err && next.n)
			next.v[0].space = t->space;
		/* Rescan the replacement together with the rest of the input. */
		for (k = next.n; k-- > 0 && !err;)
			err = utoks_push(&work, &next.v[k]);
	}
	free(args);
	utoks_release(&work);
	utoks_release(&next);
	utoks_release(&call);
	utoks_release(&fwd);
	return err;
}

void uexpand_release(struct uexpand *x)
{
	size_t i;
	int j;

	for (i = 0; i < x->nr_calls; i++)
		for (j = 0; j < 4; j++)
			utoks_release(&x->calls[i].args[j]);
	free(x->calls);
	x->calls = NULL;
	x->nr_calls = x->cap_calls = 0;
}
