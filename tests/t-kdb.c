// SPDX-License-Identifier: GPL-2.0-only
/*
 * db/: a .kabi written through the API reads back exactly; other schema
 * versions and non-SQLite files are refused; an uncommitted DB leaves
 * nothing behind; and every allocation failure, inside kabi-diff or inside
 * SQLite, fails cleanly (no crash, no leak under ASan, no file left).
 */
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "tests/tap.h"

/*
 * How many "PATH.tmp.*" files the writer left. glob(3), not a shell: the
 * allocation-failure loop asks after every one of its ~2000 failures.
 */
static int leftovers(const char *path)
{
	char pattern[4096];
	glob_t g;
	int n;

	if (snprintf(pattern, sizeof(pattern), "%s.tmp.*", path) >= (int)sizeof(pattern))
		return -1;
	switch (glob(pattern, 0, NULL, &g)) {
	case 0:
		n = (int)g.gl_pathc;
		break;
	case GLOB_NOMATCH:
		n = 0;
		break;
	default:
		n = -1;
		break;
	}
	globfree(&g);
	return n;
}

/* A small graph: struct s { int a; struct s *next; unsigned b:3; } */
static int write_sample(const char *path)
{
	struct kd_member members[] = {
		{ .name = "a", .type = 1, .offset = 0 },
		{ .name = "next", .type = 3, .offset = 8 },
		{ .name = "b", .type = 4, .offset = 16, .bit_offset = 2, .bit_size = 3 },
	};
	struct kd_type types[] = {
		{ .id = 1, .kind = KD_KIND_BASE, .name = "int", .size = 4, .align = 4,
		  .flags = KD_TYPE_SIGNED, .hash = 0x11 },
		{ .id = 2, .kind = KD_KIND_STRUCT, .name = "s", .size = 24, .align = 8,
		  .nr_members = 3, .members = members, .decl_file = "include/uapi/s.h",
		  .decl_line = 7, .hash = 0x22 },
		{ .id = 3, .kind = KD_KIND_POINTER, .size = 8, .align = 8, .ref = 2, .hash = 0x33 },
		{ .id = 4, .kind = KD_KIND_BASE, .name = "unsigned int", .size = 4, .align = 4,
		  .hash = 0x44 },
	};
	struct kd_syscall sc = { .abi = "x64", .nr = 257, .name = "openat",
				 .entry = "__x64_sys_openat", .implemented = true };
	struct kd_syscall ni = { .abi = "x64", .nr = 5, .entry = "__x64_sys_ni_syscall" };
	struct kdb *db;
	int64_t fid;
	size_t i;
	int err;

	err = kdb__create(path, &db);
	if (err)
		return err;
	err = kdb__set_meta(db, "release", "6.99.0-test");
	for (i = 0; !err && i < sizeof(types) / sizeof(types[0]); i++)
		err = kdb__put_type(db, &types[i]);
	if (!err)
		err = kdb__put_function(db, "sys_openat", 1, "dwarf", "fs/open.c", 1337, &fid);
	if (!err)
		err = kdb__put_param(db, fid, 0, "dfd", 1, "int");
	if (!err)
		err = kdb__put_param(db, fid, 1, "how", 3, "struct s *");
	sc.func_id = fid;
	if (!err)
		err = kdb__put_syscall(db, &sc);
	if (!err)
		err = kdb__put_syscall(db, &ni);
	if (!err)
		err = kdb__put_problem(db, "extract", "vmlinux", "DIE 0x10", "struct %s undefined", "x");
	if (!err)
		err = kdb__commit(db);
	kdb__free(db);
	return err;
}

static int count_slot(const struct kd_syscall *sc, void *ctx)
{
	int *n = ctx;

	if (!strcmp(sc->abi, "x64") && sc->nr == 257 && !strcmp(sc->name, "openat") && sc->implemented)
		*n += 10;
	if (sc->nr == 5 && !sc->name && !sc->implemented)
		*n += 1;
	return 0;
}

/* Counts its calls and stops the walk at the first. */
static int stop_at_first(const struct kd_syscall *sc, void *ctx)
{
	(void)sc;
	++*(int *)ctx;
	return -E2BIG;
}

static void test_roundtrip(void)
{
	char *path = tap_tmp_path("roundtrip.kabi");
	struct kd_function *fn = NULL;
	struct kd_type *t = NULL;
	struct kdb *db = NULL;
	int64_t *ids = NULL;
	char *v = NULL;
	int n = 0;

	unlink(path);
	is_int(write_sample(path), 0, "write a sample DB");
	is_int(leftovers(path), 0, "no temporary file after commit");
	is_int(kdb__open(path, &db), 0, "open it read-only");
	if (!db)
		goto out;
	kdb__get_meta(db, "release", &v);
	is_str(v, "6.99.0-test", "meta round-trips");
	is_int(kdb__get_type(db, 2, &t), 0, "read struct s back");
	if (t) {
		is_str(t->name, "s", "name");
		is_int(t->size, 24, "size");
		is_int(t->align, 8, "align");
		is_int(t->nr_members, 3, "members");
		is_str(t->members[1].name, "next", "member name");
		is_int(t->members[1].offset, 8, "member offset");
		is_int(t->members[2].bit_offset, 2, "bit offset");
		is_int(t->members[2].bit_size, 3, "bit size");
		is_int((int64_t)t->hash, 0x22, "hash");
		is_str(t->decl_file, "include/uapi/s.h", "decl file");
		is_int(t->decl_line, 7, "decl line");
	}
	kd_type__free(t);
	is_int(kdb__get_type(db, 99, &t) == -ENOENT && !t, 1, "absent type: -ENOENT");
	is_int(kdb__find_types(db, "struct", "s", &ids), 1, "find struct s by name");
	is_int(ids ? ids[0] : 0, 2, "its id");
	is_int(kdb__get_function(db, "sys_openat", &fn), 0, "read a function");
	if (fn) {
		is_int(fn->nr_params, 2, "two params");
		is_str(fn->params[1].type_text, "struct s *", "param type text");
		is_int(fn->params[1].type_id, 3, "param type id");
		is_str(fn->decl_file, "fs/open.c", "function decl file");
	}
	is_int(kdb__foreach_syscall(db, "x64", count_slot, &n), 0, "walk syscalls");
	is_int(n, 11, "implemented slot and not-implemented slot both stored");
	n = 0;
	is_int(kdb__foreach_syscall(db, NULL, stop_at_first, &n), -E2BIG,
	       "a callback's error stops a walk and is its result");
	is_int(n, 1, "  the walk stopped at the first row");
	is_int(kdb__count(db, "problems"), 1, "problem row stored");
	is_int(kdb__count(db, "no_such_table"), -EINVAL, "count refuses unknown tables");
out:
	kd_function__free(fn);
	kd_type__free(t);
	free(ids);
	free(v);
	kdb__free(db);
	free(path);
}

static void test_refusals(void)
{
	char *path = tap_tmp_path("refuse.kabi");
	struct kdb *db = NULL;
	FILE *f;

	kd_log_set_level(KD_LOG_QUIET);	/* these errors are expected */
	f = fopen(path, "w");
	fputs("not a database\n", f);
	fclose(f);
	is_int(kdb__open(path, &db), -KD_EFORMAT, "a text file is not a .kabi");
	unlink(path);
	write_sample(path);
	{
		/* Rewrite the version with the sqlite3 shell, as a user might. */
		struct kd_buf cmd = KD_BUF_INIT;

		kd_buf_addf(&cmd, "sqlite3 %s 'PRAGMA user_version = 99'", path);
		is_int(system(cmd.s), 0, "set user_version 99");
		kd_buf_release(&cmd);
	}
	is_int(kdb__open(path, &db), -KD_ESCHEMA, "another schema version is refused");
	is_int(kdb__open("/nonexistent/x.kabi", &db), -ENOENT, "a missing file: -ENOENT");
	kd_log_set_level(KD_LOG_WARN);
	kdb__free(db);
	free(path);
}

static void test_uncommitted(void)
{
	char *path = tap_tmp_path("uncommitted.kabi");
	struct kdb *db = NULL;
	FILE *f = fopen(path, "w");

	fputs("OLD", f);
	fclose(f);
	is_int(kdb__create(path, &db), 0, "create over an existing file");
	is_int(leftovers(path), 1, "one temporary file while writing");
	kdb__set_meta(db, "release", "x");
	kdb__free(db);
	is_int(leftovers(path), 0, "freed before commit: temporary file removed");
	f = fopen(path, "r");
	{
		char buf[8] = "";

		fgets(buf, sizeof(buf), f);
		is_str(buf, "OLD", "the old file is untouched");
	}
	fclose(f);
	free(path);
}

static void test_out_of_memory(void)
{
	char *path = tap_tmp_path("oom.kabi");
	int n, failures = 0, bad = 0, rc = -1;

	kd_log_set_level(KD_LOG_QUIET);
	/* Every allocation point of the first 1500, then every 11th: the schema
	 * alone takes thousands inside SQLite, and the late points repeat the
	 * same few insert paths. */
	for (n = 0; n < 200000; n += n < 1500 ? 1 : 11) {
		unlink(path);
		kd_mem_fail_after(n);
		rc = write_sample(path);
		kd_mem_fail_after(-1);
		if (rc == 0)
			break;
		failures++;
		if (access(path, F_OK) == 0 || leftovers(path) != 0)
			bad++;
	}
	kd_log_set_level(KD_LOG_WARN);
	ok(failures > 20, "allocation failures injected at %d points", failures);
	is_int(rc, 0, "with enough memory the write succeeds");
	is_int(bad, 0, "no failed write left a file behind");
	unlink(path);
	free(path);
}

int main(void)
{
	test_roundtrip();
	test_refusals();
	test_uncommitted();
	test_out_of_memory();
	return tap_done();
}
