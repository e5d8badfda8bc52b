// SPDX-License-Identifier: GPL-2.0-only
/*
 * The statement helpers every db/ file uses: errors reported with the
 * file's name, prepare, exec, row walks, binds and column readers. Apart
 * from kdb.c (the handle's life) so that kdb-guard.c, which kdb.c calls
 * to check a file it opens, does not call back into kdb.c for them.
 */
#include "db/kdb_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/mem.h"

int kdb_sql_error(struct kdb *db, const char *what)
{
	int code = db->sql ? sqlite3_errcode(db->sql) : SQLITE_ERROR;

	int sys = db->sql ? sqlite3_system_errno(db->sql) : 0;

	/* "disk I/O error" alone does not say that the disk is full or the file too large. */
	if (sys && ((code & 0xff) == SQLITE_IOERR || code == SQLITE_FULL))
		kd_err("%s: %s: %s (%s)", db->path, what, sqlite3_errmsg(db->sql), strerror(sys));
	else
		kd_err("%s: %s: %s", db->path, what,
		       db->sql ? sqlite3_errmsg(db->sql) : "no database");
	switch (code) {
	case SQLITE_NOMEM:	return -ENOMEM;
	case SQLITE_FULL:	return -ENOSPC;
	case SQLITE_CANTOPEN:	return -EACCES;
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:	return -KD_EFORMAT;
	default:		return -EIO;
	}
}

int kdb_prepare(struct kdb *db, const char *sql, sqlite3_stmt **out)
{
	if (sqlite3_prepare_v2(db->sql, sql, -1, out, NULL) != SQLITE_OK) {
		*out = NULL;
		return kdb_sql_error(db, "prepare");
	}
	return 0;
}

int kdb_each_row(struct kdb *db, sqlite3_stmt *st, const char *what, kdb_row_fn row, void *ctx)
{
	int rc, err = 0;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		err = row(st, ctx);
		if (err)
			break;
	}
	if (!err && rc != SQLITE_DONE)
		err = kdb_sql_error(db, what);
	sqlite3_finalize(st);
	return err;
}

int kdb_step_one(struct kdb *db, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		return 0;
	return rc == SQLITE_DONE ? -ENOENT : kdb_sql_error(db, what);
}

int kdb_query(struct kdb *db, const char *sql, const char *what, kdb_row_fn row, void *ctx)
{
	sqlite3_stmt *st;
	int err = kdb_prepare(db, sql, &st);

	return err ? err : kdb_each_row(db, st, what, row, ctx);
}

int kdb_name_row(sqlite3_stmt *st, void *ctx)
{
	struct kdb_list *w = ctx;
	char **names = w->items;
	int err = KD_GROW(names, w->cap, w->n + 1);

	w->items = names;
	if (err)
		return err;
	if (!(names[w->n] = kdb_col_strdup(st, 0)))
		return -ENOMEM;
	w->n++;
	return 0;
}

int kdb_id_row(sqlite3_stmt *st, void *ctx)
{
	struct kdb_list *w = ctx;
	int64_t *ids = w->items;
	int err = KD_GROW(ids, w->cap, w->n + 1);

	w->items = ids;
	if (err)
		return err;
	ids[w->n++] = sqlite3_column_int64(st, 0);
	return 0;
}

int kdb_exec(struct kdb *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db->sql, sql, NULL, NULL, &msg) != SQLITE_OK) {
		int err;

		/* kdb_sql_error() adds SQLite's message: name the statement, not @msg again. */
		size_t n = strcspn(sql, " ;");
		char *what = kd_strndup(sql, n < 40 ? n : 40);

		err = kdb_sql_error(db, what ? what : "exec");
		free(what);
		sqlite3_free(msg);
		return err;
	}
	return 0;
}

int kdb_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	return s ? sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC) : sqlite3_bind_null(st, i);
}

int kdb_bind_id(sqlite3_stmt *st, int i, int64_t id)
{
	return id ? sqlite3_bind_int64(st, i, id) : sqlite3_bind_null(st, i);
}

const char *kdb_col_name(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? (const char *)s : "?";
}

const char *kdb_col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

char *kdb_col_strdup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? kd_strdup((const char *)s) : NULL;
}
