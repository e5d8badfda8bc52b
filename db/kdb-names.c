// SPDX-License-Identifier: GPL-2.0-only
/*
 * The names of one kind a .kabi holds, for `show`: those a glob matches
 * (`show K struct 'v4l2_*'`) and the one nearest a misspelled name ("did
 * you mean"). The nearest is found in C over the names SQLite lists:
 * SQLite has no edit distance, and even a real kernel's ~20,000 type
 * names are a few milliseconds of it.
 */
#include "db/kdb_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mem.h"

/* The names of @what, each once; ?1 a kind for the types, ?2 a glob or NULL. */
static const char *names_sql(const char *what)
{
	static const struct { const char *what, *sql; } sql[] = {
		{ "syscall", "SELECT DISTINCT name FROM syscalls WHERE name IS NOT NULL" },
		{ "ioctl", "SELECT name FROM ioctls WHERE 1" },
		{ "const", "SELECT name FROM constants WHERE 1" },
		{ "abi", "SELECT DISTINCT abi FROM syscalls WHERE 1" },
		{ "type", "SELECT DISTINCT name FROM types WHERE name IS NOT NULL"
			  " AND kind IN ('struct', 'union', 'enum', 'typedef')" },
		{ "struct", "SELECT DISTINCT name FROM types WHERE name IS NOT NULL AND kind = ?1" },
		{ "union", "SELECT DISTINCT name FROM types WHERE name IS NOT NULL AND kind = ?1" },
		{ "enum", "SELECT DISTINCT name FROM types WHERE name IS NOT NULL AND kind = ?1" },
	};
	size_t i;

	for (i = 0; i < sizeof(sql) / sizeof(sql[0]); i++)
		if (!strcmp(what, sql[i].what))
			return sql[i].sql;
	return NULL;
}

int kdb__names(struct kdb *db, const char *what, const char *glob, char ***names)
{
	const char *base = names_sql(what);
	struct kdb_list w = { 0 };
	char *sql = NULL;
	sqlite3_stmt *st;
	size_t i;
	int err;

	*names = NULL;
	if (!base)
		return -EINVAL;
	/* The column is the first word after SELECT [DISTINCT]: name or abi. */
	sql = sqlite3_mprintf("%s AND (?2 IS NULL OR %s GLOB ?2) ORDER BY 1", base,
			      strstr(base, " abi ") ? "abi" : "name");
	if (!sql)
		return -ENOMEM;
	err = kdb_prepare(db, sql, &st);
	sqlite3_free(sql);
	if (err)
		return err;
	if (strstr(base, "?1"))
		kdb_bind_text(st, 1, what);
	kdb_bind_text(st, 2, glob);
	err = kdb_each_row(db, st, "reading names", kdb_name_row, &w);
	if (err) {
		for (i = 0; i < w.n; i++)
			free(((char **)w.items)[i]);
		free(w.items);
		return err;
	}
	*names = w.items;
	return (int)w.n;
}

void kdb__names_free(char **names, int n)
{
	int i;

	for (i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

/*
 * Levenshtein distance of @a and @b ignoring case (STATX is statx), or
 * @limit + 1 once it must exceed @limit: one row of the table, @row
 * holding strlen(@b) + 1 cells.
 */
static size_t distance(const char *a, const char *b, size_t *row, size_t limit)
{
	size_t la = strlen(a), lb = strlen(b), i, j;

	if ((la > lb ? la - lb : lb - la) > limit)
		return limit + 1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0], best;

		row[0] = i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], cost;

			cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			row[j] = diag + cost;
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
			if (row[j] < best)
				best = row[j];
		}
		if (best > limit)
			return limit + 1;
	}
	return row[lb];
}

int kdb__nearest_name(struct kdb *db, const char *what, const char *name, char **best)
{
	size_t len = strlen(name), limit, best_d, *row;
	char **names;
	int n, i, pick = -1;

	*best = NULL;
	/* A third of the name may be wrong, at least one letter: not a guess at random. */
	limit = len / 3 > 1 ? len / 3 : 1;
	n = kdb__names(db, what, NULL, &names);
	if (n < 0)
		return n;
	/* Names longer than @name by more than @limit are never near: one row fits all others. */
	row = kd_calloc(len + limit + 1, sizeof(*row));
	if (!row) {
		kdb__names_free(names, n);
		return -ENOMEM;
	}
	best_d = limit + 1;
	for (i = 0; i < n && best_d > 0; i++) {
		size_t d;

		if (strlen(names[i]) > len + limit || !strcmp(name, names[i]))
			continue;
		d = distance(name, names[i], row, best_d - 1);
		if (d < best_d) {
			best_d = d;
			pick = i;
		}
	}
	free(row);
	if (pick >= 0 && !(*best = kd_strdup(names[pick]))) {
		kdb__names_free(names, n);
		return -ENOMEM;
	}
	kdb__names_free(names, n);
	return 0;
}
