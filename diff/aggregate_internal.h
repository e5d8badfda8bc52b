/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to diff-aggregate*.c: a pair of struct or union layouts as the
 * member-by-member comparison sees them. Each side's members flattened
 * (anonymous structs and unions lifted to absolute bit positions), matched
 * by name then by place and type, and bitmaps of the old layout (its
 * members, the ones kept, reserved space, the contract's unused bytes)
 * that say what a new member's bytes were. diff-aggregate-layout.c builds
 * and asks them; diff-aggregate.c judges the changes.
 */
#ifndef KD_DIFF_AGGREGATE_INTERNAL_H
#define KD_DIFF_AGGREGATE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "diff/type-walk.h"
#include "lib/buf.h"

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

/* Flatten both sides' members into g->l[]. 0 or -ENOMEM. */
int agg_flatten(struct agg *g);
/* Pair g->l[]'s members: by name, then renames (same bits and type). Returns 0. */
int agg_match_members(struct agg *g);
/* The bitmaps of the old layout, once members are matched. 0 or -ENOMEM. */
int agg_build_maps(struct agg *g);
/* Free what agg_flatten() and agg_build_maps() allocated, and g's buffers. */
void agg_release(struct agg *g);

/* Are bits [@from, @from + @len) all @set in @map? Bits at or past @nbits are unset. */
bool agg_bits_all(const unsigned char *map, int64_t nbits, int64_t from, int64_t len, bool set);
/* Does no other member of @l start after @f? */
bool agg_is_last(const struct leaves *l, const struct leaf *f);
/* Is each bit of [@from, @from + @len) of the old layout padding or unused? */
bool agg_padding_or_unused(const struct agg *g, int64_t from, int64_t len);
/*
 * Are bits [@from, @from + @len) of the old layout each a kept member's or
 * padding (a union alternative naming a group of kept members and the
 * holes between them: tc_u32_sel's __struct_group hdr in 6.12)? The
 * caller knows they are not all padding.
 */
bool agg_kept_or_padding(const struct agg *g, int64_t from, int64_t len);
/* Do members of the new layout cover the bits old member @a had? */
bool agg_covered_in_new(const struct agg *g, const struct leaf *a);

#endif
