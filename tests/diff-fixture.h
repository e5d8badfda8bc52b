/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the diff unit tests (tests/t-diff*.c): a tiny kernel builder
 * that writes types and syscalls straight through the kdb API (with the
 * extractor's structural hash, kd_type_hash(), so identical layouts are
 * skipped as in a real .kabi), pair() to build the old and new kernel of one case and diff
 * them (diff_paths() for two .kabi files written otherwise), and check()/count_is() for
 * exact assertions on the changes.
 *
 * Header-only (static inline) because the Makefile links only tests/tap.o
 * with each test; unused helpers cost nothing.
 */
#ifndef KD_TESTS_DIFF_FIXTURE_H
#define KD_TESTS_DIFF_FIXTURE_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "diff/diff.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/typegraph.h"
#include "tests/tap.h"

#define MAX_TYPES 2048

/* --- a tiny kernel builder ---------------------------------------------- */

struct kb {
	struct kdb *db;
	bool is_new;
	int64_t next;
	uint64_t hash[MAX_TYPES];
	int64_t size[MAX_TYPES];
	const char *name[MAX_TYPES];
	enum kd_kind kind[MAX_TYPES];
	struct kd_type scratch;	/* what kb_lookup() returns: kind and name only */
	int err;
};

/* Types are written before what refers to them: their hashes are known. */
static inline const struct kd_type *kb_lookup(int64_t id, void *ctx)
{
	struct kb *k = ctx;

	if (id <= 0 || id > k->next)
		return NULL;
	k->scratch = (struct kd_type){ .id = id, .kind = k->kind[id], .name = (char *)k->name[id] };
	return &k->scratch;
}

static inline uint64_t kb_hash(int64_t id, void *ctx)
{
	struct kb *k = ctx;

	return id > 0 && id <= k->next ? k->hash[id] : 0;
}

static inline int64_t put(struct kb *k, struct kd_type *t)
{
	uint64_t h = kd_type_hash(t, KD_VIEW_KERNEL, kb_lookup, kb_hash, k);

	if (k->next + 1 >= MAX_TYPES) {
		k->err = -E2BIG;	/* a test that outgrew the builder */
		return 0;
	}
	t->id = ++k->next;
	t->hash = h;
	k->hash[t->id] = h;
	k->size[t->id] = t->size;
	k->name[t->id] = t->name;
	k->kind[t->id] = t->kind;
	if (!k->err)
		k->err = kdb__put_type(k->db, t);
	return t->id;
}

/* A base type with KD_TYPE_* @flags (KD_TYPE_SIGNED: DWARF's signed encodings). */
static inline int64_t basef(struct kb *k, const char *name, int64_t size, unsigned flags)
{
	struct kd_type t = { .kind = KD_KIND_BASE, .name = (char *)name, .size = size, .align = size,
			     .flags = flags };

	return put(k, &t);
}

static inline int64_t base(struct kb *k, const char *name, int64_t size)
{
	return basef(k, name, size, 0);
}

static inline int64_t ptr(struct kb *k, int64_t ref)
{
	struct kd_type t = { .kind = KD_KIND_POINTER, .size = 8, .align = 8, .ref = ref };

	return put(k, &t);
}

static inline int64_t tdef(struct kb *k, const char *name, int64_t ref)
{
	struct kd_type t = { .kind = KD_KIND_TYPEDEF, .name = (char *)name, .size = k->size[ref],
			     .align = k->size[ref], .ref = ref };

	return put(k, &t);
}

static inline int64_t arr(struct kb *k, int64_t ref, int64_t count)
{
	struct kd_type t = { .kind = KD_KIND_ARRAY, .ref = ref, .count = count,
			     .size = count > 0 ? count * k->size[ref] : 0, .align = k->size[ref] };

	return put(k, &t);
}

#define NM(a) (sizeof(a) / sizeof((a)[0]))

static inline int64_t agg(struct kb *k, enum kd_kind kind, const char *name, int64_t size,
			  int64_t align, struct kd_member *m, size_t n)
{
	struct kd_type t = { .kind = kind, .name = (char *)name, .size = size, .align = align,
			     .members = m, .nr_members = n };

	return put(k, &t);
}

static inline int64_t enm(struct kb *k, const char *name, struct kd_enumerator *e, size_t n)
{
	struct kd_type t = { .kind = KD_KIND_ENUM, .name = (char *)name, .size = 4, .align = 4,
			     .enumerators = e, .nr_enumerators = n };

	return put(k, &t);
}

/* x64 syscall @nr: long NAME(params...), params as (name, type id) pairs. */
static inline void sys(struct kb *k, int64_t nr, const char *name, int64_t ret, int n, ...)
{
	struct kd_buf fn = KD_BUF_INIT, entry = KD_BUF_INIT;
	struct kd_syscall sc = { .abi = "x64", .nr = nr, .name = name, .implemented = true };
	va_list ap;
	int64_t fid = 0;
	int i;

	kd_buf_addf(&fn, "sys_%s", name);
	kd_buf_addf(&entry, "__x64_sys_%s", name);
	if (!k->err)
		k->err = kdb__put_function(k->db, fn.s, ret, "dwarf", "k.c", 1, &fid);
	va_start(ap, n);
	for (i = 0; i < n; i++) {
		const char *pname = va_arg(ap, const char *);
		int64_t type = va_arg(ap, int64_t);

		if (!k->err)
			k->err = kdb__put_param(k->db, fid, i, pname, type, "?");
	}
	va_end(ap);
	sc.entry = entry.s;
	sc.func_id = fid;
	if (!k->err)
		k->err = kdb__put_syscall(k->db, &sc);
	kd_buf_release(&fn);
	kd_buf_release(&entry);
}

typedef void (*build_fn)(struct kb *k);

/* A kernel built by @build, read with UAPI headers when @headers. */
static inline int build_db_headers(const char *path, build_fn build, bool is_new, bool headers)
{
	struct kb *k = calloc(1, sizeof(*k));
	int err;

	if (!k)
		return -ENOMEM;
	k->is_new = is_new;
	err = kdb__create(path, &k->db);
	if (!err)
		err = kdb__set_meta(k->db, "release", is_new ? "2.0" : "1.0");
	/* As if read with UAPI headers: constants and ioctls are compared. */
	if (!err && headers)
		err = kdb__set_meta(k->db, "uapi_headers", "x86_64: fixture");
	if (!err) {
		build(k);
		err = k->err;
	}
	if (!err)
		err = kdb__commit(k->db);
	kdb__free(k->db);
	free(k);
	return err;
}

static inline int build_db(const char *path, build_fn build, bool is_new)
{
	return build_db_headers(path, build, is_new, true);
}

/* Diff the .kabi files @old_path and @new_path; NULL when either does not open or the diff fails. */
static inline struct diff_result *diff_paths(const char *old_path, const char *new_path,
					     const struct diff_conf *conf, int *err_out)
{
	struct kdb *db[2] = { NULL, NULL };
	struct diff_result *r = NULL;
	int err;

	err = kdb__open(old_path, &db[0]);
	err = err ? err : kdb__open(new_path, &db[1]);
	err = err ? err : diff__run(db[0], db[1], conf, &r);
	kdb__free(db[0]);
	kdb__free(db[1]);
	if (err_out)
		*err_out = err;
	return err ? NULL : r;
}

/*
 * Build both kernels of @tag and diff them, the old one read with UAPI
 * headers when @old_headers (the new one always). NULL on failure (reported).
 */
static inline struct diff_result *pair_headers(const char *tag, build_fn build,
					       const struct diff_conf *conf, bool old_headers)
{
	char *p[2] = { tap_tmp_path("%s-old.kabi", tag), tap_tmp_path("%s-new.kabi", tag) };
	struct diff_result *r = NULL;
	int i, err = p[0] && p[1] ? 0 : -ENOMEM;

	for (i = 0; !err && i < 2; i++)
		err = build_db_headers(p[i], build, i == 1, i == 1 || old_headers);
	if (!err)
		r = diff_paths(p[0], p[1], conf, &err);
	ok(!err, "%s: built and diffed (%s)", tag, err ? kd_strerror(err) : "ok");
	free(p[0]);
	free(p[1]);
	return r;
}

/* Build both kernels of @tag, read with UAPI headers, and diff them. NULL on failure (reported). */
static inline struct diff_result *pair(const char *tag, build_fn build,
				       const struct diff_conf *conf)
{
	return pair_headers(tag, build, conf, true);
}

/* Check one change: its rule and values; @path: its first impact's path (NULL: none). */
static inline void check(const struct diff_result *r, const char *kind, const char *subject,
		  const char *rule, const char *ov, const char *nv, const char *path)
{
	const struct diff_change *c = r ? diff_result__find(r, kind, subject) : NULL;
	struct kd_buf what = KD_BUF_INIT;

	kd_buf_addf(&what, "%s %s", kind, subject);
	ok(c != NULL, "%s: reported", what.s);
	if (c) {
		is_str(c->rule->id, rule, what.s);
		is_str(c->old_value, ov, "  old value");
		is_str(c->new_value, nv, "  new value");
		if (path)
			is_str(c->nr_impacts ? c->impacts[0].path : NULL, path, "  impact path");
	}
	kd_buf_release(&what);
}

static inline void count_is(const struct diff_result *r, size_t n, const char *what)
{
	size_t i;

	is_int(r ? diff_result__nr_changes(r) : 0, n, what);
	if (r && diff_result__nr_changes(r) != n)
		for (i = 0; i < diff_result__nr_changes(r); i++)
			printf("#   %s %s\n", diff_result__change(r, i)->kind,
			       diff_result__change(r, i)->subject);
}

/* The last checks of a pair: @n changes in all (@what), exit bits @bits (@bits_what); frees @r. */
static inline void pair_done(struct diff_result *r, size_t n, const char *what, int bits,
			     const char *bits_what)
{
	count_is(r, n, what);
	is_int(r ? diff_result__exit_bits(r) : -1, bits, bits_what);
	diff_result__free(r);
}

/* The evidence of the change @kind @subject. */
static inline void evidence_is(const struct diff_result *r, const char *kind, const char *subject,
			       enum diff_evidence ev, const char *text)
{
	const struct diff_change *c = r ? diff_result__find(r, kind, subject) : NULL;
	struct kd_buf what = KD_BUF_INIT;

	kd_buf_addf(&what, "%s %s: evidence", kind, subject);
	is_str(c ? diff_evidence_name(c->evidence_kind) : NULL, diff_evidence_name(ev), what.s);
	is_str(c ? c->evidence : NULL, text, what.s);
	kd_buf_release(&what);
}

#endif
