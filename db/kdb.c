// SPDX-License-Identifier: GPL-2.0-only
/*
 * Opening, creating and committing .kabi files, and the statement cache.
 * A new DB is written with the journal off and one transaction: it is a
 * private temporary file until kdb__commit() renames it, so crash safety
 * comes from the rename, not from SQLite's journal.
 */
#include "db/kdb_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/path.h"
#include "lib/tmpfile.h"

static const char *const stmt_sql[STMT__COUNT] = {
	[STMT_PUT_META] = "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
	[STMT_PUT_TYPE] = "INSERT INTO types(id, kind, name, size, align, ref, count, flags,"
			  " decl_file, decl_line, hash) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
	[STMT_PUT_MEMBER] = "INSERT INTO members(type_id, idx, name, member_type, offset,"
			    " bit_offset, bit_size) VALUES (?,?,?,?,?,?,?)",
	[STMT_PUT_ENUMERATOR] = "INSERT INTO enumerators(type_id, idx, name, value) VALUES (?,?,?,?)",
	[STMT_PUT_FUNCTION] = "INSERT INTO functions(name, ret_type, source, decl_file, decl_line)"
			      " VALUES (?,?,?,?,?)",
	[STMT_PUT_PARAM] = "INSERT INTO params(func_id, pos, name, type_id, type_text) VALUES (?,?,?,?,?)",
	[STMT_PUT_SYSCALL] = "INSERT OR REPLACE INTO syscalls(abi, nr, name, entry, func_id, implemented)"
			     " VALUES (?,?,?,?,?,?)",
	[STMT_PUT_PROBLEM] = "INSERT INTO problems(stage, input, location, message) VALUES (?,?,?,?)",
	[STMT_PUT_MODULE] = "INSERT INTO modules(name, path, description, depends)"
			    " VALUES (?,?,?,?)",
	[STMT_PUT_BINARY_HEADER] = "INSERT OR IGNORE INTO binary_headers(module_id, header) VALUES (?,?)",
	[STMT_PUT_TYPE_ORIGIN] = "INSERT OR IGNORE INTO type_origins(type_id, module_id) VALUES (?,?)",
	[STMT_PUT_FOPS] = "INSERT INTO fops(module_id, name, unlocked_ioctl, compat_ioctl) VALUES (?,?,?,?)",
	[STMT_PUT_BINARY_IOCTL_CMD] = "INSERT OR IGNORE INTO binary_ioctl_cmds(module_id, cmd) VALUES (?,?)",
	[STMT_PUT_UAPI_TYPE] = "INSERT OR IGNORE INTO uapi_types(type_id, file, line) VALUES (?,?,?)",
};

sqlite3_stmt *kdb_stmt(struct kdb *db, enum kdb_stmt which)
{
	sqlite3_stmt *st = db->stmts[which];

	if (st) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		return st;
	}
	if (kdb_prepare(db, stmt_sql[which], &st))
		return NULL;
	db->stmts[which] = st;
	return st;
}

static struct kdb *kdb_alloc(const char *path)
{
	struct kdb *db = kd_calloc(1, sizeof(*db));

	if (!db)
		return NULL;
	db->path = kd_strdup(path);
	if (!db->path) {
		free(db);
		return NULL;
	}
	return db;
}

int kdb__create(const char *path, struct kdb **out)
{
	struct kd_buf sql = KD_BUF_INIT;
	struct kdb *db;
	int fd, err;

	*out = NULL;
	if (kdb_init_allocator()) {
		kd_err("%s: cannot initialize SQLite", path);
		return -ENOMEM;
	}
	db = kdb_alloc(path);
	if (!db)
		return -ENOMEM;
	fd = kd_tmpfile_create(path, &db->tmp_path);
	if (fd < 0) {
		err = fd;
		kd_err("%s: cannot create output: %s", path, kd_strerror(err));
		goto fail;
	}
	close(fd);
	if (sqlite3_open_v2(db->tmp_path, &db->sql,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		err = kdb_sql_error(db, "cannot create output");
		goto fail;
	}
	err = kd_buf_addf(&sql, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
			  " PRAGMA page_size=8192; PRAGMA user_version=%d; BEGIN;",
			  KDB_SCHEMA_VERSION);
	if (err)
		goto fail;
	err = kdb_exec(db, sql.s);
	if (err)
		goto fail;
	err = kdb_exec(db, kdb_schema_sql);
	if (err)
		goto fail;
	kd_buf_release(&sql);
	*out = db;
	return 0;
fail:
	kd_buf_release(&sql);
	kdb__free(db);
	return err;
}

int kdb__commit(struct kdb *db)
{
	sqlite3_stmt *st = NULL;
	const char *verdict;
	int i, err;

	for (i = 0; i < STMT__COUNT; i++) {
		sqlite3_finalize(db->stmts[i]);
		db->stmts[i] = NULL;
	}
	err = kdb_exec(db, "COMMIT");
	if (err)
		return err;
	err = kdb_prepare(db, "PRAGMA quick_check", &st);
	if (err)
		return err;
	if (sqlite3_step(st) != SQLITE_ROW) {
		err = kdb_sql_error(db, "integrity check");
		goto out;
	}
	verdict = (const char *)sqlite3_column_text(st, 0);
	if (!verdict || strcmp(verdict, "ok")) {
		kd_err("%s: integrity check failed: %s", db->path, verdict ? verdict : "?");
		err = -EIO;
		goto out;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (sqlite3_close(db->sql) != SQLITE_OK) {
		err = kdb_sql_error(db, "close");
		goto out;
	}
	db->sql = NULL;
	err = kd_tmpfile_commit(db->tmp_path, db->path);
	if (err) {
		kd_err("%s: cannot rename output into place: %s", db->path, kd_strerror(err));
		goto out;
	}
	free(db->tmp_path);
	db->tmp_path = NULL;
out:
	sqlite3_finalize(st);
	return err;
}

bool kdb__is_db_file(const char *path)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];

	return kd_read_head(path, head, sizeof(head)) == (ssize_t)sizeof(head) &&
	       !memcmp(head, magic, 16);
}

/* What can be refused before SQLite opens @path: unreadable, not SQLite, a WAL beside it. */
static int check_file(const char *path)
{
	int err;

	if (kdb_init_allocator()) {
		kd_err("%s: cannot initialize SQLite", path);
		return -ENOMEM;
	}
	if (access(path, R_OK) < 0) {
		err = -errno;
		kd_err("%s: %s", path, strerror(errno));
		return err;
	}
	if (!kdb__is_db_file(path)) {
		kd_err("%s: not a .kabi database (not SQLite)", path);
		return -KD_EFORMAT;
	}
	return kdb_check_wal(path);
}

/* The schema version this kabi-diff reads, and the schema itself. */
static int check_version(struct kdb *db)
{
	sqlite3_stmt *st = NULL;
	int version, err = kdb_prepare(db, "PRAGMA user_version", &st);

	if (err)
		return err;
	if (sqlite3_step(st) != SQLITE_ROW) {
		err = kdb_sql_error(db, "not a readable database");	/* before the error is reset */
		sqlite3_finalize(st);
		return err;
	}
	version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (version != KDB_SCHEMA_VERSION) {
		kd_err("%s: schema version %d, this kabi-diff reads %d; re-extract the kernel",
		       db->path, version, KDB_SCHEMA_VERSION);
		return -KD_ESCHEMA;
	}
	return kdb_verify_schema(db, "main");
}

/*
 * A damaged page would otherwise surface in the middle of a listing or
 * a diff, after output was printed. quick_check reads every page once
 * (milliseconds for a real kernel's file), so damage is refused here.
 */
static int check_pages(struct kdb *db)
{
	sqlite3_stmt *st = NULL;
	const char *why;
	int err = kdb_prepare(db, "PRAGMA quick_check(1)", &st);

	if (err)
		return err;
	if (sqlite3_step(st) != SQLITE_ROW)
		err = kdb_sql_error(db, "not a readable database");
	else if (!(why = (const char *)sqlite3_column_text(st, 0)))
		err = kdb_sql_error(db, "checking integrity");
	else if (strcmp(why, "ok")) {
		/* "*** in database main ***\nOn tree page 2 cell 7: ...": one line. */
		const char *nl = strrchr(why, '\n');

		kd_err("%s: damaged database (%s); re-extract the kernel", db->path, nl ? nl + 1 : why);
		err = -KD_EFORMAT;
	}
	sqlite3_finalize(st);
	return err;
}

int kdb__open(const char *path, struct kdb **out)
{
	struct kdb *db;
	int err;

	*out = NULL;
	err = check_file(path);
	if (err)
		return err;
	db = kdb_alloc(path);
	if (!db)
		return -ENOMEM;
	err = kdb_uri(path, &db->uri);
	if (err) {
		if (err != -ENOMEM)
			kd_err("%s: %s", path, kd_strerror(err));
		goto fail;
	}
	if (sqlite3_open_v2(db->uri, &db->sql, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) !=
	    SQLITE_OK) {
		err = kdb_sql_error(db, "cannot open");
		goto fail;
	}
	err = kdb_harden(db);
	if (!err)
		err = check_version(db);
	if (!err)
		err = check_pages(db);
	if (!err)
		err = kdb_verify_values(db);
	if (err)
		goto fail;
	*out = db;
	return 0;
fail:
	kdb__free(db);
	return err;
}

void kdb__free(struct kdb *db)
{
	int i;

	if (!db)
		return;
	for (i = 0; i < STMT__COUNT; i++)
		sqlite3_finalize(db->stmts[i]);
	if (db->sql)
		sqlite3_close(db->sql);
	if (db->tmp_path) {
		kd_tmpfile_discard(db->tmp_path);
		free(db->tmp_path);
	}
	free(db->path);
	free(db->uri);
	free(db);
}

const char *kdb__path(const struct kdb *db)
{
	return db->path;
}
