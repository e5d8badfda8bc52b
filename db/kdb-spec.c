// SPDX-License-Identifier: GPL-2.0-only
/*
 * The contract part of a .kabi: the spec_* tables (schema.c, after the
 * "-- contract (spec)" marker), written row by row from spec/'s model and
 * read back by walks. Also kdb__open_update(), which lets `kabi-diff spec
 * load K.kabi DIR` add a contract to an extracted kernel without breaking
 * the atomic-write rule: the DB is copied, updated, and renamed into place
 * by kdb__commit().
 */
#include "db/kdb_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/mem.h"
#include "lib/tmpfile.h"

#define SPEC_MARKER "-- contract (spec)\n"

static int copy_file(const char *from, int to_fd)
{
	char chunk[65536];
	FILE *f = fopen(from, "rb");
	size_t n;
	int err = 0;

	if (!f)
		return -errno;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		size_t done = 0;

		while (done < n) {
			ssize_t w = write(to_fd, chunk + done, n - done);

			if (w < 0) {
				if (errno == EINTR)
					continue;
				err = -errno;
				goto out;
			}
			done += (size_t)w;
		}
	}
	if (ferror(f))
		err = -EIO;
out:
	fclose(f);
	return err;
}

int kdb__open_update(const char *path, struct kdb **out)
{
	struct kdb *db = NULL, *ro = NULL;
	const char *spec_sql;
	int fd = -1, err;

	*out = NULL;
	err = kdb__open(path, &ro);	/* validates: SQLite, our schema version */
	kdb__free(ro);
	if (err)
		return err;
	db = kd_calloc(1, sizeof(*db));
	if (!db || !(db->path = kd_strdup(path))) {
		err = -ENOMEM;
		goto fail;
	}
	fd = kd_tmpfile_create(path, &db->tmp_path);
	if (fd < 0) {
		err = fd;
		kd_err("%s: cannot create output: %s", path, kd_strerror(err));
		goto fail;
	}
	err = copy_file(path, fd);
	if (close(fd) < 0 && !err)
		err = -errno;
	if (err) {
		kd_err("%s: cannot copy for update: %s", path, kd_strerror(err));
		goto fail;
	}
	if (sqlite3_open_v2(db->tmp_path, &db->sql, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		err = kdb_sql_error(db, "cannot open for update");
		goto fail;
	}
	err = kdb_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;");
	if (!err)
		err = kdb_harden(db);
	/* The copy is what gets updated: check it, not only the file it came from. */
	if (!err)
		err = kdb_verify_schema(db, "main");
	if (err)
		goto fail;
	spec_sql = strstr(kdb_schema_sql, SPEC_MARKER);
	if (spec_sql && (err = kdb_exec(db, spec_sql)))
		goto fail;
	*out = db;
	return 0;
fail:
	if (db && !db->path)
		free(db);
	else
		kdb__free(db);
	return err;
}

/*
 * Run @sql once with parameters described by @fmt: 's' a string (NULL
 * binds NULL), 'l' an int64_t, 'n' a bool then an int64_t (NULL unless the
 * bool), 'b' a bool, 'L' an int line (<= 0 binds NULL).
 */
static int put(struct kdb *db, const char *what, const char *sql, const char *fmt, ...)
{
	sqlite3_stmt *st = NULL;
	va_list ap;
	int i, err;

	err = kdb_prepare(db, sql, &st);
	if (err)
		return err;
	va_start(ap, fmt);
	for (i = 0; fmt[i]; i++) {
		int col = i + 1, has, line;
		int64_t v;

		switch (fmt[i]) {
		case 's':
			kdb_bind_text(st, col, va_arg(ap, const char *));
			break;
		case 'l':
			sqlite3_bind_int64(st, col, va_arg(ap, int64_t));
			break;
		case 'n':
			has = va_arg(ap, int);
			v = va_arg(ap, int64_t);
			if (has)
				sqlite3_bind_int64(st, col, v);
			break;
		case 'b':
			sqlite3_bind_int(st, col, va_arg(ap, int) != 0);
			break;
		case 'L':
			line = va_arg(ap, int);
			if (line > 0)
				sqlite3_bind_int(st, col, line);
			break;
		}
	}
	va_end(ap);
	if (sqlite3_step(st) != SQLITE_DONE)
		err = kdb_sql_error(db, what);
	sqlite3_finalize(st);
	return err;
}

int kdb__clear_spec(struct kdb *db)
{
	return kdb_exec(db, "DELETE FROM spec_files; DELETE FROM spec_fdkinds; DELETE FROM spec_sets;"
			" DELETE FROM spec_set_values; DELETE FROM spec_calls; DELETE FROM spec_args;"
			" DELETE FROM spec_errnos; DELETE FROM spec_structs; DELETE FROM spec_struct_sizes;");
}

int kdb__put_spec_file(struct kdb *db, int idx, const struct kdb_spec_file *f)
{
	return put(db, "writing spec_files",
		   "INSERT OR REPLACE INTO spec_files(name, idx, path, hash, bytes, text)"
		   " VALUES (?,?,?,?,?,?)", "slssls",
		   f->name, (int64_t)idx, f->path, f->hash, f->bytes, f->text);
}

int kdb__put_spec_fdkind(struct kdb *db, const struct kdb_spec_fdkind *k)
{
	return put(db, "writing spec_fdkinds",
		   "INSERT OR REPLACE INTO spec_fdkinds(name, text, file, line) VALUES (?,?,?,?)",
		   "sssL", k->name, k->text, k->file, k->line);
}

int kdb__put_spec_set(struct kdb *db, const struct kdb_spec_set *s)
{
	return put(db, "writing spec_sets",
		   "INSERT OR REPLACE INTO spec_sets(name, kind, extends, unknown, since, file, line)"
		   " VALUES (?,?,?,?,?,?,?)", "ssssssL",
		   s->name, s->kind, s->extends, s->unknown, s->since, s->file, s->line);
}

int kdb__put_spec_value(struct kdb *db, const struct kdb_spec_value *v)
{
	return put(db, "writing spec_set_values",
		   "INSERT OR REPLACE INTO spec_set_values(set_name, idx, name, value, value_source,"
		   " expr, grp, grp_mask, since, line) VALUES (?,?,?,?,?,?,?,?,?,?)", "slsnssnssL",
		   v->set, (int64_t)v->idx, v->name, (int)v->has_value, v->value, v->value_source,
		   v->expr, (int)(v->grp >= 0), (int64_t)v->grp, v->grp_mask, v->since, v->line);
}

int kdb__put_spec_call(struct kdb *db, const struct kdb_spec_call *c)
{
	return put(db, "writing spec_calls",
		   "INSERT OR REPLACE INTO spec_calls(kind, name, ret, ret_fd_kind, since, fd_kind,"
		   " dir, arg_type, notes, file, line) VALUES (?,?,?,?,?,?,?,?,?,?,?)", "ssssssssssL",
		   c->kind, c->name, c->ret, c->ret_fd_kind, c->since, c->fd_kind, c->dir,
		   c->arg_type, c->notes, c->file, c->line);
}

int kdb__put_spec_arg(struct kdb *db, const struct kdb_spec_arg *a)
{
	return put(db, "writing spec_args",
		   "INSERT OR REPLACE INTO spec_args(owner_kind, owner, pos, name, kind, ref, dir,"
		   " is_array, optional, range_lo, range_hi, specials, reserved, out_only, since,"
		   " line) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", "sslssssbbsssbbsL",
		   a->owner_kind, a->owner, (int64_t)a->pos, a->name, a->kind, a->ref, a->dir,
		   (int)a->is_array, (int)a->optional, a->range_lo, a->range_hi, a->specials,
		   (int)a->reserved, (int)a->out_only, a->since, a->line);
}

int kdb__put_spec_errno(struct kdb *db, const struct kdb_spec_errno *e)
{
	return put(db, "writing spec_errnos",
		   "INSERT OR REPLACE INTO spec_errnos(call_kind, call_name, idx, errno, text, cond,"
		   " since, line) VALUES (?,?,?,?,?,?,?,?)", "sslssssL",
		   e->call_kind, e->call_name, (int64_t)e->idx, e->errno_name, e->text, e->cond,
		   e->since, e->line);
}

int kdb__put_spec_struct(struct kdb *db, const struct kdb_spec_struct *s)
{
	return put(db, "writing spec_structs",
		   "INSERT OR REPLACE INTO spec_structs(name, is_union, extensible, padding_zero,"
		   " min_size, since, file, line) VALUES (?,?,?,?,?,?,?,?)", "sbbbnssL",
		   s->name, (int)s->is_union, (int)s->extensible, (int)s->padding_zero,
		   (int)(s->min_size >= 0), s->min_size, s->since, s->file, s->line);
}

int kdb__put_spec_size(struct kdb *db, const struct kdb_spec_size *s)
{
	return put(db, "writing spec_struct_sizes",
		   "INSERT OR REPLACE INTO spec_struct_sizes(struct_name, idx, name, size, since)"
		   " VALUES (?,?,?,?,?)", "slsls",
		   s->struct_name, (int64_t)s->idx, s->name, s->size, s->since);
}

/* --- reading ------------------------------------------------------------- */
/* Does @db have the spec tables? (a DB extracted before they existed does not) */
static bool has_spec_tables(struct kdb *db)
{
	sqlite3_stmt *st = NULL;
	bool yes = false;

	if (kdb_prepare(db, "SELECT 1 FROM sqlite_master WHERE name = 'spec_files'", &st))
		return false;
	yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}

/*
 * The rows of @sql, its parameters ?1 and ?2 (as many as it has) bound to
 * @key1 and @key2, each to @row with the caller's callback; no rows where @db
 * lacks the tables.
 */
static int spec_rows(struct kdb *db, const char *sql, const char *key1, const char *key2,
		     const char *what, kdb_row_fn row, struct kdb_caller c)
{
	sqlite3_stmt *st;
	int err;

	if (!has_spec_tables(db))
		return 0;
	err = kdb_prepare(db, sql, &st);
	if (err)
		return err;
	if (sqlite3_bind_parameter_count(st) >= 1)
		kdb_bind_text(st, 1, key1);
	if (sqlite3_bind_parameter_count(st) >= 2)
		kdb_bind_text(st, 2, key2);
	return kdb_each_row(db, st, what, row, &c);
}

static int spec_file_row(sqlite3_stmt *st, void *ctx)
{
	struct kdb_spec_file f = {
		.name = kdb_col_text(st, 0), .path = kdb_col_text(st, 1), .hash = kdb_col_text(st, 2),
		.bytes = sqlite3_column_int64(st, 3), .text = kdb_col_text(st, 4),
	};

	if (!f.text)
		f.text = "";
	return KDB_CALL(kdb_spec_file_fn, ctx, &f);
}

int kdb__foreach_spec_file(struct kdb *db, kdb_spec_file_fn cb, void *ctx)
{
	return spec_rows(db, "SELECT name, path, hash, bytes, text FROM spec_files ORDER BY idx",
			 NULL, NULL, "reading spec_files", spec_file_row,
			 KDB_CALLER(cb, ctx));
}

static int spec_value_row(sqlite3_stmt *st, void *ctx)
{
	struct kdb_spec_value v = {
		.set = kdb_col_text(st, 0), .idx = sqlite3_column_int(st, 1),
		.name = kdb_col_text(st, 2),
		.has_value = sqlite3_column_type(st, 3) != SQLITE_NULL,
		.value = sqlite3_column_int64(st, 3), .value_source = kdb_col_text(st, 4),
		.expr = kdb_col_text(st, 5),
		.grp = sqlite3_column_type(st, 6) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 6),
		.grp_mask = kdb_col_text(st, 7), .since = kdb_col_text(st, 8),
		.line = sqlite3_column_int(st, 9),
	};

	return KDB_CALL(kdb_spec_value_fn, ctx, &v);
}

int kdb__foreach_spec_value(struct kdb *db, const char *set, kdb_spec_value_fn cb, void *ctx)
{
	return spec_rows(db, "SELECT set_name, idx, name, value, value_source, expr, grp, grp_mask,"
			 " since, line FROM spec_set_values WHERE set_name = ?1 ORDER BY idx",
			 set, NULL, "reading spec_set_values", spec_value_row,
			 KDB_CALLER(cb, ctx));
}

static int spec_errno_row(sqlite3_stmt *st, void *ctx)
{
	struct kdb_spec_errno e = {
		.call_kind = kdb_col_text(st, 0), .call_name = kdb_col_text(st, 1),
		.idx = sqlite3_column_int(st, 2), .errno_name = kdb_col_text(st, 3),
		.text = kdb_col_text(st, 4), .cond = kdb_col_text(st, 5), .since = kdb_col_text(st, 6),
		.line = sqlite3_column_int(st, 7),
	};

	return KDB_CALL(kdb_spec_errno_fn, ctx, &e);
}

int kdb__foreach_spec_errno(struct kdb *db, const char *kind, const char *name,
			    kdb_spec_errno_fn cb, void *ctx)
{
	return spec_rows(db, "SELECT call_kind, call_name, idx, errno, text, cond, since, line"
			 " FROM spec_errnos WHERE call_kind = ?1 AND call_name = ?2 ORDER BY idx",
			 kind, name, "reading spec_errnos", spec_errno_row,
			 KDB_CALLER(cb, ctx));
}

int kdb__get_spec_struct(struct kdb *db, const char *name, kdb_spec_struct_fn cb, void *ctx)
{
	sqlite3_stmt *st = NULL;
	int err;

	if (!has_spec_tables(db))
		return -ENOENT;
	err = kdb_prepare(db, "SELECT name, is_union, extensible, padding_zero, min_size, since,"
			  " file, line FROM spec_structs WHERE name = ?", &st);
	if (err)
		return err;
	kdb_bind_text(st, 1, name);
	err = kdb_step_one(db, st, "reading spec_structs");
	if (!err) {
		struct kdb_spec_struct s = {
			.name = kdb_col_text(st, 0), .is_union = sqlite3_column_int(st, 1),
			.extensible = sqlite3_column_int(st, 2),
			.padding_zero = sqlite3_column_int(st, 3),
			.min_size = sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 :
				    sqlite3_column_int64(st, 4),
			.since = kdb_col_text(st, 5), .file = kdb_col_text(st, 6),
			.line = sqlite3_column_int(st, 7),
		};

		err = cb(&s, ctx);
	}
	sqlite3_finalize(st);
	return err;
}
