// SPDX-License-Identifier: GPL-2.0-only
/*
 * The set of type identities that already have a row in the DB being
 * written, shared by the vmlinux table and every module's table so a type
 * defined in both is stored once. Open addressing over 64-bit hashes.
 */
#include "extract/types_internal.h"

#include <errno.h>
#include <stdlib.h>

#include "lib/mem.h"

struct type_sink {
	size_t cap, n;
	uint64_t *hash;
	int64_t *id;	/* 0 = empty slot */
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
	free(s->hash);
	free(s->id);
	free(s);
}

static size_t slot_of(const struct type_sink *s, uint64_t hash)
{
	size_t j;

	for (j = hash & (s->cap - 1); s->id[j] && s->hash[j] != hash; j = (j + 1) & (s->cap - 1))
		;
	return j;
}

int64_t type_sink_lookup(const struct type_sink *s, uint64_t hash)
{
	return s->cap ? s->id[slot_of(s, hash)] : 0;
}

static int grow(struct type_sink *s)
{
	size_t ncap = s->cap ? s->cap * 2 : 4096, i;
	struct type_sink t = { .cap = ncap };

	t.hash = kd_calloc(ncap, sizeof(*t.hash));
	t.id = kd_calloc(ncap, sizeof(*t.id));
	if (!t.hash || !t.id) {
		free(t.hash);
		free(t.id);
		return -ENOMEM;
	}
	for (i = 0; i < s->cap; i++) {
		size_t j;

		if (!s->id[i])
			continue;
		j = slot_of(&t, s->hash[i]);
		t.hash[j] = s->hash[i];
		t.id[j] = s->id[i];
	}
	free(s->hash);
	free(s->id);
	s->hash = t.hash;
	s->id = t.id;
	s->cap = ncap;
	return 0;
}

int type_sink_add(struct type_sink *s, uint64_t hash, int64_t *id)
{
	size_t j;
	int err;

	if ((s->n + 1) * 2 > s->cap) {
		err = grow(s);
		if (err)
			return err;
	}
	j = slot_of(s, hash);
	if (!s->id[j]) {
		s->hash[j] = hash;
		s->id[j] = ++s->next_id;
		s->n++;
	}
	*id = s->id[j];
	return 0;
}
