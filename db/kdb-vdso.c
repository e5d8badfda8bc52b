// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vDSO rows (db/kdb-vdso.h): written once per image by extract, read
 * by show, and paired across two attached kernels for the diff. A key
 * written twice (a hostile vmlinux's image with a repeated version index
 * or symbol) is ignored, not an error: the caller is told and records a
 * problem, and the extraction goes on.
 */
#include "db/kdb_internal.h"

#include <errno.h>

/* Step an INSERT OR IGNORE: 0 written, 1 an equal key was there. */
static int insert(struct kdb *db, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st), err;

	if (rc != SQLITE_DONE)
		err = kdb_sql_error(db, what);
	else
		err = sqlite3_changes(db->sql) ? 0 : 1;
	sqlite3_finalize(st);
	return err;
}

int kdb__put_vdso_image(struct kdb *db, const struct kd_vdso_image *im)
{
	sqlite3_stmt *st;
	int err = kdb_prepare(db, "INSERT OR IGNORE INTO vdso_images(abi, symbol, size, class,"
			      " machine, soname, build_id) VALUES (?,?,?,?,?,?,?)", &st);

	if (err)
		return err;
	kdb_bind_text(st, 1, im->abi);
	kdb_bind_text(st, 2, im->symbol);
	sqlite3_bind_int64(st, 3, im->size);
	sqlite3_bind_int(st, 4, im->elf_class);
	sqlite3_bind_int(st, 5, im->machine);
	kdb_bind_text(st, 6, im->soname);
	kdb_bind_text(st, 7, im->build_id);
	return insert(db, st, "writing vdso_images");
}

int kdb__put_vdso_version(struct kdb *db, const struct kd_vdso_version *v)
{
	sqlite3_stmt *st;
	int err = kdb_prepare(db, "INSERT OR IGNORE INTO vdso_versions(abi, idx, name, flags,"
			      " parents) VALUES (?,?,?,?,?)", &st);

	if (err)
		return err;
	kdb_bind_text(st, 1, v->abi);
	sqlite3_bind_int64(st, 2, v->idx);
	kdb_bind_text(st, 3, v->name);
	sqlite3_bind_int(st, 4, v->flags);
	kdb_bind_text(st, 5, v->parents);
	return insert(db, st, "writing vdso_versions");
}

int kdb__put_vdso_symbol(struct kdb *db, const struct kd_vdso_symbol *s)
{
	sqlite3_stmt *st;
	int err = kdb_prepare(db, "INSERT OR IGNORE INTO vdso_symbols(abi, name, version, hidden,"
			      " bind, type, value, size) VALUES (?,?,?,?,?,?,?,?)", &st);

	if (err)
		return err;
	kdb_bind_text(st, 1, s->abi);
	kdb_bind_text(st, 2, s->name);
	kdb_bind_text(st, 3, s->version);
	sqlite3_bind_int(st, 4, s->hidden);
	kdb_bind_text(st, 5, s->bind);
	kdb_bind_text(st, 6, s->type);
	/* Addresses above INT64_MAX are stored as their two's complement. */
	sqlite3_bind_int64(st, 7, (int64_t)s->value);
	sqlite3_bind_int64(st, 8, (int64_t)s->size);
	return insert(db, st, "writing vdso_symbols");
}

int kdb__link_vdso_function(struct kdb *db, const char *abi, const char *name, int64_t func_id)
{
	sqlite3_stmt *st;
	int err = kdb_prepare(db, "UPDATE vdso_symbols SET func_id = ?1 WHERE abi = ?2 AND type = 'func'"
			      " AND value IN (SELECT value FROM vdso_symbols WHERE abi = ?2 AND name = ?3)",
			      &st);

	if (err)
		return err;
	sqlite3_bind_int64(st, 1, func_id);
	kdb_bind_text(st, 2, abi);
	kdb_bind_text(st, 3, name);
	if (sqlite3_step(st) != SQLITE_DONE)
		err = kdb_sql_error(db, "linking vdso_symbols to their signatures");
	else
		err = sqlite3_changes(db->sql);
	sqlite3_finalize(st);
	return err;
}

/* Prepare @sql with ?1 bound to @abi (NULL: every ABI) and walk it. */
static int walk(struct kdb *db, const char *sql, const char *abi, const char *what,
		kdb_row_fn row, const struct kdb_caller *caller)
{
	sqlite3_stmt *st;
	int err = kdb_prepare(db, sql, &st);

	if (err)
		return err;
	kdb_bind_text(st, 1, abi);
	return kdb_each_row(db, st, what, row, (void *)caller);
}

static const struct kd_vdso_image *read_image(sqlite3_stmt *st, int base,
					      struct kd_vdso_image *im)
{
	if (sqlite3_column_type(st, base) == SQLITE_NULL)
		return NULL;
	*im = (struct kd_vdso_image){
		.abi = kdb_col_name(st, base),
		.symbol = kdb_col_name(st, base + 1),
		.size = sqlite3_column_int64(st, base + 2),
		.elf_class = sqlite3_column_int(st, base + 3),
		.machine = sqlite3_column_int(st, base + 4),
		.soname = kdb_col_text(st, base + 5),
		.build_id = kdb_col_text(st, base + 6),
	};
	return im;
}

#define IMAGE_COLS(t) t ".abi, " t ".symbol, " t ".size, " t ".class, " t ".machine, " \
	t ".soname, " t ".build_id"

static int image_row(sqlite3_stmt *st, void *ctx)
{
	struct kd_vdso_image im;

	return KDB_CALL(kdb_vdso_image_fn, ctx, read_image(st, 0, &im));
}

int kdb__foreach_vdso_image(struct kdb *db, const char *abi, kdb_vdso_image_fn cb, void *ctx)
{
	return walk(db, "SELECT " IMAGE_COLS("i") " FROM vdso_images i"
		    " WHERE ?1 IS NULL OR i.abi = ?1 ORDER BY i.abi", abi,
		    "reading vdso_images", image_row, &KDB_CALLER(cb, ctx));
}

static int version_row(sqlite3_stmt *st, void *ctx)
{
	struct kd_vdso_version v = {
		.abi = kdb_col_name(st, 0),
		.idx = sqlite3_column_int64(st, 1),
		.name = kdb_col_name(st, 2),
		.flags = sqlite3_column_int(st, 3),
		.parents = kdb_col_text(st, 4),
	};

	return KDB_CALL(kdb_vdso_version_fn, ctx, &v);
}

int kdb__foreach_vdso_version(struct kdb *db, const char *abi, kdb_vdso_version_fn cb, void *ctx)
{
	return walk(db, "SELECT abi, idx, name, flags, parents FROM vdso_versions"
		    " WHERE ?1 IS NULL OR abi = ?1 ORDER BY abi, idx", abi,
		    "reading vdso_versions", version_row, &KDB_CALLER(cb, ctx));
}

static int symbol_row(sqlite3_stmt *st, void *ctx)
{
	struct kd_vdso_symbol s = {
		.abi = kdb_col_name(st, 0),
		.name = kdb_col_name(st, 1),
		.version = kdb_col_text(st, 2),
		.hidden = sqlite3_column_int(st, 3) != 0,
		.bind = kdb_col_name(st, 4),
		.type = kdb_col_name(st, 5),
		.value = (uint64_t)sqlite3_column_int64(st, 6),
		.size = (uint64_t)sqlite3_column_int64(st, 7),
		.func_id = sqlite3_column_int64(st, 8),
	};

	return KDB_CALL(kdb_vdso_symbol_fn, ctx, &s);
}

int kdb__foreach_vdso_symbol(struct kdb *db, const char *abi, kdb_vdso_symbol_fn cb, void *ctx)
{
	return walk(db, "SELECT abi, name, version, hidden, bind, type, value, size, func_id"
		    " FROM vdso_symbols WHERE ?1 IS NULL OR abi = ?1"
		    " ORDER BY abi, value, bind <> 'global', name, version", abi,
		    "reading vdso_symbols", symbol_row, &KDB_CALLER(cb, ctx));
}

static int image_pair_row(sqlite3_stmt *st, void *ctx)
{
	const struct kdb_caller *c = ctx;
	struct kd_vdso_image o, n;

	return ((kdb_vdso_image_pair_fn)c->fn)(kdb_col_name(st, 0), read_image(st, 1, &o),
					       read_image(st, 8, &n), c->ctx);
}

int kdb__diff_vdso_images(struct kdb *db, kdb_vdso_image_pair_fn cb, void *ctx)
{
	return kdb_query(db,
		"WITH k AS (SELECT abi FROM main.vdso_images UNION SELECT abi FROM other.vdso_images)"
		" SELECT k.abi, " IMAGE_COLS("o") ", " IMAGE_COLS("n") " FROM k"
		" LEFT JOIN main.vdso_images o ON o.abi = k.abi"
		" LEFT JOIN other.vdso_images n ON n.abi = k.abi ORDER BY k.abi",
		"comparing vdso_images", image_pair_row, &KDB_CALLER(cb, ctx));
}

static int symbol_pair_row(sqlite3_stmt *st, void *ctx)
{
	const struct kdb_caller *c = ctx;
	struct kdb_vdso_pair p = {
		.abi = kdb_col_name(st, 0),
		.name = kdb_col_name(st, 1),
		.old_versions = kdb_col_text(st, 2),
		.new_versions = kdb_col_text(st, 3),
		.old_attrs = kdb_col_text(st, 4),
		.new_attrs = kdb_col_text(st, 5),
		.old_func = sqlite3_column_int64(st, 6),
		.new_func = sqlite3_column_int64(st, 7),
	};

	return ((kdb_vdso_pair_fn)c->fn)(&p, c->ctx);
}

/*
 * One side's names: their versions in order, and the binding and type of
 * the default one (the unhidden, else the first). @s is "main" or "other".
 */
#define SIDE(s) \
	"SELECT abi, name, group_concat(ifnull(version, ''), ' ') AS versions," \
	"  (SELECT y.bind || ' ' || y.type FROM " s ".vdso_symbols y" \
	"   WHERE y.abi = x.abi AND y.name = x.name ORDER BY y.hidden, y.version LIMIT 1) AS attrs," \
	"  (SELECT y.func_id FROM " s ".vdso_symbols y" \
	"   WHERE y.abi = x.abi AND y.name = x.name ORDER BY y.hidden, y.version LIMIT 1) AS func" \
	" FROM (SELECT * FROM " s ".vdso_symbols ORDER BY abi, name, version) x" \
	" WHERE abi IN (SELECT abi FROM main.vdso_images) AND abi IN (SELECT abi FROM other.vdso_images)" \
	" GROUP BY abi, name"

int kdb__diff_vdso_symbols(struct kdb *db, kdb_vdso_pair_fn cb, void *ctx)
{
	return kdb_query(db,
		"WITH o AS (" SIDE("main") "), n AS (" SIDE("other") "),"
		" k AS (SELECT abi, name FROM o UNION SELECT abi, name FROM n)"
		" SELECT k.abi, k.name, o.versions, n.versions, o.attrs, n.attrs, o.func, n.func FROM k"
		" LEFT JOIN o ON o.abi = k.abi AND o.name = k.name"
		" LEFT JOIN n ON n.abi = k.abi AND n.name = k.name"
		" ORDER BY k.abi, k.name",
		"comparing vdso_symbols", symbol_pair_row, &KDB_CALLER(cb, ctx));
}
