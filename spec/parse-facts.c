// SPDX-License-Identifier: GPL-2.0-only
/*
 * The parser of the contract's facts about values and dispatchers:
 * "constant NAME, ...: ROLE;" (what a UAPI constant is for, which decides
 * what a change of its value means to the diff) and "family NAME { ... }"
 * (the ioctls one dispatcher handles, and whether it tolerates argument
 * sizes other than its own). Grammar in spec/FORMAT.md.
 */
#include "spec/spec_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mem.h"

static const char *const spec_role_names[] = {
	[SPEC_ROLE_VALUE] = "value", [SPEC_ROLE_MASK] = "mask", [SPEC_ROLE_VERSION] = "version",
	[SPEC_ROLE_MINIMUM] = "minimum", [SPEC_ROLE_COUNT] = "count",
	[SPEC_ROLE_RESERVED] = "reserved", [SPEC_ROLE_HARDWARE] = "hardware",
	[SPEC_ROLE__COUNT] = NULL
};

static int parse_role(struct parser *p, enum spec_role *role)
{
	const struct token *t = peek(p);
	int r;

	for (r = 0; r < SPEC_ROLE__COUNT; r++)
		if (tok_is(t, spec_role_names[r])) {
			p->pos++;
			*role = (enum spec_role)r;
			return 0;
		}
	perr_hint(p, t, spec_role_names, SPEC_ROLE__COUNT,
		  "expected a role (value, mask, version, minimum, count, reserved, hardware), found %s",
		  tok_desc(p, t));
	return -1;	/* spelled out: *role is set on every 0 */
}

/* constant NAME {, NAME} : ROLE [since V] ; */
int parse_constant(struct parser *p, const struct token *kw)
{
	struct spec_constant *v = NULL;
	size_t nr = 0, cap = 0, i;
	enum spec_role role;
	const char *since = NULL;

	(void)kw;
	do {
		struct spec_constant c = { .loc = tok_loc(p, peek(p)) };

		if (nr)
			p->pos++;	/* the ',' */
		c.loc = tok_loc(p, peek(p));
		if (ident(p, &c.name, "a constant's name"))
			goto fail;
		if (P_PUSH(p, v, cap, nr, c))
			goto fail;
	} while (tok_is(peek(p), ","));
	if (expect(p, ":", "after the constants' names") || parse_role(p, &role) ||
	    opt_since(p, &since) || expect(p, ";", "after the constant's role"))
		goto fail;
	if (P_GROW(p, p->s->constants, p->s->cap_constants, p->s->nr_constants + nr))
		goto fail;
	for (i = 0; i < nr; i++) {
		v[i].role = role;
		v[i].since = since;
		p->s->constants[p->s->nr_constants++] = v[i];
	}
	free(v);
	return 0;
fail:
	free(v);
	return -1;
}

static int family_stmt(struct parser *p, void *ctx)
{
	static const char *const words[] = { "type", "header", "size", NULL };
	struct spec_family *f = ctx;
	const struct token *t = peek(p);

	if (tok_is(t, "type")) {
		struct spec_expr *e;

		p->pos++;
		t = peek(p);
		if (!(e = parse_expr(p)))
			return -1;
		if (e->op != SPEC_EX_NUM || e->num > 255)
			return perr(p, t, "the family's type is a number from 0 to 255 (_IOC_TYPE: 'd' is 0x64)");
		f->has_type = true;
		f->type = e->num;
		return expect(p, ";", "after the type");
	}
	if (tok_is(t, "header")) {
		p->pos++;
		if (peek(p)->kind != T_STRING)
			return perr(p, peek(p), "expected the headers as a \"pattern\" (\"drm/*\"), found %s",
				    tok_desc(p, peek(p)));
		f->header = peek(p)->text;
		p->pos++;
		return expect(p, ";", "after the header pattern");
	}
	if (tok_is(t, "size")) {
		p->pos++;
		if (!tok_is(peek(p), "tolerant"))
			return perr(p, peek(p), "expected 'tolerant' after 'size', found %s",
				    tok_desc(p, peek(p)));
		f->size_tolerant_loc = tok_loc(p, t);
		p->pos++;
		if (strings(p, &f->size_tolerant, "why the dispatcher tolerates other sizes"))
			return -1;
		return expect(p, ";", "after 'size tolerant'");
	}
	return perr_hint(p, t, words, 3, "expected 'type', 'header' or 'size tolerant', found %s",
			 tok_desc(p, t));
}

/* family NAME { type N; header "GLOB"; size tolerant "why"; } */
int parse_family(struct parser *p, const struct token *kw)
{
	struct spec_family f = { .loc = tok_loc(p, kw) };
	int rc;

	if (ident(p, &f.name, "the family's name"))
		return -1;
	rc = parse_block(p, "family", f.name, family_stmt, &f);
	if (rc < 0)
		return -1;
	if (!f.has_type) {
		spec_error(p->s, &f.loc, "family '%s' needs a 'type' (the _IOC_TYPE of its commands)",
			   f.name);
		return 0;
	}
	return P_PUSH(p, p->s->families, p->s->cap_families, p->s->nr_families, f);
}
