// SPDX-License-Identifier: GPL-2.0-only
/*
 * The layouts of a pair of aggregates (aggregate_internal.h): members
 * flattened and matched, the bitmaps of the old layout built, and the
 * questions diff-aggregate.c asks of them. Nothing here judges a change.
 */
#include "diff/aggregate_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mem.h"
#include "lib/typegraph.h"

/* @base: where @t starts, in bytes. */
static int flatten(const struct tgraph *g, const struct kd_type *t, int64_t base,
		   struct leaves *l, int depth)
{
	size_t i;
	int err = 0;

	for (i = 0; !err && i < t->nr_members; i++) {
		const struct kd_member *m = &t->members[i];
		int64_t off;
		struct leaf *f;

		if (__builtin_add_overflow(base, m->offset > 0 ? m->offset : 0, &off))
			off = INT64_MAX;

		if (!m->name) {
			const struct kd_type *st = tgraph_strip(g, m->type);

			if (st && (st->kind == KD_KIND_STRUCT || st->kind == KD_KIND_UNION) && depth < 32)
				err = flatten(g, st, off, l, depth + 1);
			continue;	/* else an unnamed bitfield: padding */
		}
		err = KD_GROW(l->v, l->cap, l->n + 1);
		if (err)
			break;
		f = &l->v[l->n++];
		f->name = m->name;
		f->type = m->type;
		f->byte = off;
		f->bit = dt_clamp_bits(dt_bits_of(off) + (m->bit_size ? m->bit_offset : 0));
		f->bits = dt_clamp_bits(m->bit_size ? m->bit_size : dt_bits_of(tgraph_size(g, m->type)));
		f->bit_size = m->bit_size;
		f->depth = depth;
		f->match = -1;
		f->renamed = false;
		f->resv = (struct dt_resv_why){ false, DIFF_EV_LAYOUT, { NULL, 0 }, false };
	}
	return err;
}

/* Are bits [@from, @from + @len) all @set in @map? Bits at or past @nbits are unset. */
bool agg_bits_all(const unsigned char *map, int64_t nbits, int64_t from, int64_t len, bool set)
{
	int64_t i, end = from + len;	/* both clamped: no overflow */

	if (set && (from < 0 || end > nbits))
		return false;
	for (i = from < 0 ? 0 : from; i < end && i < nbits; i++) {
		bool on = (map[i / 8] >> (i % 8)) & 1;

		if (on != set)
			return false;
	}
	return true;
}

/* Set bits [@from, @from + @len) of @map, those below @nbits. */
static void bits_set(unsigned char *map, int64_t nbits, int64_t from, int64_t len)
{
	int64_t i;

	for (i = from < 0 ? 0 : from; i < from + len && i < nbits; i++)
		map[i / 8] |= (unsigned char)(1u << (i % 8));
}

int agg_match_members(struct agg *g)
{
	struct leaves *o = &g->l[0], *n = &g->l[1];
	size_t i, j;

	for (i = 0; i < o->n; i++)
		for (j = 0; j < n->n; j++)
			if (n->v[j].match < 0 && !strcmp(o->v[i].name, n->v[j].name)) {
				o->v[i].match = (long)j;
				n->v[j].match = (long)i;
				break;
			}
	/* Renames: same bits, same type, another name. */
	for (i = 0; i < o->n; i++) {
		struct leaf *a = &o->v[i];

		for (j = 0; a->match < 0 && j < n->n; j++) {
			struct leaf *b = &n->v[j];

			if (b->match >= 0 || a->bit != b->bit || a->bits != b->bits ||
			    a->bit_size != b->bit_size || !dt_equivalent(g->e->g, a->type, b->type))
				continue;
			a->match = (long)j;
			b->match = (long)i;
			a->renamed = b->renamed = true;
		}
	}
	return 0;
}

/*
 * Old member @a a one-element array ([1]), new @b at the same place a
 * flexible one of the same element: its element's bytes are still the
 * array's data (usb_string_descriptor.wData in 6.12), kept.
 */
static bool one_to_flex(const struct agg *g, const struct leaf *a, const struct leaf *b)
{
	const struct kd_type *ta = tgraph_strip(&g->e->g[0], a->type);
	const struct kd_type *tb = tgraph_strip(&g->e->g[1], b->type);

	return ta && tb && ta->kind == KD_KIND_ARRAY && tb->kind == KD_KIND_ARRAY &&
	       ta->count == 1 && tb->count <= 0 && !b->bits && dt_equivalent(g->e->g, ta->ref, tb->ref);
}

/* The elements of old array member @a from @from on: their first bit (past its end if none). */
static int64_t elements_from(const struct agg *g, const struct leaf *a, int64_t from)
{
	const struct kd_type *t = tgraph_strip(&g->e->g[0], a->type);
	int64_t elem;

	if (!from)
		return a->bit;
	if (!t || t->kind != KD_KIND_ARRAY || (elem = tgraph_size(&g->e->g[0], t->ref)) <= 0 ||
	    from > (a->bits / 8) / elem)
		return a->bit + a->bits;
	return a->bit + dt_bits_of(from * elem);
}

/* Old member @a's bits that the contract calls unused, into unused_map. */
static void mark_unused(struct agg *g, const struct leaf *a)
{
	int64_t from, start;

	if (!dt_contract_unused(g->e, g->t[0]->name, a->name, &from, NULL))
		return;
	start = elements_from(g, a, from);
	if (start < a->bit + a->bits)
		bits_set(g->unused_map, g->nbits, start, a->bit + a->bits - start);
}

/* Is each bit of [@from, @from + @len) of the old layout padding or unused? */
bool agg_padding_or_unused(const struct agg *g, int64_t from, int64_t len)
{
	int64_t i;

	if (from < 0 || len < 0 || from + len > g->nbits)
		return false;
	for (i = from; i < from + len; i++)
		if ((g->old_map[i / 8] & (1u << (i % 8))) && !(g->unused_map[i / 8] & (1u << (i % 8))))
			return false;
	return true;
}

int agg_build_maps(struct agg *g)
{
	const char *tname = g->t[0]->name;
	size_t i, bytes;

	g->nbits = dt_bits_of(g->t[0]->size);
	if (g->nbits > MAX_BITMAP_BITS)
		g->nbits = 0;
	bytes = (size_t)(g->nbits / 8 + 1);
	g->old_map = kd_calloc(bytes, 1);
	g->kept_map = kd_calloc(bytes, 1);
	g->reserved_map = kd_calloc(bytes, 1);
	g->unused_map = kd_calloc(bytes, 1);
	if (!g->old_map || !g->kept_map || !g->reserved_map || !g->unused_map)
		return -ENOMEM;
	for (i = 0; i < g->l[0].n; i++) {
		const struct leaf *a = &g->l[0].v[i];
		const struct leaf *b = a->match >= 0 ? &g->l[1].v[a->match] : NULL;

		struct leaf *m = &g->l[0].v[i];

		bits_set(g->old_map, g->nbits, a->bit, a->bits);
		if (b && b->bit == a->bit && !a->renamed && (b->bits == a->bits || one_to_flex(g, a, b)))
			bits_set(g->kept_map, g->nbits, a->bit, a->bits);
		if (dt_member_reserved(g->e, tname, a->name, &m->resv) &&
		    (!b || b->bits != a->bits || b->bit != a->bit || a->renamed))
			bits_set(g->reserved_map, g->nbits, a->bit, a->bits);
		mark_unused(g, a);
	}
	return 0;
}

/* Does no other member of @l start after @f? */
bool agg_is_last(const struct leaves *l, const struct leaf *f)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i].bit > f->bit)
			return false;
	return true;
}

/*
 * Are bits [@from, @from + @len) of the old layout each a kept member's or
 * padding (a union alternative naming a group of kept members and the
 * holes between them: tc_u32_sel's __struct_group hdr in 6.12)? The
 * caller knows they are not all padding.
 */
bool agg_kept_or_padding(const struct agg *g, int64_t from, int64_t len)
{
	int64_t i;

	if (from < 0 || from + len > g->nbits)
		return false;
	for (i = from; i < from + len; i++)
		if (!(g->kept_map[i / 8] & (1u << (i % 8))) && (g->old_map[i / 8] & (1u << (i % 8))))
			return false;
	return true;
}

/*
 * Do members of the new layout cover the bits old member @a had? Walked by
 * intervals, not bits: a member may be 2^60 bits wide.
 */
bool agg_covered_in_new(const struct agg *g, const struct leaf *a)
{
	int64_t bit = a->bit, end = a->bit + a->bits, reach;
	size_t j;

	while (bit < end) {
		reach = bit;
		for (j = 0; j < g->l[1].n; j++) {
			const struct leaf *b = &g->l[1].v[j];

			if (b->bit <= bit && bit < b->bit + b->bits && b->bit + b->bits > reach)
				reach = b->bit + b->bits;
		}
		if (reach == bit)
			return false;
		bit = reach;
	}
	return true;
}


int agg_flatten(struct agg *g)
{
	int err = flatten(&g->e->g[0], g->t[0], 0, &g->l[0], 0);

	return err ? err : flatten(&g->e->g[1], g->t[1], 0, &g->l[1], 0);
}

void agg_release(struct agg *g)
{
	free(g->l[0].v);
	free(g->l[1].v);
	free(g->old_map);
	free(g->kept_map);
	free(g->reserved_map);
	free(g->unused_map);
	kd_buf_release(&g->why);
	kd_buf_release(&g->subj);
	kd_buf_release(&g->ov);
	kd_buf_release(&g->nv);
}
