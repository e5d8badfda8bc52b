// SPDX-License-Identifier: GPL-2.0-only
/*
 * The set of type identities that already have a row in the DB being
 * written, shared by the vmlinux table and every module's table so a type
 * defined in both is stored once: a map of 64-bit structural hashes.
 */
#include "extract/types_internal.h"

#include <errno.h>
#include <stdlib.h>

#include "lib/hashmap.h"
#include "lib/mem.h"

struct type_sink {
	struct kd_hashmap ids;	/* structural hash -> DB id */
	int64_t next_id;
};

int type_sink_new(struct type_sink **out)
{
	struct type_sink *s = kd_calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return -ENOMEM;
	*out = s;
	return 0;
}

void type_sink_free(struct type_sink *s)
{
	if (!s)
		return;
	kd_hashmap_release(&s->ids);
	free(s);
}

int64_t type_sink_lookup(const struct type_sink *s, uint64_t hash)
{
	return (int64_t)kd_hashmap_get(&s->ids, hash);
}

int64_t type_sink_last_id(const struct type_sink *s)
{
	return s->next_id;
}

int type_sink_add(struct type_sink *s, uint64_t hash, int64_t *id)
{
	size_t pos = KD_HASHMAP_FIRST;
	uint64_t have;
	int err = kd_hashmap_reserve(&s->ids, 1);

	if (err)
		return err;
	have = kd_hashmap_next(&s->ids, hash, &pos);
	if (!have) {
		have = (uint64_t)++s->next_id;
		kd_hashmap_insert_at(&s->ids, pos, hash, have);
	}
	*id = (int64_t)have;
	return 0;
}
