/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kdb: the contract stored in a DB (tables spec_*, see db/SCHEMA.md),
 * written by spec__store() and read back by spec__load_db().
 */
#ifndef KD_KDB_SPEC_H
#define KD_KDB_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/kdb.h"

/*
 * The parsed contract in a DB (tables spec_*, see db/SCHEMA.md). Rows are
 * format-neutral: spec/ fills them from its model (spec__store()); strings
 * may be NULL where the column allows it. Lines are of the row's file.
 */
struct kdb_spec_file {
	const char *name;	/* relative to the spec directory */
	const char *path;	/* as loaded; may be NULL */
	const char *hash;	/* 16 hex digits */
	int64_t bytes;
	const char *text;	/* the whole file */
};
struct kdb_spec_fdkind {
	const char *name, *text, *file;
	int line;
};
struct kdb_spec_set {
	const char *name;
	const char *kind;	/* flags | enum */
	const char *extends;
	const char *unknown;	/* reject | ignore */
	const char *since, *file;
	int line;
};
struct kdb_spec_value {
	const char *set;
	int idx;
	const char *name;
	bool has_value;
	int64_t value;		/* when has_value (two's complement of the u64) */
	const char *value_source; /* explicit | uapi | NULL */
	const char *expr;
	int grp;		/* -1: in no exclusive group */
	const char *grp_mask;
	const char *since;
	int line;
};
struct kdb_spec_call {
	const char *kind;	/* syscall | ioctl */
	const char *name, *ret, *ret_fd_kind, *since;
	const char *fd_kind, *dir, *arg_type;	/* ioctls */
	const char *notes, *file;
	int line;
};
struct kdb_spec_arg {
	const char *owner_kind;	/* syscall | ioctl | struct */
	const char *owner;
	int pos;
	const char *name, *kind, *ref, *dir;
	bool is_array, optional, reserved, out_only;
	const char *range_lo, *range_hi, *specials, *since;
	int line;
};
struct kdb_spec_errno {
	const char *call_kind, *call_name;
	int idx;
	const char *errno_name, *text, *cond, *since;
	int line;
};
struct kdb_spec_struct {
	const char *name;
	bool is_union, extensible, padding_zero;
	int64_t min_size;	/* -1: not stated */
	const char *since, *file;
	int line;
};
struct kdb_spec_size {
	const char *struct_name;
	int idx;
	const char *name;
	int64_t size;
	const char *since;
};

/* Delete every spec row (before storing another spec). */
int kdb__clear_spec(struct kdb *db);
int kdb__put_spec_file(struct kdb *db, int idx, const struct kdb_spec_file *f);
int kdb__put_spec_fdkind(struct kdb *db, const struct kdb_spec_fdkind *k);
int kdb__put_spec_set(struct kdb *db, const struct kdb_spec_set *s);
int kdb__put_spec_value(struct kdb *db, const struct kdb_spec_value *v);
int kdb__put_spec_call(struct kdb *db, const struct kdb_spec_call *c);
int kdb__put_spec_arg(struct kdb *db, const struct kdb_spec_arg *a);
int kdb__put_spec_errno(struct kdb *db, const struct kdb_spec_errno *e);
int kdb__put_spec_struct(struct kdb *db, const struct kdb_spec_struct *s);
int kdb__put_spec_size(struct kdb *db, const struct kdb_spec_size *s);

/* Walks: rows live until the callback returns; non-zero stops the walk. */
typedef int (*kdb_spec_file_fn)(const struct kdb_spec_file *f, void *ctx);
typedef int (*kdb_spec_value_fn)(const struct kdb_spec_value *v, void *ctx);
typedef int (*kdb_spec_errno_fn)(const struct kdb_spec_errno *e, void *ctx);
typedef int (*kdb_spec_struct_fn)(const struct kdb_spec_struct *s, void *ctx);
/* Files in load order; 0 rows when the DB holds no spec (or predates the tables). */
int kdb__foreach_spec_file(struct kdb *db, kdb_spec_file_fn cb, void *ctx);
/* Values of set @set in order. */
int kdb__foreach_spec_value(struct kdb *db, const char *set, kdb_spec_value_fn cb, void *ctx);
/* Errnos of call @name of @kind ("syscall", "ioctl") in order. */
int kdb__foreach_spec_errno(struct kdb *db, const char *kind, const char *name,
			    kdb_spec_errno_fn cb, void *ctx);
/* The struct annotation @name; -ENOENT when absent. */
int kdb__get_spec_struct(struct kdb *db, const char *name, kdb_spec_struct_fn cb, void *ctx);

#endif
