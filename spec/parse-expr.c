// SPDX-License-Identifier: GPL-2.0-only
/*
 * The small expression language of the spec (errno conditions, explicit
 * flag values, integer ranges): a precedence-climbing parser into
 * struct spec_expr nodes, the canonical printer used in the DB and in
 * reports, and an evaluator for the check stage. Unlike C, the bitwise
 * operators bind tighter than comparisons, so "flags & MASK == 0" means
 * what it says; FORMAT.md has the table. Nesting is bounded so that
 * hostile input cannot exhaust the stack.
 */
#include "spec/spec_internal.h"

#include <errno.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/err.h"

static const char *const op_names[SPEC_EX__COUNT] = {
	[SPEC_EX_NUM] = "", [SPEC_EX_NAME] = "",
	[SPEC_EX_NOT] = "~", [SPEC_EX_LNOT] = "!", [SPEC_EX_NEG] = "-",
	[SPEC_EX_MUL] = "*", [SPEC_EX_DIV] = "/", [SPEC_EX_MOD] = "%",
	[SPEC_EX_ADD] = "+", [SPEC_EX_SUB] = "-",
	[SPEC_EX_SHL] = "<<", [SPEC_EX_SHR] = ">>",
	[SPEC_EX_AND] = "&", [SPEC_EX_XOR] = "^", [SPEC_EX_OR] = "|",
	[SPEC_EX_EQ] = "==", [SPEC_EX_NE] = "!=", [SPEC_EX_LT] = "<", [SPEC_EX_LE] = "<=",
	[SPEC_EX_GT] = ">", [SPEC_EX_GE] = ">=",
	[SPEC_EX_LAND] = "&&", [SPEC_EX_LOR] = "||",
};

const char *spec_expr_op_name(enum spec_expr_op op)
{
	return (unsigned)op < SPEC_EX__COUNT ? op_names[op] : "?";
}

/* Binary levels, loosest first; a comparison takes at most one operator. */
static const struct level {
	enum spec_expr_op ops[6];
	int nr;
	bool once;
} levels[] = {
	{ { SPEC_EX_LOR }, 1, false },
	{ { SPEC_EX_LAND }, 1, false },
	{ { SPEC_EX_EQ, SPEC_EX_NE, SPEC_EX_LT, SPEC_EX_LE, SPEC_EX_GT, SPEC_EX_GE }, 6, true },
	{ { SPEC_EX_OR }, 1, false },
	{ { SPEC_EX_XOR }, 1, false },
	{ { SPEC_EX_AND }, 1, false },
	{ { SPEC_EX_SHL, SPEC_EX_SHR }, 2, false },
	{ { SPEC_EX_ADD, SPEC_EX_SUB }, 2, false },
	{ { SPEC_EX_MUL, SPEC_EX_DIV, SPEC_EX_MOD }, 3, false },
};
#define NR_LEVELS (sizeof(levels) / sizeof(levels[0]))

static struct spec_expr *node(struct parser *p, enum spec_expr_op op, const struct token *t)
{
	struct spec_expr *e = kd_arena_alloc(&p->s->arena, sizeof(*e));

	if (!e) {
		p->oom = -ENOMEM;
		return NULL;
	}
	e->op = op;
	e->loc = tok_loc(p, t);
	e->depth = 1;
	return e;
}

static struct spec_expr *parse_level(struct parser *p, size_t lvl);

/* An operator node over @a (and @b); NULL after reporting a tree too deep. */
static struct spec_expr *op_node(struct parser *p, enum spec_expr_op op, const struct token *t,
				 const struct spec_expr *a, const struct spec_expr *b)
{
	unsigned depth = 1 + (b && b->depth > a->depth ? b->depth : a->depth);
	struct spec_expr *e;

	if (depth > SPEC_MAX_EXPR_TREE) {
		perr(p, t, "expression too deep (more than %d operators on one path)",
		     SPEC_MAX_EXPR_TREE);
		return NULL;
	}
	e = node(p, op, t);
	if (e) {
		e->a = a;
		e->b = b;
		e->depth = depth;
	}
	return e;
}

static struct spec_expr *parse_name(struct parser *p)
{
	const struct token *t = peek(p);
	struct kd_buf b = KD_BUF_INIT;
	struct spec_expr *e = NULL;

	if (kd_buf_adds(&b, t->text))
		goto oom;
	p->pos++;
	while ((tok_is(peek(p), ".") || tok_is(peek(p), "->")) && peek2(p)->kind == T_IDENT) {
		if (kd_buf_addc(&b, '.') || kd_buf_adds(&b, peek2(p)->text))
			goto oom;
		p->pos += 2;
	}
	e = node(p, SPEC_EX_NAME, t);
	if (e && !(e->name = kd_arena_strdup(&p->s->arena, b.s)))
		goto oom;
	kd_buf_release(&b);
	return e;
oom:
	p->oom = -ENOMEM;
	kd_buf_release(&b);
	return NULL;
}

static struct spec_expr *parse_unary(struct parser *p)
{
	const struct token *t = peek(p);
	struct spec_expr *e = NULL, *a;
	enum spec_expr_op op;

	if (++p->expr_depth > SPEC_MAX_EXPR_DEPTH) {
		perr(p, t, "expression nested too deeply (more than %d levels)", SPEC_MAX_EXPR_DEPTH);
		goto out;
	}
	if (tok_is(t, "~") || tok_is(t, "!") || tok_is(t, "-")) {
		op = t->text[0] == '~' ? SPEC_EX_NOT : t->text[0] == '!' ? SPEC_EX_LNOT : SPEC_EX_NEG;
		p->pos++;
		a = parse_unary(p);
		if (a)
			e = op_node(p, op, t, a, NULL);
	} else if (t->kind == T_NUMBER) {
		p->pos++;
		if ((e = node(p, SPEC_EX_NUM, t)))
			e->num = t->num;
	} else if (t->kind == T_IDENT) {
		e = parse_name(p);
	} else if (tok_is(t, "(")) {
		p->pos++;
		a = parse_level(p, 0);
		if (a && !expect(p, ")", "to close the parenthesis"))
			e = a;
	} else {
		perr(p, t, "expected an expression, found %s", tok_desc(p, t));
	}
out:
	p->expr_depth--;
	return e;
}

static int match_op(const struct parser *p, const struct level *l, enum spec_expr_op *op)
{
	const struct token *t = peek(p);
	int i;

	if (t->kind != T_PUNCT)
		return 0;
	for (i = 0; i < l->nr; i++) {
		if (!strcmp(t->text, op_names[l->ops[i]])) {
			*op = l->ops[i];
			return 1;
		}
	}
	return 0;
}

/*
 * A divisor made of numbers only that is 0: an error where it is written
 * (evaluation would only say "unknown" later). The tree is at most
 * SPEC_MAX_EXPR_TREE deep, so is the recursion.
 */
static bool divides_by_zero(const struct spec_expr *divisor)
{
	uint64_t v;

	return !spec_expr__eval(divisor, NULL, NULL, &v) && !v;
}

static struct spec_expr *parse_level(struct parser *p, size_t lvl)
{
	struct spec_expr *lhs, *rhs, *e;
	enum spec_expr_op op;

	/* Depth is counted in parse_unary(): parentheses and unary operators. */
	if (lvl == NR_LEVELS)
		return parse_unary(p);
	lhs = parse_level(p, lvl + 1);
	while (lhs && match_op(p, &levels[lvl], &op)) {
		const struct token *t = peek(p);

		p->pos++;
		rhs = parse_level(p, lvl + 1);
		if (rhs && (op == SPEC_EX_DIV || op == SPEC_EX_MOD) && divides_by_zero(rhs)) {
			perr(p, t, "division by zero");
			rhs = NULL;
		}
		e = rhs ? op_node(p, op, t, lhs, rhs) : NULL;
		if (!e) {
			lhs = NULL;
			break;
		}
		lhs = e;
		if (levels[lvl].once && match_op(p, &levels[lvl], &op)) {
			perr(p, peek(p), "comparisons do not chain; use parentheses or '&&'");
			lhs = NULL;
		}
	}
	return lhs;
}

struct spec_expr *parse_expr(struct parser *p)
{
	p->expr_depth = 0;
	return parse_level(p, 0);
}

/* --- printing ------------------------------------------------------------ */
static bool is_binary(enum spec_expr_op op)
{
	return op >= SPEC_EX_MUL;
}

static int format_operand(const struct spec_expr *e, struct kd_buf *b)
{
	int err;

	if (!is_binary(e->op))
		return spec_expr__format(e, b);
	err = kd_buf_addc(b, '(');
	if (!err)
		err = spec_expr__format(e, b);
	if (!err)
		err = kd_buf_addc(b, ')');
	return err;
}

int spec_expr__format(const struct spec_expr *e, struct kd_buf *b)
{
	int err;

	switch (e->op) {
	case SPEC_EX_NUM:
		return e->num < 4096 ? kd_buf_addf(b, "%llu", (unsigned long long)e->num) :
				       kd_buf_addf(b, "0x%llx", (unsigned long long)e->num);
	case SPEC_EX_NAME:
		return kd_buf_adds(b, e->name);
	case SPEC_EX_NOT:
	case SPEC_EX_LNOT:
	case SPEC_EX_NEG:
		err = kd_buf_adds(b, op_names[e->op]);
		return err ? err : format_operand(e->a, b);
	default:
		err = format_operand(e->a, b);
		if (!err)
			err = kd_buf_addf(b, " %s ", spec_expr_op_name(e->op));
		return err ? err : format_operand(e->b, b);
	}
}

/* --- evaluation ---------------------------------------------------------- */
int spec_expr__eval(const struct spec_expr *e, spec_lookup_fn lookup, void *ctx, uint64_t *out)
{
	uint64_t a = 0, b = 0;
	int err;

	if (e->op == SPEC_EX_NUM) {
		*out = e->num;
		return 0;
	}
	if (e->op == SPEC_EX_NAME)
		return lookup ? lookup(e->name, out, ctx) : -ENOENT;
	err = spec_expr__eval(e->a, lookup, ctx, &a);
	if (err)
		return err;
	/* && and || short-circuit, as a reader of the condition expects. */
	if ((e->op == SPEC_EX_LAND && !a) || (e->op == SPEC_EX_LOR && a)) {
		*out = e->op == SPEC_EX_LOR;
		return 0;
	}
	if (is_binary(e->op)) {
		err = spec_expr__eval(e->b, lookup, ctx, &b);
		if (err)
			return err;
	}
	switch (e->op) {
	case SPEC_EX_NOT:	*out = ~a; break;
	case SPEC_EX_LNOT:	*out = !a; break;
	case SPEC_EX_NEG:	*out = 0 - a; break;
	case SPEC_EX_MUL:	*out = a * b; break;
	case SPEC_EX_DIV:
	case SPEC_EX_MOD:
		if (!b)
			return -EDOM;
		*out = e->op == SPEC_EX_DIV ? a / b : a % b;
		break;
	case SPEC_EX_ADD:	*out = a + b; break;
	case SPEC_EX_SUB:	*out = a - b; break;
	case SPEC_EX_SHL:	*out = b < 64 ? a << b : 0; break;
	case SPEC_EX_SHR:	*out = b < 64 ? a >> b : 0; break;
	case SPEC_EX_AND:	*out = a & b; break;
	case SPEC_EX_XOR:	*out = a ^ b; break;
	case SPEC_EX_OR:	*out = a | b; break;
	case SPEC_EX_EQ:	*out = a == b; break;
	case SPEC_EX_NE:	*out = a != b; break;
	case SPEC_EX_LT:	*out = a < b; break;
	case SPEC_EX_LE:	*out = a <= b; break;
	case SPEC_EX_GT:	*out = a > b; break;
	case SPEC_EX_GE:	*out = a >= b; break;
	case SPEC_EX_LAND:
	case SPEC_EX_LOR:	*out = b != 0; break;
	default:		return -EINVAL;
	}
	return 0;
}

int spec_value__eval(const struct spec_value *v, spec_lookup_fn lookup, void *ctx,
		     uint64_t *out)
{
	int err = spec_expr__eval(v->value, lookup, ctx, out);

	if (err != -EDOM)
		return err;
	kd_err("%s:%d: '%s' divides by zero with this kernel's constants",
	       v->loc.file, v->loc.line, v->name);
	return -KD_ESYNTAX;
}
