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
 *
 * And the typedefs of names only (typedef int __bitwise __kernel_rwf_t;
 * typedef __u64 v4l2_std_id;), which casts in constants name:
 * RWF_NOWAIT is ((__force __kernel_rwf_t)0x00000008). A cast to such a
 * name is a cast to the type it stands for in the unit that reads it.
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

/* typedef int __bitwise __kernel_rwf_t; -- names only, the last one the new name. */
static int plain_typedef(const struct utok *t, size_t n, uplain_typedef_fn fn, void *ctx)
{
	size_t i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		if (t[i].kind != UT_IDENT)
			return 0;
	return fn(&t[n - 1], t, n - 1, ctx);
}

int utypedef_scan(const struct ufile *f, utypedef_fn fn, void *ctx)
{
	return utypedef_scan_all(f, fn, NULL, ctx);
}

int utypedef_scan_all(const struct ufile *f, utypedef_fn fn, uplain_typedef_fn plain, void *ctx)
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

		if (!utok_is(&t.v[i], "typedef"))
			continue;
		if (plain && !is_tag_keyword(&t.v[i + 1])) {
			for (semi = i + 1; semi < t.n && t.v[semi].kind == UT_IDENT; semi++)
				;
			if (semi < t.n && utok_is(&t.v[semi], ";")) {
				err = plain_typedef(&t.v[i + 1], semi - i - 1, plain, ctx);
				i = semi;
				continue;
			}
		}
		if (!is_tag_keyword(&t.v[i + 1]) || t.v[i + 2].kind != UT_IDENT)
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

/* Typedefs of typedefs: __be16 -> __u16 -> unsigned short. Deeper is a loop. */
#define MAX_TYPEDEF_DEPTH 16

static int resolve(struct usizer *sz, struct ucpp *cpp, const struct utok *t, size_t n,
		   struct ptype *out, int depth)
{
	struct kd_arena arena = KD_ARENA_INIT;
	struct uexpand x = { .cpp = cpp, .arena = &arena };
	const struct utypedef_decl *d, *hit = NULL;
	struct utoks spelled = { 0 }, expanded = { 0 };
	int err, found = 0;

	if (plain_type(sz->arch, t, n, out))
		return 1;
	while (n && (utok_is(&t[n - 1], "const") || utok_is(&t[n - 1], "volatile")))
		n--;
	while (n && (utok_is(&t[0], "const") || utok_is(&t[0], "volatile"))) {
		t++;
		n--;
	}
	if (n != 1 || t[0].kind != UT_IDENT || depth >= MAX_TYPEDEF_DEPTH)
		return 0;
	/* Only what the unit read is in scope; two spellings there: which one is unknown. */
	for (d = umap_get(&sz->typedefs, t[0].s, t[0].len); d; d = d->next) {
		if (!ucpp__in_unit(cpp, d->file))
			continue;
		if (hit && strcmp(hit->spelling, d->spelling))
			return 0;
		hit = d;
	}
	if (!hit)
		return 0;
	err = ulex(hit->spelling, strlen(hit->spelling), &spelled);
	if (!err)
		err = uexpand(&x, spelled.v, spelled.n, &expanded);
	if (!err)
		found = resolve(sz, cpp, expanded.v, expanded.n, out, depth + 1);
	else if (err != -EINVAL)
		found = err;
	utoks_release(&expanded);
	utoks_release(&spelled);
	uexpand_release(&x);
	kd_arena_release(&arena);
	return found;
}

bool utypedef_plain(struct usizer *sz, struct ucpp *cpp, const struct utok *t, size_t n,
		    struct ptype *out)
{
	int r = resolve(sz, cpp, t, n, out, 0);

	if (r < 0 && !sz->hard_error)
		sz->hard_error = r;
	return r > 0;
}
