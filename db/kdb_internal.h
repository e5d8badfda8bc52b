/* SPDX-License-Identifier: GPL-2.0-only */
/* Private to db/: the handle and statement helpers. */
#ifndef KD_KDB_INTERNAL_H
#define KD_KDB_INTERNAL_H

#include <sqlite3.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "db/kdb-uapi.h"
#include "db/kdb-diff.h"
#include "db/kdb-spec.h"
#include "db/kdb-probe.h"
#include "db/kdb-vdso.h"

enum kdb_stmt {
	STMT_PUT_META,
	STMT_PUT_TYPE,
	STMT_PUT_MEMBER,
	STMT_PUT_ENUMERATOR,
	STMT_PUT_FUNCTION,
	STMT_PUT_PARAM,
	STMT_PUT_SYSCALL,
	STMT_PUT_PROBLEM,
	STMT_PUT_MODULE,
	STMT_PUT_BINARY_HEADER,
	STMT_PUT_TYPE_ORIGIN,
	STMT_PUT_FOPS,
	STMT_PUT_BINARY_IOCTL_CMD,
	STMT_PUT_UAPI_TYPE,
	STMT__COUNT
};

struct kdb {
	sqlite3 *sql;
	char *path;		/* final name */
	char *uri;		/* read-only opens: file:PATH?immutable=1, for ATTACH too */
	char *tmp_path;		/* while writing; NULL once committed */
	sqlite3_stmt *stmts[STMT__COUNT];
};

extern const char kdb_schema_sql[];
/* Where the tables a DB may lack begin (contract, probe): kdb_schema_sql's optional part. */
#define KDB_SCHEMA_OPTIONAL_MARKER "-- contract (spec)\n"

/*
 * kdb-guard.c: opening files that may come from anyone. kdb_harden(): SQLite's
 * defensive mode, no triggers, views, untrusted schema functions or
 * extensions. kdb_verify_schema(): the objects of @schema ("main", "other")
 * are exactly this kabi-diff's (CREATE statements compared), or a reported
 * -KD_ESCHEMA. kdb_uri(): "file:ABSPATH?immutable=1" (malloc'ed), so a
 * read-only open creates no -wal/-shm. kdb_check_wal(): a WAL-mode file
 * whose -wal holds changes is refused (immutable would ignore them).
 * kdb_verify_values(): no negative offset, size or bit position (a
 * reported -KD_EFORMAT).
 */
int kdb_harden(struct kdb *db);
int kdb_verify_schema(struct kdb *db, const char *schema);
int kdb_uri(const char *path, char **out);
int kdb_check_wal(const char *path);
int kdb_verify_values(struct kdb *db);

/* Route SQLite's allocations through lib/mem.h (once per process). */
int kdb_init_allocator(void);

/* kdb-sql.c: the statement helpers (kdb_stmt()'s cache is kdb.c's). */
/* Report a SQLite failure on @db as "PATH: what: sqlite message"; returns -EIO-ish code. */
int kdb_sql_error(struct kdb *db, const char *what);
/* Prepare (cached for the STMT_* ones) or fail with a reported error. */
sqlite3_stmt *kdb_stmt(struct kdb *db, enum kdb_stmt which);
int kdb_prepare(struct kdb *db, const char *sql, sqlite3_stmt **out);
int kdb_exec(struct kdb *db, const char *sql);
/* One row of a walk: 0 goes on, an error stops the walk and is its result. */
typedef int (*kdb_row_fn)(sqlite3_stmt *st, void *ctx);
/*
 * Every row of the prepared (and bound) @st to @row, then @st finalized,
 * whatever happened: the first error of @row, or a failed step reported as
 * "PATH: @what: sqlite message". kdb_query(): @sql prepared, then the same.
 */
int kdb_each_row(struct kdb *db, sqlite3_stmt *st, const char *what, kdb_row_fn row, void *ctx);
int kdb_query(struct kdb *db, const char *sql, const char *what, kdb_row_fn row, void *ctx);
/*
 * Step @st to the one row a lookup expects: 0 with the row there, -ENOENT
 * when there is none, or a failed step reported as "PATH: @what: message".
 */
int kdb_step_one(struct kdb *db, sqlite3_stmt *st, const char *what);
/*
 * A caller's callback carried through a walk: @fn is the caller's function
 * under the generic function type. KDB_CALLER(cb, ctx) makes one;
 * KDB_CALL(type, walk_ctx, arg), in a row function whose context is one,
 * calls it back as the walk's own callback @type with @arg.
 */
struct kdb_caller {
	void (*fn)(void);
	void *ctx;
};
#define KDB_CALLER(cb, ctx) ((struct kdb_caller){ (void (*)(void))(cb), (ctx) })
#define KDB_CALL(type, walk_ctx, arg) \
	(((type)((const struct kdb_caller *)(walk_ctx))->fn)((arg), \
		((const struct kdb_caller *)(walk_ctx))->ctx))

/*
 * The columns of a constant and of an ioctl as table alias @t has them, and
 * their readers (kdb-uapi.c), which fill @out from column @base on and return
 * it, or NULL where that column is NULL (the absent side of a diff's pair).
 */
#define KDB_CONSTANT_COLS(t) t ".name, " t ".value, " t ".ctype, " t ".expr, " t ".file, " \
	t ".line, " t ".enum_type, " t ".source"
#define KDB_CONSTANT_NCOLS 8
#define KDB_IOCTL_COLS(t) t ".name, " t ".dir, " t ".type_char, " t ".nr, " t ".arg_type_text, " \
	t ".arg_type, " t ".size, " t ".size_trusted, " t ".cmd, " t ".module_id, " t ".file, " \
	t ".line, " t ".source"
#define KDB_IOCTL_NCOLS 13
/*
 * Row functions that grow a list of column 0 (kdb_list.items: char ** of
 * names, int64_t * of ids) by one item a row.
 */
struct kdb_list {
	void *items;
	size_t n, cap;
};
int kdb_name_row(sqlite3_stmt *st, void *ctx);
int kdb_id_row(sqlite3_stmt *st, void *ctx);
/*
 * kdb-read.c: append to @t the member (name, member_type, offset, bit_offset,
 * bit_size) or enumerator (name, value) of the columns from @base on; @cap is
 * the capacity of @t's array.
 */
int kdb_add_member(sqlite3_stmt *st, int base, struct kd_type *t, size_t *cap);
int kdb_add_enumerator(sqlite3_stmt *st, int base, struct kd_type *t, size_t *cap);
const struct kd_constant *kdb_read_constant(sqlite3_stmt *st, int base, struct kd_constant *out);
const struct kd_ioctl *kdb_read_ioctl(sqlite3_stmt *st, int base, struct kd_ioctl *out);
/* ioctl_families' columns, and the row at column @base (NULL when NULL there). */
#define KDB_FAMILY_COLS(t) t ".name, " t ".params, " t ".dir, " t ".type, " t ".nr, " t ".size, " \
			   t ".file, " t ".line"
#define KDB_FAMILY_NCOLS 8
const struct kd_ioctl_family *kdb_read_ioctl_family(sqlite3_stmt *st, int base,
						    struct kd_ioctl_family *out);
/* Bind helpers that map "absent" to NULL. */
int kdb_bind_text(sqlite3_stmt *st, int i, const char *s);
int kdb_bind_id(sqlite3_stmt *st, int i, int64_t id);	/* 0 -> NULL */
/* sqlite3_column_text() copied with kd_strdup (NULL stays NULL). */
char *kdb_col_strdup(sqlite3_stmt *st, int i);
/* sqlite3_column_text() as a C string (NULL stays NULL). */
const char *kdb_col_text(sqlite3_stmt *st, int i);
/*
 * sqlite3_column_text() of a NOT NULL column, "?" if NULL after all: the
 * schema check and quick_check refuse such files, but a reader never
 * dereferences what a file could make NULL.
 */
const char *kdb_col_name(sqlite3_stmt *st, int i);

#endif
