/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kdb: one kernel's ABI as a .kabi SQLite file. The only module that
 * speaks SQL; every other stage reads and writes through this API.
 *
 * Writing is atomic: kdb__create() builds the file under a temporary name
 * in the destination directory, kdb__commit() commits, checks integrity and
 * renames it into place. A kdb freed before commit leaves nothing behind
 * and an existing file at @path untouched.
 *
 * Ids of types are chosen by the writer (kd_type.id); references between
 * types are by those ids, so a type graph with cycles can be stored in any
 * order.
 */
#ifndef KD_KDB_H
#define KD_KDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/model.h"

#define KDB_SCHEMA_VERSION 1

struct kdb;

/* Start a new DB that will replace @path on commit. *out: free with kdb__free(). */
int kdb__create(const char *path, struct kdb **out);
/* COMMIT, verify, and rename into place. Only kdb__free() may follow. */
int kdb__commit(struct kdb *db);
/*
 * Open an existing .kabi read-only. Fails with KD_EFORMAT when @path is not
 * a kabi-diff DB and KD_ESCHEMA when its schema version differs.
 */
int kdb__open(const char *path, struct kdb **out);
/* Does @path look like a .kabi file (SQLite header)? Never fails loudly. */
bool kdb__is_db_file(const char *path);
/* Closes; an uncommitted DB's temporary file is removed. NULL is fine. */
void kdb__free(struct kdb *db);
const char *kdb__path(const struct kdb *db);

/* --- writing ------------------------------------------------------------ */
int kdb__set_meta(struct kdb *db, const char *key, const char *value);
/* @t->id must be set (> 0); member and ref ids must be ids of this DB. */
int kdb__put_type(struct kdb *db, const struct kd_type *t);
/* Adds a do-function (sys_openat) with its return type; *id receives its id. */
int kdb__put_function(struct kdb *db, const char *name, int64_t ret_type,
		      const char *source, const char *decl_file, int decl_line,
		      int64_t *id);
int kdb__put_param(struct kdb *db, int64_t func_id, int pos, const char *name,
		   int64_t type_id, const char *type_text);

struct kd_syscall {
	const char *abi;	/* x64, ia32, x32 */
	int64_t nr;		/* -1: entry point of an ABI without a table in the binary */
	const char *name;	/* NULL when unknown (not-implemented slot) */
	const char *entry;	/* entry symbol, NULL when none */
	int64_t func_id;	/* 0 when no signature is known */
	bool implemented;
};
int kdb__put_syscall(struct kdb *db, const struct kd_syscall *sc);
int kdb__put_problem(struct kdb *db, const char *stage, const char *input,
		     const char *location, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* --- reading ------------------------------------------------------------ */
/* *value is malloc'ed (caller frees), NULL when the key is absent. */
int kdb__get_meta(struct kdb *db, const char *key, char **value);
/* *out: caller frees with kd_type__free(). -ENOENT when absent. */
int kdb__get_type(struct kdb *db, int64_t id, struct kd_type **out);
/*
 * Ids of the types named @name of kind @kind (NULL: any kind), in id order.
 * *ids is malloc'ed (caller frees). Returns the count.
 */
int kdb__find_types(struct kdb *db, const char *kind, const char *name, int64_t **ids);

struct kd_param {
	char *name;
	int64_t type_id;
	char *type_text;
};

struct kd_function {
	int64_t id;
	char *name;
	int64_t ret_type;
	char *source;
	char *decl_file;
	int decl_line;
	size_t nr_params;
	struct kd_param *params;
};
/* By do-function name (sys_openat). *out: kd_function__free(). -ENOENT when absent. */
int kdb__get_function(struct kdb *db, const char *name, struct kd_function **out);
int kdb__get_function_by_id(struct kdb *db, int64_t id, struct kd_function **out);
void kd_function__free(struct kd_function *f);

/* Calls @cb for each syscall slot of @abi (NULL: all ABIs) in (abi, nr)
 * order; a non-zero return of @cb stops the walk and is returned. */
typedef int (*kdb_syscall_fn)(const struct kd_syscall *sc, void *ctx);
int kdb__foreach_syscall(struct kdb *db, const char *abi, kdb_syscall_fn cb, void *ctx);
/* Syscall slots named @name (all ABIs). Same callback contract. */
int kdb__foreach_syscall_named(struct kdb *db, const char *name, kdb_syscall_fn cb, void *ctx);

struct kd_problem {
	const char *stage, *input, *location, *message;
};
typedef int (*kdb_problem_fn)(const struct kd_problem *p, void *ctx);
int kdb__foreach_problem(struct kdb *db, kdb_problem_fn cb, void *ctx);
/* Row count of @table (one of the schema's tables), for summaries. */
int64_t kdb__count(struct kdb *db, const char *table);

/* --- modules ------------------------------------------------------------ */
int kdb__put_module(struct kdb *db, const char *name, const char *path, int64_t *id);
/* *name: the module's name (malloc'ed, caller frees); -ENOENT when absent. */
int kdb__get_module_name(struct kdb *db, int64_t id, char **name);
/* Type @type_id is defined in module @module_id (0: vmlinux). Repeats are ignored. */
int kdb__put_type_origin(struct kdb *db, int64_t type_id, int64_t module_id);

/* --- UAPI constants and ioctls --- */
/*
 * An integer #define of the UAPI headers. @value holds the 64 bits of the
 * C value in two's complement; @ctype names its C type ("int",
 * "unsigned int", "long", "unsigned long", "long long", "unsigned long
 * long"), so (uint64_t)value is the value when ctype is unsigned 64-bit.
 */
struct kd_constant {
	const char *name;
	int64_t value;
	const char *ctype;
	const char *expr;	/* the macro body as written (comments stripped) */
	const char *file;	/* include-relative: "linux/fcntl.h" */
	int line;
	int64_t enum_type;	/* types.id of an enum with an enumerator of that name; 0: none */
};

/* An ioctl command number #define (_IO/_IOR/_IOW/_IOWR/_IOC). */
struct kd_ioctl {
	const char *name;
	const char *dir;	/* none | r | w | rw */
	int type_char;		/* 0..255 */
	int nr;			/* 0..255 */
	const char *arg_type_text; /* "struct drm_mode_create_dumb"; NULL for _IO */
	int64_t arg_type;	/* types.id, 0: unknown */
	bool has_size;		/* false: the argument type's size is unknown */
	int64_t size;		/* bytes, when has_size */
	bool size_trusted;	/* size from DWARF or a plain C type */
	bool has_cmd;		/* false when !has_size */
	uint32_t cmd;
	int64_t module_id;	/* modules.id of the DWARF that knows the type; 0: vmlinux/none */
	const char *file;
	int line;
};

/* Insert @n rows (one prepared statement for the batch). A name already present is replaced. */
int kdb__put_constants(struct kdb *db, const struct kd_constant *c, size_t n);
int kdb__put_ioctls(struct kdb *db, const struct kd_ioctl *io, size_t n);
static inline int kdb__put_constant(struct kdb *db, const struct kd_constant *c)
{
	return kdb__put_constants(db, c, 1);
}
static inline int kdb__put_ioctl(struct kdb *db, const struct kd_ioctl *io)
{
	return kdb__put_ioctls(db, io, 1);
}
/*
 * Set constants.enum_type where an enumerator of the same name exists (one
 * UPDATE; run after the types are written). Returns the number linked.
 */
int kdb__link_constants_to_enums(struct kdb *db);

/* Callbacks see rows whose strings live until the callback returns; a
 * non-zero return stops the walk and is returned. */
typedef int (*kdb_constant_fn)(const struct kd_constant *c, void *ctx);
typedef int (*kdb_ioctl_fn)(const struct kd_ioctl *io, void *ctx);
/* Calls @cb once for the constant @name; -ENOENT when absent. */
int kdb__get_constant(struct kdb *db, const char *name, kdb_constant_fn cb, void *ctx);
/* Calls @cb once for the ioctl @name; -ENOENT when absent. */
int kdb__get_ioctl(struct kdb *db, const char *name, kdb_ioctl_fn cb, void *ctx);
/* All constants in name order. */
int kdb__foreach_constant(struct kdb *db, kdb_constant_fn cb, void *ctx);
/*
 * All ioctls in name order; with @module (a modules.name) only those whose
 * argument type was found in that module.
 */
int kdb__foreach_ioctl(struct kdb *db, const char *module, kdb_ioctl_fn cb, void *ctx);

/* --- diff queries --- */
/*
 * Every type of @db with its members and enumerators (names only, no
 * declaration files), sorted by id, in one scan per table.
 * *types: free with kdb__free_types(*types, *n).
 */
int kdb__load_types(struct kdb *db, struct kd_type **types, size_t *n);
void kdb__free_types(struct kd_type *types, size_t n);
/* Make @other's tables readable from @db's diff queries (ATTACH ... AS other). */
int kdb__attach_other(struct kdb *db, struct kdb *other);
int kdb__detach_other(struct kdb *db);

/* One (abi, name) of the implemented syscalls of either kernel. */
struct kdb_syscall_pair {
	const char *abi;
	const char *name;
	const char *old_nrs;	/* "257" ("19,515" when several; "-" without a table); NULL: absent */
	const char *new_nrs;
	int64_t old_func;	/* functions.id on each side; 0: no signature */
	int64_t new_func;
};
typedef int (*kdb_syscall_pair_fn)(const struct kdb_syscall_pair *p, void *ctx);
/* After kdb__attach_other(): every pair, in (name, x64 first, abi) order. */
int kdb__diff_syscalls(struct kdb *db, const char *abi, kdb_syscall_pair_fn cb, void *ctx);

/* A constant or ioctl of either kernel; NULL on the side where it is absent. */
struct kdb_constant_pair {
	const struct kd_constant *old, *new;
};
struct kdb_ioctl_pair {
	const struct kd_ioctl *old, *new;
};
typedef int (*kdb_constant_pair_fn)(const struct kdb_constant_pair *p, void *ctx);
typedef int (*kdb_ioctl_pair_fn)(const struct kdb_ioctl_pair *p, void *ctx);
/* After kdb__attach_other(): constants added, removed or of another value, by name. */
int kdb__diff_constants(struct kdb *db, kdb_constant_pair_fn cb, void *ctx);
/* After kdb__attach_other(): every ioctl of either side, by name. */
int kdb__diff_ioctls(struct kdb *db, kdb_ioctl_pair_fn cb, void *ctx);

/* --- contract (spec) --- */
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

/*
 * Open the existing .kabi @path for an update: the file is copied beside
 * itself, opened read-write inside a transaction, and kdb__commit() renames
 * it into place (kdb__free() before commit leaves @path untouched). Adds the
 * spec tables to a DB written before they existed. *out: kdb__free().
 */
int kdb__open_update(const char *path, struct kdb **out);
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

/* --- probe (kabi-diff probe) --- */
/*
 * One probe case with its observed result (tables probe_cases and
 * probe_results, db/SCHEMA.md). Strings are the caller's (put) or live
 * until the callback returns (walk).
 */
struct kdb_probe_row {
	const char *id, *call;
	int64_t nr;
	const char *kind;		/* errno | flag | unknown-flag */
	const char *args;		/* readable */
	const char *expect;		/* any | ok | errno | accept */
	const char *expect_errno;	/* NULL when none */
	const char *what, *origin;
	const char *status;		/* ret | timeout | signal | missing */
	int64_t ret;
	int err;			/* errno (ret == -1) or signal number */
	const char *errno_name;		/* NULL when none */
	bool matches;
	const char *release;
};
/* Create the probe tables if the DB predates them, and empty them. */
int kdb__clear_probe(struct kdb *db);
int kdb__put_probe(struct kdb *db, const struct kdb_probe_row *r);
typedef int (*kdb_probe_fn)(const struct kdb_probe_row *r, void *ctx);
/* Every case in id order; 0 rows when the DB holds no probe (or predates the tables). */
int kdb__foreach_probe(struct kdb *db, kdb_probe_fn cb, void *ctx);

/* A case probed on both kernels (same id and arguments) with another outcome. */
struct kdb_probe_pair {
	const char *id, *call, *kind, *args, *expect, *expect_errno, *what; /* the old side's */
	const char *old_status, *old_errno;	/* status ret|timeout|...; errno NULL: succeeded */
	const char *new_status, *new_errno;
};
typedef int (*kdb_probe_pair_fn)(const struct kdb_probe_pair *p, void *ctx);
/*
 * With the new kernel's DB attached as "other" (kdb__attach_other()), each
 * case whose status or errno differs, in id order. 0 rows when either
 * side holds no probe.
 */
int kdb__diff_probe(struct kdb *db, kdb_probe_pair_fn cb, void *ctx);

#endif
