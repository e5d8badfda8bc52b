// SPDX-License-Identifier: GPL-2.0-only
/*
 * kd_hashmap implementation. The slot of a hash is a mix of it, so keys
 * that are not random (DIE offsets, small ids) spread as well as content
 * hashes do. The table doubles when an insertion would make it more than
 * half full, which keeps probe sequences short and guarantees an empty
 * slot ends every walk.
 */
#include "hashmap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

#define KD_HASHMAP_MIN 64

static size_t home(uint64_t hash, size_t cap)
{
	hash ^= hash >> 31;
	hash *= 0x7fb5d329728ea185ULL;
	hash ^= hash >> 27;
	return (size_t)hash & (cap - 1);
}

int kd_hashmap_reserve(struct kd_hashmap *m, size_t more)
{
	struct kd_hashmap_ent *e;
	size_t cap = m->cap ? m->cap : KD_HASHMAP_MIN, i, j;

	if (more > SIZE_MAX / 2 - m->n)
		return -ENOMEM;
	if ((m->n + more) * 2 <= m->cap)
		return 0;
	while (cap < (m->n + more) * 2) {
		if (cap > SIZE_MAX / 4 / sizeof(*e))
			return -ENOMEM;
		cap *= 2;
	}
	e = kd_calloc(cap, sizeof(*e));
	if (!e)
		return -ENOMEM;
	/* Old slots in order: entries of one hash keep their insertion order. */
	for (i = 0; i < m->cap; i++) {
		if (!m->e[i].val)
			continue;
		for (j = home(m->e[i].hash, cap); e[j].val; j = (j + 1) & (cap - 1))
			;
		e[j] = m->e[i];
	}
	free(m->e);
	m->e = e;
	m->cap = cap;
	return 0;
}

uint64_t kd_hashmap_next(const struct kd_hashmap *m, uint64_t hash, size_t *pos)
{
	size_t mask, i;

	if (!m->cap) {
		*pos = 0;
		return 0;
	}
	mask = m->cap - 1;
	i = *pos == KD_HASHMAP_FIRST ? home(hash, m->cap) : (*pos + 1) & mask;
	for (; m->e[i].val; i = (i + 1) & mask) {
		if (m->e[i].hash == hash) {
			*pos = i;
			return m->e[i].val;
		}
	}
	*pos = i;
	return 0;
}

void kd_hashmap_insert_at(struct kd_hashmap *m, size_t pos, uint64_t hash, uint64_t val)
{
	m->e[pos].hash = hash;
	m->e[pos].val = val;
	m->n++;
}

uint64_t kd_hashmap_get(const struct kd_hashmap *m, uint64_t key)
{
	size_t pos = KD_HASHMAP_FIRST;

	return kd_hashmap_next(m, key, &pos);
}

int kd_hashmap_put(struct kd_hashmap *m, uint64_t key, uint64_t val)
{
	size_t pos = KD_HASHMAP_FIRST;
	int err = kd_hashmap_reserve(m, 1);

	if (err)
		return err;
	if (kd_hashmap_next(m, key, &pos))
		m->e[pos].val = val;
	else
		kd_hashmap_insert_at(m, pos, key, val);
	return 0;
}

void kd_hashmap_clear(struct kd_hashmap *m)
{
	if (m->cap)
		memset(m->e, 0, m->cap * sizeof(*m->e));
	m->n = 0;
}

void kd_hashmap_release(struct kd_hashmap *m)
{
	free(m->e);
	m->e = NULL;
	m->cap = m->n = 0;
}
