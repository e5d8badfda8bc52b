// SPDX-License-Identifier: GPL-2.0-only
/*
 * Structural identity and deduplication. The same struct is read once per
 * compilation unit that uses it; the DB stores it once.
 *
 * A type's hash covers everything that makes up its layout: kind, name,
 * size, alignment, bounds, and its members with their offsets, bitfields
 * and the hashes of their types. A pointer hashes its pointee by *name*
 * when the pointee is a named struct/union/enum/typedef: that is what C
 * itself does (struct list *next), it cuts every cycle of a valid C type
 * graph, and it leaves the pointee's own layout to the pointee's row.
 * (Consequence, documented in db/SCHEMA.md: two pointers to two different
 * layouts of one struct name are one row.) The header view's pointers
 * hash apart from the kernel's (xt->view): they lead to the headers'
 * layouts or declarations, never to the kernel's. The hash itself is
 * kd_type_hash() (lib/typegraph.h), shared with the tests' kernel builder;
 * here it is memoized per node, with cycles and depth bounded.
 */
#include "extract/types_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/hash.h"
#include "lib/mem.h"
#include "lib/typegraph.h"

#define HS_BUSY 1
#define HS_DONE 2

static uint64_t type_hash(struct xtable *xt, int64_t id, int depth);

/* The hash callbacks' view of the table: its types, at one depth. */
struct hash_walk {
	struct xtable *xt;
	int depth;
};

static const struct kd_type *walk_lookup(int64_t id, void *ctx)
{
	struct xtype *x = xt_get(((struct hash_walk *)ctx)->xt, id);

	return x ? &x->t : NULL;
}

static uint64_t walk_hash(int64_t id, void *ctx)
{
	struct hash_walk *w = ctx;

	return type_hash(w->xt, id, w->depth + 1);
}

/* Hashing never adds types, so &x->t stays valid through the recursion. */
static uint64_t compute_hash(struct xtable *xt, int64_t id, int depth)
{
	struct hash_walk w = { .xt = xt, .depth = depth };

	return kd_type_hash(&xt_get(xt, id)->t, xt->view, walk_lookup, walk_hash, &w);
}

static uint64_t type_hash(struct xtable *xt, int64_t id, int depth)
{
	struct xtype *x = xt_get(xt, id);
	uint64_t h;

	if (!x)
		return 0;
	if (x->hash_state == HS_DONE)
		return x->hash;
	if (x->hash_state == HS_BUSY) {
		xt_problem(xt, x->die, "type graph cycle not broken by a named pointee");
		return kd_hash_u64(KD_HASH_SEED, 0x6379636c65);
	}
	if (depth > XT_MAX_DEPTH) {
		xt_problem(xt, x->die, "types nest deeper than %d levels; the deeper levels are left"
			   " out of the identity of the types above them", XT_MAX_DEPTH);
		return kd_hash_u64(KD_HASH_SEED, 0x64656570);
	}
	x->hash_state = HS_BUSY;
	h = compute_hash(xt, id, depth);
	x = xt_get(xt, id);
	x->hash = h;
	x->hash_state = HS_DONE;
	return h;
}

static int xt_hash_all(struct xtable *xt)
{
	size_t i;

	for (i = 0; i < xt->n; i++)
		type_hash(xt, (int64_t)i + 1, 0);
	return 0;
}

/* Same hash and same shallow shape: the same type (a 64-bit collision with an
 * identical shape is not a practical concern). */
static bool same_shape(const struct xtype *a, const struct xtype *b)
{
	if (a->hash != b->hash || a->t.kind != b->t.kind || a->t.size != b->t.size ||
	    a->t.nr_members != b->t.nr_members || a->t.nr_enumerators != b->t.nr_enumerators)
		return false;
	if (!a->t.name || !b->t.name)
		return a->t.name == b->t.name;
	return !strcmp(a->t.name, b->t.name);
}

static bool is_definition(struct xtable *xt, int64_t id)
{
	struct xtype *x = xt_get(xt, id);

	return x && !(x->t.flags & KD_TYPE_DECLARATION);
}

/*
 * Give every node its DB id: the id of an identical type already in the
 * sink (written by an earlier table: vmlinux before modules), of an
 * identical node earlier in this table, or a new one. Within a table a
 * hash match is confirmed by shape; across tables the sink keeps only
 * hashes (64 bits: a collision among the ~10^5 types of a kernel has a
 * probability around 10^-9).
 */
static int assign_canon(struct xtable *xt, struct type_sink *sink, uint8_t *is_new)
{
	struct kd_hashmap reps = KD_HASHMAP_INIT;	/* hash -> table index + 1 */
	size_t i, pos = 0;
	uint64_t rep_idx = 0;
	int err;

	err = kd_hashmap_reserve(&reps, xt->n);
	if (err)
		return err;
	for (i = 0; i < xt->n; i++) {
		struct xtype *x = &xt->v[i];

		for (pos = KD_HASHMAP_FIRST; (rep_idx = kd_hashmap_next(&reps, x->hash, &pos));) {
			struct xtype *rep = &xt->v[rep_idx - 1];

			if (same_shape(rep, x)) {
				x->canon = rep->canon;
				/* A pointer row should lead to a definition when any does. */
				if (x->t.kind == KD_KIND_POINTER && !is_definition(xt, rep->t.ref) &&
				    is_definition(xt, x->t.ref))
					rep->t.ref = x->t.ref;
				break;
			}
		}
		if (rep_idx)
			continue;
		kd_hashmap_insert_at(&reps, pos, x->hash, (uint64_t)i + 1);
		x->canon = type_sink_lookup(sink, x->hash);
		if (!x->canon) {
			err = type_sink_add(sink, x->hash, &x->canon);
			if (err)
				break;
			is_new[i] = 1;
		}
	}
	kd_hashmap_release(&reps);
	return err;
}

int64_t xt_canon(struct xtable *xt, int64_t id)
{
	struct xtype *x = xt_get(xt, id);

	return x ? x->canon : 0;
}

int xt_complete(struct xtable *xt)
{
	int err = xt_drain(xt);

	if (!err)
		err = xt_settle_layout(xt);
	if (!err)
		err = xt_hash_all(xt);
	return err;
}

int xt_write(struct xtable *xt, struct type_sink *sink, int64_t *nr_written)
{
	struct kd_member *members = NULL;
	size_t members_cap = 0, i, j;
	uint8_t *is_new;
	int64_t written = 0;
	int err;

	is_new = kd_calloc(xt->n ? xt->n : 1, 1);
	if (!is_new)
		return -ENOMEM;
	err = assign_canon(xt, sink, is_new);
	for (i = 0; !err && i < xt->n; i++) {
		struct xtype *x = &xt->v[i];
		struct kd_type t;

		if (!is_new[i])
			continue;	/* already a row: earlier in this table or another */
		t = x->t;
		t.id = x->canon;
		t.ref = xt_canon(xt, x->t.ref);
		t.hash = x->hash;
		if (t.nr_members) {
			err = KD_GROW(members, members_cap, t.nr_members);
			if (err)
				break;
			for (j = 0; j < t.nr_members; j++) {
				members[j] = x->t.members[j];
				members[j].type = xt_canon(xt, x->t.members[j].type);
			}
			t.members = members;
		}
		err = kdb__put_type(xt->db, &t);
		if (!err)
			written++;
	}
	*nr_written = written;
	free(members);
	free(is_new);
	return err;
}
