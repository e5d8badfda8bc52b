// SPDX-License-Identifier: GPL-2.0-only
/*
 * The parser of the larger declarations: struct/union annotations (known
 * sizes, minimum size, padding, reserved, out-only, unused and gated
 * fields) and
 * syscalls/ioctls (parameters, return kind, errnos with conditions,
 * notes). The shared helpers and the recovery rules are in parse.c.
 */
#include "spec/spec_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mem.h"

/* --- structs ------------------------------------------------------------- */
struct struct_ctx {
	struct spec_struct *st;
	struct spec_size *sizes;
	size_t nr_sizes, cap_sizes;
	struct spec_field *fields;
	size_t nr_fields, cap_fields;
};

static const char *const struct_words[] = { "size", "minsize", "padding", NULL };

/* [until V]: the first version a statement no longer holds for. */
static int opt_until(struct parser *p, const char **until)
{
	const struct token *t;

	if (!accept_tok(p, "until"))
		return 0;
	t = peek(p);
	if (t->kind != T_VERSION)
		return perr(p, t, "expected a kernel version after 'until' (like 6.6), found %s",
			    tok_desc(p, t));
	*until = t->text;
	p->pos++;
	return 0;
}

/* when CONSTANT {, CONSTANT}: the UAPI constants that gate a field. */
static int field_gates(struct parser *p, struct spec_field *f)
{
	const char **v = NULL;
	size_t n = 0, cap = 0;
	const char *name;

	do {
		if (ident(p, &name, "a UAPI constant (a flag or command) after 'when'") ||
		    P_PUSH(p, v, cap, n, name)) {
			free(v);
			return -1;
		}
	} while (accept_tok(p, ","));
	f->gates = to_arena(p, v, n, sizeof(*v));
	f->nr_gates = n;
	return f->gates ? 0 : -1;
}

/* name[N]: the elements from N on. */
static int field_elements(struct parser *p, struct spec_field *f)
{
	const struct token *t;

	if (!accept_tok(p, "["))
		return 0;
	t = peek(p);
	if (t->kind != T_NUMBER || t->num > INT64_MAX)
		return perr(p, t, "expected an element index after '[', found %s", tok_desc(p, t));
	p->pos++;
	f->from_elem = (int64_t)t->num;
	return expect(p, "]", "after the element index");
}

static int parse_field(struct parser *p, struct struct_ctx *c)
{
	struct kd_buf b = KD_BUF_INIT;
	struct spec_field f = { .loc = tok_loc(p, peek(p)), .from_elem = -1 };
	int err = -1;

	if (kd_buf_adds(&b, peek(p)->text))
		goto oom;
	p->pos++;
	while (tok_is(peek(p), ".") && peek2(p)->kind == T_IDENT) {
		if (kd_buf_addc(&b, '.') || kd_buf_adds(&b, peek2(p)->text))
			goto oom;
		p->pos += 2;
	}
	if (!(f.name = pstrdup(p, b.s)) || field_elements(p, &f) ||
	    expect(p, ":", "after the field name"))
		goto out;
	accept_flags(p, (const struct word_flag[]){ { "reserved", &f.reserved }, { "out", &f.out },
						    { "unused", &f.unused } }, 3);
	if (!tok_is(peek(p), ";") && !tok_is(peek(p), "since") && !tok_is(peek(p), "until") &&
	    !tok_is(peek(p), "when")) {
		if (parse_kind(p, &f.arg))
			goto out;
		f.has_arg = true;
	}
	if (accept_tok(p, "when") && field_gates(p, &f))
		goto out;
	if (!f.has_arg && !f.reserved && !f.out && !f.unused && !f.nr_gates) {
		perr(p, peek(p), "field '%s' says nothing: give a kind, 'reserved', 'out', 'unused'"
		     " or 'when'", f.name);
		goto out;
	}
	if (opt_since(p, &f.since) || opt_until(p, &f.until) || expect(p, ";", "after the field"))
		goto out;
	if (!P_PUSH(p, c->fields, c->cap_fields, c->nr_fields, f))
		err = 0;
	goto out;
oom:
	p->oom = -ENOMEM;
out:
	kd_buf_release(&b);
	return err;
}

static int number(struct parser *p, uint64_t *v, const char *what)
{
	const struct token *t = peek(p);

	if (t->kind != T_NUMBER)
		return perr(p, t, "expected %s (a number), found %s", what, tok_desc(p, t));
	p->pos++;
	*v = t->num;
	return 0;
}

static int struct_stmt(struct parser *p, void *ctx)
{
	struct struct_ctx *c = ctx;
	const struct token *t = peek(p);
	uint64_t v;

	if (t->kind == T_IDENT &&
	    (tok_is(peek2(p), ":") || tok_is(peek2(p), ".") || tok_is(peek2(p), "[")))
		return parse_field(p, c);
	if (tok_is(t, "size")) {
		struct spec_size sz = { .loc = tok_loc(p, t) };

		p->pos++;
		if (peek(p)->kind == T_IDENT) {
			sz.name = peek(p)->text;
			p->pos++;
			if (expect(p, "=", "after the name of the size"))
				return -1;
		}
		if (number(p, &sz.size, "the size in bytes") || opt_since(p, &sz.since) ||
		    expect(p, ";", "after the size"))
			return -1;
		return P_PUSH(p, c->sizes, c->cap_sizes, c->nr_sizes, sz);
	}
	if (tok_is(t, "minsize")) {
		p->pos++;
		if (number(p, &v, "the minimum size in bytes") || expect(p, ";", "after the minimum size"))
			return -1;
		c->st->min_size = (int64_t)v;
		return 0;
	}
	if (tok_is(t, "padding")) {
		p->pos++;
		if (!tok_is(peek(p), "zero"))
			return perr(p, peek(p), "expected 'zero' after 'padding', found %s",
				    tok_desc(p, peek(p)));
		p->pos++;
		c->st->padding_zero = true;
		return expect(p, ";", "after 'padding zero'");
	}
	return perr_hint(p, t, struct_words, 3,
			 "expected a field ('name: ...'), 'size', 'minsize' or 'padding', found %s",
			 tok_desc(p, t));
}

int parse_struct(struct parser *p, const struct token *kw)
{
	struct spec_struct st = { .is_union = kw->text[0] == 'u', .min_size = -1,
				  .loc = tok_loc(p, kw) };
	struct struct_ctx c = { .st = &st };
	int rc;

	if (ident(p, &st.name, "the struct's name (without 'struct')"))
		return -1;
	accept_flags(p, (const struct word_flag[]){ { "extensible", &st.extensible },
						     { "prefix", &st.prefix },
						     { "message", &st.message },
						     { "whole", &st.whole },
						     { "out", &st.out } }, 5);
	if (opt_since(p, &st.since))
		return -1;
	rc = parse_block(p, kw->text, st.name, struct_stmt, &c);
	st.nr_sizes = c.nr_sizes;
	st.sizes = to_arena(p, c.sizes, c.nr_sizes, sizeof(*c.sizes));
	st.nr_fields = c.nr_fields;
	st.fields = to_arena(p, c.fields, c.nr_fields, sizeof(*c.fields));
	if (rc < 0 && !st.nr_sizes && !st.nr_fields)
		return -1;
	if (P_PUSH(p, p->s->structs, p->s->cap_structs, p->s->nr_structs, st))
		return -1;
	return rc < 0 ? -1 : 0;
}

/* --- syscalls and ioctls ----------------------------------------------- */
struct call_ctx {
	struct spec_call *call;
	struct spec_errno *errnos;
	size_t nr_errnos, cap_errnos;
	const char **notes;
	size_t nr_notes, cap_notes;
	struct spec_deviation *devs;
	size_t nr_devs, cap_devs;
};

/* An errno name of spec_errno_names, reported with a hint when it is not one. */
static int errno_name(struct parser *p, const char **name)
{
	const struct token *n = peek(p);
	size_t i;

	if (ident(p, name, "an errno name (EINVAL)"))
		return -1;
	for (i = 0; spec_errno_names[i]; i++)
		if (!strcmp(spec_errno_names[i], *name))
			return 0;
	return perr_hint(p, n, spec_errno_names, (size_t)-1, "unknown errno '%s'", *name);
}

/* The probe's file systems, in the order of their SPEC_FS_* bits. */
const char *const spec_fs_names[] = { "tmpfs", "ext4", NULL };

unsigned spec_fs_bit(const char *name)
{
	size_t i;

	for (i = 0; name && spec_fs_names[i]; i++)
		if (!strcmp(spec_fs_names[i], name))
			return 1u << i;
	return 0;
}

/* on FS {, FS}: the file systems a deviation holds on, each named once. */
static int deviation_fs(struct parser *p, unsigned *fs)
{
	for (;;) {
		const struct token *t = peek(p);
		const char *name;
		unsigned bit;

		if (ident(p, &name, "a file system (tmpfs, ext4)"))
			return -1;
		bit = spec_fs_bit(name);
		if (!bit)
			return perr_hint(p, t, spec_fs_names, (size_t)-1,
					 "unknown file system '%s' (the probe's are tmpfs and ext4)", name);
		if (*fs & bit)
			return perr(p, t, "file system '%s' named twice", name);
		*fs |= bit;
		if (!accept_tok(p, ","))
			return 0;
	}
}

/* deviation (ERRNO | ok) TEXT when EXPR [on FS {, FS}] [since V] [until V]; */
static int deviation_stmt(struct parser *p, struct call_ctx *c, const struct token *kw)
{
	struct spec_deviation d = { .loc = tok_loc(p, kw) };

	if (tok_is(peek(p), "ok")) {
		d.outcome = peek(p)->text;
		p->pos++;
	} else if (errno_name(p, &d.outcome)) {
		return -1;
	}
	if (strings(p, &d.text, "the reason in words"))
		return -1;
	if (!tok_is(peek(p), "when"))
		return perr(p, peek(p), "expected 'when' and the inputs the deviation concerns,"
			    " found %s", tok_desc(p, peek(p)));
	p->pos++;
	if (!(d.when = parse_expr(p)))
		return -1;
	if (accept_tok(p, "on") && deviation_fs(p, &d.fs))
		return -1;
	if (opt_since(p, &d.since) || opt_until(p, &d.until))
		return -1;
	if (expect(p, ";", "after the deviation"))
		return -1;
	return P_PUSH(p, c->devs, c->cap_devs, c->nr_devs, d);
}

static int call_stmt(struct parser *p, void *ctx)
{
	struct call_ctx *c = ctx;
	const struct token *t = peek(p);
	static const char *const words[] = { "errno", "note", "deviation", "unimplemented", NULL };

	if (tok_is(t, "deviation")) {
		p->pos++;
		return deviation_stmt(p, c, t);
	}
	if (tok_is(t, "errno")) {
		struct spec_errno e = { .loc = tok_loc(p, t) };

		p->pos++;
		if (errno_name(p, &e.name))
			return -1;
		if (strings(p, &e.text, "the condition in words"))
			return -1;
		if (accept_tok(p, "when")) {
			if (!(e.when = parse_expr(p)))
				return -1;
		}
		if (opt_since(p, &e.since) || expect(p, ";", "after the errno"))
			return -1;
		return P_PUSH(p, c->errnos, c->cap_errnos, c->nr_errnos, e);
	}
	if (tok_is(t, "unimplemented")) {
		c->call->unimplemented_loc = tok_loc(p, t);
		p->pos++;
		return strings(p, &c->call->unimplemented, "why the kernel does not implement it") ||
		       expect(p, ";", "after 'unimplemented'") ? -1 : 0;
	}
	if (tok_is(t, "note")) {
		const char *text;

		p->pos++;
		if (strings(p, &text, "the note") || expect(p, ";", "after the note"))
			return -1;
		return P_PUSH(p, c->notes, c->cap_notes, c->nr_notes, text);
	}
	return perr_hint(p, t, words, 3,
			 "expected 'errno', 'note', 'deviation' or 'unimplemented', found %s",
			 tok_desc(p, t));
}

static int parse_ret(struct parser *p, struct spec_call *call)
{
	const struct token *t = peek(p);
	int r;

	if (t->kind == T_NUMBER && t->num == 0) {
		p->pos++;
		call->ret = SPEC_RET_ZERO;
		return 0;
	}
	for (r = 1; r < SPEC_RET__COUNT; r++)
		if (tok_is(t, spec_ret_names[r]))
			break;
	if (r == SPEC_RET__COUNT)
		return perr_hint(p, t, spec_ret_names + 1, 6,
				 "expected a return kind (0, fd, count, addr, int, pid, noreturn),"
				 " found %s", tok_desc(p, t));
	p->pos++;
	call->ret = (enum spec_ret)r;
	if (r == SPEC_RET_FD && peek(p)->kind == T_IDENT && !is_modifier(peek(p))) {
		call->ret_ref_loc = tok_loc(p, peek(p));
		call->ret_ref = peek(p)->text;
		p->pos++;
	}
	return 0;
}

static int parse_params(struct parser *p, struct spec_call *call)
{
	struct spec_param *params = NULL;
	size_t nr = 0, cap = 0, i;

	if (expect(p, "(", "before the parameters"))
		return -1;
	while (!tok_is(peek(p), ")")) {
		struct spec_param prm = { .loc = tok_loc(p, peek(p)) };

		if (nr && expect(p, ",", "between parameters"))
			goto fail;
		prm.loc = tok_loc(p, peek(p));
		if (ident(p, &prm.name, "a parameter name") ||
		    expect(p, ":", "after the parameter name") || parse_kind(p, &prm.arg))
			goto fail;
		for (i = 0; i < nr; i++)
			if (!strcmp(params[i].name, prm.name)) {
				spec_error(p->s, &prm.loc, "duplicate parameter '%s'", prm.name);
				break;
			}
		if (P_PUSH(p, params, cap, nr, prm))
			goto fail;
	}
	p->pos++;
	call->nr_params = nr;
	call->params = to_arena(p, params, nr, sizeof(*params));
	return 0;
fail:
	free(params);
	return -1;
}

/* An ioctl's kind, direction and argument type follow from its parameters. */
static void ioctl_derive(struct parser *p, struct spec_call *call)
{
	const struct spec_param *arg;

	if (!call->nr_params || call->nr_params > 2 || call->params[0].arg.kind != SPEC_K_FD) {
		spec_error(p->s, &call->loc, "ioctl '%s' takes (fd: fd KIND) or (fd: fd KIND, arg: KIND)",
			   call->name);
		return;
	}
	call->fd_kind = call->params[0].arg.ref;
	if (call->nr_params < 2)
		return;
	arg = &call->params[1];
	if (arg->arg.kind == SPEC_K_PTR) {
		call->dir = arg->arg.dir;
		call->arg_type = arg->arg.ref;
	}
}

int parse_call(struct parser *p, const struct token *kw)
{
	struct spec_call call = { .kind = kw->text[0] == 's' ? SPEC_SYSCALL : SPEC_IOCTL,
				  .loc = tok_loc(p, kw) };
	struct call_ctx c = { .call = &call };
	int rc = 0;

	if (ident(p, &call.name, call.kind == SPEC_SYSCALL ? "the syscall's name" :
		  "the ioctl command's name") || parse_params(p, &call))
		return -1;
	if (accept_tok(p, "->")) {
		if (parse_ret(p, &call))
			return -1;
	} else if (call.kind == SPEC_SYSCALL) {
		return perr(p, peek(p), "expected '->' and the return kind of syscall '%s', found %s",
			    call.name, tok_desc(p, peek(p)));
	}
	if (opt_since(p, &call.since))
		return -1;
	if (!accept_tok(p, ";"))
		rc = parse_block(p, kw->text, call.name, call_stmt, &c);
	call.nr_errnos = c.nr_errnos;
	call.errnos = to_arena(p, c.errnos, c.nr_errnos, sizeof(*c.errnos));
	call.nr_notes = c.nr_notes;
	call.notes = to_arena(p, (void *)c.notes, c.nr_notes, sizeof(*c.notes));
	call.nr_deviations = c.nr_devs;
	call.deviations = to_arena(p, c.devs, c.nr_devs, sizeof(*c.devs));
	if (call.kind == SPEC_IOCTL)
		ioctl_derive(p, &call);
	if (P_PUSH(p, p->s->calls, p->s->cap_calls, p->s->nr_calls, call))
		return -1;
	return rc < 0 ? -1 : 0;
}
