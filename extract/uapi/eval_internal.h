/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to the evaluator of constant expressions (eval.c): its parser
 * state and the entry points eval-layout.c recurses through. eval.c
 * parses C's operators; eval-layout.c answers the operators whose value
 * is a fact of a type (sizeof, __alignof__, offsetof, a member's address
 * through a null pointer, a cast to __typeof__) by asking the reader's
 * sizer, which asks the header view.
 */
#ifndef KD_UAPI_EVAL_INTERNAL_H
#define KD_UAPI_EVAL_INTERNAL_H

#include <errno.h>

#include "extract/uapi/uapi_internal.h"

struct ep {
	struct ueval *e;
	const struct utok *t;
	size_t n, i;
	int skip;	/* > 0 inside an arm that is not evaluated */
	int depth;	/* unary() and cond() calls open, bounded by UEVAL_MAX_DEPTH */
};

/* Fails the expression: the first reason is the one kept. Returns -EINVAL. */
static inline int fail(struct ep *p, const char *why)
{
	if (!p->e->error)
		p->e->error = why;
	return -EINVAL;
}

/* Is the token at p->i the punctuator @s? */
static inline bool at(struct ep *p, const char *s)
{
	return p->i < p->n && p->t[p->i].kind == UT_PUNCT && utok_is(&p->t[p->i], s);
}

/* eval.c: the grammar. */
int uep_expr(struct ep *p, struct uval *out);
/* The index of the ")" that ends the type name at p->i ("(" consumed), or p->n. */
size_t uep_type_end(struct ep *p);
/* The index of the ')' closing the '(' at t[@open], or p->n when unbalanced. */
size_t uep_close_paren(const struct ep *p, size_t open);
/* Does a type name start at p->i? */
bool uep_starts_type(const struct ep *p);
/* Tokens @t (@n) as an integer type: plain, or a typedef of the headers read. */
bool uep_int_type(const struct ep *p, const struct utok *t, size_t n, struct ptype *pt);

/* eval-layout.c: p->i past the keyword, at its "(". */
int uep_sizeof(struct ep *p, struct uval *out);
int uep_alignof(struct ep *p, bool preferred, struct uval *out);
/* offsetof(TYPE, DESIGNATOR) with its "(" at t[@open] and ")" at t[@close]. */
int uep_offsetof(struct ep *p, size_t open, size_t close, struct uval *out);
/*
 * After an integer cast, at "&": `&((TYPE *)0)->DESIGNATOR`, the member's
 * offset as gcc folds it; 0 with *out, or -EINVAL. *matched false when
 * the tokens are not that form (then p->i is untouched).
 */
int uep_member_address(struct ep *p, struct uval *out, bool *matched);
/*
 * At "__typeof__" inside a cast's parentheses: the type of its operand as
 * a ptype to cast to, p->i past its ")"; 0, or -EINVAL.
 */
int uep_typeof(struct ep *p, struct ptype *pt);
/* The keyword spellings uep_typeof() takes. */
bool uep_is_typeof(const struct utok *t);

#endif
