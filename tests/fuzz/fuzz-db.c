// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz harness of the .kabi readers: the input is a database file (seeds:
 * the fixture kernels' .kabi, see make-corpus.sh), opened with kdb__open()
 * and read through every kind of query show and diff make, then diffed by
 * diff__run() against a copy in which every type's hash, a third of the
 * member offsets, half the constants and ioctl numbers and a third of the
 * syscalls differ (on the fixture kernel: 17 breaking changes); a copy
 * left equal would end the diff at "no changes" before its structural
 * compare, the path a crafted layout reaches. A damaged file must be refused or read as
 * whatever it says, never crash.
 */
#include "tests/fuzz/fuzz-common.h"
#include "tests/fuzz/harness.h"

#include <sqlite3.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "db/kdb-uapi.h"
#include "diff/diff.h"
#include "lib/model.h"

static int count_syscall(const struct kd_syscall *sc, void *ctx)
{
	size_t *n = ctx;

	*n += (sc->abi ? strlen(sc->abi) : 0) + (sc->name ? strlen(sc->name) : 0) +
	      (sc->entry ? strlen(sc->entry) : 0);
	return 0;
}

static int count_problem(const struct kd_problem *p, void *ctx)
{
	size_t *n = ctx;

	*n += p->message ? strlen(p->message) : 0;
	return 0;
}

static int count_constant(const struct kd_constant *c, void *ctx)
{
	size_t *n = ctx;

	*n += (c->name ? strlen(c->name) : 0) + (c->ctype ? strlen(c->ctype) : 0);
	return 0;
}

static int count_ioctl(const struct kd_ioctl *io, void *ctx)
{
	size_t *n = ctx;

	*n += (io->name ? strlen(io->name) : 0) + (io->dir ? strlen(io->dir) : 0);
	return 0;
}

static void read_all(struct kdb *db)
{
	static const char *const tables[] = {
		"meta", "syscalls", "functions", "params", "types", "members", "enumerators",
		"problems", "modules", "constants", "ioctls",
	};
	struct kd_function *f = NULL;
	struct kd_type *types = NULL, *t = NULL;
	int64_t *ids = NULL;
	size_t n = 0, nr_types = 0, i;
	char *v = NULL;
	int nr;

	if (kdb__get_meta(db, "release", &v) == 0)
		free(v);
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		(void)kdb__count(db, tables[i]);
	(void)kdb__foreach_syscall(db, NULL, count_syscall, &n);
	(void)kdb__foreach_syscall_named(db, "openat2", count_syscall, &n);
	(void)kdb__foreach_problem(db, count_problem, &n);
	(void)kdb__foreach_constant(db, count_constant, &n);
	(void)kdb__foreach_ioctl(db, NULL, count_ioctl, &n);
	if (kdb__get_function(db, "sys_openat2", &f) == 0)
		kd_function__free(f);
	nr = kdb__find_types(db, "struct", "open_how", &ids);
	if (nr > 0 && kdb__get_type(db, ids[0], &t) == 0)
		kd_type__free(t);
	free(ids);
	for (i = 1; i <= 8; i++) {
		t = NULL;
		if (kdb__get_type(db, (int64_t)i, &t) == 0)
			kd_type__free(t);
	}
	if (kdb__load_types(db, &types, &nr_types) == 0)
		kdb__free_types(types, nr_types);
	if (n == (size_t)-1)
		abort();
}

/*
 * The "new kernel": the input with its hashes rotated (still 16 hex digits,
 * so the copy passes kdb__open's checks) and the edits above; opened as
 * kdb__open opens files, with triggers and views off.
 */
static void make_changed_copy(const char *path)
{
	static const char edits[] =
		"UPDATE types SET hash = substr(hash, 2) || substr(hash, 1, 1);"
		"UPDATE members SET offset = offset + 8 WHERE offset IS NOT NULL AND idx % 3 = 2;"
		"UPDATE constants SET value = value + 1 WHERE length(name) % 2 = 0;"
		"UPDATE ioctls SET nr = nr + 1 WHERE length(name) % 3 = 0;"
		"DELETE FROM syscalls WHERE nr % 3 = 0;";
	sqlite3 *sql = NULL;

	if (sqlite3_open_v2(path, &sql, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
	    sqlite3_db_config(sql, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL) == SQLITE_OK &&
	    sqlite3_db_config(sql, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL) == SQLITE_OK &&
	    sqlite3_db_config(sql, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL) == SQLITE_OK)
		(void)sqlite3_exec(sql, edits, NULL, NULL, NULL);
	sqlite3_close(sql);
}

int fuzz_db_one(const uint8_t *data, size_t size)
{
	struct kd_buf b = KD_BUF_INIT, b2 = KD_BUF_INIT;
	struct diff_conf conf = { 0 };
	struct diff_result *r = NULL;
	struct kdb *db = NULL, *db2 = NULL;
	const char *path = fuzz_path(&b, "in.kabi"), *path2;

	fuzz_write(path, data, size);
	/* diff attaches the other file: two kernels are two files. */
	path2 = fuzz_path(&b2, "in2.kabi");
	fuzz_write(path2, data, size);
	if (kdb__open(path, &db) == 0) {
		read_all(db);
		make_changed_copy(path2);
		if (kdb__open(path2, &db2) == 0 && diff__run(db, db2, &conf, &r) == 0)
			diff_result__free(r);
	}
	kdb__free(db2);
	kdb__free(db);
	kd_buf_release(&b);
	kd_buf_release(&b2);
	return 0;
}

FUZZ_ENTRY(fuzz_db_one)
