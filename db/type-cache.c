// SPDX-License-Identifier: GPL-2.0-only
/* An id-indexed cache of a .kabi's types; see type-cache.h. */
#include "cli/type-cache.h"

#include <errno.h>
#include <stdlib.h>

#include "lib/err.h"
#include "lib/mem.h"

struct type_cache {
	struct kdb *db;
	size_t cap;
	struct kd_type **v;	/* index = id */
	int err;		/* first failed lookup */
};

int type_cache__new(struct kdb *db, struct type_cache **out)
{
	struct type_cache *tc = kd_calloc(1, sizeof(*tc));

	*out = NULL;
	if (!tc)
		return -ENOMEM;
	tc->db = db;
	*out = tc;
	return 0;
}

void type_cache__free(struct type_cache *tc)
{
	size_t i;

	if (!tc)
		return;
	for (i = 0; i < tc->cap; i++)
		kd_type__free(tc->v[i]);
	free(tc->v);
	free(tc);
}

const struct kd_type *type_cache__get(struct type_cache *tc, int64_t id)
{
	size_t old = tc->cap, i;
	struct kd_type *t;
	int err;

	if (id <= 0)
		return NULL;
	if ((size_t)id >= tc->cap) {
		if (KD_GROW(tc->v, tc->cap, (size_t)id + 1)) {
			if (!tc->err)
				tc->err = -ENOMEM;
			return NULL;
		}
		for (i = old; i < tc->cap; i++)
			tc->v[i] = NULL;
	}
	if (tc->v[id])
		return tc->v[id];
	err = kdb__get_type(tc->db, id, &t);
	if (err) {
		if (err == -ENOENT)
			kd_err("%s: type %lld is referenced but missing (damaged file?)",
			       kdb__path(tc->db), (long long)id);
		if (!tc->err)
			tc->err = err;
		return NULL;
	}
	tc->v[id] = t;
	return t;
}

int type_cache__error(const struct type_cache *tc)
{
	return tc->err;
}

const struct kd_type *type_cache__lookup(int64_t id, void *ctx)
{
	return type_cache__get(ctx, id);
}

const struct kd_type *type_cache__strip(struct type_cache *tc, int64_t id)
{
	const struct kd_type *t = type_cache__get(tc, id);
	int hops = 0;

	while (t && hops++ < 64 &&
	       (t->kind == KD_KIND_TYPEDEF || t->kind == KD_KIND_CONST ||
		t->kind == KD_KIND_VOLATILE || t->kind == KD_KIND_RESTRICT ||
		t->kind == KD_KIND_ATOMIC))
		t = type_cache__get(tc, t->ref);
	return t;
}
