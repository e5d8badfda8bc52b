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

/* The type rows grow one array; members and enumerators join them by type id. */
struct type_rows {
	struct kdb *db;
	struct kd_type **types;
	size_t n, cap;
	long cur;		/* members, enumerators: the index of the last row's type */
};

static int type_row(sqlite3_stmt *st, void *ctx)
{
	struct type_rows *w = ctx;
	const char *hash = kdb_col_name(st, 8);
	struct kd_type *t;
	int err = KD_GROW(*w->types, w->cap, w->n + 1);

	if (err)
		return err;
	t = &(*w->types)[w->n];
	memset(t, 0, sizeof(*t));
	t->id = sqlite3_column_int64(st, 0);
	t->kind = kd_kind_from_name(kdb_col_text(st, 1));
	t->name = kdb_col_strdup(st, 2);
	if ((int)t->kind < 0 || (sqlite3_column_type(st, 2) != SQLITE_NULL && !t->name)) {
		free(t->name);
		if ((int)t->kind >= 0)
			return -ENOMEM;
		kd_err("%s: type %lld: unknown kind", w->db->path, (long long)t->id);
		return -KD_EFORMAT;
	}
	w->n++;
	t->size = sqlite3_column_type(st, 3) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 3);
	t->align = sqlite3_column_int64(st, 4);
	t->ref = sqlite3_column_int64(st, 5);
	t->count = sqlite3_column_int64(st, 6);
	t->flags = (unsigned)sqlite3_column_int(st, 7);
	t->hash = hash ? strtoull(hash, NULL, 16) : 0;
	return 0;
}

/*
 * The type of a member or enumerator row (column 0: its type id), NULL for
 * a row of a missing type: nothing refers to it. Rows come ordered by type
 * id, so a new id starts a new array (w->cap back to 0).
 */
static struct kd_type *row_owner(sqlite3_stmt *st, struct type_rows *w)
{
	int64_t tid = sqlite3_column_int64(st, 0);

	if (w->cur < 0 || (*w->types)[w->cur].id != tid) {
		w->cur = find_type(*w->types, w->n, tid);
		w->cap = 0;
		if (w->cur < 0)
			return NULL;
	}
	return &(*w->types)[w->cur];
}

static int member_row(sqlite3_stmt *st, void *ctx)
{
	struct type_rows *w = ctx;
	struct kd_type *t = row_owner(st, w);

	return t ? kdb_add_member(st, 1, t, &w->cap) : 0;
}

static int enumerator_row(sqlite3_stmt *st, void *ctx)
{
	struct type_rows *w = ctx;
	struct kd_type *t = row_owner(st, w);

	return t ? kdb_add_enumerator(st, 1, t, &w->cap) : 0;
}

int kdb__load_types(struct kdb *db, struct kd_type **types, size_t *n)
{
	struct type_rows w = { .db = db, .types = types, .cur = -1 };
	int err;

	*types = NULL;
	err = kdb_query(db, "SELECT id, kind, name, size, align, ref, count, flags, hash"
			" FROM types ORDER BY id", "reading types", type_row, &w);
	if (!err)
		err = kdb_query(db, "SELECT type_id, name, member_type, offset, bit_offset, bit_size"
				" FROM members ORDER BY type_id, idx", "reading members", member_row, &w);
	w.cur = -1;
	if (!err)
		err = kdb_query(db, "SELECT type_id, name, value FROM enumerators ORDER BY type_id, idx",
				"reading enumerators", enumerator_row, &w);
	*n = w.n;
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

static int syscall_pair_row(sqlite3_stmt *st, void *ctx)
{
	struct kdb_syscall_pair p = {
		.abi = kdb_col_name(st, 0),
		.name = kdb_col_name(st, 1),
		.old_nrs = kdb_col_text(st, 2),
		.new_nrs = sqlite3_column_int(st, 6) ? kdb_col_text(st, 3) : NULL,
		.old_func = sqlite3_column_int64(st, 4),
		.new_func = sqlite3_column_int64(st, 5),
	};

	return KDB_CALL(kdb_syscall_pair_fn, ctx, &p);
}

int kdb__diff_syscalls(struct kdb *db, const char *abi, kdb_syscall_pair_fn cb, void *ctx)
{
	struct kdb_caller c = KDB_CALLER(cb, ctx);
	sqlite3_stmt *st;
	int err;

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
	return kdb_each_row(db, st, "comparing syscall tables", syscall_pair_row, &c);
}

/*
 * The rows of @table of both kernels paired by name, in its order: @cols of
 * the old kernel's row, then of the new one's, each side NULLs (@nulls)
 * where that kernel lacks the name; a name in both is listed where @changed.
 */
#define PAIRS_BY_NAME(table, cols, nulls, changed) \
	"SELECT * FROM (" \
	" SELECT " cols("o") ", " cols("n") ", o.name AS k" \
	" FROM main." table " o LEFT JOIN other." table " n ON n.name = o.name" \
	" WHERE " changed \
	" UNION ALL" \
	" SELECT " nulls ", " cols("n") ", n.name FROM other." table " n" \
	" WHERE NOT EXISTS (SELECT 1 FROM main." table " o WHERE o.name = n.name))" \
	" ORDER BY k"
#define NULL13 "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL"

static int constant_pair_row(sqlite3_stmt *st, void *ctx)
{
	struct kd_constant o, n;
	struct kdb_constant_pair p = {
		kdb_read_constant(st, 0, &o), kdb_read_constant(st, KDB_CONSTANT_NCOLS, &n),
		kdb_col_text(st, 2 * KDB_CONSTANT_NCOLS), kdb_col_text(st, 2 * KDB_CONSTANT_NCOLS + 1),
		sqlite3_column_int(st, 2 * KDB_CONSTANT_NCOLS + 2) != 0,
		sqlite3_column_int(st, 2 * KDB_CONSTANT_NCOLS + 3) != 0,
	};

	return KDB_CALL(kdb_constant_pair_fn, ctx, &p);
}

/*
 * Does the header view of schema @s cover header @f? Not when it has none
 * (no compiler: no uapi_compiled) or @f did not compile there (the
 * problem extract.c writes for it: input and location the header alone).
 */
#define HEADER_VIEW_COVERS(s, f) 	"(EXISTS (SELECT 1 FROM " s ".meta WHERE key = 'uapi_compiled')" 	" AND NOT EXISTS (SELECT 1 FROM " s ".problems q WHERE q.stage = 'uapi'" 	"  AND q.input = " f " AND q.location = " f " AND q.message GLOB 'does not compile*'))"
/* A named enum of schema @s's header view is called @n. */
#define HEADER_ENUM_NAMED(s, n) 	"EXISTS (SELECT 1 FROM " s ".types t JOIN " s ".uapi_types u ON u.type_id = t.id" 	" WHERE t.kind = 'enum' AND t.name = " n ")"

int kdb__diff_constants(struct kdb *db, kdb_constant_pair_fn cb, void *ctx)
{
	return kdb_query(db,
		"WITH names(k, in_old, in_new) AS ("
		" SELECT o.name, 1, n.name IS NOT NULL FROM main.constants o"
		" LEFT JOIN other.constants n ON n.name = o.name"
		" WHERE n.name IS NULL OR n.value <> o.value OR n.source <> o.source"
		/* An enumerator that moved to an enum of another name (or none). */
		"  OR (o.source = 'enumerator' AND"
		"   (SELECT name FROM main.types WHERE id = o.enum_type) IS NOT"
		"   (SELECT name FROM other.types WHERE id = n.enum_type))"
		" UNION ALL"
		" SELECT n.name, 0, 1 FROM other.constants n"
		" WHERE NOT EXISTS (SELECT 1 FROM main.constants o WHERE o.name = n.name))"
		" SELECT " KDB_CONSTANT_COLS("o") ", " KDB_CONSTANT_COLS("n") ", oe.name, ne.name,"
		"  oe.name IS NOT NULL AND " HEADER_ENUM_NAMED("other", "oe.name") ","
		"  ne.name IS NOT NULL AND " HEADER_ENUM_NAMED("main", "ne.name")
		" FROM names p"
		" LEFT JOIN main.constants o ON p.in_old AND o.name = p.k"
		" LEFT JOIN other.constants n ON p.in_new AND n.name = p.k"
		" LEFT JOIN main.types oe ON o.source = 'enumerator' AND oe.id = o.enum_type"
		" LEFT JOIN other.types ne ON n.source = 'enumerator' AND ne.id = n.enum_type"
		" WHERE (p.in_new OR o.source <> 'enumerator' OR " HEADER_VIEW_COVERS("other", "o.file") ")"
		"  AND (p.in_old OR n.source <> 'enumerator' OR " HEADER_VIEW_COVERS("main", "n.file") ")"
		" ORDER BY p.k",
		"comparing constants", constant_pair_row, &KDB_CALLER(cb, ctx));
}

int kdb__enumerator_successor(struct kdb *db, int64_t old_enum, int64_t value, char **name)
{
	sqlite3_stmt *st = NULL;
	int err;

	*name = NULL;
	err = kdb_prepare(db,
		"SELECT s.name FROM other.enumerators s WHERE s.value = ?2 AND s.type_id = ("
		"  SELECT ne.type_id FROM other.enumerators ne"
		"  JOIN main.enumerators oe ON oe.name = ne.name AND oe.type_id = ?1"
		"  WHERE EXISTS (SELECT 1 FROM other.uapi_types u WHERE u.type_id = ne.type_id)"
		"  GROUP BY ne.type_id ORDER BY count(*) DESC, ne.type_id LIMIT 1)"
		" AND NOT EXISTS (SELECT 1 FROM main.enumerators m WHERE m.type_id = ?1 AND m.name = s.name)"
		" ORDER BY s.idx LIMIT 1", &st);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, old_enum);
	sqlite3_bind_int64(st, 2, value);
	err = kdb_step_one(db, st, "reading the new headers' enumerators");
	if (!err && !(*name = kdb_col_strdup(st, 0)))
		err = -ENOMEM;
	sqlite3_finalize(st);
	return err == -ENOENT ? 0 : err;
}

int kdb__other_header_enum(struct kdb *db, const char *name, int64_t *id)
{
	sqlite3_stmt *st = NULL;
	int err;

	*id = 0;
	err = kdb_prepare(db, "SELECT t.id FROM other.types t JOIN other.uapi_types u ON u.type_id = t.id"
			  " WHERE t.kind = 'enum' AND t.name = ?1 ORDER BY t.id LIMIT 1", &st);
	if (err)
		return err;
	if (sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK) {
		err = kdb_sql_error(db, "binding an enum's name");
		goto out;
	}
	err = kdb_step_one(db, st, "looking a header enum up");
	if (!err)
		*id = sqlite3_column_int64(st, 0);
out:
	sqlite3_finalize(st);
	return err == -ENOENT ? 0 : err;
}

static int ioctl_pair_row(sqlite3_stmt *st, void *ctx)
{
	struct kd_ioctl o, n;
	struct kdb_ioctl_pair p = {
		kdb_read_ioctl(st, 0, &o), kdb_read_ioctl(st, KDB_IOCTL_NCOLS, &n)
	};

	return KDB_CALL(kdb_ioctl_pair_fn, ctx, &p);
}

int kdb__diff_ioctls(struct kdb *db, kdb_ioctl_pair_fn cb, void *ctx)
{
	return kdb_query(db, PAIRS_BY_NAME("ioctls", KDB_IOCTL_COLS, NULL13, "1"),
			 "comparing ioctls", ioctl_pair_row, &KDB_CALLER(cb, ctx));
}

static int family_pair_row(sqlite3_stmt *st, void *ctx)
{
	struct kd_ioctl_family o, n;
	struct kdb_ioctl_family_pair p = { kdb_read_ioctl_family(st, 0, &o), kdb_read_ioctl_family(st, KDB_FAMILY_NCOLS, &n) };

	return KDB_CALL(kdb_ioctl_family_pair_fn, ctx, &p);
}

int kdb__diff_ioctl_families(struct kdb *db, kdb_ioctl_family_pair_fn cb, void *ctx)
{
	return kdb_query(db, PAIRS_BY_NAME("ioctl_families", KDB_FAMILY_COLS,
					   "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL",
					   "n.name IS NULL OR n.params <> o.params OR n.dir <> o.dir"
					   " OR n.type <> o.type OR n.nr <> o.nr OR n.size <> o.size"),
			 "comparing ioctl families", family_pair_row, &KDB_CALLER(cb, ctx));
}

static int uapi_type_pair_row(sqlite3_stmt *st, void *ctx)
{
	struct kdb_uapi_type_pair p = {
		.kind = kdb_col_text(st, 0),
		.name = kdb_col_text(st, 1),
		.file = kdb_col_text(st, 2),
		.old_id = sqlite3_column_int64(st, 3),
		.new_id = sqlite3_column_int64(st, 4),
		.line = sqlite3_column_int(st, 5),
		.new_file = kdb_col_text(st, 6),
		.new_line = sqlite3_column_int(st, 7),
	};

	if (!p.kind || !p.name || !p.file || !p.new_file)
		return -ENOMEM;
	return KDB_CALL(kdb_uapi_type_pair_fn, ctx, &p);
}

int kdb__diff_uapi_types(struct kdb *db, kdb_uapi_type_pair_fn cb, void *ctx)
{
	/* Where each side declares it: the row's own header and line. */
	return kdb_query(db,
		"SELECT tkind, tname, hfile, oid, nid,"
		"  (SELECT min(u.line) FROM main.uapi_types u WHERE u.type_id = oid AND u.file = hfile),"
		"  (SELECT min(v.file) FROM other.uapi_types v WHERE v.type_id = nid) AS nfile,"
		"  (SELECT min(v.line) FROM other.uapi_types v WHERE v.type_id = nid"
		"   AND v.file = (SELECT min(w.file) FROM other.uapi_types w WHERE w.type_id = nid))"
		" FROM ("
		" SELECT t.kind AS tkind, t.name AS tname, min(u.file) AS hfile, min(t.id) AS oid,"
		"  (SELECT min(n.id) FROM other.types n JOIN other.uapi_types v ON v.type_id = n.id"
		"   WHERE n.name = t.name AND n.kind = t.kind) AS nid"
		" FROM main.types t JOIN main.uapi_types u ON u.type_id = t.id"
		" WHERE t.name IS NOT NULL AND t.kind IN ('struct', 'union', 'enum')"
		" GROUP BY t.kind, t.name)"
		" WHERE nid IS NOT NULL ORDER BY 1, 2",
		"comparing the header views' types", uapi_type_pair_row, &KDB_CALLER(cb, ctx));
}

static int uapi_type_gone_row(sqlite3_stmt *st, void *ctx)
{
	struct kdb_uapi_type_gone g = {
		.kind = kdb_col_text(st, 0),
		.name = kdb_col_text(st, 1),
		.file = kdb_col_text(st, 2),
		.line = sqlite3_column_int(st, 3),
		.old_id = sqlite3_column_int64(st, 4),
	};

	if (!g.kind || !g.name || !g.file)
		return -ENOMEM;
	return KDB_CALL(kdb_uapi_type_gone_fn, ctx, &g);
}

int kdb__uapi_header_known(struct kdb *db, const char *file, bool *known)
{
	sqlite3_stmt *st = NULL;
	int err;

	*known = false;
	err = kdb_prepare(db, "SELECT EXISTS (SELECT 1 FROM main.uapi_types WHERE file = ?1)"
			  " OR EXISTS (SELECT 1 FROM main.constants WHERE file = ?1)"
			  " OR EXISTS (SELECT 1 FROM main.ioctls WHERE file = ?1)", &st);
	if (err)
		return err;
	if (sqlite3_bind_text(st, 1, file, -1, SQLITE_STATIC) != SQLITE_OK) {
		err = kdb_sql_error(db, "binding a header name");
		goto out;
	}
	err = kdb_step_one(db, st, "looking a header up");
	if (!err)
		*known = sqlite3_column_int(st, 0) != 0;
out:
	sqlite3_finalize(st);
	return err;
}

int kdb__diff_uapi_types_gone(struct kdb *db, kdb_uapi_type_gone_fn cb, void *ctx)
{
	return kdb_query(db,
		"SELECT t.kind, t.name, u.file, min(u.line), min(t.id)"
		" FROM main.types t JOIN main.uapi_types u ON u.type_id = t.id"
		" WHERE t.name IS NOT NULL AND t.kind IN ('struct', 'union', 'enum')"
		"  AND NOT EXISTS (SELECT 1 FROM other.types n JOIN other.uapi_types v ON v.type_id = n.id"
		"   WHERE n.name = t.name AND n.kind = t.kind)"
		" GROUP BY t.kind, t.name, u.file ORDER BY 1, 2, 3",
		"finding the header views' types the new headers lost", uapi_type_gone_row,
		&KDB_CALLER(cb, ctx));
}

static int header_kernel_row(sqlite3_stmt *st, void *ctx)
{
	struct kdb_header_kernel_pair p = {
		.kind = kdb_col_text(st, 0),
		.name = kdb_col_text(st, 1),
		.file = kdb_col_text(st, 2),
		.decl_file = kdb_col_text(st, 3),
		.decl_line = sqlite3_column_int(st, 4),
		.header_id = sqlite3_column_int64(st, 5),
		.kernel_id = sqlite3_column_int64(st, 6),
		.reached = sqlite3_column_int(st, 7) != 0,
	};

	if (!p.kind || !p.name || !p.file || !p.decl_file)
		return -ENOMEM;
	return KDB_CALL(kdb_header_kernel_fn, ctx, &p);
}

/*
 * The reached set: the types of implemented syscalls' parameters and
 * returns and of ioctls' arguments, then everything they lead to through
 * refs (pointers, typedefs, arrays) and members. A pointer leads to one
 * row of its pointee's name, so reaching goes by kind and name.
 */
int kdb__header_kernel_pairs(struct kdb *db, kdb_header_kernel_fn cb, void *ctx)
{
	return kdb_query(db,
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
		" ORDER BY 1, 2, 6, 7",
		"pairing the header view's types with the kernel's", header_kernel_row,
		&KDB_CALLER(cb, ctx));
}

/* --- what a kernel's binary shows ------------------------------------------ */

int kdb__module_names(struct kdb *db, char ***names, size_t *n)
{
	struct kdb_list w = { 0 };
	int err = kdb_query(db, "SELECT DISTINCT name FROM modules ORDER BY name", "reading modules",
			    kdb_name_row, &w);

	*names = w.items;
	*n = w.n;
	return err;
}

int kdb__built_type_ids(struct kdb *db, int64_t **ids, size_t *n)
{
	struct kdb_list w = { 0 };
	int err = kdb_query(db, "SELECT DISTINCT type_id FROM type_origins ORDER BY type_id",
			    "reading type_origins", kdb_id_row, &w);

	*ids = w.items;
	*n = w.n;
	return err;
}

int kdb__uapi_type_named(struct kdb *db, const char *file, const char *name, bool tag, int64_t *id)
{
	sqlite3_stmt *st = NULL;
	int err;

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
	err = kdb_step_one(db, st, "reading uapi_types");
	if (!err)
		*id = sqlite3_column_int64(st, 0);
out:
	sqlite3_finalize(st);
	return err;
}

static int module_row(sqlite3_stmt *st, void *ctx)
{
	struct kdb_module m = {
		.id = sqlite3_column_int64(st, 0),
		.name = kdb_col_name(st, 1),
		.path = kdb_col_name(st, 2),
		.description = kdb_col_text(st, 3),
		.depends = kdb_col_text(st, 4),
	};

	return KDB_CALL(kdb_module_fn, ctx, &m);
}

int kdb__foreach_module(struct kdb *db, kdb_module_fn cb, void *ctx)
{
	return kdb_query(db, "SELECT id, name, path, description, depends FROM modules ORDER BY id",
			 "reading modules", module_row, &KDB_CALLER(cb, ctx));
}

static int binary_header_row(sqlite3_stmt *st, void *ctx)
{
	struct kdb_binary_header h = {
		.module_id = sqlite3_column_int64(st, 0),
		.header = kdb_col_name(st, 1),
	};

	return KDB_CALL(kdb_binary_header_fn, ctx, &h);
}

int kdb__foreach_binary_header(struct kdb *db, kdb_binary_header_fn cb, void *ctx)
{
	return kdb_query(db, "SELECT ifnull(module_id, 0), header FROM binary_headers"
			 " ORDER BY header, 1", "reading binary_headers", binary_header_row,
			 &KDB_CALLER(cb, ctx));
}

int kdb__header_defines(struct kdb *db, const char *file, int64_t *constants, int64_t *ioctls)
{
	sqlite3_stmt *st = NULL;
	int err;

	*constants = *ioctls = 0;
	err = kdb_prepare(db, "SELECT (SELECT count(*) FROM constants WHERE file = ?1),"
			  " (SELECT count(*) FROM ioctls WHERE file = ?1),"
			  " EXISTS (SELECT 1 FROM uapi_types WHERE file = ?1)", &st);
	if (err)
		return err;
	if (sqlite3_bind_text(st, 1, file, -1, SQLITE_STATIC) != SQLITE_OK) {
		err = kdb_sql_error(db, "binding a header name");
		goto out;
	}
	err = kdb_step_one(db, st, "counting a header's constants and ioctls");
	if (!err) {
		*constants = sqlite3_column_int64(st, 0);
		*ioctls = sqlite3_column_int64(st, 1);
		/* A header of types only still exists: one "definition" to say so. */
		if (!*constants && !*ioctls && sqlite3_column_int(st, 2))
			err = 1;
	}
out:
	sqlite3_finalize(st);
	return err;
}
