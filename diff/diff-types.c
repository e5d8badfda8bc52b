// SPDX-License-Identifier: GPL-2.0-only
/*
 * Types compared by path. A syscall parameter, a struct member or an ioctl
 * argument is a "slot": its two types (old, new) are spelled and compared
 * there (type.member.type, array bounds), then followed through typedefs,
 * qualifiers, pointers and arrays to the aggregate they lead to. A pair of
 * aggregates with the same name is a node, compared once however many
 * paths reach it (a worklist, not recursion: kernel type graphs are deep
 * and cyclic). Identical types.hash means identical layout: the node skips
 * straight to following its members, because a pointer member's hash names
 * its pointee without covering that pointee's layout.
 *
 * Struct and union members are compared flattened (diff-aggregate.c):
 * members of anonymous structs/unions are lifted to absolute bit positions
 * and matched by name, so moving a member into an anonymous union at the
 * same offset and size is no change at all.
 */
#include "diff/type-walk.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cdecl.h"
#include "lib/mem.h"
#include "lib/typegraph.h"

int64_t dt_clamp_bits(int64_t bits)
{
	return bits < 0 ? 0 : bits > MAX_BIT ? MAX_BIT : bits;
}

/* @bytes as bits, clamped. */
int64_t dt_bits_of(int64_t bytes)
{
	return bytes <= 0 ? 0 : bytes > MAX_BIT / 8 ? MAX_BIT : bytes * 8;
}

/* Add a change owned by @node. */
int dt_emit(struct diff_engine *e, size_t node, enum diff_kind kind, enum diff_rule_id rule,
		const char *subject, const char *old_value, const char *new_value, const char *note,
		size_t *idx)
{
	size_t i;
	int err;

	err = diff_add(e->r, &(struct diff_new){ .rule = rule, .kind = kind, .in = DIFF_CAT_TYPE,
					      .name = e->nodes[node].display, .subject = subject,
					      .old_value = old_value, .new_value = new_value,
					      .note = note }, &i);
	if (!err && idx)
		*idx = i;
	return err ? err : dt_own(e, node, i);
}

static const char *kind_tag(enum kd_kind k)
{
	return k == KD_KIND_STRUCT ? "struct " : k == KD_KIND_UNION ? "union " :
	       k == KD_KIND_ENUM ? "enum " : "";
}

/* One more path reaches node @node of type @t: settle its anon_ext and union_alt (type-walk.h). */
static void anon_reached(struct diff_engine *e, size_t node, const struct kd_type *t, bool ext_tail,
			 bool union_alt, bool tolerant)
{
	struct dnode *n = &e->nodes[node];

	if (!tolerant)
		n->tolerant = -1;
	else if (!n->tolerant)
		n->tolerant = 1;

	if (!union_alt)
		n->union_alt = -1;
	else if (!n->union_alt)
		n->union_alt = 1;

	if (t->name || (t->kind != KD_KIND_STRUCT && t->kind != KD_KIND_UNION))
		return;
	if (!ext_tail)
		n->anon_ext = -1;
	else if (!n->anon_ext)
		n->anon_ext = 1;
}

/*
 * Follow @a/@b through qualifiers, pointers and arrays to the aggregates
 * they lead to; when both are aggregates of the same name, the pair's node
 * (created and queued if new) is reached from @owner through @label.
 * @ext_tail: @a/@b is a member at the tail of an extensible @owner (see
 * at_ext_tail()), which an anonymous aggregate embedded there inherits.
 */
int dt_descend(struct diff_engine *e, size_t owner, const char *label, int64_t a, int64_t b,
		   unsigned flags)
{
	bool ext_tail = flags & SLOT_EXT_TAIL, union_alt = flags & SLOT_UNION_ALT;
	bool tolerant = flags & SLOT_TOLERANT, vote = !(flags & SLOT_NO_VOTE);
	const struct kd_type *ta = tgraph_strip(&e->g[0], a), *tb = tgraph_strip(&e->g[1], b);
	struct kd_buf disp = KD_BUF_INIT;
	size_t node;
	long found;
	int hops = 0, err = 0;

	while (ta && tb && ta->kind == tb->kind && hops++ < KD_TYPE_MAX_HOPS &&
	       (ta->kind == KD_KIND_POINTER || ta->kind == KD_KIND_ARRAY)) {
		ta = tgraph_strip(&e->g[0], ta->ref);
		tb = tgraph_strip(&e->g[1], tb->ref);
		ext_tail = union_alt = tolerant = false;	/* pointed to or repeated: not embedded */
	}
	if (!ta || !tb || !(ta->kind == KD_KIND_ENUM ? dt_same_name(ta->name, tb->name) :
			    dt_same_tag(ta->name, tb->name)))
		return 0;
	if (ta->kind != KD_KIND_STRUCT && ta->kind != KD_KIND_UNION && ta->kind != KD_KIND_ENUM &&
	    ta->kind != KD_KIND_FUNC)
		return 0;
	if (tb->kind != ta->kind && !((ta->kind == KD_KIND_STRUCT || ta->kind == KD_KIND_UNION) &&
				       (tb->kind == KD_KIND_STRUCT || tb->kind == KD_KIND_UNION)))
		return 0;
	found = dt_pair_find(e, ta->id, tb->id);
	if (found >= 0) {
		if (vote)
			anon_reached(e, (size_t)found, ta, ext_tail, union_alt, tolerant);
		return dt_edge(e, owner, label, (size_t)found);
	}
	if (ta->name)
		err = kd_buf_addf(&disp, "%s%s", kind_tag(ta->kind), ta->name);
	else
		err = kd_buf_addf(&disp, "%s.%s%s", e->nodes[owner].display, label ? label : "{anon}",
				  ta->kind == KD_KIND_FUNC ? "()" : "");
	if (!err)
		err = dt_new_node(e, ta->id, tb->id, disp.s, &node);
	if (!err && vote)
		anon_reached(e, node, ta, ext_tail, union_alt, tolerant);
	if (!err)
		err = dt_pair_insert(e, node);
	if (!err)
		err = dt_edge(e, owner, label, node);
	kd_buf_release(&disp);
	return err;
}

static enum diff_kind slot_kind_id(enum slot_kind sk)
{
	switch (sk) {
	case SLOT_PARAM: return DIFF_K_SYSCALL_PARAM_TYPE;
	case SLOT_RETURN: return DIFF_K_SYSCALL_RETURN_TYPE;
	case SLOT_IOCTL_ARG: return DIFF_K_IOCTL_ARG_TYPE;
	default: return DIFF_K_TYPE_MEMBER_TYPE;
	}
}

static enum diff_rule_id slot_rule(enum slot_kind sk)
{
	switch (sk) {
	case SLOT_PARAM:
	case SLOT_RETURN: return DIFF_R_SYSCALL_PARAM_TYPE;
	case SLOT_IOCTL_ARG: return DIFF_R_IOCTL_ARG_TYPE;
	default: return DIFF_R_MEMBER_TYPE;
	}
}

/* Arrays @ta/@tb of one element type: the rule of their bounds' change (SLOT_* @flags); *@kind. */
static enum diff_rule_id array_bound_rule(const struct kd_type *ta, const struct kd_type *tb,
					  unsigned flags, enum diff_kind *kind)
{
	bool flex_a = ta->count <= 0, flex_b = tb->count <= 0;

	*kind = flex_a || flex_b ? DIFF_K_TYPE_ARRAY_FLEXIBLE : DIFF_K_TYPE_ARRAY_BOUND;
	if (flex_a && flex_b)
		return DIFF_R_ARRAY_FLEXIBLE_SPELLING;
	if ((flags & SLOT_LAST_SAME_SIZE) && ((flex_a && tb->count == 1) || (flex_b && ta->count == 1)))
		return DIFF_R_ARRAY_ONE_ELEMENT;
	if ((flags & SLOT_LAST_MESSAGE) && ((flex_a && tb->count == 1) || (flex_b && ta->count == 1)))
		return DIFF_R_ARRAY_ONE_ELEMENT_MESSAGE;
	if ((flags & SLOT_LOST_UNUSED) && !flex_a && !flex_b && tb->count < ta->count)
		return DIFF_R_ARRAY_SHRINK_UNUSED;
	return DIFF_R_ARRAY_BOUND;
}

/*
 * Through pointers and arrays alike, do @ta/@tb reach aggregates of one
 * name and another kind (struct X -> union X, or anonymous ones)? Then
 * their node reports type.kind, not the slot.
 */
static bool kind_changed_below(const struct diff_engine *e, const struct kd_type *ta,
			       const struct kd_type *tb)
{
	const struct kd_type *ca = ta, *cb = tb;
	int hops = 0;

	while (ca && cb && ca->kind == cb->kind && hops++ < KD_TYPE_MAX_HOPS &&
	       (ca->kind == KD_KIND_POINTER || ca->kind == KD_KIND_ARRAY)) {
		ca = tgraph_strip(&e->g[0], ca->ref);
		cb = tgraph_strip(&e->g[1], cb->ref);
	}
	return ca && cb && dt_same_name(ca->name, cb->name) && ca->kind != cb->kind &&
	       (ca->kind == KD_KIND_STRUCT || ca->kind == KD_KIND_UNION) &&
	       (cb->kind == KD_KIND_STRUCT || cb->kind == KD_KIND_UNION);
}

/*
 * The rule (and *@kind) of slot types @a/@b that are spelled differently,
 * *@rule the slot's own rule until a closer one says the same bytes
 * otherwise. False: the slot reports nothing (kind_changed_below()).
 */
static bool changed_rule(const struct diff_engine *e, int64_t a, int64_t b, unsigned flags,
			 enum diff_kind *kind, enum diff_rule_id *rule)
{
	const struct kd_type *ta = tgraph_strip(&e->g[0], a), *tb = tgraph_strip(&e->g[1], b);
	bool arrays = ta && tb && ta->kind == KD_KIND_ARRAY && tb->kind == KD_KIND_ARRAY;

	if (dt_equivalent(e->g, a, b)) {
		*rule = DIFF_R_TYPE_SPELLING;
	} else if (ta && tb && ta->kind == KD_KIND_POINTER && tb->kind == KD_KIND_POINTER &&
		   !tgraph_strip(&e->g[0], ta->ref) != !tgraph_strip(&e->g[1], tb->ref)) {
		*rule = DIFF_R_POINTEE_VOID;	/* int * -> void *: the same pointer, no size said */
	} else if (dt_sign_only(e->g, a, b)) {
		*rule = DIFF_R_INTEGER_SIGNEDNESS;	/* unsigned int -> int: the same bytes */
	} else if (dt_wrapped(e->g, a, b)) {
		*rule = DIFF_R_TYPE_WRAPPED;		/* guid_t -> __u8[16] */
	} else if (dt_enum_renamed(ta, tb)) {
		*rule = DIFF_R_ENUM_RENAMED;
	} else if (arrays && ta->count <= 0 && tb->count <= 0 &&
		   !dt_equivalent(e->g, ta->ref, tb->ref)) {
		/* __u64 buf[] -> __u8 buf[]: no storage either way, the bytes are the same. */
		*kind = DIFF_K_TYPE_ARRAY_FLEXIBLE;
		*rule = DIFF_R_ARRAY_FLEXIBLE_ELEMENT;
	} else if (arrays && dt_equivalent(e->g, ta->ref, tb->ref)) {
		*rule = array_bound_rule(ta, tb, flags, kind);
	} else if (kind_changed_below(e, ta, tb)) {
		return false;
	}
	return true;
}

/*
 * Slot comparison; with @reserved, reserved-reuse replaces breaking rules (a
 * reserved member's reuse). SLOT_LAST_SAME_SIZE in @flags: a one-element array there is the
 * C89 spelling of a flexible one. SLOT_EXT_TAIL goes to dt_descend().
 */
int dt_slot_with(struct diff_engine *e, size_t owner, enum slot_kind sk, const char *name,
		const char *subject, const char *label, int64_t a, int64_t b, bool reserved,
		unsigned flags)
{
	struct kd_buf *sa = &e->scratch[0], *sb = &e->scratch[1], note = KD_BUF_INIT;
	enum diff_category cat = sk == SLOT_PARAM || sk == SLOT_RETURN ? DIFF_CAT_SYSCALL :
				 sk == SLOT_IOCTL_ARG ? DIFF_CAT_IOCTL : DIFF_CAT_TYPE;
	enum diff_kind kind = slot_kind_id(sk);
	enum diff_rule_id rule = slot_rule(sk);
	int64_t za, zb;
	size_t idx;
	int err;

	if (!a && !b)
		return 0;
	err = tgraph_spell(&e->g[0], a, sa);
	if (!err)
		err = tgraph_spell(&e->g[1], b, sb);
	if (err || !strcmp(sa->s, sb->s) || !changed_rule(e, a, b, flags, &kind, &rule))
		goto follow;
	za = tgraph_size(&e->g[0], a);
	zb = tgraph_size(&e->g[1], b);
	if (za != zb)
		err = kd_buf_addf(&note, "size %" PRId64 " -> %" PRId64, za, zb);
	if (!err && reserved && diff_rule(rule)->verdict == DIFF_BREAKING)
		rule = DIFF_R_RESERVED_REUSE;
	if (!err)
		err = diff_add(e->r, &(struct diff_new){ .rule = rule, .kind = kind, .in = cat,
						      .name = name, .subject = subject,
						      .old_value = sa->s, .new_value = sb->s,
						      .note = note.len ? note.s : NULL }, &idx);
	if (!err && rule == DIFF_R_POINTEE_VOID)
		err = diff_evidence(e->r, idx, DIFF_EV_LAYOUT,
				    "%s -> %s: the same pointer; void gives the pointee no size", sa->s, sb->s);
	if (!err)
		err = dt_own(e, owner, idx);
follow:
	kd_buf_release(&note);
	return err ? err : dt_descend(e, owner, label, a, b,
				   flags & (SLOT_EXT_TAIL | SLOT_UNION_ALT | SLOT_TOLERANT | SLOT_NO_VOTE));
}

int dt_slot(struct diff_engine *e, size_t owner, enum slot_kind sk, const char *name,
	    const char *subject, const char *label, int64_t old_id, int64_t new_id)
{
	return dt_slot_with(e, owner, sk, name, subject, label, old_id, new_id, false, 0);
}

int dt_header_type(struct diff_engine *e, size_t owner, const char *name, const char *subject,
		   int64_t old_id, int64_t new_id)
{
	return dt_slot_with(e, owner, SLOT_MEMBER, name, subject, subject, old_id, new_id, false, SLOT_NO_VOTE);
}

int dt_ioctl_arg(struct diff_engine *e, size_t owner, const char *name, int64_t old_id,
		 int64_t new_id, bool size_tolerant)
{
	return dt_slot_with(e, owner, SLOT_IOCTL_ARG, name, name, "arg", old_id, new_id, false,
		    size_tolerant ? SLOT_TOLERANT : 0);
}

/* --- function types ------------------------------------------------------ */

static int compare_func(struct diff_engine *e, size_t node, const struct kd_type *ta,
			const struct kd_type *tb)
{
	struct kd_buf subj = KD_BUF_INIT, ov = KD_BUF_INIT, nv = KD_BUF_INIT;
	const char *disp = e->nodes[node].display;
	size_t i;
	int err = 0;

	if (ta->nr_members != tb->nr_members) {
		err = kd_buf_addf(&ov, "%zu", ta->nr_members);
		if (!err)
			err = kd_buf_addf(&nv, "%zu", tb->nr_members);
		if (!err)
			err = dt_emit(e, node, DIFF_K_TYPE_FUNC_PARAMS, DIFF_R_FUNC_SIGNATURE, disp, ov.s, nv.s, NULL,
				      NULL);
	}
	for (i = 0; !err && i < ta->nr_members && i < tb->nr_members; i++) {
		kd_buf_reset(&subj);
		kd_buf_reset(&ov);
		err = kd_buf_addf(&subj, "%s(arg %zu)", disp, i);
		if (!err)
			err = kd_buf_addf(&ov, "arg%zu", i);
		if (!err)
			err = dt_slot_with(e, node, SLOT_FUNC_PARAM, disp, subj.s, ov.s, ta->members[i].type,
				   tb->members[i].type, false, 0);
	}
	kd_buf_reset(&subj);
	if (!err)
		err = kd_buf_addf(&subj, "%s return", disp);
	if (!err)
		err = dt_slot_with(e, node, SLOT_FUNC_PARAM, disp, subj.s, "return", ta->ref, tb->ref, false, 0);
	kd_buf_release(&subj);
	kd_buf_release(&ov);
	kd_buf_release(&nv);
	return err;
}

int dt_compare_node(struct diff_engine *e, size_t node)
{
	const struct kd_type *ta = tgraph_get(&e->g[0], e->nodes[node].ids[0]);
	const struct kd_type *tb = tgraph_get(&e->g[1], e->nodes[node].ids[1]);
	const char *disp = e->nodes[node].display;
	int err = 0;

	if (!ta || !tb)
		return 0;
	/* Compared through the kernel under its DWARF ids already: reported there. */
	if (e->by_kernel_names && node >= e->header_from &&
	    dt_names_find(e, &e->kernel_names, disp) >= 0)
		return 0;
	if (ta->kind != tb->kind) {
		/* A struct of one member is a union of it: struct { gfn } -> union { gfn; hva }. */
		const struct kd_type *st = ta->kind == KD_KIND_STRUCT ? ta : tb;
		bool same = (ta->kind == KD_KIND_STRUCT || ta->kind == KD_KIND_UNION) &&
			    (tb->kind == KD_KIND_STRUCT || tb->kind == KD_KIND_UNION) &&
			    ta->size == tb->size && st->nr_members == 1 && st->members[0].offset == 0;

		err = dt_emit(e, node, DIFF_K_TYPE_KIND, same ? DIFF_R_TYPE_KIND_LAYOUT : DIFF_R_TYPE_KIND,
			   disp, kd_kind_name(ta->kind), kd_kind_name(tb->kind), NULL, NULL);
		if (err || !same || ((ta->flags | tb->flags) & KD_TYPE_DECLARATION))
			return err;
		return dt_compare_aggregate(e, node, ta, tb);
	}
	if ((ta->flags | tb->flags) & KD_TYPE_DECLARATION)
		return 0;	/* no layout known on one side: nothing to compare */
	switch (ta->kind) {
	case KD_KIND_STRUCT:
	case KD_KIND_UNION:
		return dt_compare_aggregate(e, node, ta, tb);
	case KD_KIND_ENUM:
		return ta->hash == tb->hash ? 0 : dt_compare_enum(e, node, ta, tb);
	case KD_KIND_FUNC:
		return compare_func(e, node, ta, tb);
	default:
		return 0;
	}
}

int dt_compare_pending(struct diff_engine *e)
{
	int err = 0;

	/* Comparing may add nodes, hence the growing bound. */
	for (; !err && e->nr_compared < e->nr_nodes; e->nr_compared++)
		if (e->nodes[e->nr_compared].ids[0])
			err = dt_compare_node(e, e->nr_compared);
	return err;
}
