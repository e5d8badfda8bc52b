/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to probe/spec*.c: the state of converting one spec into cases.
 * spec-args.c knows the kernel (constants, struct layouts from the DB) and
 * gives each parameter of a call its baseline value and a slot the
 * conditions can name; spec.c searches values that make one condition true
 * and writes the cases.
 */
#ifndef KD_PROBE_CONV_INTERNAL_H
#define KD_PROBE_CONV_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/buf.h"
#include "probe/probe.h"
#include "probe/probe_internal.h"
#include "spec/spec.h"

#define MAX_SLOTS 16
#define MAX_CANDS 96
#define NOENT_PATH "/kabi-probe-nonexistent"
#define PID_NONE 4194304	/* PID_MAX_LIMIT: above every pid the kernel hands out */
#define MAP_BASE 0x10000000000ULL /* where conditions see the probe's mapping (page aligned) */
#define DATA_LEN 64		/* bytes a pointer field of a struct argument gets */

struct cval {
	char *name;
	uint64_t value;
	bool found;
};

struct conv {
	struct probe_set *set;
	const struct spec *s;
	struct kdb *db;
	struct type_cache *types;	/* of db: struct layouts */
	int db_err;			/* the first failed DB query (reported) */
	char *release;
	const char *fs;			/* the probe's files' file system */
	unsigned fs_bit;		/* its SPEC_FS_* bit */
	struct cval *consts;
	size_t nr_consts, cap_consts;
	struct probe_spec_stats *st;
	/* the call being converted */
	const struct spec_call *call;
	struct probe_case base;
	/* bytes of each parameter's C type in this kernel's DWARF; 0: unknown */
	unsigned widths[PROBE_MAX_ARGS];
	struct conv_slot {
		char *name;		/* "usize", "how.flags" (the spec's spelling; owned) */
		int arg;
		int patch;		/* -1: the argument itself */
		enum { SL_INT, SL_PTR, SL_FD, SL_MAP } kind;
		uint64_t mask;		/* of the C type's width */
		uint64_t base, cur;
	} slots[MAX_SLOTS];
	size_t nr_slots;
	struct kd_buf tmp;
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* spec_lookup_fn over @ctx, a struct conv: slots, flag set masks, constants. */
int conv_lookup(const char *name, uint64_t *value, void *ctx);
/* 1 true, 0 false, -1 not evaluable (or @e NULL). */
int conv_truth(struct conv *cv, const struct spec_expr *e);
/* Value of a set member in this kernel; false when unknown here. */
/* Has every member of @set this kernel has a value here (explicit, or its UAPI constant)? */
bool conv_set_complete(struct conv *cv, const struct spec_set *set);
bool conv_member_value(struct conv *cv, const struct spec_value *v, uint64_t *out);
struct conv_slot *conv_find_slot(struct conv *cv, const char *name);
/* The slot of field @name ("how.flags") of a struct argument; NULL when it has none. */
struct conv_slot *conv_field_slot(struct conv *cv, const char *name);
/* @v as the register carries it (32-bit values sign-extended). */
uint64_t conv_reg(const struct conv_slot *sl, uint64_t v);
void conv_slots_clear(struct conv *cv);
/*
 * cv->widths from the signature of function @func_id (the syscall's
 * do-function in DWARF): the size of each parameter's type after
 * typedefs, so that a loff_t is 8 bytes and an int 4. Left 0 where the
 * signature is missing or does not have the spec's parameter count.
 */
void conv_param_widths(struct conv *cv, int64_t func_id);
/* cv->base and the slots of cv->call; 1: it cannot be probed (why in cv->tmp). */
int conv_build_base(struct conv *cv);

#endif
