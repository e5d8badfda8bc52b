// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compat user ABIs' header view (kdb-compat.h): tables compat_types,
 * compat_only_types and compat_ioctls (db/SCHEMA.md).
 */
#include "db/kdb-compat.h"

#include <errno.h>
#include <stdlib.h>

#include "db/kdb_internal.h"

static int put(struct kdb *db, const char *sql, const char *abi, int64_t type_id,
	       const char *file, int line)
{
	sqlite3_stmt *st = NULL;
	int err = kdb_prepare(db, sql, &st);

	if (err)
		return err;
	kdb_bind_text(st, 1, abi);
	sqlite3_bind_int64(st, 2, type_id);
	if (file)
		kdb_bind_text(st, 3, file);
	if (line > 0)
		sqlite3_bind_int(st, 4, line);
	if (sqlite3_step(st) != SQLITE_DONE)
		err = kdb_sql_error(db, "writing the compat header view");
	sqlite3_finalize(st);
	return err;
}

int kdb__put_compat_type(struct kdb *db, const char *abi, int64_t type_id, const char *file,
			 int line)
{
	return put(db, "INSERT OR IGNORE INTO compat_types(abi, type_id, file, line)"
		   " VALUES (?1,?2,?3,?4)", abi, type_id, file, line);
}

int kdb__put_compat_only(struct kdb *db, const char *abi, int64_t type_id)
{
	return put(db, "INSERT OR IGNORE INTO compat_only_types(abi, type_id) VALUES (?1,?2)",
		   abi, type_id, NULL, 0);
}

int kdb__put_compat_ioctls(struct kdb *db, const char *abi, const struct kd_ioctl *io, size_t n)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int err;

	err = kdb_prepare(db, "INSERT OR REPLACE INTO compat_ioctls(abi, name, dir, type_char, nr,"
			  " arg_type_text, arg_type, size, size_trusted, cmd, file, line, source)"
			  " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", &st);
	if (err)
		return err;
	for (i = 0; i < n && !err; i++) {
		const struct kd_ioctl *x = &io[i];

		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		kdb_bind_text(st, 1, abi);
		kdb_bind_text(st, 2, x->name);
		kdb_bind_text(st, 3, x->dir);
		sqlite3_bind_int(st, 4, x->type_char);
		sqlite3_bind_int(st, 5, x->nr);
		kdb_bind_text(st, 6, x->arg_type_text);
		kdb_bind_id(st, 7, x->arg_type);
		if (x->has_size)
			sqlite3_bind_int64(st, 8, x->size);
		sqlite3_bind_int(st, 9, x->has_size && x->size_trusted);
		if (x->has_cmd)
			sqlite3_bind_int64(st, 10, x->cmd);
		kdb_bind_text(st, 11, x->file);
		if (x->line > 0)
			sqlite3_bind_int(st, 12, x->line);
		kdb_bind_text(st, 13, x->source ? x->source : "macro");
		if (sqlite3_step(st) != SQLITE_DONE)
			err = kdb_sql_error(db, "writing the compat ioctls");
	}
	sqlite3_finalize(st);
	return err;
}

int kdb__has_compat_view(struct kdb *db, const char *abi)
{
	sqlite3_stmt *st = NULL;
	int err = kdb_prepare(db, "SELECT EXISTS (SELECT 1 FROM compat_types WHERE abi = ?1)"
			      " OR EXISTS (SELECT 1 FROM compat_ioctls WHERE abi = ?1)", &st);

	if (err)
		return err;
	kdb_bind_text(st, 1, abi);
	err = kdb_step_one(db, st, "reading the compat header view");
	if (!err)
		err = sqlite3_column_int(st, 0) ? 1 : 0;
	sqlite3_finalize(st);
	return err;
}

int kdb__find_compat_types(struct kdb *db, const char *abi, const char *kind, const char *name,
			   int64_t **ids)
{
	struct kdb_list w = { 0 };
	sqlite3_stmt *st;
	int err;

	*ids = NULL;
	err = kdb_prepare(db, "SELECT DISTINCT t.id FROM types t JOIN compat_types c"
			  " ON c.type_id = t.id AND c.abi = ?3"
			  " WHERE t.name = ?1 AND (?2 IS NULL OR t.kind = ?2) ORDER BY t.id", &st);
	if (err)
		return err;
	kdb_bind_text(st, 1, name);
	kdb_bind_text(st, 2, kind);
	kdb_bind_text(st, 3, abi);
	err = kdb_each_row(db, st, "reading the compat header view", kdb_id_row, &w);
	if (err) {
		free(w.items);
		return err;
	}
	*ids = w.items;
	return (int)w.n;
}

struct ioctl_walk {
	kdb_ioctl_fn cb;
	void *ctx;
	bool found;
};

static int ioctl_row(sqlite3_stmt *st, void *ctx)
{
	struct ioctl_walk *w = ctx;
	struct kd_ioctl io;

	w->found = true;
	kdb_read_ioctl(st, 0, &io);
	return w->cb(&io, w->ctx);
}

int kdb__foreach_compat_ioctl(struct kdb *db, const char *abi, const char *name,
			      kdb_ioctl_fn cb, void *ctx)
{
	struct ioctl_walk w = { cb, ctx, false };
	sqlite3_stmt *st;
	int err;

	/* The columns of KDB_IOCTL_COLS, module_id NULL. */
	err = kdb_prepare(db, "SELECT name, dir, type_char, nr, arg_type_text, arg_type, size,"
			  " size_trusted, cmd, NULL, file, line, source FROM compat_ioctls"
			  " WHERE abi = ?1 AND (?2 IS NULL OR name = ?2) ORDER BY name", &st);
	if (err)
		return err;
	kdb_bind_text(st, 1, abi);
	kdb_bind_text(st, 2, name);
	err = kdb_each_row(db, st, "reading the compat ioctls", ioctl_row, &w);
	return !err && name && !w.found ? -ENOENT : err;
}

/* KDB_IOCTL_COLS of a compat_ioctls row (no module_id). */
#define COMPAT_COLS(t) t ".name, " t ".dir, " t ".type_char, " t ".nr, " t ".arg_type_text, " \
	t ".arg_type, " t ".size, " t ".size_trusted, " t ".cmd, NULL, " t ".file, " t ".line, " \
	t ".source"

struct pair_walk {
	kdb_compat_ioctl_pair_fn cb;
	void *ctx;
};

static int compat_pair_row(sqlite3_stmt *st, void *ctx)
{
	struct pair_walk *w = ctx;
	struct kd_ioctl o, n, no, nn;
	struct kdb_compat_ioctl_pair p = {
		kdb_read_ioctl(st, 0, &o), kdb_read_ioctl(st, KDB_IOCTL_NCOLS, &n),
		kdb_read_ioctl(st, 2 * KDB_IOCTL_NCOLS, &no), kdb_read_ioctl(st, 3 * KDB_IOCTL_NCOLS, &nn),
	};

	return w->cb(&p, w->ctx);
}

int kdb__diff_compat_ioctls(struct kdb *db, const char *abi, kdb_compat_ioctl_pair_fn cb,
			    void *ctx)
{
	struct pair_walk w = { cb, ctx };
	sqlite3_stmt *st;
	int err;

	err = kdb_prepare(db, "SELECT " COMPAT_COLS("o") ", " COMPAT_COLS("n") ", "
			  KDB_IOCTL_COLS("mo") ", " KDB_IOCTL_COLS("mn")
			  " FROM main.compat_ioctls o JOIN other.compat_ioctls n"
			  "  ON n.abi = o.abi AND n.name = o.name"
			  " JOIN main.ioctls mo ON mo.name = o.name JOIN other.ioctls mn ON mn.name = o.name"
			  " WHERE o.abi = ?1 ORDER BY o.name", &st);
	if (err)
		return err;
	kdb_bind_text(st, 1, abi);
	return kdb_each_row(db, st, "comparing the compat ioctls", compat_pair_row, &w);
}
