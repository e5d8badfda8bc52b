// SPDX-License-Identifier: GPL-2.0-only
/*
 * Type lookup by name over a whole object; see named_internal.h. The set
 * is a hash map (lib/hashmap.h) keyed by the bare identifier so both
 * DIE names and raw .debug_str strings can be tested against it quickly.
 */
#include "extract/named_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/hash.h"
#include "lib/hashmap.h"
#include "lib/mem.h"

struct name_entry {
	char *spelling;		/* as given: "struct foo" */
	enum kd_kind kind;	/* struct, union, enum; typedef/base for plain names */
	const char *ident;	/* points into spelling: "foo" */
};

struct name_set {
	size_t n, cap;
	struct name_entry *v;
	struct kd_hashmap by_ident;	/* hash of ident -> index + 1 into v */
};

int name_set_new(struct name_set **out)
{
	*out = kd_calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void name_set_free(struct name_set *set)
{
	size_t i;

	if (!set)
		return;
	for (i = 0; i < set->n; i++)
		free(set->v[i].spelling);
	free(set->v);
	kd_hashmap_release(&set->by_ident);
	free(set);
}

static uint64_t ident_hash(const char *s, size_t len)
{
	return kd_hash_bytes(KD_HASH_SEED, s, len);
}

static void split(const char *spelling, enum kd_kind *kind, const char **ident)
{
	static const struct { const char *tag; enum kd_kind kind; } tags[] = {
		{ "struct ", KD_KIND_STRUCT }, { "union ", KD_KIND_UNION }, { "enum ", KD_KIND_ENUM },
	};
	size_t i;

	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		if (!strncmp(spelling, tags[i].tag, strlen(tags[i].tag))) {
			*kind = tags[i].kind;
			*ident = spelling + strlen(tags[i].tag);
			return;
		}
	}
	*kind = KD_KIND_TYPEDEF;
	*ident = spelling;
}

static long name_set_find(const struct name_set *set, enum kd_kind kind, const char *name)
{
	size_t pos = KD_HASHMAP_FIRST;
	uint64_t h, v;

	if (!name)
		return -1;
	h = ident_hash(name, strlen(name));
	while ((v = kd_hashmap_next(&set->by_ident, h, &pos))) {
		const struct name_entry *e = &set->v[v - 1];

		if (e->kind == kind && !strcmp(e->ident, name))
			return (long)v - 1;
	}
	return -1;
}

long name_set_index(const struct name_set *set, const char *spelling)
{
	enum kd_kind kind;
	const char *ident;

	split(spelling, &kind, &ident);
	return name_set_find(set, kind, ident);
}

static bool name_set_has_identifier(const struct name_set *set, const char *name, size_t len)
{
	size_t pos = KD_HASHMAP_FIRST;
	uint64_t h = ident_hash(name, len), v;

	while ((v = kd_hashmap_next(&set->by_ident, h, &pos))) {
		const char *id = set->v[v - 1].ident;

		if (strlen(id) == len && !memcmp(id, name, len))
			return true;
	}
	return false;
}

int name_set_add(struct name_set *set, const char *spelling)
{
	size_t pos = KD_HASHMAP_FIRST;
	struct name_entry e;
	uint64_t h;
	int err;

	split(spelling, &e.kind, &e.ident);
	if (name_set_find(set, e.kind, e.ident) >= 0)
		return 0;
	err = KD_GROW(set->v, set->cap, set->n + 1);
	if (!err)
		err = kd_hashmap_reserve(&set->by_ident, 1);
	if (err)
		return err;
	e.spelling = kd_strdup(spelling);
	if (!e.spelling)
		return -ENOMEM;
	split(e.spelling, &e.kind, &e.ident);
	set->v[set->n++] = e;
	/* After the entries of the same identifier: insertion order is kept. */
	h = ident_hash(e.ident, strlen(e.ident));
	while (kd_hashmap_next(&set->by_ident, h, &pos))
		;
	kd_hashmap_insert_at(&set->by_ident, pos, h, set->n);
	return 0;
}

size_t name_set_count(const struct name_set *set)
{
	return set->n;
}

const char *name_set_at(const struct name_set *set, size_t i)
{
	return i < set->n ? set->v[i].spelling : NULL;
}

static enum kd_kind kind_of_named_tag(Dwarf_Half tag)
{
	switch (tag) {
	case DW_TAG_structure_type:	return KD_KIND_STRUCT;
	case DW_TAG_union_type:		return KD_KIND_UNION;
	case DW_TAG_enumeration_type:	return KD_KIND_ENUM;
	case DW_TAG_typedef:		return KD_KIND_TYPEDEF;
	case DW_TAG_base_type:		return KD_KIND_TYPEDEF;	/* plain names: int, long */
	default:			return KD_KIND__COUNT;
	}
}

struct find_named {
	struct xtable *xt;
	const struct name_set *set;
	int64_t *found;
	size_t nr_found;
};

/*
 * Is @path (a DW_AT_decl_file) a header private to a driver or subsystem:
 * a .h file with no "include" or "uapi" directory on its path
 * (drivers/gpio/gpiolib.h)? No UAPI header can include such a file, so a
 * type it declares only shares its name with the type a UAPI header names:
 * 6.12's linux/synclink.h passes its own 16-byte struct gpio_desc to
 * MGSL_IOCGGPIO, gpiolib.h declares the kernel's 32-byte descriptor of
 * that name. Headers of the kernel's include trees (include/linux/,
 * arch/x86/include/asm/) are shared: the kernel side of a UAPI header
 * declares its compat layouts there (struct usbdevfs_bulktransfer32).
 */
static bool private_header(const char *path)
{
	size_t len = path ? strlen(path) : 0;
	const char *p = path, *slash;

	if (len < 2 || strcmp(path + len - 2, ".h"))
		return false;
	while ((slash = strchr(p, '/'))) {
		size_t n = (size_t)(slash - p);

		if ((n == 7 && !memcmp(p, "include", 7)) || (n == 4 && !memcmp(p, "uapi", 4)))
			return false;
		p = slash + 1;
	}
	return true;
}

/* One top-level DIE: queue it when it defines a wanted name. */
static int find_in_die(Dwarf_Die die, void *ctx)
{
	struct find_named *f = ctx;
	struct kdwarf *d = f->xt->dwarf;
	enum kd_kind kind = kind_of_named_tag(die_tag(d, die));
	Dwarf_Unsigned file;
	long i;
	int err;

	if (kind == KD_KIND__COUNT)
		return 0;
	i = name_set_find(f->set, kind, die_name(d, die));
	if (i < 0 || f->found[i] || die_flag(d, die, DW_AT_declaration))
		return 0;
	/* Only a wanted name's definition pays for its file name. */
	if (f->xt->files && die_udata(d, die, DW_AT_decl_file, &file) &&
	    private_header(srcfiles_name(f->xt->files, d, die, file)))
		return 0;
	err = xt_type_of_die(f->xt, die_offset(d, die), &f->found[i]);
	if (err)
		return err;
	return ++f->nr_found == f->set->n;	/* all found: stop */
}

static int find_in_cu(Dwarf_Die cu, void *ctx)
{
	struct find_named *f = ctx;
	int err = kdwarf_for_each_child(f->xt->dwarf, cu, find_in_die, f,
					"reading a compilation unit");

	if (err)
		return err;
	return f->nr_found == f->set->n;	/* all found: stop */
}

int xt_find_named(struct xtable *xt, const struct name_set *set, int64_t *found)
{
	struct find_named f = { xt, set, found, 0 };
	size_t i;
	int err;

	for (i = 0; i < set->n; i++)
		f.nr_found += found[i] != 0;
	if (f.nr_found == set->n)
		return (int)f.nr_found;
	err = kdwarf_for_each_cu(xt->dwarf, find_in_cu, &f);
	return err ? err : (int)f.nr_found;
}

/* Identifiers of at most 4 bytes (with their NUL) are stored inline in
 * .debug_info by GCC instead of in .debug_str. */
#define INLINE_STRING_MAX 3

static bool mentions_inline(const struct name_set *set, const unsigned char *p, size_t size)
{
	size_t i;

	for (i = 0; i < set->n; i++) {
		const char *id = set->v[i].ident;
		size_t len = strlen(id);

		if (len <= INLINE_STRING_MAX && memmem(p, size, id, len + 1))
			return true;
	}
	return false;
}

bool kelf_mentions_any(struct kelf *k, const struct name_set *set)
{
	struct kelf_section *str = kelf_section_by_name(k, ".debug_str");
	struct kelf_section *info = kelf_section_by_name(k, ".debug_info");
	const unsigned char *p, *end;

	if (!str || !info || !(p = kelf_section_data(k, str)))
		return true;	/* cannot tell: let the DWARF reader decide */
	end = p + str->size;
	while (p < end) {
		const unsigned char *z = memchr(p, '\0', (size_t)(end - p));
		size_t len = z ? (size_t)(z - p) : (size_t)(end - p);

		if (len && name_set_has_identifier(set, (const char *)p, len))
			return true;
		p += len + 1;
	}
	p = kelf_section_data(k, info);
	return !p || mentions_inline(set, p, info->size);
}
