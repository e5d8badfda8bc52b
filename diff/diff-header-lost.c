// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the new header views lost: the named structs, unions and enums
 * the old headers declare and no new header does. Header types are
 * compared as pairs (diff-header-types.c), so one missing on the new
 * side was silently not compared. Why it is missing decides:
 *
 * - its old header no longer compiles on its own (a new compile error;
 *   extract records the failure, db/kdb-uapi.h): that failure is a change
 *   (header-compile-failed, source: user space cannot include it), and
 *   the types no other new header declares were not compared -- they have
 *   no layout on the new side -- which the report's coverage lists;
 * - else it was removed (header-type-removed, source: old source that
 *   names it no longer builds; old binaries keep their layout).
 *
 * A header that fails on both sides, or that the old side did not have,
 * is no change. Without a header view on one side (no compiler) nothing
 * of this is known: the coverage says so instead of reporting every old
 * type removed.
 */
#include "diff/diff_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-diff.h"
#include "db/kdb-uapi.h"
#include "lib/buf.h"
#include "lib/mem.h"
#include "lib/str.h"

/* A header that compiled on its own in the old tree and does not in the new one. */
struct broken {
	char *header;
	char *first_error;
	bool in_old;		/* the old side knows the header (types, constants or ioctls) */
	size_t entry;		/* index + 1 of its coverage entry in the result */
};

struct lost {
	struct diff_run *run;
	char **old_failures;	/* headers failing in the old tree, sorted */
	size_t nr_old_failures, cap_old_failures;
	struct broken *broken;	/* sorted by header */
	size_t nr_broken, cap_broken;
	/* The rows of one type being gathered (kind, name), one per old header. */
	struct kd_buf key, subject, where;	/* key: a row's "kind name" */
	char *first_file;	/* its first old header that still compiles, NULL: none */
	int first_line;
	char *broken_header;	/* its first old header that fails in the new tree */
};

static int cmp_broken(const void *key, const void *elem)
{
	return strcmp(key, ((const struct broken *)elem)->header);
}

static struct broken *find_broken(const struct lost *l, const char *header)
{
	return l->nr_broken ? bsearch(header, l->broken, l->nr_broken, sizeof(*l->broken), cmp_broken)
			    : NULL;
}

static int on_old_failure(const struct kdb_uapi_failure *f, void *ctx)
{
	struct lost *l = ctx;
	char *s;

	if (KD_GROW(l->old_failures, l->cap_old_failures, l->nr_old_failures + 1))
		return -ENOMEM;
	s = kd_strdup(f->header);
	if (!s)
		return -ENOMEM;
	l->old_failures[l->nr_old_failures++] = s;
	return 0;
}

static int on_new_failure(const struct kdb_uapi_failure *f, void *ctx)
{
	struct lost *l = ctx;
	struct broken *b;
	bool known = false;
	int err;

	if (l->nr_old_failures && bsearch(&f->header, l->old_failures, l->nr_old_failures,
					  sizeof(*l->old_failures), kd_strcmp_ptr))
		return 0;	/* failing on both sides: no change */
	err = kdb__uapi_header_known(l->run->db[0], f->header, &known);
	if (err || !known)
		return err;	/* a header the old tree did not have */
	if (KD_GROW(l->broken, l->cap_broken, l->nr_broken + 1))
		return -ENOMEM;
	b = &l->broken[l->nr_broken++];
	memset(b, 0, sizeof(*b));
	b->header = kd_strdup(f->header);
	b->first_error = kd_strdup(f->first_error);
	return b->header && b->first_error ? 0 : -ENOMEM;
}

size_t diff_uncompared_add(struct diff_result *r, const char *header, const char *why)
{
	struct diff_uncompared *u;

	if (KD_GROW(r->uncompared, r->cap_uncompared, r->nr_uncompared + 1))
		return 0;
	u = &r->uncompared[r->nr_uncompared];
	memset(u, 0, sizeof(*u));
	u->header = header ? kd_strdup(header) : NULL;
	u->why = kd_strdup(why);
	if ((header && !u->header) || !u->why) {
		free((char *)u->header);
		free((char *)u->why);
		return 0;
	}
	return ++r->nr_uncompared;
}

int diff_uncompared_add_type(struct diff_uncompared *u, const char *subject)
{
	const char **v = kd_realloc_array((void *)u->types, u->nr_types + 1, sizeof(*v));
	char *s = kd_strdup(subject);

	if (v)
		u->types = v;
	if (!v || !s) {
		free(s);
		return -ENOMEM;
	}
	v[u->nr_types++] = s;
	return 0;
}

/* The failure of @b: a change, and its coverage entry. */
static int report_broken(struct lost *l, struct broken *b)
{
	struct diff_result *r = l->run->e.r;
	struct kd_buf why = KD_BUF_INIT;
	size_t idx;
	int err;

	err = diff_add(r, &(struct diff_new){ .rule = DIFF_R_HEADER_COMPILE_FAILED, .name = b->header,
					      .subject = b->header, .old_value = "compiles on its own",
					      .new_value = "does not compile on its own",
					      .note = b->first_error }, &idx);
	if (!err)
		err = diff_cause(r, idx, b->header);
	if (!err)
		err = diff_evidence(r, idx, DIFF_EV_LAYOUT, "each header compiled on its own as user"
				    " space compiles it: the old %s compiles, the new one fails (%s)",
				    b->header, b->first_error);
	if (!err)
		err = kd_buf_addf(&why, "the new %s does not compile on its own: %s", b->header,
				  b->first_error);
	if (!err) {
		b->entry = diff_uncompared_add(r, b->header, why.s);
		err = b->entry ? 0 : -ENOMEM;
	}
	kd_buf_release(&why);
	return err;
}

/* The type gathered in @l: removed, or not compared under its broken header. */
static int settle_type(struct lost *l)
{
	struct diff_result *r = l->run->e.r;
	struct kd_buf path = KD_BUF_INIT;
	size_t idx;
	int err;

	if (!l->subject.len)
		return 0;
	if (!l->first_file) {
		/* Every old header that declared it fails now: it has no new layout. */
		struct broken *b = l->broken_header ? find_broken(l, l->broken_header) : NULL;

		return b && b->entry ? diff_uncompared_add_type(&r->uncompared[b->entry - 1], l->subject.s) : 0;
	}
	kd_buf_reset(&l->where);
	err = kd_buf_addf(&l->where, "%s:%d", l->first_file, l->first_line);
	if (!err)
		err = diff_add(r, &(struct diff_new){ .rule = DIFF_R_HEADER_TYPE_REMOVED,
						      .name = l->subject.s, .subject = l->subject.s,
						      .old_value = l->where.s }, &idx);
	if (!err)
		err = kd_buf_addf(&path, "%s -> %s", l->first_file, l->subject.s);
	if (!err)
		err = diff_add_impact(r, idx, l->first_file, path.s);
	if (!err)
		err = diff_evidence(r, idx, DIFF_EV_LAYOUT, "the header views of both sides (compiled"
				    " as user space compiles them): %s declares %s in the old headers,"
				    " no header of the new ones does", l->where.s, l->subject.s);
	kd_buf_release(&path);
	return err;
}

static void reset_type(struct lost *l)
{
	kd_buf_reset(&l->subject);
	free(l->first_file);
	free(l->broken_header);
	l->first_file = l->broken_header = NULL;
	l->first_line = 0;
}

/* One (type, old header) row: rows of one type come together, in header order. */
static int on_gone(const struct kdb_uapi_type_gone *g, void *ctx)
{
	struct lost *l = ctx;
	int err = 0;

	kd_buf_reset(&l->key);
	if (kd_buf_addf(&l->key, "%s %s", g->kind, g->name))
		return -ENOMEM;
	if (strcmp(l->key.s, l->subject.s)) {
		err = settle_type(l);
		reset_type(l);
		if (!err)
			err = kd_buf_adds(&l->subject, l->key.s);
		if (err)
			return err;
	}
	if (find_broken(l, g->file)) {
		if (!l->broken_header && !(l->broken_header = kd_strdup(g->file)))
			return -ENOMEM;
	} else if (!l->first_file) {
		l->first_file = kd_strdup(g->file);
		l->first_line = g->line;
		if (!l->first_file)
			return -ENOMEM;
	}
	return 0;
}

/* Has @db a header view (its headers were compiled: meta uapi_compiled)? */
static bool has_view(struct kdb *db)
{
	char *v = NULL;
	bool has = !kdb__get_meta(db, "uapi_compiled", &v) && v;

	free(v);
	return has;
}

int diff_header_lost(struct diff_run *run)
{
	struct diff_result *r = run->e.r;
	struct lost l = { .run = run, .key = KD_BUF_INIT, .subject = KD_BUF_INIT,
			  .where = KD_BUF_INIT };
	bool views[2] = { has_view(run->db[0]), has_view(run->db[1]) };
	size_t i;
	int err = 0;

	if (!views[0] || !views[1]) {
		if (views[0] || views[1])
			err = diff_uncompared_add(r, NULL, views[0] ? "the new side has no header view: its headers"
					" were not compiled" : "the old side has no header view: its"
					" headers were not compiled") ? 0 : -ENOMEM;
		return err;
	}
	err = kdb__foreach_uapi_failure(run->db[0], on_old_failure, &l);
	if (!err && l.nr_old_failures > 1)
		qsort(l.old_failures, l.nr_old_failures, sizeof(*l.old_failures), kd_strcmp_ptr);
	if (!err)
		err = kdb__foreach_uapi_failure(run->db[1], on_new_failure, &l);
	/* In header order already (the query's), which find_broken() searches. */
	for (i = 0; !err && i < l.nr_broken; i++)
		err = report_broken(&l, &l.broken[i]);
	if (!err)
		err = kdb__diff_uapi_types_gone(run->db[0], on_gone, &l);
	if (!err)
		err = settle_type(&l);
	reset_type(&l);
	kd_buf_release(&l.key);
	kd_buf_release(&l.subject);
	kd_buf_release(&l.where);
	for (i = 0; i < l.nr_old_failures; i++)
		free(l.old_failures[i]);
	free(l.old_failures);
	for (i = 0; i < l.nr_broken; i++) {
		free(l.broken[i].header);
		free(l.broken[i].first_error);
	}
	free(l.broken);
	return err;
}
