// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAPI reader: the typedefs that name a tagged type (linux/cm4000_cs.h:
 * typedef struct atreq { ... } atreq_t;). An ioctl spelled with a pointer,
 * _IOWR(CM_IOC_MAGIC, 1, atreq_t *), is served by a driver that copies the
 * pointee, and the driver's DWARF often has only the tag: cm4000_cs.c
 * writes struct atreq, so atreq_t is in no binary. Knowing the tag behind
 * the typedef lets the kernel's binaries be searched for both names. Only
 * the declarations' shape is read (no types are parsed); a typedef under a
 * false #if is seen too, which at worst has a binary searched for one more
 * name.
 */
#include "extract/uapi/uapi_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool is_tag_keyword(const struct utok *t)
{
	return utok_is(t, "struct") || utok_is(t, "union") || utok_is(t, "enum");
}

/* Declarators t[0..n) (up to the ';'): each plain name is a name of the tag. */
static int declarators(const struct utok *t, size_t n, const struct utok *keyword,
		       const struct utok *tag, utypedef_fn fn, void *ctx)
{
	size_t i = 0;
	int err = 0;

	while (!err && i < n) {
		size_t start = i;

		while (i < n && !utok_is(&t[i], ","))
			i++;
		/* "atreq_t", not "*patreq_t" or "atreq_v[2]": those name other types. */
		if (i == start + 1 && t[start].kind == UT_IDENT)
			err = fn(&t[start], keyword, tag, ctx);
		i++;
	}
	return err;
}

int utypedef_scan(const struct ufile *f, utypedef_fn fn, void *ctx)
{
	struct utoks t;
	size_t i;
	char *text;
	int err;

	if (!strstr(f->text, "typedef"))
		return 0;
	err = udecl_lex(f, &text, &t);
	if (err)
		return err;
	for (i = 0; !err && i + 3 < t.n; i++) {
		size_t decl, semi;

		if (!utok_is(&t.v[i], "typedef") || !is_tag_keyword(&t.v[i + 1]) ||
		    t.v[i + 2].kind != UT_IDENT)
			continue;
		decl = i + 3;
		if (utok_is(&t.v[decl], "{")) {
			decl = udecl_body_end(t.v, decl, t.n);
			if (decl == t.n)
				break;	/* unterminated: the compiler says so */
			decl++;
		}
		/* Up to the ';' -- or what cannot be a declarator, where the scan goes on. */
		for (semi = decl; semi < t.n && !utok_is(&t.v[semi], ";") && !utok_is(&t.v[semi], "{") &&
		     !utok_is(&t.v[semi], "}") && !utok_is(&t.v[semi], "typedef"); semi++)
			;
		if (semi < t.n && utok_is(&t.v[semi], ";"))
			err = declarators(&t.v[decl], semi - decl, &t.v[i + 1], &t.v[i + 2], fn, ctx);
		i = semi > i ? semi - 1 : i;
	}
	utoks_release(&t);
	free(text);
	return err;
}
