// SPDX-License-Identifier: GPL-2.0-only
/*
 * kdb: which binaries serve the ioctls whose 32-bit layout differs, and
 * what their file_operations do for 32-bit callers (db/kdb-compat.h,
 * kdb__foreach_compat_serving()). The serving binary is inferred: the
 * binaries whose code includes the ioctl's header and define a
 * file_operations with an unlocked_ioctl, and, for an argument that is a
 * named struct or union, whose DWARF defines it (type_origins): nearly
 * every driver includes linux/fs.h, few use struct fsxattr. Nothing in a binary says which
 * of its file_operations objects an ioctl reaches: a binary with several
 * is one row that counts them.
 */
#include "db/kdb_internal.h"
#include "db/kdb-compat.h"

#include <stdbool.h>
#include <string.h>

static int serving_row(sqlite3_stmt *st, void *ctx)
{
	struct kdb_compat_serving s = {
		.ioctl = (const char *)sqlite3_column_text(st, 0),
		.file = (const char *)sqlite3_column_text(st, 1),
		.native_size = sqlite3_column_int64(st, 2),
		.compat_size = sqlite3_column_int64(st, 3),
		.native_cmd = (uint32_t)sqlite3_column_int64(st, 4),
		.compat_cmd = (uint32_t)sqlite3_column_int64(st, 5),
		.binary = (const char *)sqlite3_column_text(st, 6),
		.fops = (const char *)sqlite3_column_text(st, 7),
		.compat_ioctl = (const char *)sqlite3_column_text(st, 8),
		.nr_fops = sqlite3_column_int(st, 9),
		.nr_null = sqlite3_column_int(st, 10),
		.nr_ptr = sqlite3_column_int(st, 11),
		.same_members = sqlite3_column_int(st, 12) != 0,
		.compat_cmd_in_code = sqlite3_column_int(st, 13) != 0,
		.native_cmd_in_code = sqlite3_column_int(st, 14) != 0,
	};

	if (!s.ioctl || !s.file || (s.binary && s.nr_fops == 1 && !s.fops))
		return 0;	/* NOT NULL columns: only a damaged file lacks them */
	return KDB_CALL(kdb_compat_serving_fn, ctx, &s);
}

int kdb__foreach_compat_serving(struct kdb *db, const char *abi, kdb_compat_serving_fn cb,
				void *ctx)
{
	struct kdb_caller c = KDB_CALLER(cb, ctx);
	sqlite3_stmt *st;
	int err;

	err = kdb_prepare(db,
		"WITH d AS (SELECT c.name, c.file, i.size AS nsize, c.size AS csize,"
		"   i.cmd AS ncmd, c.cmd AS ccmd, t.kind AS akind, t.name AS aname,"
		/* Every member at the same offset with the same size: only the tail padding differs. */
		"   i.arg_type IS NOT NULL AND c.arg_type IS NOT NULL"
		"   AND (SELECT count(*) FROM members WHERE type_id = i.arg_type) > 0"
		"   AND (SELECT count(*) FROM members WHERE type_id = i.arg_type)"
		"     = (SELECT count(*) FROM members WHERE type_id = c.arg_type)"
		"   AND NOT EXISTS (SELECT 1 FROM members a"
		"     LEFT JOIN members b ON b.type_id = c.arg_type AND b.idx = a.idx"
		"     LEFT JOIN types ta ON ta.id = a.member_type LEFT JOIN types tb ON tb.id = b.member_type"
		"     WHERE a.type_id = i.arg_type AND NOT (b.idx IS NOT NULL AND a.name IS b.name"
		"       AND a.offset IS b.offset AND a.bit_offset = b.bit_offset AND a.bit_size = b.bit_size"
		"       AND ta.size IS NOT NULL AND ta.size IS tb.size AND (a.member_type = b.member_type"
		"         OR (ta.kind NOT IN ('struct', 'union', 'array')"
		"           AND tb.kind NOT IN ('struct', 'union', 'array'))))) AS same"
		"   FROM compat_ioctls c JOIN ioctls i ON i.name = c.name"
		"   LEFT JOIN types t ON t.id = i.arg_type AND t.kind IN ('struct', 'union')"
		"   WHERE c.abi = ?1 AND c.file IS NOT NULL AND c.cmd IS NOT NULL AND i.cmd IS NOT NULL"
		"   AND c.cmd != i.cmd),"
		" f AS (SELECT ifnull(module_id, 0) AS mid, count(*) AS n, min(name) AS name,"
		"   min(ifnull(compat_ioctl, '')) AS compat, sum(compat_ioctl IS NULL) AS nnull,"
		"   sum(compat_ioctl IS 'compat_ptr_ioctl') AS nptr"
		"   FROM fops WHERE unlocked_ioctl IS NOT NULL GROUP BY 1),"
		" s AS (SELECT b.header, f.* FROM binary_headers b JOIN f ON f.mid = ifnull(b.module_id, 0))"
		" SELECT d.name, d.file, d.nsize, d.csize, d.ncmd, d.ccmd,"
		"   CASE WHEN s.mid IS NULL THEN NULL WHEN s.mid = 0 THEN 'vmlinux' ELSE m.name END,"
		"   CASE WHEN s.n = 1 THEN s.name END, CASE WHEN s.n = 1 THEN nullif(s.compat, '') END,"
		"   ifnull(s.n, 0), ifnull(s.nnull, 0), ifnull(s.nptr, 0), d.same,"
		"   EXISTS (SELECT 1 FROM binary_ioctl_cmds x"
		"     WHERE ifnull(x.module_id, 0) = s.mid AND x.cmd = d.ccmd),"
		"   EXISTS (SELECT 1 FROM binary_ioctl_cmds x"
		"     WHERE ifnull(x.module_id, 0) = s.mid AND x.cmd = d.ncmd)"
		" FROM d LEFT JOIN s ON s.header = d.file AND (d.aname IS NULL OR EXISTS ("
		"   SELECT 1 FROM types t JOIN type_origins o ON o.type_id = t.id"
		"   WHERE t.kind = d.akind AND t.name = d.aname AND ifnull(o.module_id, 0) = s.mid))"
		" LEFT JOIN modules m ON m.id = s.mid"
		" ORDER BY d.name, s.mid IS NULL, s.mid != 0, m.name, s.mid", &st);
	if (err)
		return err;
	kdb_bind_text(st, 1, abi);
	return kdb_each_row(db, st, "reading the 32-bit ioctls' serving binaries", serving_row, &c);
}

static int exists_row(sqlite3_stmt *st, void *ctx)
{
	*(bool *)ctx = sqlite3_column_int(st, 0) != 0;
	return 0;
}

int kdb__has_modules(struct kdb *db)
{
	bool yes = false;
	int err = kdb_query(db, "SELECT EXISTS (SELECT 1 FROM modules) OR EXISTS (SELECT 1 FROM fops)",
			    "reading the modules", exists_row, &yes);

	return err ? err : yes;
}

enum kdb_compat_handling kdb__compat_handling(const struct kdb_compat_serving *s)
{
	if (!s->binary)
		return KDB_COMPAT_UNSERVED;
	if (s->nr_fops != 1)
		return KDB_COMPAT_AMBIGUOUS;
	if (!s->compat_ioctl)
		return KDB_COMPAT_ENOTTY;
	if (strcmp(s->compat_ioctl, "compat_ptr_ioctl"))
		return KDB_COMPAT_TRANSLATED;
	if (s->compat_cmd_in_code)
		return KDB_COMPAT_NATIVE_TRANSLATED;
	if (s->same_members)
		return KDB_COMPAT_PADDING;
	return s->native_cmd_in_code ? KDB_COMPAT_PTR : KDB_COMPAT_UNSEEN;
}
