// SPDX-License-Identifier: GPL-2.0-only
/*
 * One kernel's types in memory, sorted by id (kdb__load_types()), and
 * what the comparisons ask of them: a type by id, through its typedefs,
 * its size, its C spelling. Binary search over the sorted array: the
 * types are read once per run and never change.
 */
#include "diff/tgraph.h"

#include <stdint.h>

#include "lib/buf.h"
#include "lib/cdecl.h"
#include "lib/typegraph.h"

const struct kd_type *tgraph_get(const struct tgraph *g, int64_t id)
{
	size_t lo = 0, hi = g->nr;

	while (id > 0 && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (g->types[mid].id == id)
			return &g->types[mid];
		if (g->types[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static const struct kd_type *lookup(int64_t id, void *ctx)
{
	return tgraph_get(ctx, id);
}

const struct kd_type *tgraph_strip(const struct tgraph *g, int64_t id)
{
	return kd_type_strip(id, lookup, (void *)g);
}

int64_t tgraph_size(const struct tgraph *g, int64_t id)
{
	const struct kd_type *t = tgraph_strip(g, id);
	int64_t mult = 1;
	int hops = 0;

	int64_t size;

	/* A .kabi may hold any count or size: a product past int64_t saturates. */
	while (t && t->kind == KD_KIND_ARRAY && hops++ < KD_TYPE_MAX_HOPS) {
		if (t->count <= 0)
			return 0;
		if (__builtin_mul_overflow(mult, t->count, &mult))
			mult = INT64_MAX;
		t = tgraph_strip(g, t->ref);
	}
	if (!t)
		return id ? -1 : 0;
	if (t->size < 0)
		return -1;
	return __builtin_mul_overflow(t->size, mult, &size) ? INT64_MAX : size;
}

int tgraph_spell(const struct tgraph *g, int64_t id, struct kd_buf *b)
{
	return tgraph_declare(g, id, "", b);
}

int tgraph_declare(const struct tgraph *g, int64_t id, const char *name, struct kd_buf *b)
{
	kd_buf_reset(b);
	return kd_cdecl(b, id, name, lookup, (void *)g);
}
