// SPDX-License-Identifier: GPL-2.0-only
/*
 * The enumerators of the header view as constants. To a program a
 * #define and an enumerator are the same thing, a name with a value
 * (6.12's generated ethtool headers turned ETHTOOL_FLAG_STATS from the
 * one into the other), and an anonymous enum is only a way to write a
 * list of constants (linux/cxl_mem.h builds its command ids with one), so
 * both go to one table: a name with one value per tree. The values are
 * the compiler's (the header view's DWARF): enumerators under a false #if
 * are not there, as they are not in any program.
 */
#include "db/kdb_internal.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/mem.h"
#include "lib/model.h"

/* One enumerator of the header view, as its enum and header give it. */
struct enum_row {
	char *name, *file;
	int64_t value, type_id;
	int line;
	const char *ctype;
};

/* A name's first row decides; the later ones (other headers) only disagree. */
struct enum_scan {
	struct kdb *db;
	struct enum_row *rows;	/* the constants to add */
	size_t n, cap;
	char *cur;		/* the name of the group being read */
	int64_t first_value;	/* ... its first row's value */
	char *first_file;
	bool skip;		/* ... a #define or an ioctl of that name decides */
	bool reported;		/* ... a disagreement was reported */
	int err;
};

const char *kdb__enumerator_ctype(int64_t value, int64_t enum_size, bool is_signed)
{
	if (value >= INT32_MIN && value <= INT32_MAX)
		return "int";
	if (enum_size > 4)
		return is_signed ? "long" : "unsigned long";
	return is_signed ? "int" : "unsigned int";
}

static char *where(const char *file, int line, struct kd_buf *b)
{
	kd_buf_reset(b);
	if (line > 0 ? kd_buf_addf(b, "%s:%d", file, line) : kd_buf_adds(b, file))
		return NULL;
	return b->s;
}

/* The first row of a name: a constant to add, unless a #define or an ioctl has the name. */
static int first_row(struct enum_scan *s, sqlite3_stmt *st, const char *name, const char *file,
		     int line, int64_t value)
{
	struct kd_buf loc = KD_BUF_INIT;
	struct enum_row *r;
	int err = 0;

	free(s->cur);
	free(s->first_file);
	s->cur = kd_strdup(name);
	s->first_file = kd_strdup(file);
	s->first_value = value;
	s->reported = false;
	s->skip = sqlite3_column_type(st, 7) != SQLITE_NULL || sqlite3_column_int(st, 9);
	if (!s->cur || !s->first_file)
		return -ENOMEM;
	if (s->skip) {
		/* #define FOO FOO is one constant; a #define of another value is a clash. */
		if (sqlite3_column_type(st, 7) != SQLITE_NULL && sqlite3_column_int64(st, 7) != value) {
			const char *mfile = kdb_col_text(st, 8);

			s->reported = true;
			err = where(file, line, &loc) ? 0 : -ENOMEM;
			if (!err)
				err = kdb__put_problem(s->db, "uapi", file, loc.s, "%s: enumerator %#llx"
						       " here but the #define in %s gives %#llx (kept)",
						       name, (unsigned long long)value,
						       mfile ? mfile : "a header",
						       (unsigned long long)sqlite3_column_int64(st, 7));
		}
		kd_buf_release(&loc);
		return err;
	}
	err = KD_GROW(s->rows, s->cap, s->n + 1);
	if (err)
		return err;
	r = &s->rows[s->n];
	*r = (struct enum_row){
		.name = kd_strdup(name), .file = kd_strdup(file), .value = value, .line = line,
		.type_id = sqlite3_column_int64(st, 5),
		.ctype = kdb__enumerator_ctype(value, sqlite3_column_int64(st, 6),
					       (unsigned)sqlite3_column_int(st, 2) & KD_TYPE_SIGNED),
	};
	if (!r->name || !r->file) {
		free(r->name);
		free(r->file);
		return -ENOMEM;
	}
	s->n++;
	return 0;
}

static int enum_row(sqlite3_stmt *st, void *ctx)
{
	struct enum_scan *s = ctx;
	const char *name = kdb_col_name(st, 0), *file = kdb_col_name(st, 3);
	int64_t value = sqlite3_column_int64(st, 1);
	int line = sqlite3_column_int(st, 4);
	struct kd_buf loc = KD_BUF_INIT;
	int err;

	if (!s->cur || strcmp(s->cur, name))
		return first_row(s, st, name, file, line, value);
	if (s->skip || s->reported || value == s->first_value)
		return 0;
	s->reported = true;
	err = where(file, line, &loc) ? 0 : -ENOMEM;
	if (!err)
		err = kdb__put_problem(s->db, "uapi", file, loc.s, "%s: enumerator %#llx here but %#llx"
				       " in %s (kept)", name, (unsigned long long)value,
				       (unsigned long long)s->first_value, s->first_file);
	kd_buf_release(&loc);
	return err;
}

int kdb__add_enumerator_constants(struct kdb *db)
{
	struct enum_scan s = { .db = db };
	struct kd_constant *c = NULL;
	size_t i;
	int err;

	/* Headers in path order, as the #defines' "first one kept". */
	err = kdb_query(db,
		"SELECT e.name, e.value, t.flags, u.file, u.line, e.type_id, t.size,"
		"  (SELECT k.value FROM constants k WHERE k.name = e.name),"
		"  (SELECT k.file FROM constants k WHERE k.name = e.name),"
		"  EXISTS (SELECT 1 FROM ioctls i WHERE i.name = e.name)"
		" FROM enumerators e JOIN types t ON t.id = e.type_id AND t.kind = 'enum'"
		" JOIN uapi_types u ON u.type_id = e.type_id"
		" ORDER BY e.name, u.file, u.line, e.type_id",
		"reading the header view's enumerators", enum_row, &s);
	if (!err && s.n) {
		c = kd_calloc(s.n, sizeof(*c));
		if (!c)
			err = -ENOMEM;
	}
	for (i = 0; !err && i < s.n; i++)
		c[i] = (struct kd_constant){
			.name = s.rows[i].name, .value = s.rows[i].value, .ctype = s.rows[i].ctype,
			.file = s.rows[i].file, .line = s.rows[i].line,
			.enum_type = s.rows[i].type_id, .source = "enumerator",
		};
	if (!err && s.n)
		err = kdb__put_constants(db, c, s.n);
	for (i = 0; i < s.n; i++) {
		free(s.rows[i].name);
		free(s.rows[i].file);
	}
	free(c);
	free(s.rows);
	free(s.cur);
	free(s.first_file);
	return err ? err : (int)s.n;
}
