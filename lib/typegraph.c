// SPDX-License-Identifier: GPL-2.0-only
/* Stripping and structural hashing of model types; see typegraph.h. */
#include "typegraph.h"

#include "hash.h"

int kd_type_strip_visit(int64_t id, kd_type_lookup_fn lookup, void *ctx,
			kd_type_visit_fn visit, void *vctx, const struct kd_type **out)
{
	const struct kd_type *t = id ? lookup(id, ctx) : NULL;
	int hops = 0, err;

	while (t && kd_kind_is_qualifier(t->kind) && hops++ < KD_TYPE_MAX_HOPS) {
		if (visit && (err = visit(t, vctx))) {
			*out = NULL;
			return err;
		}
		t = t->ref ? lookup(t->ref, ctx) : NULL;
	}
	*out = t;
	return 0;
}

const struct kd_type *kd_type_strip(int64_t id, kd_type_lookup_fn lookup, void *ctx)
{
	const struct kd_type *t;

	kd_type_strip_visit(id, lookup, ctx, NULL, NULL, &t);
	return t;
}

uint64_t kd_type_name_key(const struct kd_type *t)
{
	switch (t->kind) {
	case KD_KIND_STRUCT:
	case KD_KIND_UNION:
	case KD_KIND_ENUM:
	case KD_KIND_TYPEDEF:
		if (t->name)
			return kd_hash_str(kd_hash_u64(KD_HASH_SEED ^ 0x6b6579, t->kind), t->name);
		return 0;
	default:
		return 0;
	}
}

static bool is_qualifier(enum kd_kind k)
{
	return k == KD_KIND_CONST || k == KD_KIND_VOLATILE || k == KD_KIND_RESTRICT ||
	       k == KD_KIND_ATOMIC;
}

/*
 * What a pointer's hash takes of its pointee: a named type by its name,
 * through the qualifiers on it (const struct device *), which is what
 * breaks the cycles of self-referencing types; anything else by its hash.
 */
static uint64_t pointee_key(int64_t id, enum kd_type_view view, kd_type_lookup_fn lookup,
			    kd_type_hash_fn ref, void *ctx)
{
	const struct kd_type *p = id ? lookup(id, ctx) : NULL;
	uint64_t key, quals = KD_HASH_SEED;
	int depth;

	if (!p)
		return kd_hash_u64(KD_HASH_SEED, 0);
	/* A bounded walk: a hostile table may chain qualifiers in a loop. */
	for (depth = 0; p && is_qualifier(p->kind) && p->ref && depth < 8; depth++) {
		quals = kd_hash_u64(quals, p->kind);
		p = lookup(p->ref, ctx);
	}
	key = p ? kd_type_name_key(p) : 0;
	if (!key)
		return ref(id, ctx);
	if (depth)
		key = kd_hash_u64(key, quals);
	return view == KD_VIEW_HEADERS ? kd_hash_str(key, "header view") : key;
}

uint64_t kd_type_hash(const struct kd_type *t, enum kd_type_view view, kd_type_lookup_fn lookup,
		      kd_type_hash_fn ref, void *ctx)
{
	const unsigned flags_mask = KD_TYPE_DECLARATION | KD_TYPE_SIGNED | KD_TYPE_VARIADIC |
				    KD_TYPE_PACKED;
	uint64_t h = KD_HASH_SEED;
	size_t i;

	h = kd_hash_u64(h, t->kind);
	h = kd_hash_str(h, t->name);
	h = kd_hash_u64(h, (uint64_t)t->size);
	h = kd_hash_u64(h, (uint64_t)t->align);
	h = kd_hash_u64(h, (uint64_t)(t->kind == KD_KIND_ARRAY ? t->count : 0));
	h = kd_hash_u64(h, t->flags & flags_mask);
	if (t->kind == KD_KIND_POINTER)
		h = kd_hash_u64(h, pointee_key(t->ref, view, lookup, ref, ctx));
	else
		h = kd_hash_u64(h, t->ref ? ref(t->ref, ctx) : 0);
	for (i = 0; i < t->nr_members; i++) {
		const struct kd_member *m = &t->members[i];

		h = kd_hash_str(h, m->name);
		h = kd_hash_u64(h, (uint64_t)m->offset);
		h = kd_hash_u64(h, (uint64_t)m->bit_offset);
		h = kd_hash_u64(h, (uint64_t)m->bit_size);
		h = kd_hash_u64(h, m->type ? ref(m->type, ctx) : 0);
	}
	for (i = 0; i < t->nr_enumerators; i++) {
		h = kd_hash_str(h, t->enumerators[i].name);
		h = kd_hash_u64(h, (uint64_t)t->enumerators[i].value);
	}
	return h;
}
