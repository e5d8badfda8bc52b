// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SQL of `kabi-diff diff`. Two kernels are compared with the second
 * .kabi ATTACHed to the first as schema "other": syscall tables, constants
 * and ioctls are joined by name in SQL, which is both the clearest
 * statement of "what is added, removed, changed" and the fastest. Types are
 * compared in C (diff/), by paths from the syscalls; for that they are
 * loaded here in one scan per table, not one query per type.
 */
#include "db/kdb_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/arch.h"
#include "lib/err.h"
#include "lib/mem.h"

static const char *col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

void kdb__free_types(struct kd_type *types, size_t n)
{
	size_t i;

	if (!types)
		return;
	for (i = 0; i < n; i++)
		kd_type__release(&types[i]);
	free(types);
}

/* Index of the type @id in @types (sorted by id), or -1. */
static long find_type(struct kd_type *types, size_t n, int64_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (types[mid].id == id)
			return (long)mid;
		if (types[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int load_type_rows(struct kdb *db, struct kd_type **types, size_t *n)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc, err;

	err = kdb_prepare(db, "SELECT id, kind, name, size, align, ref, count, flags, hash"
			  " FROM types ORDER BY id", &st);
	if (err)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct kd_type *t;
		const char *hash = kdb_col_name(st, 8);

		err = KD_GROW(*types, cap, *n + 1);
		if (err)
			goto out;
		t = &(*types)[*n];
		memset(t, 0, sizeof(*t));
		t->id = sqlite3_column_int64(st, 0);
		t->kind = kd_kind_from_name(col_text(st, 1));
		t->name = kdb_col_strdup(st, 2);
		if ((int)t->kind < 0 || (sqlite3_column_type(st, 2) != SQLITE_NULL && !t->name)) {
			free(t->name);
			err = (int)t->kind < 0 ? -KD_EFORMAT : -ENOMEM;
			if (err == -KD_EFORMAT)
				kd_err("%s: type %lld: unknown kind", db->path, (long long)t->id);
			goto out;
		}
		(*n)++;
		t->size = sqlite3_column_type(st, 3) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 3);
		t->align = sqlite3_column_int64(st, 4);
		t->ref = sqlite3_column_int64(st, 5);
		t->count = sqlite3_column_int64(st, 6);
		t->flags = (unsigned)sqlite3_column_int(st, 7);
		t->hash = hash ? strtoull(hash, NULL, 16) : 0;
	}
	if (rc != SQLITE_DONE)
		err = kdb_sql_error(db, "reading types");
out:
	sqlite3_finalize(st);
	return err;
}

static int load_member_rows(struct kdb *db, struct kd_type *types, size_t n)
{
	sqlite3_stmt *st = NULL;
	long cur = -1;
	size_t cap = 0;
	int rc, err;

	err = kdb_prepare(db, "SELECT type_id, name, member_type, offset, bit_offset, bit_size"
			  " FROM members ORDER BY type_id, idx", &st);
	if (err)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t tid = sqlite3_column_int64(st, 0);
		struct kd_member *m;
		struct kd_type *t;

		if (cur < 0 || types[cur].id != tid) {
			cur = find_type(types, n, tid);
			cap = 0;
			if (cur < 0)
				continue;	/* a member of a missing type: nothing refers to it */
		}
		t = &types[cur];
		err = KD_GROW(t->members, cap, t->nr_members + 1);
		if (err)
			goto out;
		m = &t->members[t->nr_members];
		memset(m, 0, sizeof(*m));
		if (sqlite3_column_type(st, 1) != SQLITE_NULL) {
			m->name = kdb_col_strdup(st, 1);
			if (!m->name) {
				err = -ENOMEM;
				goto out;
			}
		}
		t->nr_members++;
		m->type = sqlite3_column_int64(st, 2);
		m->offset = sqlite3_column_type(st, 3) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 3);
		m->bit_offset = sqlite3_column_int(st, 4);
		m->bit_size = sqlite3_column_int(st, 5);
	}
	if (rc != SQLITE_DONE)
		err = kdb_sql_error(db, "reading members");
out:
	sqlite3_finalize(st);
	return err;
}

static int load_enumerator_rows(struct kdb *db, struct kd_type *types, size_t n)
{
	sqlite3_stmt *st = NULL;
	long cur = -1;
	size_t cap = 0;
	int rc, err;

	err = kdb_prepare(db, "SELECT type_id, name, value FROM enumerators ORDER BY type_id, idx", &st);
	if (err)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t tid = sqlite3_column_int64(st, 0);
		struct kd_enumerator *e;
		struct kd_type *t;

		if (cur < 0 || types[cur].id != tid) {
			cur = find_type(types, n, tid);
			cap = 0;
			if (cur < 0)
				continue;
		}
		t = &types[cur];
		err = KD_GROW(t->enumerators, cap, t->nr_enumerators + 1);
		if (err)
			goto out;
		e = &t->enumerators[t->nr_enumerators];
		e->name = kdb_col_strdup(st, 1);
		if (!e->name) {
			err = -ENOMEM;
			goto out;
		}
		t->nr_enumerators++;
		e->value = sqlite3_column_int64(st, 2);
	}
	if (rc != SQLITE_DONE)
		err = kdb_sql_error(db, "reading enumerators");
out:
	sqlite3_finalize(st);
	return err;
}

int kdb__load_types(struct kdb *db, struct kd_type **types, size_t *n)
{
	int err;

	*types = NULL;
	*n = 0;
	err = load_type_rows(db, types, n);
	if (!err)
		err = load_member_rows(db, *types, *n);
	if (!err)
		err = load_enumerator_rows(db, *types, *n);
	if (err) {
		kdb__free_types(*types, *n);
		*types = NULL;
		*n = 0;
	}
	return err;
}

int kdb__attach_other(struct kdb *db, struct kdb *other)
{
	sqlite3_stmt *st = NULL;
	int err;

	/* A previous diff whose DETACH failed (out of memory) left "other" behind. */
	sqlite3_exec(db->sql, "DETACH DATABASE other", NULL, NULL, NULL);
	err = kdb_prepare(db, "ATTACH DATABASE ?1 AS other", &st);
	if (err)
		return err;
	kdb_bind_text(st, 1, other->uri ? other->uri : other->path);
	if (sqlite3_step(st) != SQLITE_DONE)
		err = kdb_sql_error(db, "attaching the other kernel's database");
	sqlite3_finalize(st);
	/* What is attached is checked again: the file may have been replaced since it was opened. */
	if (!err && (err = kdb_verify_schema(db, "other")))
		sqlite3_exec(db->sql, "DETACH DATABASE other", NULL, NULL, NULL);
	return err;
}

int kdb__detach_other(struct kdb *db)
{
	return kdb_exec(db, "DETACH DATABASE other");
}

/*
 * Named slots of one side with an entry, one row per (abi, name): the
 * implemented ones and kernel/sys_ni.c's COND_SYSCALL stubs (a function,
 * not implemented), which the diff judges by the stub (diff.c).
 */
#define SYSCALL_SIDE(schema) \
	"SELECT abi, name, group_concat(coalesce(nr, '-'), ',') AS nrs, min(func_id) AS f" \
	" FROM (SELECT abi, name, nr, func_id FROM " schema ".syscalls" \
	"       WHERE (implemented OR func_id IS NOT NULL) AND name IS NOT NULL" \
	"             AND (?1 IS NULL OR abi = ?1)" \
	"       ORDER BY abi, name, nr)" \
	" GROUP BY abi, name"

int kdb__diff_syscalls(struct kdb *db, const char *abi, kdb_syscall_pair_fn cb, void *ctx)
{
	sqlite3_stmt *st = NULL;
	int rc, err;

	err = kdb_prepare(db,
		"WITH o AS (" SYSCALL_SIDE("main") "), n AS (" SYSCALL_SIDE("other") ")"
		" SELECT * FROM ("
		"  SELECT o.abi AS abi, o.name AS name, o.nrs, n.nrs, o.f, n.f, n.name IS NOT NULL"
		"  FROM o LEFT JOIN n ON n.abi = o.abi AND n.name = o.name"
		"  UNION ALL"
		"  SELECT n.abi, n.name, NULL, n.nrs, NULL, n.f, 1 FROM n"
		"  WHERE NOT EXISTS (SELECT 1 FROM o WHERE o.abi = n.abi AND o.name = n.name))"
		" ORDER BY name, abi NOT IN " KD_ARCH_NATIVE_ABIS_SQL ", abi", &st);
	if (err)
		return err;
	kdb_bind_text(st, 1, abi);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct kdb_syscall_pair p = {
			.abi = kdb_col_name(st, 0),
			.name = kdb_col_name(st, 1),
			.old_nrs = col_text(st, 2),
			.new_nrs = sqlite3_column_int(st, 6) ? col_text(st, 3) : NULL,
			.old_func = sqlite3_column_int64(st, 4),
			.new_func = sqlite3_column_int64(st, 5),
		};

		err = cb(&p, ctx);
		if (err)
			goto out;
	}
	if (rc != SQLITE_DONE)
		err = kdb_sql_error(db, "comparing syscall tables");
out:
	sqlite3_finalize(st);
	return err;
}

#define CONST_COLS(t) t ".name, " t ".value, " t ".ctype, " t ".expr, " t ".file, " t ".line"
#define NULL6 "NULL, NULL, NULL, NULL, NULL, NULL"

static void read_constant(sqlite3_stmt *st, int base, struct kd_constant *c)
{
	c->name = col_text(st, base);
	c->value = sqlite3_column_int64(st, base + 1);
	c->ctype = col_text(st, base + 2);
	c->expr = col_text(st, base + 3);
	c->file = col_text(st, base + 4);
	c->line = sqlite3_column_int(st, base + 5);
}

int kdb__diff_constants(struct kdb *db, kdb_constant_pair_fn cb, void *ctx)
{
	sqlite3_stmt *st = NULL;
	int rc, err;

	err = kdb_prepare(db,
		"SELECT * FROM ("
		" SELECT " CONST_COLS("o") ", " CONST_COLS("n") ", o.name AS k"
		" FROM main.constants o LEFT JOIN other.constants n ON n.name = o.name"
		" WHERE n.name IS NULL OR n.value <> o.value"
		" UNION ALL"
		" SELECT " NULL6 ", " CONST_COLS("n") ", n.name FROM other.constants n"
		" WHERE NOT EXISTS (SELECT 1 FROM main.constants o WHERE o.name = n.name))"
		" ORDER BY k", &st);
	if (err)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct kd_constant o = { 0 }, n = { 0 };
		struct kdb_constant_pair p = { 0 };

		if (sqlite3_column_type(st, 0) != SQLITE_NULL) {
			read_constant(st, 0, &o);
			p.old = &o;
		}
		if (sqlite3_column_type(st, 6) != SQLITE_NULL) {
			read_constant(st, 6, &n);
			p.new = &n;
		}
		err = cb(&p, ctx);
		if (err)
			goto out;
	}
	if (rc != SQLITE_DONE)
		err = kdb_sql_error(db, "comparing constants");
out:
	sqlite3_finalize(st);
	return err;
}

#define IOCTL_COLS(t) t ".name, " t ".dir, " t ".type_char, " t ".nr, " t ".arg_type_text, " \
	t ".arg_type, " t ".size, " t ".size_trusted, " t ".cmd, " t ".file, " t ".line, " t ".source"
#define NULL12 NULL6 ", NULL, NULL, NULL, NULL, NULL, NULL"

static void read_ioctl(sqlite3_stmt *st, int b, struct kd_ioctl *io)
{
	io->name = col_text(st, b);
	io->dir = col_text(st, b + 1);
	io->type_char = sqlite3_column_int(st, b + 2);
	io->nr = sqlite3_column_int(st, b + 3);
	io->arg_type_text = col_text(st, b + 4);
	io->arg_type = sqlite3_column_int64(st, b + 5);
	io->has_size = sqlite3_column_type(st, b + 6) != SQLITE_NULL;
	io->size = sqlite3_column_int64(st, b + 6);
	io->size_trusted = sqlite3_column_int(st, b + 7) != 0;
	io->has_cmd = sqlite3_column_type(st, b + 8) != SQLITE_NULL;
	io->cmd = (uint32_t)sqlite3_column_int64(st, b + 8);
	io->file = col_text(st, b + 9);
	io->line = sqlite3_column_int(st, b + 10);
	io->source = col_text(st, b + 11);
}

int kdb__diff_ioctls(struct kdb *db, kdb_ioctl_pair_fn cb, void *ctx)
{
	sqlite3_stmt *st = NULL;
	int rc, err;

	err = kdb_prepare(db,
		"SELECT * FROM ("
		" SELECT " IOCTL_COLS("o") ", " IOCTL_COLS("n") ", o.name AS k"
		" FROM main.ioctls o LEFT JOIN other.ioctls n ON n.name = o.name"
		" UNION ALL"
		" SELECT " NULL12 ", " IOCTL_COLS("n") ", n.name FROM other.ioctls n"
		" WHERE NOT EXISTS (SELECT 1 FROM main.ioctls o WHERE o.name = n.name))"
		" ORDER BY k", &st);
	if (err)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct kd_ioctl o = { 0 }, n = { 0 };
		struct kdb_ioctl_pair p = { 0 };

		if (sqlite3_column_type(st, 0) != SQLITE_NULL) {
			read_ioctl(st, 0, &o);
			p.old = &o;
		}
		if (sqlite3_column_type(st, 12) != SQLITE_NULL) {
			read_ioctl(st, 12, &n);
			p.new = &n;
		}
		err = cb(&p, ctx);
		if (err)
			goto out;
	}
	if (rc != SQLITE_DONE)
		err = kdb_sql_error(db, "comparing ioctls");
out:
	sqlite3_finalize(st);
	return err;
}

int kdb__diff_uapi_types(struct kdb *db, kdb_uapi_type_pair_fn cb, void *ctx)
{
	sqlite3_stmt *st = NULL;
	int rc, err;

	err = kdb_prepare(db,
		"SELECT * FROM ("
		" SELECT t.kind, t.name, min(u.file), min(t.id),"
		"  (SELECT min(n.id) FROM other.types n JOIN other.uapi_types v ON v.type_id = n.id"
		"   WHERE n.name = t.name AND n.kind = t.kind) AS nid"
		" FROM main.types t JOIN main.uapi_types u ON u.type_id = t.id"
		" WHERE t.name IS NOT NULL AND t.kind IN ('struct', 'union', 'enum')"
		" GROUP BY t.kind, t.name)"
		" WHERE nid IS NOT NULL ORDER BY 1, 2", &st);
	if (err)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct kdb_uapi_type_pair p = {
			.kind = (const char *)sqlite3_column_text(st, 0),
			.name = (const char *)sqlite3_column_text(st, 1),
			.file = (const char *)sqlite3_column_text(st, 2),
			.old_id = sqlite3_column_int64(st, 3),
			.new_id = sqlite3_column_int64(st, 4),
		};

		if (!p.kind || !p.name || !p.file) {
			err = -ENOMEM;
			goto out;
		}
		err = cb(&p, ctx);
		if (err)
			goto out;
	}
	if (rc != SQLITE_DONE)
		err = kdb_sql_error(db, "comparing the header views' types");
out:
	sqlite3_finalize(st);
	return err;
}

/*
 * The reached set: the types of implemented syscalls' parameters and
 * returns and of ioctls' arguments, then everything they lead to through
 * refs (pointers, typedefs, arrays) and members. A pointer leads to one
 * row of its pointee's name, so reaching goes by kind and name.
 */
int kdb__header_kernel_pairs(struct kdb *db, kdb_header_kernel_fn cb, void *ctx)
{
	sqlite3_stmt *st = NULL;
	int rc, err;

	err = kdb_prepare(db,
		"WITH RECURSIVE reach(id) AS ("
		"  SELECT p.type_id FROM main.params p JOIN main.syscalls s ON s.func_id = p.func_id"
		"   WHERE s.implemented AND p.type_id IS NOT NULL"
		"  UNION SELECT f.ret_type FROM main.functions f JOIN main.syscalls s ON s.func_id = f.id"
		"   WHERE s.implemented AND f.ret_type IS NOT NULL"
		"  UNION SELECT arg_type FROM main.ioctls WHERE arg_type IS NOT NULL"
		"  UNION SELECT t.ref FROM main.types t JOIN reach r ON t.id = r.id WHERE t.ref IS NOT NULL"
		"  UNION SELECT m.member_type FROM main.members m JOIN reach r ON m.type_id = r.id"
		"   WHERE m.member_type IS NOT NULL),"
		" reached(kind, name) AS (SELECT DISTINCT t.kind, t.name FROM reach r"
		"  JOIN main.types t ON t.id = r.id WHERE t.name IS NOT NULL AND t.kind IN ('struct', 'union'))"
		" SELECT DISTINCT h.kind, h.name, u.file, k.decl_file, ifnull(k.decl_line, 0), h.id, k.id,"
		"  EXISTS (SELECT 1 FROM reached x WHERE x.kind = h.kind AND x.name = h.name)"
		" FROM main.uapi_types u JOIN main.types h ON h.id = u.type_id"
		" JOIN main.types k ON k.name = h.name AND k.kind = h.kind AND k.id <> h.id"
		" WHERE h.kind IN ('struct', 'union') AND h.name IS NOT NULL"
		"  AND (h.flags & 1) = 0 AND (k.flags & 1) = 0"
		"  AND NOT EXISTS (SELECT 1 FROM main.uapi_types v WHERE v.type_id = k.id)"
		"  AND (k.decl_file = 'include/uapi/' || u.file"
		"   OR (k.decl_file LIKE 'arch/%' AND length(k.decl_file) > length(u.file) + 19"
		"    AND substr(k.decl_file, length(k.decl_file) - length(u.file) - 13) ="
		"     '/include/uapi/' || u.file"
		"    AND instr(substr(k.decl_file, 6, length(k.decl_file) - length(u.file) - 19), '/') = 0))"
		" ORDER BY 1, 2, 6, 7", &st);
	if (err)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct kdb_header_kernel_pair p = {
			.kind = (const char *)sqlite3_column_text(st, 0),
			.name = (const char *)sqlite3_column_text(st, 1),
			.file = (const char *)sqlite3_column_text(st, 2),
			.decl_file = (const char *)sqlite3_column_text(st, 3),
			.decl_line = sqlite3_column_int(st, 4),
			.header_id = sqlite3_column_int64(st, 5),
			.kernel_id = sqlite3_column_int64(st, 6),
			.reached = sqlite3_column_int(st, 7) != 0,
		};

		if (!p.kind || !p.name || !p.file || !p.decl_file) {
			err = -ENOMEM;
			goto out;
		}
		err = cb(&p, ctx);
		if (err)
			goto out;
	}
	if (rc != SQLITE_DONE)
		err = kdb_sql_error(db, "pairing the header view's types with the kernel's");
out:
	sqlite3_finalize(st);
	return err;
}

/* --- what a kernel's binary shows ------------------------------------------ */

int kdb__module_names(struct kdb *db, char ***names, size_t *n)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc, err;

	*names = NULL;
	*n = 0;
	err = kdb_prepare(db, "SELECT DISTINCT name FROM modules ORDER BY name", &st);
	if (err)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		err = KD_GROW(*names, cap, *n + 1);
		if (err)
			goto out;
		if (!((*names)[*n] = kdb_col_strdup(st, 0))) {
			err = -ENOMEM;
			goto out;
		}
		(*n)++;
	}
	if (rc != SQLITE_DONE)
		err = kdb_sql_error(db, "reading modules");
out:
	sqlite3_finalize(st);
	return err;
}

int kdb__built_type_ids(struct kdb *db, int64_t **ids, size_t *n)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc, err;

	*ids = NULL;
	*n = 0;
	err = kdb_prepare(db, "SELECT DISTINCT type_id FROM type_origins ORDER BY type_id", &st);
	if (err)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		err = KD_GROW(*ids, cap, *n + 1);
		if (err)
			goto out;
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	if (rc != SQLITE_DONE)
		err = kdb_sql_error(db, "reading type_origins");
out:
	sqlite3_finalize(st);
	return err;
}

int kdb__uapi_type_named(struct kdb *db, const char *file, const char *name, bool tag, int64_t *id)
{
	sqlite3_stmt *st = NULL;
	int rc, err;

	*id = 0;
	err = kdb_prepare(db, "SELECT t.id FROM uapi_types u JOIN types t ON t.id = u.type_id"
			  " WHERE u.file = ?1 AND t.name = ?2 AND (CASE WHEN ?3"
			  " THEN t.kind IN ('struct', 'union', 'enum') ELSE t.kind = 'typedef' END)"
			  " ORDER BY t.id LIMIT 1", &st);
	if (err)
		return err;
	if (sqlite3_bind_text(st, 1, file, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_int(st, 3, tag) != SQLITE_OK) {
		err = kdb_sql_error(db, "binding a type name");
		goto out;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	else if (rc == SQLITE_DONE)
		err = -ENOENT;
	else
		err = kdb_sql_error(db, "reading uapi_types");
out:
	sqlite3_finalize(st);
	return err;
}
