// SPDX-License-Identifier: GPL-2.0-only
/*
 * Struct and union layouts compared member by member (diff-types.c reaches
 * a pair of aggregates and hands it here). The layouts are flattened,
 * matched and mapped by diff-aggregate-layout.c; the bitmaps of the old
 * layout decide what a new member's bytes were: padding, a kept member (an
 * alias), reserved or unused space, or another member's. Matched members
 * are compared first, then the old ones the new layout lacks, then the new
 * ones; the size and alignment changes are judged last, knowing whether a
 * member broke.
 */
#include "diff/aggregate_internal.h"

#include <inttypes.h>

/* --- aggregates ---------------------------------------------------------- */

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
	return a->bit == b->bit && agg_is_last(&g->l[0], a) && agg_is_last(&g->l[1], b) &&
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

/* Matched by place and type under another name (agg_match_members()). */
static int compare_renamed(struct agg *g, const struct leaf *a, const struct leaf *b)
{
	const struct dt_resv_why *why = &a->resv;
	struct diff_where ow = { NULL, 0 };
	enum diff_rule_id rule = why->is ? DIFF_R_RESERVED_REUSE : DIFF_R_MEMBER_RENAMED;
	size_t idx;
	int err;

	/* Padding by its name only, given a name that means something: padding reused. */
	if (why->is && why->kind == DIFF_EV_CONVENTION && why->padding)
		rule = dt_padding_member_rule(g->e, g->node, g->t[0]->name, g->t[1]->name,
					      b->name, &ow, &g->why);
	err = agg_emit_resv(g, DIFF_K_TYPE_MEMBER_RENAMED, rule, a->name, a->name, b->name,
			    a->name, why, &idx);
	if (!err)
		err = dt_meaning_evidence(g->e, idx, g->node, rule, b->name, &ow, &g->why);
	return err ? err : dt_descend(g->e, g->node, b->name, a->type, b->type, 0);
}

/* A member matched by name at another bit, or of another bitfield width. */
static int compare_place(struct agg *g, const struct leaf *a, const struct leaf *b)
{
	bool reserved = a->resv.is;
	size_t idx;
	int err;

	if (a->bit_size || b->bit_size) {
		if (a->bit == b->bit && a->bit_size == b->bit_size)
			return 0;
		kd_buf_reset(&g->ov);
		kd_buf_reset(&g->nv);
		/* A plain member's width is its size (__u32 x -> __u32 x:29). */
		err = kd_buf_addf(&g->ov, "bit %" PRId64 ", width %" PRId64, a->bit,
				  a->bit_size ? (int64_t)a->bit_size : a->bits);
		if (!err)
			err = kd_buf_addf(&g->nv, "bit %" PRId64 ", width %" PRId64, b->bit,
					  b->bit_size ? (int64_t)b->bit_size : b->bits);
		return err ? err : agg_emit_resv(g, DIFF_K_TYPE_MEMBER_BITFIELD,
						 reserved ? DIFF_R_RESERVED_REUSE : DIFF_R_MEMBER_BITFIELD,
						 a->name, g->ov.s, g->nv.s, a->name, &a->resv, &idx);
	}
	if (a->bit == b->bit && a->byte == b->byte)
		return 0;
	kd_buf_reset(&g->ov);
	kd_buf_reset(&g->nv);
	err = kd_buf_addf(&g->ov, "%" PRId64, a->byte);
	if (!err)
		err = kd_buf_addf(&g->nv, "%" PRId64, b->byte);
	/* Reserved space carved from its front: the rest moved within its old bytes. */
	return err ? err : agg_emit_resv(g, DIFF_K_TYPE_MEMBER_OFFSET,
			 reserved && b->bit >= a->bit && b->bit + b->bits <= a->bit + a->bits &&
			 g->t[0]->size == g->t[1]->size ? DIFF_R_RESERVED_CARVED : DIFF_R_MEMBER_MOVED,
			 a->name, g->ov.s, g->nv.s, a->name, &a->resv, &idx);
}

/* The SLOT_* flags of matched members @a/@b: what their aggregates make of their types. */
static unsigned slot_flags(struct agg *g, const struct leaf *a, const struct leaf *b)
{
	const struct kd_type *ta = g->t[0], *tb = g->t[1];

	return (ta->kind == KD_KIND_STRUCT && ta->size == tb->size && a->bit == b->bit &&
		agg_is_last(&g->l[0], a) && agg_is_last(&g->l[1], b) ? SLOT_LAST_SAME_SIZE : 0) |
	       (at_ext_tail(g, a, b) ? SLOT_EXT_TAIL : 0) |
	       (one_element_either_way(g, a, b) && message_said(g) ? SLOT_LAST_MESSAGE : 0) |
	       (lost_unused(g, a, b) ? SLOT_LOST_UNUSED : 0) |
	       (ta->kind == KD_KIND_UNION && tb->kind == KD_KIND_UNION && ta->size == tb->size &&
		!a->depth && !b->depth ? SLOT_UNION_ALT : 0);
}

/*
 * The changes of member @a's slot, from the node's change @before and the
 * result's change @first on: a breaking one breaks the aggregate; the
 * slot's own change (array bound, type) of reserved space, or of a
 * contract fact, gets its evidence.
 */
static int slot_outcome(struct agg *g, const struct leaf *a, size_t before, size_t first)
{
	const struct dnode *n = &g->e->nodes[g->node];
	struct diff_result *r = g->e->r;
	size_t k;
	int err = 0;

	for (k = before; k < n->nr_changes; k++)
		if (r->changes[n->changes[k]].rule->verdict == DIFF_BREAKING)
			g->broken = true;
	for (k = first; !err && k < r->nr_changes; k++) {
		const struct diff_rule *rule = r->changes[k].rule;

		if (rule == diff_rule(DIFF_R_RESERVED_REUSE) &&
		    r->changes[k].evidence_kind == DIFF_EV_LAYOUT)
			err = dt_resv_evidence(g->e, k, n->display, a->name, &a->resv);
		else if (rule == diff_rule(DIFF_R_ARRAY_SHRINK_UNUSED) ||
			 rule == diff_rule(DIFF_R_ARRAY_ONE_ELEMENT_MESSAGE))
			err = diff_evidence(r, k, DIFF_EV_CONTRACT, "%s", g->why.s ? g->why.s : "");
	}
	return err;
}

/* Old member @i and the new member it matched: their place, then their slot. */
static int compare_matched(struct agg *g, size_t i)
{
	const struct leaf *a = &g->l[0].v[i], *b = &g->l[1].v[a->match];
	const char *disp = g->e->nodes[g->node].display;
	size_t before = g->e->nodes[g->node].nr_changes, first = g->e->r->nr_changes;
	int err;

	if (a->renamed)
		return compare_renamed(g, a, b);
	err = compare_place(g, a, b);
	if (err)
		return err;
	kd_buf_reset(&g->subj);
	err = kd_buf_addf(&g->subj, "%s.%s", disp, a->name);
	if (!err)
		err = dt_slot_with(g->e, g->node, SLOT_MEMBER, disp, g->subj.s, a->name, a->type,
				   b->type, a->resv.is, slot_flags(g, a, b));
	return err ? err : slot_outcome(g, a, before, first);
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

/*
 * The rule of an added member. Unions grow at the tail as structs do
 * (union bpf_attr). A member that starts inside the old layout and ends
 * past it is judged on its bytes inside: over padding or over a kept
 * member (a new, larger union alternative) it is a tail growth.
 */
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
	if (agg_bits_all(g->old_map, g->nbits, b->bit, inside, false))
		*rule = dt_contract_reserved(g->e, tname, NULL) ? DIFF_R_PADDING_REUSE :
			dt_contract_out(g->e, tname, b->name, out_where) ? DIFF_R_PADDING_REUSE_OUT :
			padding_named(g->e, tname, b, NULL) ? DIFF_R_PADDING_NAMED :
			dt_member_unread(g->e, g->node, g->t[1]->name, b->name, false, &g->why) ?
			DIFF_R_MEMBER_ADDED_UNREAD : DIFF_R_PADDING_REUSE_UNCONTRACTED;
	else if (agg_kept_or_padding(g, b->bit, inside))
		*rule = inside < b->bits ? tail : DIFF_R_MEMBER_ADDED_ALIAS;
	else if (inside == b->bits && agg_padding_or_unused(g, b->bit, inside) &&
		 dt_member_unread(g->e, g->node, g->t[1]->name, b->name, true, &g->why))
		*rule = DIFF_R_MEMBER_ADDED_UNREAD;
	else if (!agg_bits_all(g->reserved_map, g->nbits, b->bit, inside, false))
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
	       agg_is_last(&g->l[0], a) && agg_is_last(&g->l[1], b) && dt_equivalent(g->e->g, ta->ref, tb->ref);
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
	    agg_padding_or_unused(g, dt_bits_of(tb->size), g->nbits - dt_bits_of(tb->size))) {
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

/* Old members the new layout lacks by name and place. */
static int compare_removed(struct agg *g, const struct leaf *a)
{
	enum diff_rule_id rule;
	size_t idx;
	int err;

	/* Reserved space: reused by new members, or left as padding. */
	rule = a->resv.is ? (agg_covered_in_new(g, a) ? DIFF_R_RESERVED_REUSE : DIFF_R_PADDING_NAMED) :
	       dt_member_unread(g->e, g->node, g->t[0]->name, a->name, false, &g->why) ?
	       DIFF_R_MEMBER_REMOVED_UNUSED : DIFF_R_MEMBER_REMOVED;
	err = describe_leaf(g->e, 0, a, &g->ov);
	if (!err)
		err = agg_emit_resv(g, DIFF_K_TYPE_MEMBER_REMOVED, rule, a->name, g->ov.s, NULL,
				    a->name, &a->resv, &idx);
	if (!err && rule == DIFF_R_MEMBER_REMOVED_UNUSED)
		err = contract_evidence(g->e, idx, &g->why);
	return err;
}

/* New members the old layout lacks: what their bytes were (classify_added()). */
static int compare_added(struct agg *g, const struct leaf *b)
{
	struct diff_engine *e = g->e;
	const struct leaf *resv = NULL;
	struct diff_where ow = { NULL, 0 };
	enum diff_rule_id rule;
	size_t idx;
	int err;

	err = classify_added(g, b, &rule, &resv, &ow);
	if (!err)
		err = describe_leaf(e, 1, b, &g->nv);
	if (!err)
		err = agg_emit_resv(g, DIFF_K_TYPE_MEMBER_ADDED, rule, b->name, NULL, g->nv.s,
				    resv ? resv->name : NULL, resv ? &resv->resv : NULL, &idx);
	if (!err)
		err = dt_struct_fact_evidence(e, idx, g->node, rule, g->t[0]->name);
	if (!err && rule == DIFF_R_PADDING_NAMED) {
		struct dt_resv_why why;

		padding_named(e, g->t[0]->name, b, &why);
		err = dt_resv_evidence(e, idx, e->nodes[g->node].display, b->name, &why);
	}
	if (!err)
		err = dt_meaning_evidence(e, idx, g->node, rule, b->name, &ow, &g->why);
	return err;
}

/* g->ov and g->nv: @o and @n, in decimal. */
static int old_new_values(struct agg *g, int64_t o, int64_t n)
{
	int err;

	kd_buf_reset(&g->ov);
	kd_buf_reset(&g->nv);
	err = kd_buf_addf(&g->ov, "%" PRId64, o);
	return err ? err : kd_buf_addf(&g->nv, "%" PRId64, n);
}

/* The size, judged last: a tail growth only when no member broke. */
static int compare_size(struct agg *g)
{
	const struct kd_type *ta = g->t[0], *tb = g->t[1];
	struct diff_engine *e = g->e;
	enum diff_rule_id rule = DIFF_R_TYPE_SIZE;
	size_t idx;
	int err = old_new_values(g, ta->size, tb->size);

	if ((tb->kind == KD_KIND_STRUCT || tb->kind == KD_KIND_UNION) && tb->size > ta->size &&
	    ta->size >= 0 && !g->broken)
		rule = dt_tail_rule(e, g->node, ta);
	else if (!g->broken)
		rule = size_rule(g);
	if (!err)
		err = dt_emit(e, g->node, DIFF_K_TYPE_SIZE, rule, e->nodes[g->node].display, g->ov.s,
			      g->nv.s, NULL, &idx);
	if (!err)
		err = dt_struct_fact_evidence(e, idx, g->node, rule, ta->name);
	if (!err && (rule == DIFF_R_TAIL_SHRINK_UNUSED || rule == DIFF_R_ARRAY_ONE_ELEMENT_MESSAGE))
		err = contract_evidence(e, idx, &g->why);
	return err;
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
static bool align_comparable(const struct agg *g)
{
	const struct kd_type *ta = g->t[0], *tb = g->t[1];

	return ta->align > 0 && tb->align > 0 && ta->align != tb->align &&
	       !((ta->flags ^ tb->flags) & KD_TYPE_PACKED) &&
	       g->e->r->coverage[0].btf == g->e->r->coverage[1].btf;
}

static int compare_align(struct agg *g)
{
	struct diff_engine *e = g->e;
	const char *disp = e->nodes[g->node].display;
	enum diff_rule_id rule;
	size_t idx;
	int err = old_new_values(g, g->t[0]->align, g->t[1]->align);

	if (!err)
		err = align_rule(g, &rule);
	if (!err)
		err = dt_emit(e, g->node, DIFF_K_TYPE_ALIGN, rule, disp, g->ov.s, g->nv.s, NULL, &idx);
	if (!err)
		err = dt_struct_fact_evidence(e, idx, g->node, rule, g->t[0]->name);
	if (!err && rule == DIFF_R_TYPE_ALIGN_MESSAGE)
		err = contract_evidence(e, idx, &g->why);
	if (!err && rule == DIFF_R_TYPE_ALIGN_UNEMBEDDED)
		err = diff_evidence(e->r, idx, DIFF_EV_LAYOUT,
				    "no type of either kernel (DWARF and header views) embeds %s"
				    " or an array of it: it crosses as the bytes behind a pointer", disp);
	return err;
}

/* Members matched, then the old ones, the new ones, the size and the alignment. */
static int compare_layouts(struct agg *g)
{
	size_t i;
	int err = agg_match_members(g);

	if (!err)
		err = agg_build_maps(g);
	for (i = 0; !err && i < g->l[0].n; i++)
		err = g->l[0].v[i].match >= 0 ? compare_matched(g, i) : compare_removed(g, &g->l[0].v[i]);
	for (i = 0; !err && i < g->l[1].n; i++)
		if (g->l[1].v[i].match < 0)
			err = compare_added(g, &g->l[1].v[i]);
	if (!err && g->t[0]->size != g->t[1]->size)
		err = compare_size(g);
	if (!err && align_comparable(g))
		err = compare_align(g);
	return err;
}

int dt_compare_aggregate(struct diff_engine *e, size_t node, const struct kd_type *ta,
			 const struct kd_type *tb)
{
	struct agg g = { .e = e, .node = node, .t = { ta, tb },
			 .subj = KD_BUF_INIT, .ov = KD_BUF_INIT, .nv = KD_BUF_INIT, .why = KD_BUF_INIT };
	size_t i;
	int err;

	err = agg_flatten(&g);
	/* One layout on both sides: only what the members lead to can differ. */
	if (!err && ta->hash == tb->hash && g.l[0].n == g.l[1].n)
		for (i = 0; !err && i < g.l[0].n; i++)
			err = dt_descend(e, node, g.l[0].v[i].name, g.l[0].v[i].type, g.l[1].v[i].type,
					 0);
	else if (!err)
		err = compare_layouts(&g);
	agg_release(&g);
	return err;
}
