// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inside-out C declarator printing: the declarator grows around the name
 * (pointers prefix it, arrays and parameter lists suffix it, parentheses
 * where a pointer meets an array or a function), then the base type goes
 * in front.
 */
#include "cdecl.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "mem.h"

/*
 * Two bounds: nesting, and types visited for one declaration. The second
 * matters for function types: a parameter may point back to its function
 * (a hostile .kabi), and N such parameters printed CDECL_MAX_DEPTH deep
 * are N^64 visits; past the budget the rest prints as "...".
 */
#define CDECL_MAX_DEPTH 64
#define CDECL_MAX_VISITS 4096

struct cdecl {
	kd_type_lookup_fn lookup;
	void *ctx;
	unsigned visits;
};

static int print_decl(struct kd_buf *b, int64_t id, const char *decl, struct cdecl *c, int depth);

static int with_space(struct kd_buf *b, const char *decl)
{
	if (!*decl)
		return 0;
	if (b->len && b->s[b->len - 1] != '*' && decl[0] != '[' && decl[0] != '(')
		return kd_buf_addf(b, " %s", decl);
	if (b->len && b->s[b->len - 1] != '*' && decl[0] == '(')
		return kd_buf_addf(b, " %s", decl);
	return kd_buf_adds(b, decl);
}

static int print_named(struct kd_buf *b, const struct kd_type *t, const char *decl)
{
	const char *tag = "";
	int err;

	switch (t->kind) {
	case KD_KIND_STRUCT: tag = "struct "; break;
	case KD_KIND_UNION: tag = "union "; break;
	case KD_KIND_ENUM: tag = "enum "; break;
	default: break;
	}
	err = kd_buf_addf(b, "%s%s", tag, t->name ? t->name : "{...}");
	if (!err)
		err = with_space(b, decl);
	return err;
}

static int print_params(struct kd_buf *b, const struct kd_type *t, struct cdecl *c, int depth)
{
	size_t i;
	int err = kd_buf_addc(b, '(');

	for (i = 0; !err && i < t->nr_members; i++) {
		if (i)
			err = kd_buf_adds(b, ", ");
		if (!err)
			err = print_decl(b, t->members[i].type, "", c, depth + 1);
	}
	if (!err && (t->flags & KD_TYPE_VARIADIC))
		err = kd_buf_adds(b, t->nr_members ? ", ..." : "...");
	if (!err && !t->nr_members && !(t->flags & KD_TYPE_VARIADIC))
		err = kd_buf_adds(b, "void");
	if (!err)
		err = kd_buf_addc(b, ')');
	return err;
}

static int print_decl(struct kd_buf *b, int64_t id, const char *decl, struct cdecl *c, int depth)
{
	struct kd_buf inner = KD_BUF_INIT;
	const struct kd_type *t;
	const struct kd_type *ref;
	int64_t ref_id;
	int err = 0;

	if (depth > CDECL_MAX_DEPTH || ++c->visits > CDECL_MAX_VISITS) {
		err = kd_buf_adds(b, "...");	/* the name still printed */
		return err ? err : with_space(b, decl);
	}
	t = id ? c->lookup(id, c->ctx) : NULL;
	if (!t) {
		err = kd_buf_adds(b, "void");
		return err ? err : with_space(b, decl);
	}
	switch (t->kind) {
	case KD_KIND_POINTER:
		ref = t->ref ? c->lookup(t->ref, c->ctx) : NULL;
		if (ref && (ref->kind == KD_KIND_ARRAY || ref->kind == KD_KIND_FUNC))
			err = kd_buf_addf(&inner, "(*%s)", decl);
		else
			err = kd_buf_addf(&inner, "*%s", decl);
		ref_id = t->ref;
		break;
	case KD_KIND_ARRAY:
		if (t->count == KD_ARRAY_FLEXIBLE)
			err = kd_buf_addf(&inner, "%s[]", decl);
		else
			err = kd_buf_addf(&inner, "%s[%" PRId64 "]", decl, t->count);
		ref_id = t->ref;
		break;
	case KD_KIND_FUNC: {
		struct kd_buf params = KD_BUF_INIT;

		err = print_params(&params, t, c, depth);
		if (!err)
			err = kd_buf_addf(&inner, "%s%s", decl, params.s);
		kd_buf_release(&params);
		ref_id = t->ref;
		break;
	}
	case KD_KIND_CONST:
	case KD_KIND_VOLATILE:
	case KD_KIND_RESTRICT:
	case KD_KIND_ATOMIC: {
		const char *q = t->kind == KD_KIND_CONST ? "const" :
				t->kind == KD_KIND_VOLATILE ? "volatile" :
				t->kind == KD_KIND_RESTRICT ? "restrict" : "_Atomic";

		ref = t->ref ? c->lookup(t->ref, c->ctx) : NULL;
		if (ref && ref->kind == KD_KIND_POINTER) {
			/* char *const p: the qualifier binds to the declarator. */
			err = kd_buf_addf(&inner, " %s%s%s", q, *decl ? " " : "", decl);
			ref_id = t->ref;
			break;
		}
		err = kd_buf_addf(b, "%s ", q);
		if (!err)
			err = print_decl(b, t->ref, decl, c, depth + 1);
		return err;
	}
	default:
		return print_named(b, t, decl);
	}
	if (!err)
		err = print_decl(b, ref_id, inner.s, c, depth + 1);
	kd_buf_release(&inner);
	return err;
}

int kd_cdecl(struct kd_buf *b, int64_t id, const char *decl, kd_type_lookup_fn lookup, void *ctx)
{
	struct cdecl c = { lookup, ctx, 0 };

	return print_decl(b, id, decl ? decl : "", &c, 0);
}
