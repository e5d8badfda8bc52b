// SPDX-License-Identifier: GPL-2.0-only
/*
 * DIE -> kd_type. Each queued DIE is read once into its node; the types it
 * refers to are queued in turn (xt_type_of_die), so the whole reachable
 * graph is read without recursion. Sizes, alignments and bitfield
 * positions that depend on other nodes are settled afterwards, in
 * type-layout.c, once every node is known.
 */
#include "extract/types_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/mem.h"

static int fill_common(struct xtable *xt, struct xtype *x, Dwarf_Die die)
{
	const char *name = die_name(xt->dwarf, die);
	Dwarf_Unsigned v;

	if (name) {
		x->t.name = kd_strdup(name);
		if (!x->t.name)
			return -ENOMEM;
	}
	if (die_udata(xt->dwarf, die, DW_AT_byte_size, &v))
		x->t.size = (int64_t)v;
	if (die_udata(xt->dwarf, die, DW_AT_alignment, &v))
		x->t.align = (int64_t)v;
	if (die_udata(xt->dwarf, die, DW_AT_decl_line, &v))
		x->t.decl_line = (int)v;
	x->t.decl_file = xt_decl_file(xt, die);
	return 0;
}

struct child_walk {
	struct xtable *xt;
	int (*fn)(struct xtable *, void *, Dwarf_Die);
	void *arg;
};

static int visit_child(Dwarf_Die child, void *ctx)
{
	struct child_walk *w = ctx;

	return w->fn(w->xt, w->arg, child);
}

/* Iterate the children of @die; @fn returns non-zero to stop (negative: error). */
static int for_each_child(struct xtable *xt, Dwarf_Die die,
			  int (*fn)(struct xtable *, void *, Dwarf_Die), void *arg)
{
	struct child_walk w = { xt, fn, arg };

	return kdwarf_for_each_child(xt->dwarf, die, visit_child, &w, "reading children");
}

/* DW_AT_data_member_location: a constant, or DW_OP_plus_uconst N (DWARF 2). */
static bool member_location(struct xtable *xt, Dwarf_Die die, int64_t *off)
{
	Dwarf_Attribute attr;
	Dwarf_Error derr = NULL;
	Dwarf_Unsigned v;
	Dwarf_Block *bl = NULL;
	Dwarf_Ptr block = NULL;
	Dwarf_Unsigned len = 0;
	Dwarf_Half form = 0;
	bool ok = false;

	if (die_udata(xt->dwarf, die, DW_AT_data_member_location, &v)) {
		*off = (int64_t)v;
		return true;
	}
	if (dwarf_attr(die, DW_AT_data_member_location, &attr, &derr) != DW_DLV_OK)
		return false;
	if (dwarf_whatform(attr, &form, &derr) != DW_DLV_OK)
		form = 0;
	if (form == DW_FORM_exprloc) {
		if (dwarf_formexprloc(attr, &len, &block, &derr) != DW_DLV_OK)
			len = 0;
	} else if (form == DW_FORM_block1 || form == DW_FORM_block2 || form == DW_FORM_block4 ||
		   form == DW_FORM_block) {
		/* DWARF 2 and 3 (gcc -gdwarf-2): a block form, which dwarf_formexprloc refuses. */
		if (dwarf_formblock(attr, &bl, &derr) == DW_DLV_OK) {
			len = bl->bl_len;
			block = bl->bl_data;
		}
	}
	if (derr)
		dwarf_dealloc(xt->dwarf->dbg, derr, DW_DLA_ERROR);
	if (len >= 2 && ((unsigned char *)block)[0] == DW_OP_plus_uconst) {
		/* ULEB128 operand */
		const unsigned char *p = (const unsigned char *)block + 1;
		uint64_t val = 0;
		unsigned shift = 0;
		Dwarf_Unsigned i;

		for (i = 1; i < len && shift < 64; i++, p++, shift += 7) {
			val |= (uint64_t)(*p & 0x7f) << shift;
			if (!(*p & 0x80))
				break;
		}
		*off = (int64_t)val;
		ok = true;
	}
	if (bl)
		dwarf_dealloc(xt->dwarf->dbg, bl, DW_DLA_BLOCK);
	dwarf_dealloc(xt->dwarf->dbg, attr, DW_DLA_ATTR);
	return ok;
}

/*
 * The absolute first bit of a DWARF 2-4 bitfield: DW_AT_bit_offset counts
 * from the most significant bit of a @storage-byte unit at byte @offset.
 * -1 when that is no bit of a type (negative, or beyond int64_t).
 */
static int64_t msb_bit(int64_t offset, Dwarf_Unsigned storage, Dwarf_Unsigned msb,
		       Dwarf_Unsigned width)
{
	int64_t bit;

	if (offset < 0 || offset > INT64_MAX / 8 || storage > INT64_MAX / 8 ||
	    msb > INT64_MAX / 2 || width > INT64_MAX / 2)
		return -1;
	if (__builtin_add_overflow(offset * 8, (int64_t)storage * 8, &bit))
		return -1;
	bit -= (int64_t)msb + (int64_t)width;
	return bit < 0 ? -1 : bit;
}

static int add_member(struct xtable *xt, void *arg, Dwarf_Die die)
{
	int64_t id = *(int64_t *)arg;
	struct xtype *x = xt_get(xt, id);
	struct kd_member *m;
	Dwarf_Unsigned bit_size = 0, v, storage;
	const char *name;
	int64_t type_id, bit;
	const char *attr = "bit offset";
	int err;

	if (die_tag(xt->dwarf, die) != DW_TAG_member)
		return 0;
	if (x->t.nr_members >= XT_MAX_MEMBERS) {
		xt_problem(xt, x->die, "more than %u members; the rest are dropped", XT_MAX_MEMBERS);
		return 1;
	}
	err = xt_type_attr(xt, die, &type_id);
	if (err)
		return err;
	x = xt_get(xt, id);	/* the table may have moved */
	err = kd_grow_array((void **)&x->t.members, &x->members_cap, x->t.nr_members + 1, sizeof(*m));
	if (err)
		return err;
	m = &x->t.members[x->t.nr_members];
	memset(m, 0, sizeof(*m));
	name = die_name(xt->dwarf, die);
	if (name && !(m->name = kd_strdup(name)))
		return -ENOMEM;
	x->t.nr_members++;
	m->type = type_id;
	die_udata(xt->dwarf, die, DW_AT_bit_size, &bit_size);
	if (!member_location(xt, die, &m->offset))
		m->offset = 0;	/* union members */
	if (!bit_size)
		return 0;	/* the offset is checked against the type in type-layout.c */
	if (die_udata(xt->dwarf, die, DW_AT_data_bit_offset, &v)) {
		attr = "DW_AT_data_bit_offset";
		bit = v <= INT64_MAX ? (int64_t)v : -1;	/* absolute; settled in type-layout.c */
	} else if (die_udata(xt->dwarf, die, DW_AT_bit_offset, &v)) {
		attr = "DW_AT_bit_offset";
		/* DWARF 2-4: bits from the MSB of a storage unit at the location. */
		if (!die_udata(xt->dwarf, die, DW_AT_byte_size, &storage)) {
			xt_problem(xt, die_offset(xt->dwarf, die), "bitfield without DW_AT_byte_size");
			storage = 4;
		}
		bit = msb_bit(m->offset, storage, v, bit_size);
	} else {
		v = 0;
		bit = m->offset >= 0 && m->offset <= INT_MAX / 8 ? m->offset * 8 : -1;
	}
	if (bit < 0 || bit > INT_MAX || bit_size > INT_MAX) {
		/* Hostile DWARF: no C bitfield lies there; keep it out of every layout. */
		xt_problem(xt, die_offset(xt->dwarf, die), "bitfield %s (byte %" PRId64 ", %s %" PRIu64
			   ", %" PRIu64 " bits wide) lies outside its %s; left out",
			   name ? name : "(anonymous)", m->offset, attr, (uint64_t)v,
			   (uint64_t)bit_size, kd_kind_name(x->t.kind));
		free(m->name);
		x->t.nr_members--;
		return 0;
	}
	m->bit_size = (int)bit_size;
	m->bit_offset = (int)bit;
	m->offset = XT_BITFIELD_PENDING;
	return 0;
}

static int add_enumerator(struct xtable *xt, void *arg, Dwarf_Die die)
{
	int64_t id = *(int64_t *)arg;
	struct xtype *x = xt_get(xt, id);
	struct kd_enumerator *e;
	Dwarf_Signed v = 0;
	const char *name;
	int err;

	if (die_tag(xt->dwarf, die) != DW_TAG_enumerator)
		return 0;
	if (x->t.nr_enumerators >= XT_MAX_MEMBERS) {
		xt_problem(xt, x->die, "more than %u enumerators; the rest are dropped", XT_MAX_MEMBERS);
		return 1;
	}
	err = kd_grow_array((void **)&x->t.enumerators, &x->enumerators_cap,
			    x->t.nr_enumerators + 1, sizeof(*e));
	if (err)
		return err;
	e = &x->t.enumerators[x->t.nr_enumerators];
	name = die_name(xt->dwarf, die);
	e->name = kd_strdup(name ? name : "?");
	if (!e->name)
		return -ENOMEM;
	if (!die_enumerator_value(xt->dwarf, die, &v))
		xt_problem(xt, die_offset(xt->dwarf, die), "enumerator %s without a value", e->name);
	e->value = v;
	x->t.nr_enumerators++;
	return 0;
}

static int add_param(struct xtable *xt, void *arg, Dwarf_Die die)
{
	int64_t id = *(int64_t *)arg;
	struct xtype *x = xt_get(xt, id);
	int64_t type_id;
	int err;

	if (die_tag(xt->dwarf, die) == DW_TAG_unspecified_parameters) {
		x->t.flags |= KD_TYPE_VARIADIC;
		return 0;
	}
	if (die_tag(xt->dwarf, die) != DW_TAG_formal_parameter)
		return 0;
	if (x->t.nr_members >= XT_MAX_MEMBERS)
		return 1;
	err = xt_type_attr(xt, die, &type_id);
	if (err)
		return err;
	x = xt_get(xt, id);
	err = kd_grow_array((void **)&x->t.members, &x->members_cap, x->t.nr_members + 1,
			    sizeof(struct kd_member));
	if (err)
		return err;
	memset(&x->t.members[x->t.nr_members], 0, sizeof(struct kd_member));
	x->t.members[x->t.nr_members].type = type_id;
	x->t.members[x->t.nr_members].offset = -1;
	x->t.nr_members++;
	return 0;
}

struct subranges {
	int64_t counts[32];
	int n;
};

static int read_subrange(struct xtable *xt, void *arg, Dwarf_Die die)
{
	struct subranges *sr = arg;
	Dwarf_Unsigned count;
	Dwarf_Signed ub;

	if (die_tag(xt->dwarf, die) != DW_TAG_subrange_type && die_tag(xt->dwarf, die) != DW_TAG_enumeration_type)
		return 0;
	if (sr->n == (int)(sizeof(sr->counts) / sizeof(sr->counts[0]))) {
		xt_problem(xt, die_offset(xt->dwarf, die), "array with more than 32 dimensions");
		return 1;
	}
	if (die_udata(xt->dwarf, die, DW_AT_count, &count))
		sr->counts[sr->n] = (int64_t)count;
	else if (die_sdata(xt->dwarf, die, DW_AT_upper_bound, &ub))
		sr->counts[sr->n] = ub < 0 ? 0 : (int64_t)ub + 1;
	else
		sr->counts[sr->n] = KD_ARRAY_FLEXIBLE;
	sr->n++;
	return 0;
}

/* T x[2][3] is array(2) of array(3) of T: one node per dimension. */
static int fill_array(struct xtable *xt, int64_t id, Dwarf_Die die)
{
	struct subranges sr = { .n = 0 };
	int64_t elem, inner, outer = id;
	int err, i;

	err = xt_type_attr(xt, die, &elem);
	if (err)
		return err;
	err = for_each_child(xt, die, read_subrange, &sr);
	if (err < 0)
		return err;
	if (!sr.n)
		sr.counts[sr.n++] = KD_ARRAY_FLEXIBLE;
	for (i = 0; i < sr.n; i++) {
		if (i + 1 < sr.n) {
			err = xt_new(xt, KD_KIND_ARRAY, &inner);
			if (err)
				return err;
		} else {
			inner = elem;
		}
		xt_get(xt, outer)->t.kind = KD_KIND_ARRAY;
		xt_get(xt, outer)->t.count = sr.counts[i];
		xt_get(xt, outer)->t.ref = inner;
		outer = inner;
	}
	return 0;
}

static enum kd_kind kind_of_tag(Dwarf_Half tag)
{
	switch (tag) {
	case DW_TAG_base_type:		return KD_KIND_BASE;
	case DW_TAG_unspecified_type:	return KD_KIND_BASE;
	case DW_TAG_pointer_type:	return KD_KIND_POINTER;
	case DW_TAG_reference_type:	return KD_KIND_POINTER;
	case DW_TAG_structure_type:	return KD_KIND_STRUCT;
	case DW_TAG_class_type:		return KD_KIND_STRUCT;
	case DW_TAG_union_type:		return KD_KIND_UNION;
	case DW_TAG_enumeration_type:	return KD_KIND_ENUM;
	case DW_TAG_typedef:		return KD_KIND_TYPEDEF;
	case DW_TAG_array_type:		return KD_KIND_ARRAY;
	case DW_TAG_const_type:		return KD_KIND_CONST;
	case DW_TAG_volatile_type:	return KD_KIND_VOLATILE;
	case DW_TAG_restrict_type:	return KD_KIND_RESTRICT;
	case DW_TAG_atomic_type:	return KD_KIND_ATOMIC;
	case DW_TAG_subroutine_type:	return KD_KIND_FUNC;
	default:			return KD_KIND__COUNT;
	}
}

static int read_node(struct xtable *xt, int64_t id)
{
	Dwarf_Error derr = NULL;
	Dwarf_Die die = NULL;
	struct xtype *x = xt_get(xt, id);
	Dwarf_Unsigned enc;
	Dwarf_Half tag;
	enum kd_kind kind;
	int64_t ref;
	int err;

	if (dwarf_offdie_b(xt->dwarf->dbg, x->die, 1, &die, &derr) != DW_DLV_OK) {
		if (derr)
			dwarf_dealloc(xt->dwarf->dbg, derr, DW_DLA_ERROR);
		xt_problem(xt, x->die, "type reference to an unreadable DIE");
		return 0;	/* stays void */
	}
	tag = die_tag(xt->dwarf, die);
	kind = kind_of_tag(tag);
	if (kind == KD_KIND__COUNT) {
		xt_problem(xt, x->die, "unsupported DWARF tag 0x%x used as a type", tag);
		kind = KD_KIND_BASE;
	}
	x->t.kind = kind;
	err = fill_common(xt, x, die);
	if (err)
		goto out;
	switch (kind) {
	case KD_KIND_BASE:
		if (die_udata(xt->dwarf, die, DW_AT_encoding, &enc) &&
		    (enc == DW_ATE_signed || enc == DW_ATE_signed_char))
			x->t.flags |= KD_TYPE_SIGNED;
		if (!x->t.name && !(x->t.name = kd_strdup("?")))
			err = -ENOMEM;
		break;
	case KD_KIND_STRUCT:
	case KD_KIND_UNION:
		if (die_flag(xt->dwarf, die, DW_AT_declaration)) {
			x->t.flags |= KD_TYPE_DECLARATION;
			x->t.size = -1;
			if (!xt->declarations_expected)
				xt_problem(xt, x->die, "%s %s is only declared in this compilation unit;"
					   " its layout is unknown", kd_kind_name(kind),
					   x->t.name ? x->t.name : "(anonymous)");
			break;
		}
		err = for_each_child(xt, die, add_member, &id);
		break;
	case KD_KIND_ENUM:
		err = xt_type_attr(xt, die, &ref);
		if (!err) {
			xt_get(xt, id)->t.ref = ref;
			err = for_each_child(xt, die, add_enumerator, &id);
		}
		break;
	case KD_KIND_ARRAY:
		err = fill_array(xt, id, die);
		break;
	case KD_KIND_FUNC:
		err = xt_type_attr(xt, die, &ref);
		if (!err) {
			xt_get(xt, id)->t.ref = ref;
			err = for_each_child(xt, die, add_param, &id);
		}
		break;
	default:	/* pointer, typedef, qualifiers */
		err = xt_type_attr(xt, die, &ref);
		if (!err)
			xt_get(xt, id)->t.ref = ref;
		break;
	}
	if (err > 0)
		err = 0;
out:
	dwarf_dealloc_die(die);
	return err;
}

int xt_drain(struct xtable *xt)
{
	int err;

	while (xt->nr_todo) {
		int64_t id = xt->todo[--xt->nr_todo];

		err = read_node(xt, id);
		if (err)
			return err;
	}
	return 0;
}
