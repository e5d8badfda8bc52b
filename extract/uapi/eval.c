// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAPI reader: C integer constant expressions, evaluated as gcc does on
 * x86_64 (int 32 bits; long and long long 64). Every value carries its C
 * type, chosen by the rules of C11 6.4.4.1 for literals and by the usual
 * arithmetic conversions for operators, so (1U << 31) is 2147483648
 * unsigned int, ~0 is -1 int and -1UL is 18446744073709551615. Signed
 * overflow wraps (gcc folds it so, with a warning); division by zero and
 * out-of-range shifts make the expression non-constant unless they sit in
 * an arm that is not evaluated. In #if every value is intmax_t/uintmax_t
 * and an identifier left after expansion is 0.
 */
#include "extract/uapi/eval_internal.h"

#include <errno.h>
#include <string.h>

#include "lib/mem.h"

/* --- the parser ------------------------------------------------------------ */

static int depth_fail(struct ep *p)
{
	p->e->limit = true;
	return fail(p, "expression nested more than " UEXPAND_STR(UEVAL_MAX_DEPTH) " deep");
}

/* Arithmetic errors only count where the operand is evaluated. */
static int arith_fail(struct ep *p, const char *why)
{
	return p->skip ? 0 : fail(p, why);
}

static int literal_type(uint64_t v, bool decimal, bool u, int longs, int *t)
{
	static const int order[] = { UC_INT, UC_UINT, UC_LONG, UC_ULONG, UC_LLONG, UC_ULLONG };
	size_t i;

	for (i = (size_t)(longs * 2); i < 6; i++) {
		int c = order[i];
		uint64_t max = uctype_width(c) == 32 ? (uctype_unsigned(c) ? UINT32_MAX : INT32_MAX)
					     : (uctype_unsigned(c) ? UINT64_MAX : INT64_MAX);

		if (u && !uctype_unsigned(c))
			continue;
		if (decimal && !u && uctype_unsigned(c))
			continue;
		if (v <= max) {
			*t = c;
			return 0;
		}
	}
	return -EINVAL;
}

static int number(struct ep *p, const struct utok *tok, struct uval *out)
{
	const char *s = tok->s, *end = tok->s + tok->len;
	int base = 10, longs = 0, digit;
	bool u = false, any = false;
	uint64_t v = 0;

	if (end - s > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (end - s > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
		base = 2;
		s += 2;
	} else if (s[0] == '0') {
		base = 8;
	}
	for (; s < end; s++, any = true) {
		char c = *s;

		if (c >= '0' && c <= '9') digit = c - '0';
		else if (c >= 'a' && c <= 'f' && base == 16) digit = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F' && base == 16) digit = c - 'A' + 10;
		else break;
		if (digit >= base)
			return fail(p, "bad digit in integer literal");
		if (v > (UINT64_MAX - (uint64_t)digit) / (uint64_t)base)
			return fail(p, "integer literal too large");
		v = v * (uint64_t)base + (uint64_t)digit;
	}
	if (!any)
		return fail(p, "bad integer literal");
	for (; s < end; s++) {
		if ((*s == 'u' || *s == 'U') && !u)
			u = true;
		else if ((*s == 'l' || *s == 'L') && !longs)
			longs = s + 1 < end && s[1] == *s ? (s++, 2) : 1;
		else
			return fail(p, "not an integer literal");
	}
	if (p->e->pp) {		/* #if: intmax_t unless unsigned or too big */
		out->t = u || v > INT64_MAX ? UC_ULLONG : UC_LLONG;
		out->v = v;
		return 0;
	}
	if (literal_type(v, base == 10, u, longs, &out->t))
		return fail(p, "integer literal too large for any type");
	out->v = v;
	return 0;
}

/*
 * A character constant as the target's gcc gives it: plain char and
 * wchar_t are signed on x86_64, unsigned on arm64 ('\xff' is -1 or 255,
 * L'\xffffffff' an int -1 or an unsigned int).
 */
static int char_literal(struct ep *p, const struct utok *tok, struct uval *out)
{
	bool char_signed = !p->e->arch || p->e->arch->char_signed;
	bool wchar_unsigned = p->e->arch && !p->e->arch->wchar_signed;
	const char *s = tok->s, *end = tok->s + tok->len - 1;
	char prefix = *s == '\'' ? 0 : *s++;
	int64_t v = 0;
	int nchars = 0;

	if (tok->len < 3 || *end != '\'')
		return fail(p, "bad character literal");
	for (s++; s < end; nchars++) {
		uint64_t c = (unsigned char)*s++;

		if (c == '\\' && s < end) {
			const char *esc = "n\nt\tr\ra\ab\bf\fv\v\\\\''\"\"??e\033";
			const char *hit;

			c = (unsigned char)*s++;
			if (c == 'x') {
				for (c = 0; s < end && strchr("0123456789abcdefABCDEF", *s); s++)
					c = c * 16 + (uint64_t)(*s <= '9' ? *s - '0' : (*s | 0x20) - 'a' + 10);
			} else if (c >= '0' && c <= '7') {
				int k;

				c -= '0';
				for (k = 1; k < 3 && s < end && *s >= '0' && *s <= '7'; k++)
					c = c * 8 + (uint64_t)(*s++ - '0');
			} else if ((hit = strchr(esc, (int)c)) && (hit - esc) % 2 == 0) {
				c = (unsigned char)hit[1];
			} else {
				return fail(p, "unknown escape in character literal");
			}
		}
		if (prefix == 'U' || (prefix == 'L' && wchar_unsigned))
			v = (int64_t)(uint32_t)c;
		else if (prefix == 'L')
			v = (int32_t)(uint32_t)c;
		else if (prefix == 'u')
			v = (uint16_t)c;
		else if (nchars)
			v = (int32_t)((uint32_t)v << 8 | (uint8_t)c);
		else
			v = char_signed ? (int8_t)(uint8_t)c : (uint8_t)c;
	}
	if (!nchars)
		return fail(p, "empty character literal");
	out->v = (uint64_t)v;
	out->t = prefix == 'U' || (prefix == 'L' && wchar_unsigned) ? UC_UINT : UC_INT;
	if (p->e->pp)
		*out = uval_conv(*out, uctype_unsigned(out->t) ? UC_ULLONG : UC_LLONG);
	return 0;
}

static int unary(struct ep *p, struct uval *out);
static int cond(struct ep *p, struct uval *out);

/* The tokens of a parenthesized type name at p->i ("(" already consumed); up to ")". */
size_t uep_type_end(struct ep *p)
{
	size_t i = p->i;
	int depth = 0;

	for (; i < p->n; i++) {
		if (utok_is(&p->t[i], "("))
			depth++;
		else if (utok_is(&p->t[i], ")") && !depth--)
			return i;
	}
	return p->n;
}

/* A plain type, or a typedef of one in the headers the unit read (typedefs.c). */
bool uep_int_type(const struct ep *p, const struct utok *t, size_t n, struct ptype *pt)
{
	if (plain_type(p->e->arch, t, n, pt))
		return true;
	return p->e->sizer && p->e->x && utypedef_plain(p->e->sizer, p->e->x->cpp, t, n, pt);
}

bool uep_starts_type(const struct ep *p)
{
	static const char *const kw[] = {
		"struct", "union", "enum", "const", "volatile", "signed", "unsigned", "char",
		"short", "int", "long", "_Bool", "void", "float", "double",
	};
	const struct utok *t = &p->t[p->i];
	struct ptype pt;
	size_t i;

	if (p->i >= p->n || t->kind != UT_IDENT)
		return false;
	if (uep_is_typeof(t))
		return true;
	for (i = 0; i < sizeof(kw) / sizeof(*kw); i++)
		if (utok_is(t, kw[i]))
			return true;
	return uep_int_type(p, t, 1, &pt);
}

/* The C name of a type narrower than int, as _Generic tells them apart. */
static const char *narrow_name(const struct ptype *pt)
{
	if (pt->name[0] != '_' || !strcmp(pt->name, "_Bool"))
		return pt->name;	/* keyword types carry their C name */
	if (pt->size == 1)
		return pt->is_signed ? "signed char" : "unsigned char";
	return pt->is_signed ? "short" : "unsigned short";
}

static int cast(struct ep *p, struct uval *out)
{
	size_t end = uep_type_end(p);
	struct ptype pt;
	bool matched = false;
	int err;

	if (end >= p->n)
		return fail(p, "unbalanced parentheses");
	if (uep_is_typeof(&p->t[p->i])) {
		/* __ALIGN_KERNEL(x, a): ((__typeof__(x))(a) - 1) */
		err = uep_typeof(p, &pt);
		if (err)
			return err;
		if (p->i != end)
			return fail(p, "cast to a non-integer type");
	} else if (!uep_int_type(p, p->t + p->i, end - p->i, &pt) || !pt.integer) {
		return fail(p, "cast to a non-integer type");
	}
	p->i = end + 1;
	err = at(p, "&") ? uep_member_address(p, out, &matched) : 0;
	if (!err && !matched)
		err = unary(p, out);
	if (err)
		return err;
	if (pt.size < 4) {
		uint64_t mask = (1ULL << (pt.size * 8)) - 1, v = out->v & mask;

		if (!strcmp(pt.name, "_Bool"))
			v = out->v != 0;
		else if (pt.is_signed && (v >> (pt.size * 8 - 1)))
			v |= ~mask;
		out->v = v;
		out->t = UC_INT;
		*out = uval_conv(*out, UC_INT);
		out->narrow = narrow_name(&pt);
	} else {
		*out = uval_conv(*out, pt.t);
	}
	if (p->e->pp)
		*out = uval_conv(*out, uctype_unsigned(out->t) ? UC_ULLONG : UC_LLONG);
	return 0;
}

/* The index of the ')' closing the '(' at t[@open], or @n when unbalanced. */
size_t uep_close_paren(const struct ep *p, size_t open)
{
	size_t i;
	int depth = 0;

	for (i = open; i < p->n; i++) {
		if (utok_is(&p->t[i], "("))
			depth++;
		else if (utok_is(&p->t[i], ")") && !--depth)
			return i;
	}
	return p->n;
}

/*
 * __builtin_constant_p(e): 1 when e is an integer constant expression,
 * else 0 -- never an error. <linux/swab.h> picks its arm with it:
 * __swab16(x) is (__builtin_constant_p(x) ? ___constant_swab16(x) :
 * __fswab16(x)), so __cpu_to_be16(0x8000) folds to 0x0080 on a
 * little-endian target, as gcc folds it.
 */
static int constant_p(struct ep *p, size_t open, size_t close, struct uval *out)
{
	struct ep sub = { .e = p->e, .t = p->t + open + 1, .n = close - open - 1, .skip = p->skip,
			  .depth = p->depth };
	const char *error = p->e->error;
	const struct utok *unknown = p->e->unknown;
	bool unknown_size = p->e->unknown_size;
	struct uval v;
	int err;

	err = sub.n ? uep_expr(&sub, &v) : -EINVAL;
	if (p->e->limit)
		return err;
	if (p->e->sizer && p->e->sizer->hard_error)
		return p->e->sizer->hard_error;
	p->e->error = error;
	p->e->unknown = unknown;
	p->e->unknown_size = unknown_size;
	p->i = close + 1;
	*out = (struct uval){ !err && sub.i == sub.n, p->e->pp ? UC_LLONG : UC_INT, NULL };
	return 0;
}

/* gcc's __builtin_bswap16/32/64: uint16_t (promoted), uint32_t, uint64_t. */
static int bswap(struct ep *p, int bits, size_t open, size_t close, struct uval *out)
{
	struct ep sub = { .e = p->e, .t = p->t + open + 1, .n = close - open - 1, .skip = p->skip,
			  .depth = p->depth };
	uint64_t v, r = 0;
	int err, k;

	err = uep_expr(&sub, out);
	if (!err && sub.i != sub.n)
		err = fail(p, "junk in a __builtin_bswap argument");
	if (err)
		return err;
	p->i = close + 1;
	v = out->v;
	for (k = 0; k < bits / 8; k++, v >>= 8)
		r = r << 8 | (v & 0xff);
	*out = (struct uval){ r, bits == 64 ? UC_ULONG : bits == 32 ? UC_UINT : UC_INT,
			      bits == 16 ? "unsigned short" : NULL };
	if (p->e->pp)
		*out = uval_conv(*out, uctype_unsigned(out->t) ? UC_ULLONG : UC_LLONG);
	return 0;
}

/* An identifier followed by '(' at p->i: a builtin gcc folds, or a call. */
static int call(struct ep *p, const struct utok *t, struct uval *out)
{
	size_t open = p->i + 1, close = uep_close_paren(p, open);

	if (close >= p->n)
		return fail(p, "unbalanced parentheses");
	if (utok_is(t, "__builtin_constant_p"))
		return constant_p(p, open, close, out);
	if (utok_is(t, "__builtin_bswap16"))
		return bswap(p, 16, open, close, out);
	if (utok_is(t, "__builtin_bswap32"))
		return bswap(p, 32, open, close, out);
	if (utok_is(t, "__builtin_bswap64"))
		return bswap(p, 64, open, close, out);
	/* <stddef.h>'s offsetof is gcc's builtin; the reader includes no C library header. */
	if (utok_is(t, "offsetof") || utok_is(t, "__builtin_offsetof"))
		return uep_offsetof(p, open, close, out);
	if (!p->skip) {
		if (!p->e->error)
			p->e->unknown = t;
		return fail(p, "not a constant (a function call)");
	}
	/* The arm __builtin_constant_p did not pick (__fswab16(x)): never evaluated. */
	p->i = close + 1;
	*out = (struct uval){ 0, UC_INT, NULL };
	return 0;
}

static int primary(struct ep *p, struct uval *out)
{
	const struct utok *t;
	int err;

	out->narrow = NULL;
	if (p->i >= p->n)
		return fail(p, "expression ends early");
	t = &p->t[p->i];
	switch (t->kind) {
	case UT_NUMBER:
		p->i++;
		return number(p, t, out);
	case UT_CHAR:
		p->i++;
		return char_literal(p, t, out);
	case UT_IOCTL: {
		struct uval d, ty, nr;
		struct usize_ans sz;

		p->i++;
		if (!p->e->x)
			return fail(p, "ioctl number here");
		err = ueval_ioctl(p->e, t->ioctl, &d, &ty, &nr, &sz, out);
		return err;
	}
	case UT_IDENT:
		if (utok_is(t, "sizeof")) {
			p->i++;
			return uep_sizeof(p, out);
		}
		if (utok_is(t, "__alignof__") || utok_is(t, "__alignof") || utok_is(t, "_Alignof") ||
		    utok_is(t, "alignof")) {
			p->i++;
			return uep_alignof(p, !utok_is(t, "_Alignof") && !utok_is(t, "alignof"), out);
		}
		if (p->e->pp) {
			p->i++;
			*out = (struct uval){ 0, UC_LLONG, NULL };
			return 0;
		}
		if (p->i + 1 < p->n && utok_is(&p->t[p->i + 1], "("))
			return call(p, t, out);
		/* An enumeration constant (autofs's AUTOFS_IOC_READY_CMD): int, or
		 * its enum's type when the value does not fit one. */
		if (p->e->sizer && p->e->sizer->enum_cb) {
			int64_t v;
			const char *ctype = "int";
			char name[256];

			if (t->len < sizeof(name)) {
				memcpy(name, t->s, t->len);
				name[t->len] = '\0';
				if (p->e->sizer->enum_cb(name, t->len, &v, &ctype, p->e->sizer->ctx) > 0) {
					p->i++;
					*out = uval_of_ctype((uint64_t)v, ctype);
					return 0;
				}
			}
		}
		if (p->e->ident && p->e->ident(t, out, p->e->ident_ctx) > 0) {
			p->i++;
			return 0;
		}
		if (p->skip) {	/* in an arm that is not evaluated: never read */
			p->i++;
			*out = (struct uval){ 0, UC_INT, NULL };
			return 0;
		}
		if (!p->e->error)
			p->e->unknown = t;
		return fail(p, "not a constant (unknown identifier)");
	case UT_PUNCT:
		if (utok_is(t, "(")) {
			p->i++;
			if (uep_starts_type(p))
				return cast(p, out);
			err = uep_expr(p, out);
			if (err)
				return err;
			if (!at(p, ")"))
				return fail(p, "missing )");
			p->i++;
			return 0;
		}
		return fail(p, "unexpected operator");
	default:
		return fail(p, "not an integer constant (string)");
	}
}

static int unary_nested(struct ep *p, struct uval *out);

static int unary(struct ep *p, struct uval *out)
{
	int err;

	if (++p->depth > UEVAL_MAX_DEPTH)
		err = depth_fail(p);
	else
		err = unary_nested(p, out);
	p->depth--;
	return err;
}

static int unary_nested(struct ep *p, struct uval *out)
{
	int err;

	if (at(p, "-") || at(p, "+") || at(p, "~") || at(p, "!")) {
		char op = p->t[p->i++].s[0];

		err = unary(p, out);
		if (err)
			return err;
		if (op == '-')
			*out = uval_conv((struct uval){ (uint64_t)0 - out->v, out->t, NULL }, out->t);
		else if (op == '~')
			*out = uval_conv((struct uval){ ~out->v, out->t, NULL }, out->t);
		else if (op == '!')
			*out = (struct uval){ out->v == 0, p->e->pp ? UC_LLONG : UC_INT, NULL };
		else
			out->narrow = NULL;	/* unary + promotes */
		return 0;
	}
	return primary(p, out);
}

static const struct {
	const char *op;
	int prec;
} binops[] = {
	{ "*", 10 }, { "/", 10 }, { "%", 10 }, { "+", 9 }, { "-", 9 }, { "<<", 8 }, { ">>", 8 },
	{ "<", 7 }, { ">", 7 }, { "<=", 7 }, { ">=", 7 }, { "==", 6 }, { "!=", 6 },
	{ "&", 5 }, { "^", 4 }, { "|", 3 }, { "&&", 2 }, { "||", 1 },
};

static int binop_prec(struct ep *p, const char **op)
{
	size_t k;

	if (p->i >= p->n || p->t[p->i].kind != UT_PUNCT)
		return -1;
	for (k = 0; k < sizeof(binops) / sizeof(*binops); k++)
		if (utok_is(&p->t[p->i], binops[k].op)) {
			*op = binops[k].op;
			return binops[k].prec;
		}
	return -1;
}

static int apply(struct ep *p, const char *op, struct uval a, struct uval b, struct uval *out)
{
	int res_int = p->e->pp ? UC_LLONG : UC_INT, t;
	uint64_t x, y;
	bool sgn;

	if (!strcmp(op, "<<") || !strcmp(op, ">>")) {
		int64_t c = uctype_unsigned(b.t) ? (b.v > 64 ? 64 : (int64_t)b.v) : (int64_t)b.v;

		if (c < 0 || c >= uctype_width(a.t)) {
			*out = a;
			return arith_fail(p, "shift count out of range");
		}
		if (op[0] == '<')
			*out = uval_conv((struct uval){ a.v << c, a.t, NULL }, a.t);
		else if (uctype_unsigned(a.t))
			*out = (struct uval){ a.v >> c, a.t, NULL };
		else
			*out = uval_conv((struct uval){ (uint64_t)((int64_t)a.v >> c), a.t, NULL }, a.t);
		return 0;
	}
	t = uctype_common(a.t, b.t);
	a = uval_conv(a, t);
	b = uval_conv(b, t);
	x = a.v;
	y = b.v;
	sgn = !uctype_unsigned(t);
	if (uctype_width(t) == 32 && !sgn) {
		x = (uint32_t)x;
		y = (uint32_t)y;
	}
	switch (op[0] | (op[1] << 8)) {
	case '*': x *= y; break;
	case '+': x += y; break;
	case '-': x -= y; break;
	case '&': x &= y; break;
	case '|': x |= y; break;
	case '^': x ^= y; break;
	case '/':
	case '%':
		if (!y) {
			*out = a;
			return arith_fail(p, "division by zero");
		}
		if (sgn && (int64_t)y == -1)	/* no INT64_MIN / -1 trap; wraps as gcc folds */
			x = op[0] == '/' ? (uint64_t)0 - x : 0;
		else if (sgn)
			x = (uint64_t)(op[0] == '/' ? (int64_t)x / (int64_t)y : (int64_t)x % (int64_t)y);
		else
			x = op[0] == '/' ? x / y : x % y;
		break;
	case '<': x = sgn ? (int64_t)x < (int64_t)y : x < y; t = res_int; break;
	case '>': x = sgn ? (int64_t)x > (int64_t)y : x > y; t = res_int; break;
	case '<' | '=' << 8: x = sgn ? (int64_t)x <= (int64_t)y : x <= y; t = res_int; break;
	case '>' | '=' << 8: x = sgn ? (int64_t)x >= (int64_t)y : x >= y; t = res_int; break;
	case '=' | '=' << 8: x = x == y; t = res_int; break;
	case '!' | '=' << 8: x = x != y; t = res_int; break;
	default: return fail(p, "unknown operator");
	}
	*out = uval_conv((struct uval){ x, t, NULL }, t);
	return 0;
}

static int binary(struct ep *p, int min_prec, struct uval *out)
{
	const char *op = NULL;
	int prec, err;

	err = unary(p, out);
	while (!err && (prec = binop_prec(p, &op)) >= min_prec) {
		struct uval rhs;
		bool logical = !strcmp(op, "&&") || !strcmp(op, "||");
		bool dead = logical && ((op[0] == '&') == (out->v == 0));

		p->i++;
		p->skip += dead;
		err = binary(p, prec + 1, &rhs);
		p->skip -= dead;
		if (err)
			break;
		if (logical)
			*out = (struct uval){ op[0] == '&' ? out->v && rhs.v : out->v || rhs.v,
					      p->e->pp ? UC_LLONG : UC_INT, NULL };
		else
			err = apply(p, op, *out, rhs, out);
	}
	return err;
}

static int cond_nested(struct ep *p, struct uval *out);

static int cond(struct ep *p, struct uval *out)
{
	int err;

	if (++p->depth > UEVAL_MAX_DEPTH)
		err = depth_fail(p);
	else
		err = cond_nested(p, out);
	p->depth--;
	return err;
}

static int cond_nested(struct ep *p, struct uval *out)
{
	struct uval a, b;
	bool c;
	int err, t;

	err = binary(p, 1, out);
	if (err || !at(p, "?"))
		return err;
	p->i++;
	c = out->v != 0;
	p->skip += !c;
	err = uep_expr(p, &a);
	p->skip -= !c;
	if (err)
		return err;
	if (!at(p, ":"))
		return fail(p, "missing : in ?:");
	p->i++;
	p->skip += c;
	err = cond(p, &b);
	p->skip -= c;
	if (err)
		return err;
	t = uctype_common(a.t, b.t);
	*out = uval_conv(c ? a : b, t);
	return 0;
}

int uep_expr(struct ep *p, struct uval *out)
{
	int err = cond(p, out);

	while (!err && at(p, ",")) {
		p->i++;
		err = cond(p, out);
	}
	return err;
}

int ueval(struct ueval *e, const struct utok *t, size_t n, struct uval *out)
{
	struct ep p = { .e = e, .t = t, .n = n };
	int err;

	e->error = NULL;
	e->unknown = NULL;
	if (!n)
		return fail(&p, "empty expression");
	err = uep_expr(&p, out);
	if (!err && p.i < n)
		err = fail(&p, "junk after the expression");
	return err;
}

int ueval_ioctl(struct ueval *e, size_t i, struct uval *dir, struct uval *type, struct uval *nr,
		struct usize_ans *size, struct uval *cmd)
{
	const struct uioctl_call *c = &e->x->calls[i];
	struct ueval sub = *e;
	const struct usize_ans *a;
	struct uval sz;
	int err;

	memset(size, 0, sizeof(*size));
	sub.pp = false;
	err = ueval(&sub, c->args[c->ioc].v, c->args[c->ioc].n, type);
	if (!err)
		err = ueval(&sub, c->args[c->ioc + 1].v, c->args[c->ioc + 1].n, nr);
	if (!err && c->ioc)
		err = ueval(&sub, c->args[0].v, c->args[0].n, dir);
	else
		*dir = (struct uval){ (uint64_t)c->dir, UC_UINT, NULL };
	if (!err && c->ioc) {
		err = ueval(&sub, c->args[3].v, c->args[3].n, &sz);
		if (!err) {
			size->known = size->trusted = true;
			size->info.size = (int64_t)sz.v;
		}
	} else if (!err && c->dir == UIO_NONE) {
		size->known = size->trusted = true;
	} else if (!err) {
		if (!e->sizer)
			return -EINVAL;
		err = usizer_size(e->sizer, c->args[2].v, c->args[2].n, &a);
		if (err)
			return err == -EINVAL ? -EINVAL : err;
		*size = *a;
	}
	e->error = sub.error;
	e->limit = sub.limit;
	e->unknown_size = sub.unknown_size || (!err && !size->known);
	if (err)
		return err;
	if (!size->known) {
		e->error = "the ioctl's argument type has no known size";
		return -EINVAL;
	}
	cmd->v = (uint32_t)((dir->v << 30) | (type->v << 8) | nr->v | ((uint64_t)size->info.size << 16));
	cmd->t = c->dir == UIO_NONE && !c->ioc ? UC_UINT : UC_ULONG;
	return 0;
}
