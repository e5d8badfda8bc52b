// SPDX-License-Identifier: GPL-2.0-only
/*
 * A .kabi may come from anyone (a CI artifact, a bug report): it is data,
 * never code. SQLite would run what a file's schema holds: a view named
 * like a table (a recursive one hangs every reader), a trigger (one
 * rewrote meta.release during `spec load`), a table re-created without
 * its NOT NULLs. So every opened file gets SQLite's defensive settings
 * (no triggers, no views, no untrusted schema functions, no writable
 * schema), and its schema must be exactly the one this kabi-diff writes:
 * every object's CREATE statement as stored in sqlite_master, nothing
 * more, the contract and probe tables optional (older files lack them).
 * Read-only opens are URIs with immutable=1, so that reading a WAL-mode
 * file creates no -wal or -shm beside it.
 */
#include "db/kdb_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/path.h"
#include "lib/str.h"

int kdb_harden(struct kdb *db)
{
	static const int off[] = {
		SQLITE_DBCONFIG_ENABLE_TRIGGER, SQLITE_DBCONFIG_ENABLE_VIEW,
		SQLITE_DBCONFIG_TRUSTED_SCHEMA, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION,
	};
	size_t i;

	if (sqlite3_db_config(db->sql, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL) != SQLITE_OK)
		return kdb_sql_error(db, "defensive mode");
	for (i = 0; i < sizeof(off) / sizeof(off[0]); i++)
		if (sqlite3_db_config(db->sql, off[i], 0, NULL) != SQLITE_OK)
			return kdb_sql_error(db, "defensive mode");
	return 0;
}

int kdb_uri(const char *path, char **out)
{
	struct kd_buf b = KD_BUF_INIT;
	char *abs = realpath(path, NULL);
	const char *p;
	int err;

	*out = NULL;
	if (!abs)
		return -errno;
	/* Every byte but the plainest percent-encoded: '?', '#' and '%' mean something in a URI. */
	err = kd_buf_adds(&b, "file:");
	for (p = abs; !err && *p; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("/._-~", c))
			err = kd_buf_addc(&b, (char)c);
		else
			err = kd_buf_addf(&b, "%%%02X", c);
	}
	if (!err)
		err = kd_buf_adds(&b, "?immutable=1");
	free(abs);
	if (err) {
		kd_buf_release(&b);
		return err;
	}
	*out = kd_buf_detach(&b);
	return 0;
}

int kdb_check_wal(const char *path)
{
	unsigned char head[20];
	struct kd_buf wal = KD_BUF_INIT;
	struct stat st;
	int err = 0;

	/* Bytes 18 and 19 of the header: file format versions, 2 = WAL. Unreadable: the open says. */
	if (kd_read_head(path, head, sizeof(head)) != (ssize_t)sizeof(head) ||
	    (head[18] != 2 && head[19] != 2))
		return 0;
	if (kd_buf_addf(&wal, "%s-wal", path))
		return -ENOMEM;
	if (!stat(wal.s, &st) && st.st_size > 0) {
		/* immutable=1 would read the file without what the log holds. */
		kd_err("%s: a WAL-mode database with changes in %s; checkpoint it first"
		       " (sqlite3 %s 'PRAGMA wal_checkpoint')", path, wal.s, path);
		err = -KD_EFORMAT;
	}
	kd_buf_release(&wal);
	return err;
}

/* One schema object as "type\037name\037table\037sql" (sql NULL as ""). */
struct objects {
	char **v;
	size_t n, cap;
};

static void objects_release(struct objects *o)
{
	while (o->n)
		free(o->v[--o->n]);
	free(o->v);
	o->v = NULL;
	o->cap = 0;
}

/* The objects of schema @schema ("main", "other") of @sql, sorted. */
static int list_objects(sqlite3 *sql, const char *schema, struct objects *o)
{
	sqlite3_stmt *st = NULL;
	struct kd_buf b = KD_BUF_INIT;
	int rc, err;

	err = kd_buf_addf(&b, "SELECT type, name, tbl_name, sql FROM %s.sqlite_master", schema);
	if (err)
		return err;
	rc = sqlite3_prepare_v2(sql, b.s, -1, &st, NULL);
	if (rc != SQLITE_OK) {
		kd_buf_release(&b);
		return rc == SQLITE_NOMEM ? -ENOMEM : -EIO;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int i;

		kd_buf_reset(&b);
		for (i = 0; i < 4 && !err; i++) {
			const unsigned char *s = sqlite3_column_text(st, i);

			err = kd_buf_addf(&b, "%s%s", i ? "\037" : "", s ? (const char *)s : "");
		}
		if (!err)
			err = KD_GROW(o->v, o->cap, o->n + 1);
		if (err)
			break;
		o->v[o->n++] = kd_buf_detach(&b);
	}
	if (!err && rc != SQLITE_DONE)
		err = -EIO;
	sqlite3_finalize(st);
	kd_buf_release(&b);
	/* An empty schema leaves v NULL, which qsort() may not be given even for 0 items. */
	if (!err && o->n)
		qsort(o->v, o->n, sizeof(*o->v), kd_strcmp_ptr);
	return err;
}

/* The objects the schema SQL (its first @len bytes) creates, from an in-memory DB. */
static int reference(size_t len, struct objects *o)
{
	sqlite3 *mem = NULL;
	char *sql = kd_strndup(kdb_schema_sql, len);
	int err = -ENOMEM;

	if (sql && sqlite3_open_v2(":memory:", &mem, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK)
		err = sqlite3_exec(mem, sql, NULL, NULL, NULL) == SQLITE_OK ?
		      list_objects(mem, "main", o) : -EIO;
	sqlite3_close(mem);
	free(sql);
	return err;
}

/* "name" of an object line, for messages. */
static const char *object_name(const char *line, struct kd_buf *b)
{
	const char *name = strchr(line, '\037');

	kd_buf_reset(b);
	name = name ? name + 1 : line;
	if (kd_buf_add(b, name, strcspn(name, "\037")))
		return "?";
	return b->s;
}

/*
 * The reference, built once per process (two in-memory DBs: a few hundred
 * allocations a diff need not repeat for every file it opens). Opens run on
 * one thread; the lists live until exit.
 */
static struct objects ref_all, ref_core;
static bool ref_built;

static int build_reference(struct kdb *db)
{
	const char *optional = strstr(kdb_schema_sql, KDB_SCHEMA_OPTIONAL_MARKER);
	int err;

	if (ref_built)
		return 0;
	err = reference(strlen(kdb_schema_sql), &ref_all);
	if (!err)
		err = reference(optional ? (size_t)(optional - kdb_schema_sql) : strlen(kdb_schema_sql),
				&ref_core);
	if (err) {
		objects_release(&ref_all);
		objects_release(&ref_core);
		if (err != -ENOMEM)
			kd_err("%s: cannot build the reference schema", db->path);
		return err;
	}
	ref_built = true;
	return 0;
}

int kdb_verify_schema(struct kdb *db, const char *schema)
{
	const struct objects *all = &ref_all, *core = &ref_core;
	struct objects have = { 0 };
	struct kd_buf name = KD_BUF_INIT, kind = KD_BUF_INIT;
	size_t i;
	int err;

	err = build_reference(db);
	if (err)
		return err;
	err = list_objects(db->sql, schema, &have);
	if (err == -EIO) {
		err = kdb_sql_error(db, "reading the schema");
		goto out;
	}
	if (err)
		goto out;
	for (i = 0; i < have.n; i++) {
		if (bsearch(&have.v[i], all->v, all->n, sizeof(*all->v), kd_strcmp_ptr))
			continue;
		if (kd_buf_add(&kind, have.v[i], strcspn(have.v[i], "\037"))) {
			err = -ENOMEM;
			goto out;
		}
		kd_err("%s: not a kabi-diff schema: %s %s is not one this kabi-diff writes;"
		       " re-extract the kernel", db->path, kind.s, object_name(have.v[i], &name));
		err = -KD_ESCHEMA;
		goto out;
	}
	for (i = 0; i < core->n; i++) {
		if (have.n && bsearch(&core->v[i], have.v, have.n, sizeof(*have.v), kd_strcmp_ptr))
			continue;
		kd_err("%s: not a kabi-diff schema: %s is missing; re-extract the kernel", db->path,
		       object_name(core->v[i], &name));
		err = -KD_ESCHEMA;
		goto out;
	}
out:
	kd_buf_release(&name);
	kd_buf_release(&kind);
	objects_release(&have);
	return err;
}

/*
 * Offsets, sizes and bit positions no extraction writes: a negative value
 * (NULL is "unknown" and reads as -1, so a stored -24 would read as a
 * position and the diff, which clamps below 0, would call a moved member
 * unchanged). Only a flexible array's count is -1.
 */
static int negative_row(sqlite3_stmt *st, void *ctx)
{
	const struct kdb *db = ctx;
	const unsigned char *col = sqlite3_column_text(st, 0);

	if (!col)
		return 0;
	kd_err("%s: damaged database (negative value in %s); re-extract the kernel", db->path,
	       (const char *)col);
	return -KD_EFORMAT;
}

int kdb_verify_values(struct kdb *db)
{
	static const char sql[] =
		"SELECT CASE"
		" WHEN EXISTS (SELECT 1 FROM members WHERE offset < 0) THEN 'members.offset'"
		" WHEN EXISTS (SELECT 1 FROM members WHERE bit_offset < 0) THEN 'members.bit_offset'"
		" WHEN EXISTS (SELECT 1 FROM members WHERE bit_size < 0) THEN 'members.bit_size'"
		" WHEN EXISTS (SELECT 1 FROM types WHERE size < 0) THEN 'types.size'"
		" WHEN EXISTS (SELECT 1 FROM types WHERE align < 0) THEN 'types.align'"
		" WHEN EXISTS (SELECT 1 FROM types WHERE count < -1) THEN 'types.count'"
		" END";

	return kdb_query(db, sql, "checking values", negative_row, db);
}
