// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAPI reader: the C integer types of x86_64's (and i386's, for the parts
 * the compat view uses) constant expressions: their names as _Generic
 * tells them, widths, and the usual arithmetic conversions of C11 6.3.1.8
 * that eval.c applies to every operator.
 */
#include "extract/uapi/uapi_internal.h"

#include <string.h>

static const char *uctype_name(int t)
{
	static const char *const names[] = {
		"int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long",
	};
	return names[t];
}

const char *uval_type(const struct uval *v)
{
	return v->narrow ? v->narrow : uctype_name(v->t);
}

struct uval uval_of_ctype(uint64_t v, const char *ctype)
{
	int k;

	for (k = UC_INT; k <= UC_ULLONG; k++)
		if (!strcmp(ctype, uctype_name(k)))
			return (struct uval){ v, k, NULL };
	return (struct uval){ v, UC_INT, ctype };
}

bool uctype_unsigned(int t)
{
	return t == UC_UINT || t == UC_ULONG || t == UC_ULLONG;
}

int uctype_width(int t)
{
	return t <= UC_UINT ? 32 : 64;
}

static int rank(int t)
{
	return t / 2;
}

/* The bits of @v as a value of type @t (truncated, sign-extended). */
struct uval uval_conv(struct uval v, int t)
{
	if (uctype_width(t) == 32)
		v.v = uctype_unsigned(t) ? (uint32_t)v.v : (uint64_t)(int64_t)(int32_t)(uint32_t)v.v;
	v.t = t;
	v.narrow = NULL;
	return v;
}

int uctype_common(int a, int b)
{
	int u, s;

	if (a == b)
		return a;
	if (uctype_unsigned(a) == uctype_unsigned(b))
		return rank(a) >= rank(b) ? a : b;
	u = uctype_unsigned(a) ? a : b;
	s = uctype_unsigned(a) ? b : a;
	if (rank(u) >= rank(s))
		return u;
	if (uctype_width(s) > uctype_width(u))
		return s;
	return s + 1;	/* the unsigned type of s's rank */
}
