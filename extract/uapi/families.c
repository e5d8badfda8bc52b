// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ioctl families: function-like macros whose expansion, with their
 * parameters left as they are, is one _IO/_IOR/_IOW/_IOWR/_IOC call
 * (EVIOCGNAME(len), EVIOCGABS(abs), SPI_IOC_MESSAGE(N)). A program
 * computes the number from the macro for its own argument, so what is
 * ABI is the macro's formula: its direction, type, nr and size, each a
 * value where it does not depend on a parameter and otherwise the
 * expression as the expansion gives it. The expression's text is its
 * tokens, one space apart, so that the same macro spaced differently in
 * another tree reads the same.
 */
#include "extract/uapi/uapi_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"

/* Does any of @n tokens name a parameter of @m? */
static bool uses_param(const struct umacro *m, const struct utok *t, size_t n)
{
	size_t i;
	int p;

	for (i = 0; i < n; i++)
		for (p = 0; t[i].kind == UT_IDENT && p < m->nparams; p++) {
			const struct utok *q = umacro_param(m, p);

			if (t[i].len == q->len && !memcmp(t[i].s, q->s, t[i].len))
				return true;
		}
	return false;
}

/* The tokens @t as text, one space apart (UT_IOCTL tokens do not occur in an argument). */
static int tokens_text(struct kd_buf *b, const struct utok *t, size_t n)
{
	size_t i;
	int err = 0;

	for (i = 0; !err && i < n; i++)
		err = kd_buf_addf(b, "%s%.*s", i ? " " : "", (int)t[i].len, t[i].s);
	return err;
}

/* One field: its value when it is one, else its formula. */
static int field(struct ueval *e, const struct umacro *m, const struct utoks *arg, struct kd_buf *out)
{
	struct uval v;

	if (!uses_param(m, arg->v, arg->n) && !ueval(e, arg->v, arg->n, &v))
		return kd_buf_addf(out, "%" PRIu64, v.v);
	return tokens_text(out, arg->v, arg->n);
}

static const char *const dir_words[] = { "none", "w", "r", "rw" };

/* The size of _IOx's type argument: its size when known, else sizeof(T). */
static int size_field(struct ueval *e, const struct umacro *m, const struct utoks *arg,
		      struct kd_buf *out)
{
	const struct usize_ans *ans = NULL;
	int err;

	if (!uses_param(m, arg->v, arg->n) && e->sizer) {
		err = usizer_size(e->sizer, arg->v, arg->n, &ans);
		if (err < 0)
			return err;
		if (ans && ans->known)
			return kd_buf_addf(out, "%" PRId64, ans->info.size);
	}
	err = kd_buf_adds(out, "sizeof(");
	if (!err)
		err = tokens_text(out, arg->v, arg->n);
	return err ? err : kd_buf_adds(out, ")");
}

int ufamily_read(struct ueval *e, struct uexpand *x, const struct umacro *m,
		 struct ufamily_fields *f)
{
	const struct uioctl_call *c;
	const struct umacro *enc;
	struct utoks out = { 0 };
	size_t a = 0, b;
	int err, p;

	memset(f, 0, sizeof(*f));
	if (!m->funclike || m->variadic || !m->nbody)
		return 0;
	/* The encoding's own helpers (_IOR, _IOR_BAD) live beside _IOC: they are no driver's ABI. */
	enc = ucpp__lookup(x->cpp, "_IOC", 4);
	if (enc && enc->file && enc->file == m->file)
		return 0;
	err = uexpand(x, m->body, m->nbody, &out);
	if (err) {
		utoks_release(&out);
		return err == -EINVAL ? 0 : err;
	}
	/* One call, in as many parentheses as it likes. */
	for (b = out.n; b - a >= 3 && utok_is(&out.v[a], "(") && utok_is(&out.v[b - 1], ")"); b--)
		a++;
	if (b - a != 1 || out.v[a].kind != UT_IOCTL) {
		/* _IOC(...) left as it is: the header takes it from <sys/ioctl.h> without including it. */
		bool undefined = b - a > 1 && out.v[a].kind == UT_IDENT && utok_is(&out.v[a + 1], "(") &&
				 (utok_is(&out.v[a], "_IOC") || utok_is(&out.v[a], "_IO") ||
				  utok_is(&out.v[a], "_IOR") || utok_is(&out.v[a], "_IOW") ||
				  utok_is(&out.v[a], "_IOWR"));

		utoks_release(&out);
		return undefined ? 2 : 0;
	}
	c = &x->calls[out.v[a].ioctl];
	for (p = 0; !err && p < m->nparams; p++)
		err = kd_buf_addf(&f->params, "%s%.*s", p ? "," : "", (int)umacro_param(m, p)->len,
				  umacro_param(m, p)->s);
	if (c->ioc) {
		if (!err)
			err = field(e, m, &c->args[0], &f->dir);
		/* _IOC's direction as the word _IO* gives, when it is a value. */
		if (!err && !uses_param(m, c->args[0].v, c->args[0].n) && f->dir.len == 1 &&
		    f->dir.s[0] >= '0' && f->dir.s[0] <= '3') {
			int d = f->dir.s[0] - '0';

			kd_buf_reset(&f->dir);
			err = kd_buf_adds(&f->dir, dir_words[d]);
		}
		if (!err)
			err = field(e, m, &c->args[1], &f->type);
		if (!err)
			err = field(e, m, &c->args[2], &f->nr);
		if (!err)
			err = field(e, m, &c->args[3], &f->size);
	} else {
		err = kd_buf_adds(&f->dir, dir_words[c->dir & 3]);
		if (!err)
			err = field(e, m, &c->args[0], &f->type);
		if (!err)
			err = field(e, m, &c->args[1], &f->nr);
		if (!err)
			err = c->dir ? size_field(e, m, &c->args[2], &f->size) : kd_buf_adds(&f->size, "0");
	}
	utoks_release(&out);
	if (err) {
		ufamily_fields_release(f);
		return err;
	}
	return 1;
}

void ufamily_fields_release(struct ufamily_fields *f)
{
	kd_buf_release(&f->params);
	kd_buf_release(&f->dir);
	kd_buf_release(&f->type);
	kd_buf_release(&f->nr);
	kd_buf_release(&f->size);
}

/* The index of parameter @t in the comma list @params, or -1. */
static int param_at(const char *params, const struct utok *t)
{
	const char *p = params;
	int i = 0;

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == t->len && !memcmp(p, t->s, n))
			return i;
		p += n + (p[n] == ',');
		i++;
	}
	return -1;
}

int uapi__family_eval(const char *formula, const char *params, const int64_t *argv, int argc,
		      uint64_t *value)
{
	char digits[UAPI_FAMILY_MAX_PARAMS][24];
	struct utoks in = { 0 }, out = { 0 };
	struct ueval e = { .arch = NULL };
	struct uval v;
	size_t i;
	int err;

	err = ulex(formula, strlen(formula), &in);
	for (i = 0; !err && i < in.n; i++) {
		struct utok t = in.v[i];
		int p = t.kind == UT_IDENT ? param_at(params, &t) : -1;

		if (p >= 0) {
			if (p >= argc || p >= UAPI_FAMILY_MAX_PARAMS) {
				err = -EINVAL;
				break;
			}
			/* Parenthesized, so that a negative value stays one operand. */
			snprintf(digits[p], sizeof(digits[p]), "%" PRId64, argv[p]);
			t.s = digits[p];
			t.len = (uint32_t)strlen(digits[p]);
			t.kind = UT_NUMBER;
			if (argv[p] < 0) {
				t.s++;
				t.len--;
				err = utoks_push(&out, &(struct utok){ .s = "-", .len = 1, .kind = UT_PUNCT });
			}
		}
		if (!err)
			err = utoks_push(&out, &t);
	}
	if (!err && ueval(&e, out.v, out.n, &v))
		err = -EINVAL;
	if (!err)
		*value = v.v;
	utoks_release(&in);
	utoks_release(&out);
	return err;
}
