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
	STMT_PUT_TYPE_ORIGIN,
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
 */
int kdb_harden(struct kdb *db);
int kdb_verify_schema(struct kdb *db, const char *schema);
int kdb_uri(const char *path, char **out);
int kdb_check_wal(const char *path);

/* Route SQLite's allocations through lib/mem.h (once per process). */
int kdb_init_allocator(void);

/* Report a SQLite failure on @db as "PATH: what: sqlite message"; returns -EIO-ish code. */
int kdb_sql_error(struct kdb *db, const char *what);
/* Prepare (cached for the STMT_* ones) or fail with a reported error. */
sqlite3_stmt *kdb_stmt(struct kdb *db, enum kdb_stmt which);
int kdb_prepare(struct kdb *db, const char *sql, sqlite3_stmt **out);
int kdb_exec(struct kdb *db, const char *sql);
/* Bind helpers that map "absent" to NULL. */
int kdb_bind_text(sqlite3_stmt *st, int i, const char *s);
int kdb_bind_id(sqlite3_stmt *st, int i, int64_t id);	/* 0 -> NULL */
/* sqlite3_column_text() copied with kd_strdup (NULL stays NULL). */
char *kdb_col_strdup(sqlite3_stmt *st, int i);
/*
 * sqlite3_column_text() of a NOT NULL column, "?" if NULL after all: the
 * schema check and quick_check refuse such files, but a reader never
 * dereferences what a file could make NULL.
 */
const char *kdb_col_name(sqlite3_stmt *st, int i);

#endif
