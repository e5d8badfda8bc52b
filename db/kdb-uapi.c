// SPDX-License-Identifier: GPL-2.0-only
/*
 * The UAPI part of a .kabi: integer #defines (constants) and ioctl command
 * numbers read from the kernel's UAPI headers, written in batches (one
 * prepared statement per batch, since a tree holds tens of thousands of
 * rows) and read back one by one or as a walk for `show` and `diff`.
 * See db/SCHEMA.md for how values beyond INT64_MAX are stored.
 */
#include "db/kdb_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/mem.h"

int kdb__put_constants(struct kdb *db, const struct kd_constant *c, size_t n)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int err;

	err = kdb_prepare(db, "INSERT OR REPLACE INTO constants(name, value, ctype, expr, file, line,"
			  " enum_type, source) VALUES (?,?,?,?,?,?,?,?)", &st);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		kdb_bind_text(st, 1, c[i].name);
		sqlite3_bind_int64(st, 2, c[i].value);
		kdb_bind_text(st, 3, c[i].ctype ? c[i].ctype : "int");
		kdb_bind_text(st, 4, c[i].expr);
		kdb_bind_text(st, 5, c[i].file);
		if (c[i].line > 0)
			sqlite3_bind_int(st, 6, c[i].line);
		kdb_bind_id(st, 7, c[i].enum_type);
		kdb_bind_text(st, 8, c[i].source ? c[i].source : "macro");
		if (sqlite3_step(st) != SQLITE_DONE) {
			err = kdb_sql_error(db, "writing constants");
			goto out;
		}
	}
out:
	sqlite3_finalize(st);
	return err;
}

int kdb__put_ioctls(struct kdb *db, const struct kd_ioctl *io, size_t n)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int err;

	err = kdb_prepare(db, "INSERT OR REPLACE INTO ioctls(name, dir, type_char, nr, arg_type_text,"
			  " arg_type, size, size_trusted, cmd, module_id, file, line, source)"
			  " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", &st);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		const struct kd_ioctl *x = &io[i];

		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		kdb_bind_text(st, 1, x->name);
		kdb_bind_text(st, 2, x->dir);
		sqlite3_bind_int(st, 3, x->type_char);
		sqlite3_bind_int(st, 4, x->nr);
		kdb_bind_text(st, 5, x->arg_type_text);
		kdb_bind_id(st, 6, x->arg_type);
		if (x->has_size)
			sqlite3_bind_int64(st, 7, x->size);
		sqlite3_bind_int(st, 8, x->has_size && x->size_trusted);
		if (x->has_cmd)
			sqlite3_bind_int64(st, 9, x->cmd);
		kdb_bind_id(st, 10, x->module_id);
		kdb_bind_text(st, 11, x->file);
		if (x->line > 0)
			sqlite3_bind_int(st, 12, x->line);
		kdb_bind_text(st, 13, x->source ? x->source : "macro");
		if (sqlite3_step(st) != SQLITE_DONE) {
			err = kdb_sql_error(db, "writing ioctls");
			goto out;
		}
	}
out:
	sqlite3_finalize(st);
	return err;
}

int kdb__put_ioctl_families(struct kdb *db, const struct kd_ioctl_family *f, size_t n)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int err;

	if (!n)
		return 0;
	err = kdb_prepare(db, "INSERT OR REPLACE INTO ioctl_families(name, params, dir, type, nr,"
			  " size, file, line) VALUES (?,?,?,?,?,?,?,?)", &st);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		kdb_bind_text(st, 1, f[i].name);
		kdb_bind_text(st, 2, f[i].params);
		kdb_bind_text(st, 3, f[i].dir);
		kdb_bind_text(st, 4, f[i].type);
		kdb_bind_text(st, 5, f[i].nr);
		kdb_bind_text(st, 6, f[i].size);
		kdb_bind_text(st, 7, f[i].file);
		if (f[i].line > 0)
			sqlite3_bind_int(st, 8, f[i].line);
		if (sqlite3_step(st) != SQLITE_DONE) {
			err = kdb_sql_error(db, "writing ioctl families");
			break;
		}
	}
	sqlite3_finalize(st);
	return err;
}

int kdb__link_constants_to_enums(struct kdb *db)
{
	int err;

	/* The lowest type id wins when several enums share an enumerator name. */
	err = kdb_exec(db, "UPDATE constants SET enum_type = (SELECT min(e.type_id)"
		       " FROM enumerators e WHERE e.name = constants.name)"
		       " WHERE EXISTS (SELECT 1 FROM enumerators e WHERE e.name = constants.name)");
	if (err)
		return err;
	return sqlite3_changes(db->sql);
}

const struct kd_constant *kdb_read_constant(sqlite3_stmt *st, int base, struct kd_constant *out)
{
	*out = (struct kd_constant){
		.name = kdb_col_name(st, base),
		.value = sqlite3_column_int64(st, base + 1),
		.ctype = kdb_col_text(st, base + 2),
		.expr = kdb_col_text(st, base + 3),
		.file = kdb_col_text(st, base + 4),
		.line = sqlite3_column_int(st, base + 5),
		.enum_type = sqlite3_column_int64(st, base + 6),
		.source = kdb_col_text(st, base + 7),
	};
	return sqlite3_column_type(st, base) == SQLITE_NULL ? NULL : out;
}

const struct kd_ioctl *kdb_read_ioctl(sqlite3_stmt *st, int base, struct kd_ioctl *out)
{
	*out = (struct kd_ioctl){
		.name = kdb_col_name(st, base),
		.dir = kdb_col_text(st, base + 1),
		.type_char = sqlite3_column_int(st, base + 2),
		.nr = sqlite3_column_int(st, base + 3),
		.arg_type_text = kdb_col_text(st, base + 4),
		.arg_type = sqlite3_column_int64(st, base + 5),
		.has_size = sqlite3_column_type(st, base + 6) != SQLITE_NULL,
		.size = sqlite3_column_int64(st, base + 6),
		.size_trusted = sqlite3_column_int(st, base + 7) != 0,
		.has_cmd = sqlite3_column_type(st, base + 8) != SQLITE_NULL,
		.cmd = (uint32_t)sqlite3_column_int64(st, base + 8),
		.module_id = sqlite3_column_int64(st, base + 9),
		.file = kdb_col_text(st, base + 10),
		.line = sqlite3_column_int(st, base + 11),
		.source = kdb_col_text(st, base + 12),
	};
	return sqlite3_column_type(st, base) == SQLITE_NULL ? NULL : out;
}

/* A walk of constants or ioctls: the caller's callback, and whether a row came. */
struct uapi_rows {
	struct kdb_caller c;
	bool found;
};

static int constant_row(sqlite3_stmt *st, void *ctx)
{
	struct uapi_rows *w = ctx;
	struct kd_constant c;

	w->found = true;
	kdb_read_constant(st, 0, &c);
	return ((kdb_constant_fn)w->c.fn)(&c, w->c.ctx);
}

static int ioctl_row(sqlite3_stmt *st, void *ctx)
{
	struct uapi_rows *w = ctx;
	struct kd_ioctl io;

	w->found = true;
	kdb_read_ioctl(st, 0, &io);
	return ((kdb_ioctl_fn)w->c.fn)(&io, w->c.ctx);
}

/* @st bound to @key, or for every row when @key is NULL; a key that names no row: -ENOENT. */
static int walk_uapi(struct kdb *db, sqlite3_stmt *st, const char *key, bool must_find,
		     const char *what, kdb_row_fn row, struct uapi_rows *w)
{
	int err;

	if (key)
		kdb_bind_text(st, 1, key);
	err = kdb_each_row(db, st, what, row, w);
	return !err && must_find && !w->found ? -ENOENT : err;
}

static int walk_constants(struct kdb *db, const char *name, kdb_constant_fn cb, void *ctx)
{
	struct uapi_rows w = { KDB_CALLER(cb, ctx), false };
	sqlite3_stmt *st;
	int err;

	err = kdb_prepare(db, name ?
			  "SELECT " KDB_CONSTANT_COLS("c") " FROM constants c WHERE c.name = ?" :
			  "SELECT " KDB_CONSTANT_COLS("c") " FROM constants c ORDER BY c.name", &st);
	return err ? err : walk_uapi(db, st, name, name, "reading constants", constant_row, &w);
}

int kdb__get_constant(struct kdb *db, const char *name, kdb_constant_fn cb, void *ctx)
{
	return name ? walk_constants(db, name, cb, ctx) : -EINVAL;
}

int kdb__foreach_constant(struct kdb *db, kdb_constant_fn cb, void *ctx)
{
	return walk_constants(db, NULL, cb, ctx);
}

static int walk_ioctls(struct kdb *db, const char *name, const char *module,
		       kdb_ioctl_fn cb, void *ctx)
{
	struct uapi_rows w = { KDB_CALLER(cb, ctx), false };
	sqlite3_stmt *st;
	int err;

	if (name)
		err = kdb_prepare(db, "SELECT " KDB_IOCTL_COLS("i") " FROM ioctls i WHERE i.name = ?", &st);
	else if (module)
		err = kdb_prepare(db, "SELECT " KDB_IOCTL_COLS("i") " FROM ioctls i JOIN modules m"
				  " ON m.id = i.module_id WHERE m.name = ? ORDER BY i.name", &st);
	else
		err = kdb_prepare(db, "SELECT " KDB_IOCTL_COLS("i") " FROM ioctls i ORDER BY i.name", &st);
	return err ? err : walk_uapi(db, st, name ? name : module, name, "reading ioctls",
				     ioctl_row, &w);
}

int kdb__get_ioctl(struct kdb *db, const char *name, kdb_ioctl_fn cb, void *ctx)
{
	return name ? walk_ioctls(db, name, NULL, cb, ctx) : -EINVAL;
}

int kdb__foreach_ioctl(struct kdb *db, const char *module, kdb_ioctl_fn cb, void *ctx)
{
	return walk_ioctls(db, NULL, module, cb, ctx);
}

const struct kd_ioctl_family *kdb_read_ioctl_family(sqlite3_stmt *st, int c,
						    struct kd_ioctl_family *f)
{
	if (sqlite3_column_type(st, c) == SQLITE_NULL)
		return NULL;
	*f = (struct kd_ioctl_family){
		kdb_col_text(st, c), kdb_col_text(st, c + 1), kdb_col_text(st, c + 2),
		kdb_col_text(st, c + 3), kdb_col_text(st, c + 4), kdb_col_text(st, c + 5),
		kdb_col_text(st, c + 6), sqlite3_column_int(st, c + 7),
	};
	return f;
}

struct family_rows {
	kdb_ioctl_family_fn cb;
	void *ctx;
};

static int family_row(sqlite3_stmt *st, void *ctx)
{
	struct family_rows *w = ctx;
	struct kd_ioctl_family f;

	return kdb_read_ioctl_family(st, 0, &f) ? w->cb(&f, w->ctx) : 0;
}

int kdb__foreach_ioctl_family(struct kdb *db, const char *name, kdb_ioctl_family_fn cb, void *ctx)
{
	struct family_rows w = { cb, ctx };
	sqlite3_stmt *st;
	int err = kdb_prepare(db, name ? "SELECT " KDB_FAMILY_COLS("f") " FROM ioctl_families f"
					 " WHERE f.name = ?"
				       : "SELECT " KDB_FAMILY_COLS("f") " FROM ioctl_families f"
					 " ORDER BY f.name", &st);

	if (err)
		return err;
	if (name)
		kdb_bind_text(st, 1, name);
	return kdb_each_row(db, st, "reading ioctl families", family_row, &w);
}

static int dup_col(sqlite3_stmt *st, int col, char **out)
{
	const char *v = kdb_col_text(st, col);

	*out = v ? kd_strdup(v) : NULL;
	return v && !*out ? -ENOMEM : 0;
}

int kdb__type_sources(struct kdb *db, int64_t type_id, struct kdb_type_sources *out)
{
	sqlite3_stmt *st = NULL;
	int rc, err;

	memset(out, 0, sizeof(*out));
	err = kdb_prepare(db, "SELECT"
			  " EXISTS (SELECT 1 FROM type_origins WHERE type_id = ?1 AND module_id IS NULL),"
			  " (SELECT min(m.name) FROM type_origins o JOIN modules m ON m.id = o.module_id"
			  "  WHERE o.type_id = ?1),"
			  " (SELECT file || ifnull(':' || line, '') FROM uapi_types WHERE type_id = ?1"
			  "  ORDER BY file LIMIT 1)", &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, type_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->vmlinux = sqlite3_column_int(st, 0) != 0;
		err = dup_col(st, 1, &out->module);
		if (!err)
			err = dup_col(st, 2, &out->header);
	} else {
		err = kdb_sql_error(db, "reading where a type was read");
	}
	sqlite3_finalize(st);
	if (err)
		kdb_type_sources__release(out);
	return err;
}

void kdb_type_sources__release(struct kdb_type_sources *s)
{
	free(s->header);
	free(s->module);
	s->header = s->module = NULL;
}

int kdb__type_views(struct kdb *db, int64_t type_id, bool *kernel, char **header)
{
	struct kdb_type_sources s;
	int err = kdb__type_sources(db, type_id, &s);

	*kernel = !err && (s.vmlinux || s.module);
	*header = err ? NULL : s.header;
	free(s.module);
	return err;
}

int kdb__add_number_ioctls(struct kdb *db)
{
	int err;

	/*
	 * The argument type by name: "struct loop_config" is kind and name, a
	 * bare name a typedef or a base type; the header view's layout first.
	 */
	err = kdb_exec(db,
		"DELETE FROM ioctls WHERE source = 'number';"
		"INSERT INTO ioctls(name, dir, type_char, nr, arg_type_text, arg_type, size, size_trusted,"
		"  cmd, module_id, file, line, source)"
		" SELECT c.name,"
		"  CASE c.dir WHEN 'in' THEN 'w' WHEN 'out' THEN 'r' WHEN 'inout' THEN 'rw' ELSE 'none' END,"
		"  (k.value >> 8) & 255, k.value & 255, c.arg_type, a.id, a.size,"
		"  a.id IS NOT NULL AND a.size IS NOT NULL, k.value, NULL, k.file, k.line, 'number'"
		" FROM spec_calls c JOIN constants k ON k.name = c.name"
		" LEFT JOIN types a ON a.id = (SELECT t.id FROM types t WHERE"
		"   CASE WHEN c.arg_type GLOB 'struct *' OR c.arg_type GLOB 'union *' OR c.arg_type GLOB 'enum *'"
		"     THEN t.kind = substr(c.arg_type, 1, instr(c.arg_type, ' ') - 1)"
		"      AND t.name = substr(c.arg_type, instr(c.arg_type, ' ') + 1)"
		"     ELSE t.kind IN ('typedef', 'base') AND t.name = c.arg_type END"
		"   ORDER BY EXISTS (SELECT 1 FROM uapi_types u WHERE u.type_id = t.id) DESC, t.id LIMIT 1)"
		" WHERE c.kind = 'ioctl' AND c.name NOT IN (SELECT name FROM ioctls)"
		"  AND k.value BETWEEN 0 AND 4294967295;");
	if (err)
		return err;
	return sqlite3_changes(db->sql);
}

int kdb__put_uapi_failure(struct kdb *db, const char *header, const char *first_error)
{
	return kdb__put_problem(db, "uapi", header, header, "%s%s", KDB_UAPI_NOT_COMPILED, first_error);
}

static int uapi_failure_row(sqlite3_stmt *st, void *ctx)
{
	struct kdb_uapi_failure f = { kdb_col_text(st, 0), kdb_col_text(st, 1) };

	if (!f.header || !f.first_error)
		return -ENOMEM;
	return KDB_CALL(kdb_uapi_failure_fn, ctx, &f);
}

int kdb__foreach_uapi_failure(struct kdb *db, kdb_uapi_failure_fn cb, void *ctx)
{
	sqlite3_stmt *st = NULL;
	int err;

	/* One row per header: its first failure (SQLite takes the bare columns from min(id)'s row). */
	err = kdb_prepare(db, "SELECT input, substr(message, length(?1) + 1), min(id) FROM problems"
			  " WHERE stage = 'uapi' AND input IS NOT NULL AND substr(message, 1, length(?1)) = ?1"
			  " GROUP BY input ORDER BY input", &st);
	if (err)
		return err;
	if (sqlite3_bind_text(st, 1, KDB_UAPI_NOT_COMPILED, -1, SQLITE_STATIC) != SQLITE_OK) {
		sqlite3_finalize(st);
		return kdb_sql_error(db, "binding the compile failures' prefix");
	}
	return kdb_each_row(db, st, "reading the headers that do not compile", uapi_failure_row,
			    &KDB_CALLER(cb, ctx));
}

int kdb__outside_user(struct kdb *db, const char *file, char **user)
{
	size_t flen = file ? strlen(file) : 0;
	char *v = NULL;
	const char *p;
	int err;

	*user = NULL;
	if (!flen)
		return 0;
	err = kdb__get_meta(db, KDB_META_UAPI_OUTSIDE, &v);
	for (p = v; !err && p && *p; ) {
		size_t len = strcspn(p, ";");

		if (len > flen + 2 && !memcmp(p, file, flen) && !memcmp(p + flen, ": ", 2)) {
			*user = kd_strndup(p + flen + 2, len - flen - 2);
			if (!*user)
				err = -ENOMEM;
			break;
		}
		p += len;
		p += strspn(p, "; ");
	}
	free(v);
	return err;
}
