// SPDX-License-Identifier: GPL-2.0-only
/*
 * Two enums of the same name compared enumerator by enumerator (a node of
 * diff-types.c whose two types' hashes differ): added, removed, renamed
 * (the old name kept as a #define of the same value), another value; and
 * the count and end markers (__FOO_MAX, FOO_LAST, NUM_FOO) whose value
 * moves, or which leave the enum, whenever values are added.
 */
#include "diff/type-walk.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/find.h"
#include "lib/str.h"

static int emit(struct diff_engine *e, size_t node, enum diff_kind kind, enum diff_rule_id rule,
		const char *subject, const char *old_value, const char *new_value, const char *note,
		size_t *idx)
{
	int err;

	err = diff_add(e->r, &(struct diff_new){ .rule = rule, .kind = kind, .in = DIFF_CAT_TYPE,
					      .name = e->nodes[node].display, .subject = subject,
					      .old_value = old_value, .new_value = new_value,
					      .note = note }, idx);
	return err ? err : dt_own(e, node, *idx);
}

static bool has_enumerator(const struct kd_type *t, const char *name)
{
	return KD_FIND_NAMED(const struct kd_enumerator, t->enumerators, t->nr_enumerators,
			     name, name);
}

/*
 * Named like a count or end marker (__FOO_MAX, MAX_BPF_LINK_TYPE,
 * FOO_LAST, FOO_NR, NUM_NL80211_ATTR, RDMA_NLDEV_NUM_OPS). The name alone
 * is not enough to call it one (IFLA_MAX_MTU is an attribute):
 * is_end_marker() asks for its place too.
 */
static bool marker_name(const char *name)
{
	static const char *const ends[] = { "_LAST", "_CNT", "_COUNT", "_NR", "_NUM", "_END",
					    "_NBITS", "_SIZE" };
	size_t i;

	if (kd_starts_with(name, "__") || strstr(name, "MAX") || kd_starts_with(name, "NUM_") ||
	    strstr(name, "_NUM_"))
		return true;
	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		if (kd_ends_with(name, ends[i]))
			return true;
	return false;
}

/*
 * Enumerator @i of @t is a count or end marker: named like one, and its
 * value at the end of the enum (no enumerator not named like a marker has
 * a greater one). __FOO_MAX is last, FOO_MAX = __FOO_MAX - 1 the last
 * value's; a marker-like name in the middle (6.12's __NFT_META_IIFTYPE is
 * last, but IFLA_MAX_MTU is not) stays a value.
 */
static bool is_end_marker(const struct kd_type *t, size_t i)
{
	size_t j;

	if (!marker_name(t->enumerators[i].name))
		return false;
	for (j = 0; j < t->nr_enumerators; j++)
		if (!marker_name(t->enumerators[j].name) &&
		    t->enumerators[j].value > t->enumerators[i].value)
			return false;
	return true;
}

bool dt_enum_end_marker(const struct kd_type *t, const char *name)
{
	size_t i;

	for (i = 0; t && i < t->nr_enumerators; i++)
		if (!strcmp(t->enumerators[i].name, name))
			return is_end_marker(t, i);
	return false;
}

/* Do the new headers keep @name as a constant of @value (a #define, another enum's enumerator)? */
static bool alias_kept(const struct diff_engine *e, const char *name, int64_t value)
{
	int64_t v = 0;

	return diff_constant(e->new_db, name, &v) && v == value;
}

/*
 * A rename: the enumerator of @ta that @tb lacks had @value, exactly one
 * enumerator new in @tb has it (no other removed one of @ta shares it),
 * neither of them named like a count or end marker, and the new headers
 * keep the old name as a constant of the same value (nf_tables.h: #define
 * NFT_BITWISE_BOOL NFT_BITWISE_MASK_XOR). Without that alias a new name
 * on an old value may be a reuse (6.12's vdpa.h gave
 * VDPA_ATTR_VDPA_DEV_SUPPORTED_FEATURES's value to
 * VDPA_ATTR_DEV_BLK_CFG_CAPACITY): a removal. Its index in @tb, or -1.
 */
static long renamed_to(const struct diff_engine *e, const struct kd_type *ta,
		       const struct kd_type *tb, int64_t value)
{
	size_t i;
	long found = -1;
	int gone = 0;

	for (i = 0; i < ta->nr_enumerators; i++) {
		if (ta->enumerators[i].value != value || has_enumerator(tb, ta->enumerators[i].name))
			continue;
		if (marker_name(ta->enumerators[i].name) || !alias_kept(e, ta->enumerators[i].name, value))
			return -1;
		gone++;
	}
	for (i = 0; i < tb->nr_enumerators; i++) {
		if (tb->enumerators[i].value != value || has_enumerator(ta, tb->enumerators[i].name))
			continue;
		if (found >= 0 || marker_name(tb->enumerators[i].name))
			return -1;	/* two new names for the value: no one rename */
		found = (long)i;
	}
	return gone == 1 ? found : -1;
}

bool dt_enumerator_renamed(const struct diff_engine *e, const struct kd_type *ta,
			   const struct kd_type *tb, int64_t value)
{
	return renamed_to(e, ta, tb, value) >= 0;
}

/*
 * Do both sides' headers define @name as a constant of @value, outside
 * the enum compared on one side? Then its leaving or joining the enum is
 * no change of the enum's: a #define and an enumerator are one namespace
 * to a program, and the constants' comparison (diff-constants.c) says
 * how the name is defined now (constant-now-macro, -now-enumerator).
 */
static bool constant_kept(const struct diff_engine *e, const char *name, int64_t value)
{
	int64_t v = 0;

	return diff_constant(e->old_db, name, &v) && v == value && alias_kept(e, name, value);
}

/* Is @b (new in @tb) the new name of an enumerator @ta lost? */
static bool renamed_from(const struct diff_engine *e, const struct kd_type *ta,
			 const struct kd_type *tb, const struct kd_enumerator *b)
{
	long k = renamed_to(e, ta, tb, b->value);

	return k >= 0 && &tb->enumerators[k] == b;
}

/* Enumerator @i of @ta is gone from @tb, or has another value there (@nv). */
static int old_enumerator(struct diff_engine *e, size_t node, const struct kd_type *ta,
			  const struct kd_type *tb, size_t i, const char *subj, const char *ov,
			  struct kd_buf *nv)
{
	const struct kd_enumerator *a = &ta->enumerators[i];
	bool removed = !has_enumerator(tb, a->name);
	enum diff_kind kind = removed ? DIFF_K_TYPE_ENUMERATOR_REMOVED : DIFF_K_TYPE_ENUMERATOR_VALUE;
	long k = removed ? renamed_to(e, ta, tb, a->value) : -1;
	size_t idx;
	int err;

	if (removed && k < 0 && constant_kept(e, a->name, a->value))
		return 0;
	if (k >= 0) {
		err = kd_buf_addf(nv, "value %" PRId64 " kept", a->value);
		return err ? err : emit(e, node, DIFF_K_TYPE_ENUMERATOR_RENAMED,
					DIFF_R_ENUMERATOR_RENAMED, subj, a->name,
					tb->enumerators[k].name, nv->s, &idx);
	}
	if (is_end_marker(ta, i)) {
		err = emit(e, node, kind, DIFF_R_ENUMERATOR_COUNT, subj, ov,
			   removed ? NULL : nv->s, NULL, &idx);
		return err ? err : diff_evidence(e->r, idx, DIFF_EV_CONVENTION,
						 "naming convention: %s is named like a count or end"
						 " marker and its value %" PRId64 " ends %s", a->name,
						 a->value, e->nodes[node].display);
	}
	return emit(e, node, kind, removed ? DIFF_R_ENUMERATOR_REMOVED : DIFF_R_ENUMERATOR_VALUE,
		    subj, ov, removed ? NULL : nv->s, NULL, &idx);
}

int dt_compare_enum(struct diff_engine *e, size_t node, const struct kd_type *ta,
		    const struct kd_type *tb)
{
	struct kd_buf subj = KD_BUF_INIT, ov = KD_BUF_INIT, nv = KD_BUF_INIT;
	const char *disp = e->nodes[node].display;
	size_t i, j, idx;
	int err = 0;

	for (i = 0; !err && i < ta->nr_enumerators; i++) {
		const struct kd_enumerator *a = &ta->enumerators[i];

		for (j = 0; j < tb->nr_enumerators && strcmp(a->name, tb->enumerators[j].name); j++)
			;
		if (j < tb->nr_enumerators && tb->enumerators[j].value == a->value)
			continue;
		kd_buf_reset(&subj);
		kd_buf_reset(&ov);
		kd_buf_reset(&nv);
		err = kd_buf_addf(&subj, "%s.%s", disp, a->name);
		if (!err)
			err = kd_buf_addf(&ov, "%" PRId64, a->value);
		if (!err && j < tb->nr_enumerators)
			err = kd_buf_addf(&nv, "%" PRId64, tb->enumerators[j].value);
		if (!err)
			err = old_enumerator(e, node, ta, tb, i, subj.s, ov.s, &nv);
	}
	for (j = 0; !err && j < tb->nr_enumerators; j++) {
		const struct kd_enumerator *b = &tb->enumerators[j];

		if (has_enumerator(ta, b->name) || renamed_from(e, ta, tb, b) ||
		    constant_kept(e, b->name, b->value))
			continue;	/* kept, reported as the old name's rename, or a constant's */
		kd_buf_reset(&subj);
		kd_buf_reset(&nv);
		err = kd_buf_addf(&subj, "%s.%s", disp, b->name);
		if (!err)
			err = kd_buf_addf(&nv, "%" PRId64, b->value);
		if (!err)
			err = emit(e, node, DIFF_K_TYPE_ENUMERATOR_ADDED, DIFF_R_ENUMERATOR_ADDED, subj.s,
				   NULL, nv.s, NULL, &idx);
	}
	if (!err && ta->size != tb->size) {
		kd_buf_reset(&ov);
		kd_buf_reset(&nv);
		err = kd_buf_addf(&ov, "%" PRId64, ta->size);
		if (!err)
			err = kd_buf_addf(&nv, "%" PRId64, tb->size);
		if (!err)
			err = emit(e, node, DIFF_K_TYPE_SIZE, DIFF_R_TYPE_SIZE, disp, ov.s, nv.s, NULL,
				   &idx);
	}
	kd_buf_release(&subj);
	kd_buf_release(&ov);
	kd_buf_release(&nv);
	return err;
}
