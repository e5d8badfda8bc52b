// SPDX-License-Identifier: GPL-2.0-only
/* A cache of a .kabi's types by id; see type-cache.h. */
#include "db/type-cache.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/err.h"
#include "lib/hashmap.h"
#include "lib/mem.h"
#include "lib/typegraph.h"

struct type_cache {
	struct kdb *db;
	struct kd_hashmap by_id;	/* id -> struct kd_type * */
	int err;			/* first failed lookup */
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
	for (i = 0; i < tc->by_id.cap; i++)
		kd_type__free((struct kd_type *)(uintptr_t)tc->by_id.e[i].val);
	kd_hashmap_release(&tc->by_id);
	free(tc);
}

const struct kd_type *type_cache__get(struct type_cache *tc, int64_t id)
{
	struct kd_type *t;
	int err;

	if (id <= 0)
		return NULL;
	t = (struct kd_type *)(uintptr_t)kd_hashmap_get(&tc->by_id, (uint64_t)id);
	if (t)
		return t;
	err = kdb__get_type(tc->db, id, &t);
	if (err) {
		if (err == -ENOENT)
			kd_err("%s: type %lld is referenced but missing (damaged file?)",
			       kdb__path(tc->db), (long long)id);
		if (!tc->err)
			tc->err = err;
		return NULL;
	}
	err = kd_hashmap_put(&tc->by_id, (uint64_t)id, (uint64_t)(uintptr_t)t);
	if (err) {
		kd_type__free(t);
		if (!tc->err)
			tc->err = err;
		return NULL;
	}
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
	return kd_type_strip(id, type_cache__lookup, tc);
}
