// SPDX-License-Identifier: GPL-2.0-only
/*
 * The probe's rows: the cases `kabi-diff probe` ran on a kernel and what
 * the kernel answered (probe_cases, probe_results). A new probe replaces
 * the old one whole. Written through kdb__open_update(), so the .kabi is
 * replaced atomically on kdb__commit(); DBs extracted before these tables
 * existed get them from the schema's "-- probe" block.
 */
#include "db/kdb_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/err.h"

#define PROBE_MARKER "-- probe\n"

int kdb__clear_probe(struct kdb *db)
{
	const char *sql = strstr(kdb_schema_sql, PROBE_MARKER);
	int err;

	if (!sql) {
		kd_err("%s: the schema has no probe tables", db->path);
		return -EINVAL;
	}
	err = kdb_exec(db, sql);
	return err ? err : kdb_exec(db, "DELETE FROM probe_deviation_fs; DELETE FROM probe_results;"
				   " DELETE FROM probe_cases;");
}

int kdb__put_probe(struct kdb *db, const struct kdb_probe_row *r)
{
	static const char case_sql[] =
		"INSERT INTO probe_cases (id, call, nr, kind, args, expect, expect_errno, what,"
		" origin, deviation, deviation_why) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
		" ?10, ?11)";
	static const char result_sql[] =
		"INSERT INTO probe_results (case_id, status, ret, errno, errno_name, matches,"
		" release) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
	sqlite3_stmt *st = NULL;
	int err;

	err = kdb_prepare(db, case_sql, &st);
	if (err)
		return err;
	if (kdb_bind_text(st, 1, r->id) || kdb_bind_text(st, 2, r->call) ||
	    sqlite3_bind_int64(st, 3, r->nr) || kdb_bind_text(st, 4, r->kind) ||
	    kdb_bind_text(st, 5, r->args) || kdb_bind_text(st, 6, r->expect) ||
	    kdb_bind_text(st, 7, r->expect_errno) || kdb_bind_text(st, 8, r->what) ||
	    kdb_bind_text(st, 9, r->origin) || kdb_bind_text(st, 10, r->deviation) ||
	    kdb_bind_text(st, 11, r->deviation_why) || sqlite3_step(st) != SQLITE_DONE) {
		err = kdb_sql_error(db, "storing a probe case");
		goto out;
	}
	sqlite3_finalize(st);
	st = NULL;
	err = kdb_prepare(db, result_sql, &st);
	if (err)
		return err;
	if (kdb_bind_text(st, 1, r->id) || kdb_bind_text(st, 2, r->status) ||
	    (strcmp(r->status, "ret") ? sqlite3_bind_null(st, 3)
				      : sqlite3_bind_int64(st, 3, r->ret)) ||
	    (r->err ? sqlite3_bind_int(st, 4, r->err) : sqlite3_bind_null(st, 4)) ||
	    kdb_bind_text(st, 5, r->errno_name) || sqlite3_bind_int(st, 6, r->matches) ||
	    kdb_bind_text(st, 7, r->release) || sqlite3_step(st) != SQLITE_DONE) {
		err = kdb_sql_error(db, "storing a probe result");
		goto out;
	}
	if (!r->deviation_fs)
		goto out;
	sqlite3_finalize(st);
	st = NULL;
	err = kdb_prepare(db, "INSERT INTO probe_deviation_fs (case_id, fs) VALUES (?1, ?2)", &st);
	if (err)
		return err;
	if (kdb_bind_text(st, 1, r->id) || kdb_bind_text(st, 2, r->deviation_fs) ||
	    sqlite3_step(st) != SQLITE_DONE)
		err = kdb_sql_error(db, "storing a probe case's file system");
out:
	sqlite3_finalize(st);
	return err;
}

static const char *col(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

/* Does @schema ("main", "other"; NULL: the first that has it) have @table? */
static bool has_table(struct kdb *db, const char *schema, const char *table)
{
	sqlite3_stmt *st = NULL;
	char sql[128];
	bool yes;

	snprintf(sql, sizeof(sql), "SELECT 1 FROM %s%s%s LIMIT 0",
		 schema ? schema : "", schema ? "." : "", table);
	yes = sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL) == SQLITE_OK;
	sqlite3_finalize(st);
	return yes;
}

static bool has_probe(struct kdb *db, const char *schema)
{
	return has_table(db, schema, "probe_results");
}

static int probe_row(sqlite3_stmt *st, void *ctx)
{
	struct kdb_probe_row r = {
		.id = col(st, 0), .call = col(st, 1), .nr = sqlite3_column_int64(st, 2),
		.kind = col(st, 3), .args = col(st, 4), .expect = col(st, 5),
		.expect_errno = col(st, 6), .what = col(st, 7), .origin = col(st, 8),
		.status = col(st, 9), .ret = sqlite3_column_int64(st, 10),
		.err = sqlite3_column_int(st, 11), .errno_name = col(st, 12),
		.matches = sqlite3_column_int(st, 13) != 0, .release = col(st, 14),
		.deviation = col(st, 15), .deviation_why = col(st, 16), .deviation_fs = col(st, 17),
	};

	return KDB_CALL(kdb_probe_fn, ctx, &r);
}

int kdb__foreach_probe(struct kdb *db, kdb_probe_fn cb, void *ctx)
{
	struct kdb_caller c = KDB_CALLER(cb, ctx);
	char sql[512];

	/* A DB without the tables holds no probe: not an error. */
	if (!has_probe(db, NULL))
		return 0;
	/* Probed by a kabi-diff before probe_deviation_fs: every deviation holds on any fs. */
	snprintf(sql, sizeof(sql),
		 "SELECT c.id, c.call, c.nr, c.kind, c.args, c.expect, c.expect_errno, c.what,"
		 " c.origin, r.status, r.ret, r.errno, r.errno_name, r.matches, r.release,"
		 " c.deviation, c.deviation_why, %s"
		 " FROM probe_cases c JOIN probe_results r ON r.case_id = c.id ORDER BY c.id",
		 has_table(db, NULL, "probe_deviation_fs")
		 ? "(SELECT fs FROM probe_deviation_fs f WHERE f.case_id = c.id)" : "NULL");
	return kdb_query(db, sql, "reading the probe results", probe_row, &c);
}

static int probe_pair_row(sqlite3_stmt *st, void *ctx)
{
	struct kdb_probe_pair p = {
		.id = col(st, 0), .call = col(st, 1), .kind = col(st, 2), .args = col(st, 3),
		.expect = col(st, 4), .expect_errno = col(st, 5), .what = col(st, 6),
		.old_status = col(st, 7), .old_errno = col(st, 8),
		.new_status = col(st, 9), .new_errno = col(st, 10), .new_id = col(st, 11),
		.old_deviation = col(st, 12), .new_deviation = col(st, 13),
		.old_deviation_why = col(st, 14), .new_deviation_why = col(st, 15),
		.new_expect = col(st, 16), .new_expect_errno = col(st, 17),
		.old_matches = sqlite3_column_int(st, 18) != 0,
		.new_matches = sqlite3_column_int(st, 19) != 0, .new_kind = col(st, 20),
		.old_deviation_fs = col(st, 21), .new_deviation_fs = col(st, 22),
		.old_fs = col(st, 23), .new_fs = col(st, 24),
	};

	return KDB_CALL(kdb_probe_pair_fn, ctx, &p);
}

int kdb__diff_probe(struct kdb *db, kdb_probe_pair_fn cb, void *ctx)
{
	/*
	 * The same call with the same arguments on both sides, different
	 * outcome: by id where both kernels have the case, else whatever id
	 * each gave it (a bit that became a flag of the new kernel is
	 * "memfd_create.flags.bit4" on the old one, "...MFD_EXEC" on the new).
	 */
	static const char sql[] =
		"SELECT c.id, c.call, c.kind, c.args, c.expect, c.expect_errno, c.what,"
		" r.status, r.errno_name, o.status, o.errno_name, oc.id,"
		" c.deviation, oc.deviation, c.deviation_why, oc.deviation_why, oc.expect,"
		" oc.expect_errno, r.matches, o.matches, oc.kind, %s, %s,"
		" (SELECT value FROM main.meta WHERE key = 'probe_fs'),"
		" (SELECT value FROM other.meta WHERE key = 'probe_fs')"
		" FROM main.probe_cases c JOIN main.probe_results r ON r.case_id = c.id"
		" JOIN other.probe_cases oc ON oc.call = c.call AND oc.args = c.args AND"
		"  (oc.id = c.id OR (NOT EXISTS (SELECT 1 FROM other.probe_cases x"
		"    WHERE x.id = c.id AND x.args = c.args) AND NOT EXISTS (SELECT 1 FROM"
		"    main.probe_cases y WHERE y.id = oc.id AND y.args = oc.args)))"
		" JOIN other.probe_results o ON o.case_id = oc.id"
		" WHERE r.status <> o.status OR ifnull(r.errno_name, '') <> ifnull(o.errno_name, '')"
		" ORDER BY c.kind = 'errno', c.id";
	struct kdb_caller c = KDB_CALLER(cb, ctx);
	char q[sizeof(sql) + 256];

	/* Either kernel never probed: nothing observed to compare. */
	if (!has_probe(db, "main") || !has_probe(db, "other"))
		return 0;
	snprintf(q, sizeof(q), sql,
		 has_table(db, "main", "probe_deviation_fs")
		 ? "(SELECT fs FROM main.probe_deviation_fs f WHERE f.case_id = c.id)" : "NULL",
		 has_table(db, "other", "probe_deviation_fs")
		 ? "(SELECT fs FROM other.probe_deviation_fs f WHERE f.case_id = oc.id)" : "NULL");
	return kdb_query(db, q, "comparing the probe results", probe_pair_row, &c);
}
