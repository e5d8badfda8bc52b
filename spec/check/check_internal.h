/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to spec/check*.c: the state of one `kabi-diff check` run (the
 * kernel's constants and syscalls loaded once, the families of constants
 * the spec's flag sets claim) and the helpers the three files share:
 * check.c (findings, syscalls, ioctls, the run), types.c (C types
 * against kinds, structs), sets.c (flag sets and their families) and
 * vdso.c (the vDSO's images).
 */
#ifndef KD_SPEC_CHECK_INTERNAL_H
#define KD_SPEC_CHECK_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/buf.h"
#include "spec/check/check.h"
#include "spec/spec.h"

struct item {
	struct spec_finding f;
	size_t file_idx, seq;	/* sort keys */
};

struct spec_check {
	struct item *items;
	size_t nr, cap;
	size_t specified, total;
	bool has_uapi;
	bool has_vdso;		/* the extraction read the vDSO (meta "vdso") */
	bool vdso_unchecked;	/* the spec has vdso blocks, the kernel no vDSO read */
	char *release;
};

struct kconst {
	char *name, *file;
	uint64_t value;
	bool is_signed_neg;	/* a negative value of a signed type */
};

struct ksys {
	char *name;
	int64_t func_id;
	bool implemented;
};

/* A family of constants a set claims (see add_families()). */
struct family {
	const struct spec_set *set;
	char *prefix;		/* "FAN_MARK_" */
	size_t word;		/* bytes of its first word ("FAN_") */
};

struct ck {
	const struct spec *s;
	struct kdb *db;
	struct type_cache *types;	/* of db: the walks of types.c */
	struct spec_check *r;
	unsigned rel[3];
	bool has_rel;
	const char *abi;	/* the kernel's native syscall ABI: "x64", "arm64" */
	struct kconst *consts;
	size_t nr_consts, cap_consts;
	struct ksys *sys;
	size_t nr_sys, cap_sys;
	struct family *fams;
	size_t nr_fams, cap_fams;
	const char **named;	/* every constant name the spec uses, sorted */
	size_t nr_named, cap_named;
	struct kd_buf subj, msg, tmp;
};


/* Record a finding of @rule at @loc (NULL: the kernel's own). */
int finding(struct ck *c, enum spec_check_rule_id rule, const struct spec_loc *loc,
	    const char *subject, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Is @since later than the kernel's release (so absence is expected)? */
bool after_kernel(const struct ck *c, const char *since);
/* The UAPI constant @name, NULL when the headers do not define it. */
const struct kconst *find_const(const struct ck *c, const char *name);
/* spec_lookup_fn over the constants (@ctx: the struct ck). */
int lookup_const(const char *name, uint64_t *value, void *ctx);

/* types.c */
/* Bytes of a scalar spelling a spec may use ("__u64", "int"); 0: unknown. */
int64_t scalar_size(const char *name);
/*
 * Can the C type @type_id (@type_text when only the text is known) carry
 * kind @a? @field: a struct member, where user pointers may be __u64.
 * *bad and the reason in @why when not.
 */
int kind_vs_type(struct ck *c, const struct spec_arg *a, int64_t type_id,
		 const char *type_text, bool field, struct kd_buf *why, bool *bad);
/* "ptr in struct open_how", "flags open_flags" into @b (reset first). */
int kind_text(const struct spec_arg *a, struct kd_buf *b);
int check_struct(struct ck *c, const struct spec_struct *st);

/* sets.c */
/* Collect every constant name the spec uses and the families sets claim. */
int collect_names(struct ck *c);
int check_set(struct ck *c, const struct spec_set *set);

/*
 * compat32.c: the ioctls whose i386 layout differs and whose serving
 * binary hands them to the native handler (compat_ptr_ioctl).
 */
int check_compat32(struct ck *c);

/* vdso.c: every "vdso ABI" block against the kernel's images; sets r->has_vdso. */
int check_vdso(struct ck *c);

#endif
