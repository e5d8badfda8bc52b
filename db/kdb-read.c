// SPDX-License-Identifier: GPL-2.0-only
/* Loading a kernel's model back from a .kabi file. */
#include "db/kdb_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/arch.h"
#include "lib/err.h"
#include "lib/mem.h"

int kdb__get_meta(struct kdb *db, const char *key, char **value)
{
	sqlite3_stmt *st;
	int err = 0;

	*value = NULL;
	err = kdb_prepare(db, "SELECT value FROM meta WHERE key = ?", &st);
	if (err)
		return err;
	kdb_bind_text(st, 1, key);
	err = kdb_step_one(db, st, "reading meta");
	if (!err && sqlite3_column_type(st, 0) != SQLITE_NULL && !(*value = kdb_col_strdup(st, 0)))
		err = -ENOMEM;
	sqlite3_finalize(st);
	if (err == -ENOENT)
		err = 0;	/* no such key: no value */
	return err;
}

const struct kd_arch *kdb__arch(struct kdb *db)
{
	const struct kd_arch *arch;
	char *name = NULL;

	if (!db || kdb__get_meta(db, "arch", &name))
		name = NULL;
	arch = kd_arch__by_name(name);
	free(name);
	return arch ? arch : kd_arch__by_name("x86_64");
}

/*
 * A zeroed element appended to the array at @arr (a T **) of @n elements and
 * capacity @cap, and counted in @n; NULL with kd_grow_array()'s error in *@err.
 */
static void *append_zeroed(void *arr, size_t *cap, size_t *n, size_t size, int *err)
{
	char *e;

	*err = kd_grow_array(arr, cap, *n + 1, size);
	if (*err)
		return NULL;
	e = *(char **)arr + *n * size;
	memset(e, 0, size);
	(*n)++;
	return e;
}

int kdb_add_member(sqlite3_stmt *st, int base, struct kd_type *t, size_t *cap)
{
	int err;
	struct kd_member *m = append_zeroed(&t->members, cap, &t->nr_members, sizeof(*m), &err);

	if (!m)
		return err;
	m->type = sqlite3_column_int64(st, base + 1);
	m->offset = sqlite3_column_type(st, base + 2) == SQLITE_NULL ? -1 :
		    sqlite3_column_int64(st, base + 2);
	m->bit_offset = sqlite3_column_int(st, base + 3);
	m->bit_size = sqlite3_column_int(st, base + 4);
	/* an anonymous member has no name; a named one without memory fails */
	if (sqlite3_column_type(st, base) != SQLITE_NULL && !(m->name = kdb_col_strdup(st, base)))
		return -ENOMEM;
	return 0;
}

int kdb_add_enumerator(sqlite3_stmt *st, int base, struct kd_type *t, size_t *cap)
{
	int err;
	struct kd_enumerator *e = append_zeroed(&t->enumerators, cap, &t->nr_enumerators,
						sizeof(*e), &err);

	if (!e)
		return err;
	e->value = sqlite3_column_int64(st, base + 1);
	return (e->name = kdb_col_strdup(st, base)) ? 0 : -ENOMEM;
}

/* The members and enumerators of one type, its arrays' capacity. */
struct one_type {
	struct kd_type *t;
	size_t cap;
};

static int member_row(sqlite3_stmt *st, void *ctx)
{
	struct one_type *w = ctx;

	return kdb_add_member(st, 0, w->t, &w->cap);
}

static int enumerator_row(sqlite3_stmt *st, void *ctx)
{
	struct one_type *w = ctx;

	return kdb_add_enumerator(st, 0, w->t, &w->cap);
}

/* The rows of @sql for the row id @id, each to @row. */
static int rows_of_id(struct kdb *db, const char *sql, int64_t id, const char *what,
		      kdb_row_fn row, void *ctx)
{
	sqlite3_stmt *st;
	int err = kdb_prepare(db, sql, &st);

	if (err)
		return err;
	sqlite3_bind_int64(st, 1, id);
	return kdb_each_row(db, st, what, row, ctx);
}

static int load_members(struct kdb *db, struct kd_type *t)
{
	struct one_type w = { t, 0 };

	return rows_of_id(db, "SELECT name, member_type, offset, bit_offset, bit_size"
			  " FROM members WHERE type_id = ? ORDER BY idx", t->id,
			  "reading members", member_row, &w);
}

static int load_enumerators(struct kdb *db, struct kd_type *t)
{
	struct one_type w = { t, 0 };

	return rows_of_id(db, "SELECT name, value FROM enumerators WHERE type_id = ? ORDER BY idx",
			  t->id, "reading enumerators", enumerator_row, &w);
}

int kdb__get_type(struct kdb *db, int64_t id, struct kd_type **out)
{
	struct kd_type *t = NULL;
	sqlite3_stmt *st;
	int err;

	*out = NULL;
	err = kdb_prepare(db, "SELECT kind, name, size, align, ref, count, flags, decl_file,"
			  " decl_line, hash FROM types WHERE id = ?", &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, id);
	err = kdb_step_one(db, st, "reading types");
	if (err)
		goto out;
	t = kd_calloc(1, sizeof(*t));
	if (!t) {
		err = -ENOMEM;
		goto out;
	}
	t->id = id;
	t->kind = kd_kind_from_name((const char *)sqlite3_column_text(st, 0));
	t->name = kdb_col_strdup(st, 1);
	t->size = sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 2);
	t->align = sqlite3_column_int64(st, 3);
	t->ref = sqlite3_column_int64(st, 4);
	t->count = sqlite3_column_int64(st, 5);
	t->flags = (unsigned)sqlite3_column_int(st, 6);
	t->decl_file = kdb_col_strdup(st, 7);
	t->decl_line = sqlite3_column_int(st, 8);
	t->hash = strtoull(kdb_col_name(st, 9), NULL, 16);
	if ((int)t->kind < 0) {
		err = -KD_EFORMAT;
		goto out;
	}
	err = load_members(db, t);
	if (!err)
		err = load_enumerators(db, t);
out:
	sqlite3_finalize(st);
	if (err) {
		kd_type__free(t);
		return err;
	}
	*out = t;
	return 0;
}

int kdb__find_types(struct kdb *db, const char *kind, const char *name, int64_t **ids)
{
	struct kdb_list w = { 0 };
	sqlite3_stmt *st;
	int err;

	*ids = NULL;
	/* The native views: a compat ABI's own layouts are kdb__find_compat_types()'s. */
	err = kdb_prepare(db, "SELECT id FROM types WHERE name = ?1 AND (?2 IS NULL OR kind = ?2)"
			  " AND id NOT IN (SELECT type_id FROM compat_only_types) ORDER BY id", &st);
	if (err)
		return err;
	kdb_bind_text(st, 1, name);
	kdb_bind_text(st, 2, kind);
	err = kdb_each_row(db, st, "reading types", kdb_id_row, &w);
	if (err) {
		free(w.items);
		return err;
	}
	*ids = w.items;
	return (int)w.n;
}

void kd_function__free(struct kd_function *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nr_params; i++) {
		free(f->params[i].name);
		free(f->params[i].type_text);
	}
	free(f->params);
	free(f->name);
	free(f->source);
	free(f->decl_file);
	free(f);
}

/* The parameters of one function, their array's capacity. */
struct one_function {
	struct kd_function *f;
	size_t cap;
};

static int param_row(sqlite3_stmt *st, void *ctx)
{
	struct one_function *w = ctx;
	struct kd_function *f = w->f;
	struct kd_param *p;
	int err = KD_GROW(f->params, w->cap, f->nr_params + 1);

	if (err)
		return err;
	p = &f->params[f->nr_params++];
	p->name = kdb_col_strdup(st, 0);
	p->type_id = sqlite3_column_int64(st, 1);
	p->type_text = kdb_col_strdup(st, 2);
	return 0;
}

static int load_params(struct kdb *db, struct kd_function *f)
{
	struct one_function w = { f, 0 };

	return rows_of_id(db, "SELECT name, type_id, type_text FROM params WHERE func_id = ?"
			  " ORDER BY pos", f->id, "reading params", param_row, &w);
}

static int get_function(struct kdb *db, const char *where, const char *name, int64_t id,
			struct kd_function **out)
{
	static const char cols[] = "SELECT id, name, ret_type, source, decl_file, decl_line FROM functions WHERE ";
	struct kd_function *f = NULL;
	char sql[160];
	sqlite3_stmt *st;
	int err;

	*out = NULL;
	snprintf(sql, sizeof(sql), "%s%s", cols, where);
	err = kdb_prepare(db, sql, &st);
	if (err)
		return err;
	if (name)
		kdb_bind_text(st, 1, name);
	else
		sqlite3_bind_int64(st, 1, id);
	err = kdb_step_one(db, st, "reading functions");
	if (err)
		goto out;
	f = kd_calloc(1, sizeof(*f));
	if (!f) {
		err = -ENOMEM;
		goto out;
	}
	f->id = sqlite3_column_int64(st, 0);
	f->name = kdb_col_strdup(st, 1);
	f->ret_type = sqlite3_column_int64(st, 2);
	f->source = kdb_col_strdup(st, 3);
	f->decl_file = kdb_col_strdup(st, 4);
	f->decl_line = sqlite3_column_int(st, 5);
	err = load_params(db, f);
out:
	sqlite3_finalize(st);
	if (err) {
		kd_function__free(f);
		return err;
	}
	*out = f;
	return 0;
}

int kdb__get_function(struct kdb *db, const char *name, struct kd_function **out)
{
	return get_function(db, "name = ?", name, 0, out);
}

int kdb__get_function_by_id(struct kdb *db, int64_t id, struct kd_function **out)
{
	return get_function(db, "id = ?", NULL, id, out);
}

static int syscall_row(sqlite3_stmt *st, void *ctx)
{
	struct kd_syscall sc = {
		.abi = kdb_col_name(st, 0),
		.nr = sqlite3_column_type(st, 1) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 1),
		.name = kdb_col_text(st, 2),
		.entry = kdb_col_text(st, 3),
		.func_id = sqlite3_column_int64(st, 4),
		.implemented = sqlite3_column_int(st, 5) != 0,
	};

	return KDB_CALL(kdb_syscall_fn, ctx, &sc);
}

static int foreach_syscall(struct kdb *db, const char *sql, const char *arg,
			   kdb_syscall_fn cb, void *ctx)
{
	struct kdb_caller c = KDB_CALLER(cb, ctx);
	sqlite3_stmt *st;
	int err = kdb_prepare(db, sql, &st);

	if (err)
		return err;
	kdb_bind_text(st, 1, arg);
	return kdb_each_row(db, st, "reading syscalls", syscall_row, &c);
}

int kdb__foreach_syscall(struct kdb *db, const char *abi, kdb_syscall_fn cb, void *ctx)
{
	return foreach_syscall(db, "SELECT abi, nr, name, entry, func_id, implemented FROM syscalls"
			       " WHERE ?1 IS NULL OR abi = ?1"
			       " ORDER BY abi NOT IN " KD_ARCH_NATIVE_ABIS_SQL ", abi, nr", abi, cb, ctx);
}

int kdb__foreach_syscall_named(struct kdb *db, const char *name, kdb_syscall_fn cb, void *ctx)
{
	return foreach_syscall(db, "SELECT abi, nr, name, entry, func_id, implemented FROM syscalls"
			       " WHERE name = ?1 ORDER BY abi NOT IN " KD_ARCH_NATIVE_ABIS_SQL ", abi, nr",
			       name, cb, ctx);
}

static int problem_row(sqlite3_stmt *st, void *ctx)
{
	struct kd_problem p = {
		.stage = kdb_col_text(st, 0),
		.input = kdb_col_text(st, 1),
		.location = kdb_col_text(st, 2),
		.message = kdb_col_text(st, 3),
	};

	return KDB_CALL(kdb_problem_fn, ctx, &p);
}

int kdb__foreach_problem(struct kdb *db, kdb_problem_fn cb, void *ctx)
{
	return kdb_query(db, "SELECT stage, input, location, message FROM problems ORDER BY id",
			 "reading problems", problem_row, &KDB_CALLER(cb, ctx));
}

int64_t kdb__count(struct kdb *db, const char *table)
{
	static const char *const known[] = {
		"types", "members", "enumerators", "functions", "params", "syscalls",
		"modules", "constants", "ioctls", "ioctl_families", "problems", "spec_files",
		"spec_sets",
		"spec_set_values", "spec_calls", "spec_args", "spec_errnos", "spec_structs",
		"spec_struct_sizes", "uapi_types", "probe_results", "vdso_images", "vdso_symbols",
		NULL,
	};
	char sql[64];
	sqlite3_stmt *st;
	int64_t n = -1;
	int i;

	for (i = 0; known[i] && strcmp(known[i], table); i++)
		;
	if (!known[i])
		return -EINVAL;
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", known[i]);
	if (kdb_prepare(db, sql, &st))
		return -EIO;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

int kdb__get_module_name(struct kdb *db, int64_t id, char **name)
{
	sqlite3_stmt *st;
	int err;

	*name = NULL;
	err = kdb_prepare(db, "SELECT name FROM modules WHERE id = ?", &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, id);
	err = kdb_step_one(db, st, "reading modules");
	if (!err && !(*name = kdb_col_strdup(st, 0)))
		err = -ENOMEM;
	sqlite3_finalize(st);
	return err;
}
