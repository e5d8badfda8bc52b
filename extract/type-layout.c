// SPDX-License-Identifier: GPL-2.0-only
/*
 * Layout facts that depend on other types, settled once the whole graph is
 * read: sizes of typedefs, qualifiers and arrays, natural alignments,
 * packed-ness, bitfield storage units, and enumerator signedness.
 * The recursion follows only by-value edges (never pointers), which are
 * acyclic in C; a cycle in hostile DWARF is cut and reported.
 */
#include "extract/types_internal.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>

#include "lib/err.h"
#include "lib/typegraph.h"

#define ST_SIZE_DONE	0x01
#define ST_SIZE_BUSY	0x02
#define ST_ALIGN_DONE	0x04
#define ST_ALIGN_BUSY	0x08

static int64_t size_of(struct xtable *xt, int64_t id, int depth);

static const struct kd_type *lookup(int64_t id, void *ctx)
{
	struct xtype *x = xt_get(ctx, id);

	return x ? &x->t : NULL;
}

/* Skip typedefs and qualifiers (the node is the kd_type's container). */
static struct xtype *strip(struct xtable *xt, int64_t id)
{
	const struct kd_type *t = kd_type_strip(id, lookup, xt);

	return t ? xt_get(xt, t->id) : NULL;
}

static int64_t compute_size(struct xtable *xt, struct xtype *x, int depth)
{
	int64_t elem;

	switch (x->t.kind) {
	case KD_KIND_POINTER:
		return x->t.size > 0 ? x->t.size : xt->dwarf && xt->dwarf->elf->arch->ilp32 ? 4 : 8;
	case KD_KIND_TYPEDEF:
	case KD_KIND_CONST:
	case KD_KIND_VOLATILE:
	case KD_KIND_RESTRICT:
	case KD_KIND_ATOMIC:
		return size_of(xt, x->t.ref, depth + 1);
	case KD_KIND_ARRAY:
		if (x->t.count == KD_ARRAY_FLEXIBLE || x->t.count == 0)
			return 0;
		elem = size_of(xt, x->t.ref, depth + 1);
		if (elem < 0 || (elem && x->t.count > INT64_MAX / elem))
			return -1;
		return elem * x->t.count;
	case KD_KIND_FUNC:
	case KD_KIND_VOID:
		return -1;
	default:
		return x->t.size;
	}
}

static int64_t size_of(struct xtable *xt, int64_t id, int depth)
{
	struct xtype *x = xt_get(xt, id);

	if (!x)
		return -1;
	if (x->align_state & ST_SIZE_DONE)
		return x->t.size;
	if ((x->align_state & ST_SIZE_BUSY) || depth > XT_MAX_DEPTH) {
		xt_problem(xt, x->die, "type refers to itself by value (or nests deeper than %d)",
			   XT_MAX_DEPTH);
		return -1;
	}
	x->align_state |= ST_SIZE_BUSY;
	x->t.size = compute_size(xt, x, depth);
	x = xt_get(xt, id);
	x->align_state = (uint8_t)((x->align_state & ~ST_SIZE_BUSY) | ST_SIZE_DONE);
	return x->t.size;
}

static int64_t align_of(struct xtable *xt, int64_t id, int depth);

static int64_t compute_align(struct xtable *xt, struct xtype *x, int depth)
{
	int64_t a, max = 1;
	bool packed = false;
	size_t i;

	if (x->t.align > 0)
		return x->t.align;	/* DW_AT_alignment */
	switch (x->t.kind) {
	case KD_KIND_BASE:
	case KD_KIND_ENUM:
	case KD_KIND_POINTER:
		if (xt->max_scalar_align > 0 && x->t.size > xt->max_scalar_align)
			return xt->max_scalar_align;
		return x->t.size > 0 ? x->t.size : 1;
	case KD_KIND_TYPEDEF:
	case KD_KIND_CONST:
	case KD_KIND_VOLATILE:
	case KD_KIND_RESTRICT:
	case KD_KIND_ATOMIC:
	case KD_KIND_ARRAY:
		return align_of(xt, x->t.ref, depth + 1);
	case KD_KIND_STRUCT:
	case KD_KIND_UNION:
		if (x->t.flags & KD_TYPE_DECLARATION)
			return 0;
		for (i = 0; i < x->t.nr_members; i++) {
			const struct kd_member *m = &x->t.members[i];

			a = align_of(xt, m->type, depth + 1);
			if (a <= 0)
				continue;
			if (a > max)
				max = a;
			if (!m->bit_size && m->offset % a)
				packed = true;
		}
		if (x->t.size > 0 && x->t.size % max)
			packed = true;
		if (packed) {
			x->t.flags |= KD_TYPE_PACKED;
			return 1;
		}
		return max;
	default:
		return 0;
	}
}

static int64_t align_of(struct xtable *xt, int64_t id, int depth)
{
	struct xtype *x = xt_get(xt, id);
	int64_t a;

	if (!x)
		return 0;
	if (x->align_state & ST_ALIGN_DONE)
		return x->t.align;
	if ((x->align_state & ST_ALIGN_BUSY) || depth > XT_MAX_DEPTH)
		return 0;	/* a cycle or the depth bound: type-dedup.c reports it */
	x->align_state |= ST_ALIGN_BUSY;
	a = compute_align(xt, x, depth);
	x = xt_get(xt, id);
	x->t.align = a;
	x->align_state = (uint8_t)((x->align_state & ~ST_ALIGN_BUSY) | ST_ALIGN_DONE);
	return a;
}

/*
 * Bitfields are stored as pahole shows them: the byte offset of a storage
 * unit the size of the declared type, and the bit position inside it.
 */
static void settle_bitfields(struct xtable *xt, struct xtype *x)
{
	size_t i;

	for (i = 0; i < x->t.nr_members; i++) {
		struct kd_member *m = &x->t.members[i];
		struct xtype *mt;
		int64_t unit;

		if (!m->bit_size || m->offset != XT_BITFIELD_PENDING)
			continue;
		mt = strip(xt, m->type);
		unit = mt ? mt->t.size : -1;
		if (unit <= 0 || unit > INT_MAX / 8)
			unit = 1;	/* no integer type: bytes (member_fits() judges it) */
		m->offset = ((int64_t)m->bit_offset / (unit * 8)) * unit;
		m->bit_offset -= (int)(m->offset * 8);
	}
}

static void settle_enum(struct xtable *xt, struct xtype *x)
{
	struct xtype *under = strip(xt, x->t.ref);
	size_t i;

	if (!under || under->t.kind != KD_KIND_BASE)
		return;
	if (under->t.flags & KD_TYPE_SIGNED) {
		x->t.flags |= KD_TYPE_SIGNED;
		return;
	}
	/* DW_FORM_dataN values were read sign-extended; the enum is unsigned. */
	if (x->t.size > 0 && x->t.size < 8) {
		uint64_t mask = (1ULL << (x->t.size * 8)) - 1;

		for (i = 0; i < x->t.nr_enumerators; i++)
			x->t.enumerators[i].value = (int64_t)((uint64_t)x->t.enumerators[i].value & mask);
	}
}

/* @bytes in bits, saturated at INT64_MAX. */
static int64_t bits_of(int64_t bytes)
{
	return bytes > INT64_MAX / 8 ? INT64_MAX : bytes * 8;
}

/*
 * Does member @m lie inside its struct or union @x? Real DWARF always
 * places members so; hostile DWARF may not (a negative DW_AT_bit_offset
 * result, an offset of 2^61), and every reader after extract counts on it.
 */
static bool member_fits(struct xtable *xt, const struct xtype *x, const struct kd_member *m)
{
	int64_t size = x->t.size, msize, bit;

	if (m->offset < 0 || (m->bit_size && m->bit_offset < 0))
		return false;
	if (size < 0)
		return true;	/* no size to hold it against (a declaration has no members) */
	if (m->bit_size) {
		/* settle_bitfields() keeps offset * 8 + bit_offset the int it read */
		bit = m->offset * 8 + m->bit_offset;
		return m->bit_size <= bits_of(size) - bit;
	}
	if (m->offset > size)
		return false;
	msize = size_of(xt, m->type, 0);
	return msize <= size - m->offset;
}

/* Members outside their type are problems and left out of it. */
static void check_members(struct xtable *xt, struct xtype *x)
{
	size_t i, kept = 0;

	for (i = 0; i < x->t.nr_members; i++) {
		struct kd_member *m = &x->t.members[i];

		if (member_fits(xt, x, m)) {
			x->t.members[kept++] = *m;
			continue;
		}
		if (m->bit_size)
			xt_problem(xt, x->die, "member %s of %s %s at byte %" PRId64 " bit %d, %d bits"
				   " wide, lies outside its %" PRId64 " bytes; left out",
				   m->name ? m->name : "(anonymous)", kd_kind_name(x->t.kind),
				   x->t.name ? x->t.name : "(anonymous)", m->offset, m->bit_offset,
				   m->bit_size, x->t.size);
		else
			xt_problem(xt, x->die, "member %s of %s %s at byte %" PRId64 " lies outside"
				   " its %" PRId64 " bytes; left out", m->name ? m->name : "(anonymous)",
				   kd_kind_name(x->t.kind), x->t.name ? x->t.name : "(anonymous)",
				   m->offset, x->t.size);
		free(m->name);
	}
	x->t.nr_members = kept;
}

int xt_settle_layout(struct xtable *xt)
{
	size_t i;

	for (i = 0; i < xt->n; i++) {
		struct xtype *x = &xt->v[i];

		if (x->t.kind == KD_KIND_STRUCT || x->t.kind == KD_KIND_UNION)
			settle_bitfields(xt, x);
		else if (x->t.kind == KD_KIND_ENUM)
			settle_enum(xt, x);
	}
	for (i = 0; i < xt->n; i++)
		size_of(xt, (int64_t)i + 1, 0);
	for (i = 0; i < xt->n; i++)
		if (xt->v[i].t.kind == KD_KIND_STRUCT || xt->v[i].t.kind == KD_KIND_UNION)
			check_members(xt, &xt->v[i]);
	for (i = 0; i < xt->n; i++)
		align_of(xt, (int64_t)i + 1, 0);
	return 0;
}
