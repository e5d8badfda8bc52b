// SPDX-License-Identifier: GPL-2.0-only
/*
 * Struct and union layouts compared member by member (diff-types.c reaches
 * a pair of aggregates and hands it here). Members of anonymous structs
 * and unions are flattened to absolute bit positions and matched by name,
 * then renamed ones by place and type. Bitmaps of the old layout (its
 * members, the ones kept, reserved space, the contract's unused bytes)
 * decide what a new member's bytes were: padding, a kept member (an
 * alias), reserved or unused space, or another member's. The size and
 * alignment changes are judged last, knowing whether a member broke.
 */
#include "diff/type-walk.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mem.h"
#include "lib/typegraph.h"

/* --- aggregates ---------------------------------------------------------- */

struct leaf {
	const char *name;
	int64_t type;
	int64_t byte;		/* absolute offset as stored, for messages (saturated) */
	int64_t bit;		/* absolute first bit (clamped, see MAX_BIT) */
	int64_t bits;		/* width in bits (0: flexible) */
	int bit_size;		/* bitfield width, 0 if not a bitfield */
	int depth;		/* 0: the aggregate's own member; more: lifted from an unnamed one */
	long match;		/* index on the other side, -1 none */
	bool renamed;
	struct dt_resv_why resv;	/* old side: is it reserved space, and who says so */
};

struct leaves {
	struct leaf *v;
	size_t n, cap;
};

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
static bool bits_all(const unsigned char *map, int64_t nbits, int64_t from, int64_t len, bool set)
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

static int describe_leaf(const struct diff_engine *e, int side, const struct leaf *f,
			 struct kd_buf *b)
{
	struct kd_buf t = KD_BUF_INIT;
	/* A C declaration: "unsigned char data[] at 4", "void (*cb)(int) at 8". */
	int err = tgraph_declare(&e->g[side], f->type, f->name, &t);

	kd_buf_reset(b);
	if (!err && f->bit_size)
		err = kd_buf_addf(b, "%s:%d at bit %" PRId64, t.s, f->bit_size, f->bit);
	else if (!err)
		err = kd_buf_addf(b, "%s at %" PRId64, t.s, f->byte);
	kd_buf_release(&t);
	return err;
}

struct agg {
	struct diff_engine *e;
	size_t node;
	const struct kd_type *t[2];
	struct leaves l[2];
	unsigned char *old_map, *kept_map, *reserved_map;	/* bits of the old layout */
	unsigned char *unused_map;	/* old bits of members the contract calls unused */
	int64_t nbits;
	bool broken;		/* a breaking member-level change (tail growth aside) */
	struct kd_buf subj, ov, nv;
	struct kd_buf why;	/* a contract fact's evidence (dt_member_unread()) */
};

/* A change of member @member; *@idx: its index. */
static int agg_emit(struct agg *g, enum diff_kind kind, enum diff_rule_id rule, const char *member,
		    const char *ov, const char *nv, size_t *idx)
{
	const struct diff_rule *r = diff_rule(rule);
	int err;

	kd_buf_reset(&g->subj);
	err = kd_buf_addf(&g->subj, "%s.%s", g->e->nodes[g->node].display, member);
	/*
	 * An added member, or a new name for bytes, moves nothing: the old
	 * layout's breakage is its own changes'.
	 */
	if (r->verdict == DIFF_BREAKING && kind != DIFF_K_TYPE_MEMBER_ADDED &&
	    kind != DIFF_K_TYPE_MEMBER_RENAMED)
		g->broken = true;
	return err ? err : dt_emit(g->e, g->node, kind, rule, g->subj.s, ov, nv, NULL, idx);
}

/* agg_emit() of a change that reserved space (@why, of member @resv) made harmless. */
static int agg_emit_resv(struct agg *g, enum diff_kind kind, enum diff_rule_id rule,
			 const char *member, const char *ov, const char *nv, const char *resv,
			 const struct dt_resv_why *why, size_t *idx)
{
	int err = agg_emit(g, kind, rule, member, ov, nv, idx);

	if (err || (rule != DIFF_R_RESERVED_REUSE && rule != DIFF_R_RESERVED_CARVED &&
		    rule != DIFF_R_PADDING_NAMED && rule != DIFF_R_PADDING_MEMBER_REUSE_UNCONTRACTED))
		return err;
	return dt_resv_evidence(g->e, *idx, g->e->nodes[g->node].display, resv, why);
}

static int match_members(struct agg *g)
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
static bool padding_or_unused(const struct agg *g, int64_t from, int64_t len)
{
	int64_t i;

	if (from < 0 || len < 0 || from + len > g->nbits)
		return false;
	for (i = from; i < from + len; i++)
		if ((g->old_map[i / 8] & (1u << (i % 8))) && !(g->unused_map[i / 8] & (1u << (i % 8))))
			return false;
	return true;
}

static int build_maps(struct agg *g)
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
static bool is_last(const struct leaves *l, const struct leaf *f)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i].bit > f->bit)
			return false;
	return true;
}

/*
 * Is the growth of kept member @a/@b its extensible aggregate's tail growth?
 * In a union, every alternative starts at 0 and grows into bytes no other
 * alternative's reader knows (union bpf_attr's link_create); in a struct,
 * only the last member that ended where the struct did grows past its end.
 */
static bool at_ext_tail(const struct agg *g, const struct leaf *a, const struct leaf *b)
{
	if (!dt_node_extensible(g->e, g->node, g->t[0]))
		return false;
	if (g->t[0]->kind == KD_KIND_UNION && g->t[1]->kind == KD_KIND_UNION)
		return !a->depth && !b->depth;
	return a->bit == b->bit && is_last(&g->l[0], a) && is_last(&g->l[1], b) &&
	       a->bit + a->bits == dt_bits_of(g->t[0]->size);
}

static bool message_said(struct agg *g);
static bool one_element_either_way(const struct agg *g, const struct leaf *a, const struct leaf *b);

/*
 * Old array @a and new @b at one offset, of one element type, @b shorter:
 * does the contract call every element @a loses unused? Its line into g->why.
 */
static bool lost_unused(struct agg *g, const struct leaf *a, const struct leaf *b)
{
	const struct kd_type *ta = tgraph_strip(&g->e->g[0], a->type);
	const struct kd_type *tb = tgraph_strip(&g->e->g[1], b->type);
	struct diff_where w = { NULL, 0 };
	int64_t from;

	if (!ta || !tb || ta->kind != KD_KIND_ARRAY || tb->kind != KD_KIND_ARRAY || a->bit != b->bit ||
	    tb->count < 0 || ta->count <= tb->count || !dt_equivalent(g->e->g, ta->ref, tb->ref) ||
	    !dt_contract_unused(g->e, g->t[0]->name, a->name, &from, &w) || from > tb->count)
		return false;
	kd_buf_reset(&g->why);
	return !kd_buf_addf(&g->why, "%s:%d: %s.%s is unused from element %" PRId64 " on: the kernel"
			    " never touched the %" PRId64 " element(s) it lost", w.file ? w.file : "contract",
			    w.line, g->e->nodes[g->node].display, a->name, from, ta->count - tb->count);
}

static int compare_matched(struct agg *g, size_t i)
{
	const struct leaf *a = &g->l[0].v[i], *b = &g->l[1].v[a->match];
	const struct dt_resv_why *why = &a->resv;
	bool reserved = why->is;
	size_t before = g->e->nodes[g->node].nr_changes, first = g->e->r->nr_changes, k, idx;
	int err = 0;

	if (a->renamed) {
		struct diff_where ow = { NULL, 0 };
		enum diff_rule_id rule = reserved ? DIFF_R_RESERVED_REUSE : DIFF_R_MEMBER_RENAMED;

		/* Padding by its name only, given a name that means something: padding reused. */
		if (reserved && why->kind == DIFF_EV_CONVENTION && why->padding)
			rule = dt_padding_member_rule(g->e, g->node, g->t[0]->name, g->t[1]->name,
						      b->name, &ow, &g->why);
		err = agg_emit_resv(g, DIFF_K_TYPE_MEMBER_RENAMED, rule, a->name, a->name, b->name,
				    a->name, why, &idx);
		if (!err)
			err = dt_meaning_evidence(g->e, idx, g->node, rule, b->name, &ow, &g->why);
		return err ? err : dt_descend(g->e, g->node, b->name, a->type, b->type, 0);
	}
	if (a->bit_size || b->bit_size) {
		if (a->bit != b->bit || a->bit_size != b->bit_size) {
			kd_buf_reset(&g->ov);
			kd_buf_reset(&g->nv);
			/* A plain member's width is its size (__u32 x -> __u32 x:29). */
			err = kd_buf_addf(&g->ov, "bit %" PRId64 ", width %" PRId64, a->bit,
					  a->bit_size ? (int64_t)a->bit_size : a->bits);
			if (!err)
				err = kd_buf_addf(&g->nv, "bit %" PRId64 ", width %" PRId64, b->bit,
						  b->bit_size ? (int64_t)b->bit_size : b->bits);
			if (!err)
				err = agg_emit_resv(g, DIFF_K_TYPE_MEMBER_BITFIELD,
						    reserved ? DIFF_R_RESERVED_REUSE : DIFF_R_MEMBER_BITFIELD,
						    a->name, g->ov.s, g->nv.s, a->name, why, &idx);
		}
	} else if (a->bit != b->bit || a->byte != b->byte) {
		kd_buf_reset(&g->ov);
		kd_buf_reset(&g->nv);
		err = kd_buf_addf(&g->ov, "%" PRId64, a->byte);
		if (!err)
			err = kd_buf_addf(&g->nv, "%" PRId64, b->byte);
		/* Reserved space carved from its front: the rest moved within its old bytes. */
		if (!err)
			err = agg_emit_resv(g, DIFF_K_TYPE_MEMBER_OFFSET,
					    reserved && b->bit >= a->bit && b->bit + b->bits <= a->bit + a->bits &&
					    g->t[0]->size == g->t[1]->size ? DIFF_R_RESERVED_CARVED : DIFF_R_MEMBER_MOVED,
					    a->name, g->ov.s, g->nv.s, a->name, why, &idx);
	}
	if (err)
		return err;
	kd_buf_reset(&g->subj);
	err = kd_buf_addf(&g->subj, "%s.%s", g->e->nodes[g->node].display, a->name);
	if (!err)
		err = dt_slot_with(g->e, g->node, SLOT_MEMBER, g->e->nodes[g->node].display, g->subj.s,
			   a->name, a->type, b->type, reserved,
			   (g->t[0]->kind == KD_KIND_STRUCT && g->t[0]->size == g->t[1]->size &&
			    a->bit == b->bit && is_last(&g->l[0], a) && is_last(&g->l[1], b) ?
			    SLOT_LAST_SAME_SIZE : 0) | (at_ext_tail(g, a, b) ? SLOT_EXT_TAIL : 0) |
			   (one_element_either_way(g, a, b) && message_said(g) ? SLOT_LAST_MESSAGE : 0) |
			   (lost_unused(g, a, b) ? SLOT_LOST_UNUSED : 0) |
			   (g->t[0]->kind == KD_KIND_UNION && g->t[1]->kind == KD_KIND_UNION &&
			    g->t[0]->size == g->t[1]->size && !a->depth && !b->depth ? SLOT_UNION_ALT : 0));
	for (k = before; !err && k < g->e->nodes[g->node].nr_changes; k++) {
		const struct diff_change *c = &g->e->r->changes[g->e->nodes[g->node].changes[k]];

		if (c->rule->verdict == DIFF_BREAKING)
			g->broken = true;
	}
	/* The slot's own change (array bound, type) of reserved space, or of a contract fact. */
	for (k = first; !err && k < g->e->r->nr_changes; k++) {
		const struct diff_rule *r = g->e->r->changes[k].rule;

		if (r == diff_rule(DIFF_R_RESERVED_REUSE) &&
		    g->e->r->changes[k].evidence_kind == DIFF_EV_LAYOUT)
			err = dt_resv_evidence(g->e, k, g->e->nodes[g->node].display, a->name, why);
		else if (r == diff_rule(DIFF_R_ARRAY_SHRINK_UNUSED) ||
			 r == diff_rule(DIFF_R_ARRAY_ONE_ELEMENT_MESSAGE))
			err = diff_evidence(g->e->r, k, DIFF_EV_CONTRACT, "%s", g->why.s ? g->why.s : "");
	}
	return err;
}

/*
 * The rule of an added member. Unions grow at the tail as structs do
 * (union bpf_attr). A member that starts inside the old layout and ends
 * past it is judged on its bytes inside: over padding or over a kept
 * member (a new, larger union alternative) it is a tail growth.
 */
/*
 * Are bits [@from, @from + @len) of the old layout each a kept member's or
 * padding (a union alternative naming a group of kept members and the
 * holes between them: tc_u32_sel's __struct_group hdr in 6.12)? The
 * caller knows they are not all padding.
 */
static bool kept_or_padding(const struct agg *g, int64_t from, int64_t len)
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
 * Is new member @b, laid over old padding, padding itself: a name that
 * says reserved space (or the contract's reserved) and no kind
 * (dt_member_reserved())? *why (may be NULL) says who decided.
 */
static bool padding_named(const struct diff_engine *e, const char *type, const struct leaf *b,
			  struct dt_resv_why *why)
{
	struct dt_resv_why w;

	return dt_member_reserved(e, type, b->name, why ? why : &w);
}

static int classify_added(struct agg *g, const struct leaf *b, enum diff_rule_id *rule,
			  const struct leaf **resv, struct diff_where *out_where)
{
	const char *tname = g->t[0]->name;
	enum diff_rule_id tail;
	bool grows = (g->t[1]->kind == KD_KIND_STRUCT || g->t[1]->kind == KD_KIND_UNION) &&
		     g->t[0]->size >= 0 && g->t[1]->size > g->t[0]->size;
	int64_t inside = b->bits;

	tail = dt_tail_rule(g->e, g->node, g->t[0]);
	if (!b->bits) {
		*rule = DIFF_R_MEMBER_ADDED_EMPTY;
		return 0;
	}
	if (grows && b->bit >= dt_bits_of(g->t[0]->size)) {
		*rule = tail;
		return 0;
	}
	if (!g->nbits || (b->bit + b->bits > g->nbits && !grows)) {
		*rule = DIFF_R_MEMBER_ADDED;
		return 0;
	}
	if (b->bit + b->bits > g->nbits)
		inside = g->nbits - b->bit;
	if (bits_all(g->old_map, g->nbits, b->bit, inside, false))
		*rule = dt_contract_reserved(g->e, tname, NULL) ? DIFF_R_PADDING_REUSE :
			dt_contract_out(g->e, tname, b->name, out_where) ? DIFF_R_PADDING_REUSE_OUT :
			padding_named(g->e, tname, b, NULL) ? DIFF_R_PADDING_NAMED :
			dt_member_unread(g->e, g->node, g->t[1]->name, b->name, false, &g->why) ?
			DIFF_R_MEMBER_ADDED_UNREAD : DIFF_R_PADDING_REUSE_UNCONTRACTED;
	else if (kept_or_padding(g, b->bit, inside))
		*rule = inside < b->bits ? tail : DIFF_R_MEMBER_ADDED_ALIAS;
	else if (inside == b->bits && padding_or_unused(g, b->bit, inside) &&
		 dt_member_unread(g->e, g->node, g->t[1]->name, b->name, true, &g->why))
		*rule = DIFF_R_MEMBER_ADDED_UNREAD;
	else if (!bits_all(g->reserved_map, g->nbits, b->bit, inside, false))
		*rule = DIFF_R_RESERVED_REUSE;
	else
		*rule = DIFF_R_MEMBER_ADDED;
	if (*rule == DIFF_R_RESERVED_REUSE) {
		bool padding_only = true;
		size_t i;

		for (i = 0; i < g->l[0].n; i++) {
			const struct leaf *a = &g->l[0].v[i];

			if (!a->resv.is || a->bit >= b->bit + inside || b->bit >= a->bit + a->bits)
				continue;
			if (!*resv)
				*resv = a;
			if (a->resv.kind != DIFF_EV_CONVENTION || !a->resv.padding)
				padding_only = false;
		}
		if (*resv && padding_only)
			*rule = dt_padding_member_rule(g->e, g->node, g->t[0]->name,
						       g->t[1]->name, b->name, out_where, &g->why);
	}
	return 0;
}

/*
 * Do members of the new layout cover the bits old member @a had? Walked by
 * intervals, not bits: a member may be 2^60 bits wide.
 */
static bool covered_in_new(const struct agg *g, const struct leaf *a)
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

/* The evidence of change @idx: a contract line, said in @why. */
static int contract_evidence(struct diff_engine *e, size_t idx, const struct kd_buf *why)
{
	return diff_evidence(e->r, idx, DIFF_EV_CONTRACT, "%s", why->s ? why->s : "");
}

/* Does the contract call the old type a message? Its line into g->why. */
static bool message_said(struct agg *g)
{
	struct diff_where w = { NULL, 0 };

	if (!dt_contract_message(g->e, g->t[0]->name, &w))
		return false;
	kd_buf_reset(&g->why);
	return !kd_buf_addf(&g->why, "%s:%d: %s is message: sized by a length, read at any address",
			    w.file ? w.file : "contract", w.line, g->e->nodes[g->node].display);
}

/* Old @a and new @b: the last members, a [1] and a [] (either way) of one element type at one offset. */
static bool one_element_either_way(const struct agg *g, const struct leaf *a, const struct leaf *b)
{
	const struct kd_type *ta = tgraph_strip(&g->e->g[0], a->type);
	const struct kd_type *tb = tgraph_strip(&g->e->g[1], b->type);

	return ta && tb && ta->kind == KD_KIND_ARRAY && tb->kind == KD_KIND_ARRAY && a->bit == b->bit &&
	       ((ta->count == 1 && tb->count <= 0) || (ta->count <= 0 && tb->count == 1)) &&
	       is_last(&g->l[0], a) && is_last(&g->l[1], b) && dt_equivalent(g->e->g, ta->ref, tb->ref);
}

/*
 * The rule of a size change that is not a tail growth (no breaking member
 * change): a message whose last member turned between [1] and [], the size
 * moving by no more than that element; bytes the kernel never touched lost
 * at the tail; else type-size.
 */
static enum diff_rule_id size_rule(struct agg *g)
{
	const struct kd_type *ta = g->t[0], *tb = g->t[1];
	struct diff_where w = { NULL, 0 };
	size_t i;

	for (i = 0; i < g->l[0].n; i++) {
		const struct leaf *a = &g->l[0].v[i], *b;
		const struct kd_type *arr;
		int64_t elem, lo, hi;

		if (a->match < 0)
			continue;
		b = &g->l[1].v[a->match];
		if (!one_element_either_way(g, a, b) || !message_said(g))
			continue;
		arr = tgraph_strip(&g->e->g[0], a->type);
		elem = arr->count == 1 ? a->bits / 8 : tgraph_size(&g->e->g[1], b->type);
		lo = ta->size < tb->size ? ta->size : tb->size;
		hi = ta->size < tb->size ? tb->size : ta->size;
		if (elem > 0 && lo >= a->byte && hi - lo <= elem + (ta->align > 0 ? ta->align : 0))
			return DIFF_R_ARRAY_ONE_ELEMENT_MESSAGE;
	}
	if (tb->size >= 0 && tb->size < ta->size && g->nbits &&
	    padding_or_unused(g, dt_bits_of(tb->size), g->nbits - dt_bits_of(tb->size))) {
		for (i = 0; i < g->l[0].n; i++) {
			const struct leaf *a = &g->l[0].v[i];

			if (a->bit + a->bits > dt_bits_of(tb->size) &&
			    dt_contract_unused(g->e, ta->name, a->name, NULL, &w))
				break;
		}
		/* Tail padding alone is no fact of the contract's: an array's stride changes. */
		if (i == g->l[0].n)
			return DIFF_R_TYPE_SIZE;
		kd_buf_reset(&g->why);
		if (kd_buf_addf(&g->why, "%s:%d: the bytes %s lost at its tail (%" PRId64 " -> %" PRId64
				") are padding or unused: the kernel never touches them",
				w.file ? w.file : "contract", w.line, g->e->nodes[g->node].display,
				ta->size, tb->size))
			return DIFF_R_TYPE_SIZE;
		return DIFF_R_TAIL_SHRINK_UNUSED;
	}
	return DIFF_R_TYPE_SIZE;
}

/*
 * The rule of an alignment change: the contract's prefix or message first;
 * else a named type that no type of either kernel embeds, both kernels
 * read with their headers (so that every UAPI type that could embed it is
 * in the graphs), is placed by nothing the kernel lays out.
 */
static int align_rule(struct agg *g, enum diff_rule_id *rule)
{
	const struct diff_result *r = g->e->r;
	bool embedded = true;
	int err = 0;

	if (dt_contract_prefix(g->e, g->t[0]->name, NULL))
		*rule = DIFF_R_TYPE_ALIGN_PREFIX;
	else if (message_said(g))
		*rule = DIFF_R_TYPE_ALIGN_MESSAGE;
	else {
		if (r->coverage[0].headers && r->coverage[1].headers && g->t[0]->name &&
		    g->t[1]->name)
			err = dt_embedded(g->e, g->t[0]->name, &embedded);
		if (!err && !embedded)
			err = dt_embedded(g->e, g->t[1]->name, &embedded);
		*rule = embedded ? DIFF_R_TYPE_ALIGN : DIFF_R_TYPE_ALIGN_UNEMBEDDED;
	}
	return err;
}

int dt_compare_aggregate(struct diff_engine *e, size_t node, const struct kd_type *ta,
			     const struct kd_type *tb)
{
	struct agg g = { .e = e, .node = node, .t = { ta, tb },
			 .subj = KD_BUF_INIT, .ov = KD_BUF_INIT, .nv = KD_BUF_INIT, .why = KD_BUF_INIT };
	enum diff_rule_id rule;
	size_t i, idx;
	int err;

	err = flatten(&e->g[0], ta, 0, &g.l[0], 0);
	if (!err)
		err = flatten(&e->g[1], tb, 0, &g.l[1], 0);
	if (err)
		goto out;
	if (ta->hash == tb->hash && g.l[0].n == g.l[1].n) {
		for (i = 0; !err && i < g.l[0].n; i++)
			err = dt_descend(e, node, g.l[0].v[i].name, g.l[0].v[i].type, g.l[1].v[i].type,
				      0);
		goto out;
	}
	err = match_members(&g);
	if (!err)
		err = build_maps(&g);
	for (i = 0; !err && i < g.l[0].n; i++) {
		const struct leaf *a = &g.l[0].v[i];

		if (a->match >= 0) {
			err = compare_matched(&g, i);
			continue;
		}
		/* Reserved space: reused by new members, or left as padding. */
		rule = a->resv.is ? (covered_in_new(&g, a) ? DIFF_R_RESERVED_REUSE : DIFF_R_PADDING_NAMED) :
		       dt_member_unread(e, node, ta->name, a->name, false, &g.why) ? DIFF_R_MEMBER_REMOVED_UNUSED :
		       DIFF_R_MEMBER_REMOVED;
		err = describe_leaf(e, 0, a, &g.ov);
		if (!err)
			err = agg_emit_resv(&g, DIFF_K_TYPE_MEMBER_REMOVED, rule, a->name, g.ov.s, NULL,
					    a->name, &a->resv, &idx);
		if (!err && rule == DIFF_R_MEMBER_REMOVED_UNUSED)
			err = contract_evidence(e, idx, &g.why);
	}
	for (i = 0; !err && i < g.l[1].n; i++) {
		const struct leaf *b = &g.l[1].v[i];

		if (b->match >= 0)
			continue;
		const struct leaf *resv = NULL;
		struct diff_where ow = { NULL, 0 };

		err = classify_added(&g, b, &rule, &resv, &ow);
		if (!err)
			err = describe_leaf(e, 1, b, &g.nv);
		if (!err)
			err = agg_emit_resv(&g, DIFF_K_TYPE_MEMBER_ADDED, rule, b->name, NULL, g.nv.s,
					    resv ? resv->name : NULL, resv ? &resv->resv : NULL, &idx);
		if (!err)
			err = dt_struct_fact_evidence(e, idx, node, rule, ta->name);
		if (!err && rule == DIFF_R_PADDING_NAMED) {
			struct dt_resv_why why;

			padding_named(e, ta->name, b, &why);
			err = dt_resv_evidence(e, idx, e->nodes[node].display, b->name, &why);
		}
		if (!err)
			err = dt_meaning_evidence(e, idx, node, rule, b->name, &ow, &g.why);
	}
	if (!err && ta->size != tb->size) {
		kd_buf_reset(&g.ov);
		kd_buf_reset(&g.nv);
		err = kd_buf_addf(&g.ov, "%" PRId64, ta->size);
		if (!err)
			err = kd_buf_addf(&g.nv, "%" PRId64, tb->size);
		rule = DIFF_R_TYPE_SIZE;
		if ((tb->kind == KD_KIND_STRUCT || tb->kind == KD_KIND_UNION) && tb->size > ta->size &&
		    ta->size >= 0 && !g.broken)
			rule = dt_tail_rule(e, node, ta);
		else if (!g.broken)
			rule = size_rule(&g);
		if (!err)
			err = dt_emit(e, node, DIFF_K_TYPE_SIZE, rule, e->nodes[node].display, g.ov.s, g.nv.s,
				      NULL, &idx);
		if (!err)
			err = dt_struct_fact_evidence(e, idx, node, rule, ta->name);
		if (!err && (rule == DIFF_R_TAIL_SHRINK_UNUSED || rule == DIFF_R_ARRAY_ONE_ELEMENT_MESSAGE))
			err = contract_evidence(e, idx, &g.why);
	}
	/*
	 * DWARF states an alignment only with DW_AT_alignment; otherwise it is
	 * inferred: members below their natural alignment prove packing (1),
	 * members all at natural offsets give the largest member alignment,
	 * although the struct may be packed as well (a packed epoll_event whose
	 * members widen to 8 bytes each looks natural). Between a proven-packed
	 * side and a natural-looking one the alignment is not known to have
	 * changed; a real change of packing moves a member or changes the size,
	 * which are reported on their own. BTF states no alignment at all: a
	 * side read from a bootable image has every alignment inferred, so
	 * against a DWARF side (where __aligned(32) is stated) nothing is
	 * known to have changed; a real change moves a member or changes the
	 * size there too.
	 */
	if (!err && ta->align > 0 && tb->align > 0 && ta->align != tb->align &&
	    !((ta->flags ^ tb->flags) & KD_TYPE_PACKED) &&
	    e->r->coverage[0].btf == e->r->coverage[1].btf) {
		kd_buf_reset(&g.ov);
		kd_buf_reset(&g.nv);
		err = kd_buf_addf(&g.ov, "%" PRId64, ta->align);
		if (!err)
			err = kd_buf_addf(&g.nv, "%" PRId64, tb->align);
		if (!err)
			err = align_rule(&g, &rule);
		if (!err)
			err = dt_emit(e, node, DIFF_K_TYPE_ALIGN, rule, e->nodes[node].display,
				   g.ov.s, g.nv.s, NULL, &idx);
		if (!err)
			err = dt_struct_fact_evidence(e, idx, node, rule, ta->name);
		if (!err && rule == DIFF_R_TYPE_ALIGN_MESSAGE)
			err = contract_evidence(e, idx, &g.why);
		if (!err && rule == DIFF_R_TYPE_ALIGN_UNEMBEDDED)
			err = diff_evidence(e->r, idx, DIFF_EV_LAYOUT,
					    "no type of either kernel (DWARF and header views) embeds %s"
					    " or an array of it: it crosses as the bytes behind a pointer",
					    e->nodes[node].display);
	}
out:
	free(g.l[0].v);
	free(g.l[1].v);
	free(g.old_map);
	free(g.kept_map);
	free(g.reserved_map);
	free(g.unused_map);
	kd_buf_release(&g.why);
	kd_buf_release(&g.subj);
	kd_buf_release(&g.ov);
	kd_buf_release(&g.nv);
	return err;
}
