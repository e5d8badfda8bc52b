// SPDX-License-Identifier: GPL-2.0-only
/*
 * Member offsets and alignments of the header view, for the macros that
 * are built from them: wireless.h's IW_EV_POINT_OFF is
 * `offsetof(struct iw_point, length)`, nilfs2_ondisk.h's NILFS_SB_BYTES
 * `(long)&((struct nilfs_super_block *)0)->s_reserved`, x_tables.h's
 * XT_ALIGN `__alignof__(struct _xt_align)`. The layouts are the rows the
 * view wrote (what user space's compiler laid out), never the kernel's
 * DWARF: a header that does not compile gives no offset, as it gives no
 * layout.
 */
#include "extract/header_types_internal.h"

#include <stdlib.h>
#include <string.h>

#include "db/type-cache.h"
#include "lib/model.h"

/* Anonymous members nest (a union in a struct in a union): bounded, as a damaged file may loop. */
#define MEMBER_MAX_DEPTH 32

static bool is_aggregate(const struct kd_type *t)
{
	return t && (t->kind == KD_KIND_STRUCT || t->kind == KD_KIND_UNION);
}

/*
 * The member @name (@len bytes) of @agg, looked for in its anonymous
 * structs and unions too, as C names them: 1 with *offset (from @agg's
 * start) and *type, 0 when absent or a bitfield (offsetof refuses one).
 */
static int find_member(struct type_cache *tc, const struct kd_type *agg, const char *name,
		       size_t len, int64_t *offset, int64_t *type, int depth)
{
	size_t i;

	if (depth > MEMBER_MAX_DEPTH)
		return 0;
	for (i = 0; i < agg->nr_members; i++) {
		const struct kd_member *m = &agg->members[i];

		if (!m->name || strlen(m->name) != len || memcmp(m->name, name, len))
			continue;
		if (m->bit_size)
			return 0;
		*offset = m->offset;
		*type = m->type;
		return 1;
	}
	for (i = 0; i < agg->nr_members; i++) {
		const struct kd_member *m = &agg->members[i];
		const struct kd_type *inner = m->name ? NULL : type_cache__strip(tc, m->type);

		if (is_aggregate(inner) && find_member(tc, inner, name, len, offset, type, depth + 1)) {
			*offset += m->offset;
			return 1;
		}
	}
	return 0;
}

/* "[N]" at *p: the offset of element N of the array @type; 1, or 0 when no array of known elements. */
static int index_into(struct type_cache *tc, const char **p, int64_t *offset, int64_t *type)
{
	const struct kd_type *arr = type_cache__strip(tc, *type), *elem;
	char *end;
	long long n = strtoll(*p + 1, &end, 10);

	if (*end != ']' || end == *p + 1 || n < 0 || !arr || arr->kind != KD_KIND_ARRAY)
		return 0;
	elem = type_cache__strip(tc, arr->ref);
	if (!elem || elem->size <= 0 || n > INT64_MAX / elem->size)
		return 0;
	*offset += n * elem->size;
	*type = arr->ref;
	*p = end + 1;
	return 1;
}

/* The walk of @designator from the aggregate @id: 1 with *offset, 0 when it leads nowhere. */
static int walk(struct type_cache *tc, int64_t id, const char *designator, int64_t *offset)
{
	const char *p = designator;
	int64_t type = id, at = 0;

	while (*p) {
		if (*p == '[') {
			if (!index_into(tc, &p, &at, &type))
				return 0;
			continue;
		}
		if (*p == '.' && p != designator)
			p++;
		{
			const struct kd_type *agg = type_cache__strip(tc, type);
			size_t len = strcspn(p, ".[");
			int64_t off;

			if (!len || !is_aggregate(agg) || !find_member(tc, agg, p, len, &off, &type, 0))
				return 0;
			at += off;
			p += len;
		}
	}
	*offset = at;
	return p != designator;
}

int header_view__offsetof(const struct header_view *hv, const char *type_text,
			  const char *designator, int64_t *offset)
{
	struct type_cache *tc = header_view__layouts(hv);
	struct uapi_type_info info;
	int found;

	if (!tc || !header_view__sizeof(hv, type_text, &info) || !info.type_id)
		return 0;
	found = walk(tc, info.type_id, designator, offset);
	return type_cache__error(tc) ? type_cache__error(tc) : found;
}

int header_view__alignof(const struct header_view *hv, const char *type_text, int64_t *align)
{
	struct type_cache *tc = header_view__layouts(hv);
	struct uapi_type_info info;
	const struct kd_type *t;

	if (!tc || !header_view__sizeof(hv, type_text, &info) || !info.type_id)
		return 0;
	t = type_cache__get(tc, info.type_id);
	if (type_cache__error(tc))
		return type_cache__error(tc);
	/* A typedef's row may carry no alignment: its target's is the one. */
	if (t && t->align <= 0)
		t = type_cache__strip(tc, info.type_id);
	if (!t || t->align <= 0)
		return type_cache__error(tc);
	*align = t->align;
	return 1;
}
