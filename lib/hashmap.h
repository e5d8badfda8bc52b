/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kd_hashmap: the one hash table of kabi-diff. Open addressing with linear
 * probing over (64-bit hash, 64-bit value) pairs, at most half full; a
 * value of 0 marks an empty slot, so values are non-zero (an id, an index
 * + 1, a pointer).
 *
 * Two ways to use it:
 * - the 64-bit key is the hash (a DIE offset, a structural type hash):
 *   kd_hashmap_get() and kd_hashmap_put();
 * - keys the caller compares (strings, type shapes, pairs of ids), many
 *   of which may share a hash: kd_hashmap_reserve(), then walk the
 *   entries of a hash with kd_hashmap_next() and, when none is the key,
 *   kd_hashmap_insert_at() the slot the walk ended on. Entries of one hash
 *   come back in the order they were inserted.
 *
 * A zero-initialized struct kd_hashmap (KD_HASHMAP_INIT) is empty and valid.
 */
#ifndef KD_HASHMAP_H
#define KD_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

struct kd_hashmap_ent {
	uint64_t hash;
	uint64_t val;		/* 0: empty slot */
};

struct kd_hashmap {
	struct kd_hashmap_ent *e;
	size_t cap;		/* a power of two, or 0 */
	size_t n;		/* used slots */
};

#define KD_HASHMAP_INIT { .e = NULL, .cap = 0, .n = 0 }
/* The *pos that starts a walk of kd_hashmap_next(). */
#define KD_HASHMAP_FIRST SIZE_MAX

/* The value stored under @key (the key is the hash), 0 when absent. */
uint64_t kd_hashmap_get(const struct kd_hashmap *m, uint64_t key);
/* Store @val (non-zero) under @key, replacing any value. 0 or -ENOMEM. */
int kd_hashmap_put(struct kd_hashmap *m, uint64_t key, uint64_t val);

/*
 * Make room for @more insertions without growing (growing moves entries,
 * so a slot from kd_hashmap_next() is only good until the next reserve).
 * 0 or -ENOMEM (the map is unchanged).
 */
int kd_hashmap_reserve(struct kd_hashmap *m, size_t more);
/*
 * The next entry of hash @hash: start with *pos = KD_HASHMAP_FIRST; each
 * call returns the value of the next entry with that hash and leaves its
 * slot in *pos, or returns 0 at the end of the entries, *pos then being
 * the empty slot where the hash would be inserted (valid only when the map
 * has room: kd_hashmap_reserve() first).
 */
uint64_t kd_hashmap_next(const struct kd_hashmap *m, uint64_t hash, size_t *pos);
/* Fill the empty slot @pos (from a walk that ended there) with @hash, @val (non-zero). */
void kd_hashmap_insert_at(struct kd_hashmap *m, size_t pos, uint64_t hash, uint64_t val);

/* Empty the map, keeping its storage. */
void kd_hashmap_clear(struct kd_hashmap *m);
/* Free the storage; @m is empty and valid afterwards. */
void kd_hashmap_release(struct kd_hashmap *m);

#endif
