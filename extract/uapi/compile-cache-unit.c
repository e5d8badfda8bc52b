// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cache of compiled units: one entry per header, so that a tree that
 * differs from a cached one in a few headers compiles those and the
 * headers that include them, not the whole tree (issue 24). Entries live
 * in $XDG_CACHE_HOME/kabi-diff/uapi/units/: UKEY.SLOT.idx and UKEY.SLOT.o, where
 * UKEY is a SHA-256 of the compiler (path and version), the target flags
 * and the header's include-relative name -- not of its content.
 *
 * Each UKEY.SLOT.idx is an index of compile-cache-index.c's format: the files the
 * unit's compile read (its dependency file), each tree-relative when it
 * is under one of the tree's directories, else absolute, with its content
 * hash; and the unit's outcome: an object (its hash and size) or the
 * failure with its message. A lookup checks every recorded file in the
 * tree being looked up: all unchanged is a hit, which copies UKEY.SLOT.o into
 * the work directory as the compiler would have written it, verified by
 * its recorded hash; anything else is a miss and the unit is compiled and
 * stored again. Each header keeps UNIT_SLOTS recorded sets (KEY.SLOT.idx
 * and KEY.SLOT.o), the least recently used replaced: the two sides of a
 * diff, or a few releases, all hit.
 *
 * Only units the compiler finished are stored (a dependency file says
 * which files they read): a unit stopped by a time or memory limit, or
 * that failed before cc1 wrote its dependency file, is compiled again.
 * A source-layout tree's generated asm/ wrappers and prelude (in the work
 * directory, not recorded as inputs) are in the key instead: their names
 * and contents, with the tree's number of directories. Entries are written through a
 * temporary file and a rename, the object before its index; the
 * UNIT_ENTRIES most recently written are kept.
 */
#include "extract/uapi/compile_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/buf.h"
#include "lib/digest.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/path.h"
#include "lib/tmpfile.h"
#include "lib/tree-digest.h"

#define UNIT_KEY_FORMAT "kabi-diff uapi-cc unit 1"
/* A dozen kernels' worth of headers of two ABIs. */
#define UNIT_ENTRIES 20000
/* Sets of inputs recorded per header: the two sides of a diff, a few releases. */
#define UNIT_SLOTS 4

/* .../uapi/units, created; NULL when it cannot be. */
static char *units_dir(const struct uapi_cc_cache *c)
{
	char *d = kd_path_join(uapi_cc_cache__dir(c), "units");

	if (d && mkdir(d, 0755) < 0 && errno != EEXIST) {
		free(d);
		return NULL;
	}
	return d;
}

/* The path of slot @slot of header @name's entry, extension @ext. 0, -ENOMEM or -EIO. */
static int unit_path(const struct uapi_cc_cache *c, const struct cc_state *s, const char *dir,
		     const char *name, unsigned slot, const char *ext, struct kd_buf *b)
{
	char key[UAPI_CC_KEY_SIZE];
	const char *const *f;
	struct kd_digest *d;
	int err = kd_digest__new(&d);

	if (err)
		return err;
	kd_digest__str(d, UNIT_KEY_FORMAT);
	kd_digest__str(d, s->cc);
	kd_digest__str(d, uapi_cc_cache__version(c));
	kd_digest__str(d, s->conf->arch->name);
	for (f = s->conf->arch->flags; f && *f; f++)
		kd_digest__str(d, *f);
	kd_digest__str(d, s->unit_salt);
	kd_digest__str(d, "header");
	kd_digest__str(d, name);
	err = kd_digest__final(d, NULL, key) ? -EIO : 0;
	kd_digest__free(d);
	kd_buf_reset(b);
	return err ? err : kd_buf_addf(b, "%s/%s.%u.%s", dir, key, slot, ext);
}

/*
 * Copy the regular file @src, which must be @size bytes hashing to @hash,
 * to the new file @dest. 1 done, 0 not that file (nothing left), -ENOMEM.
 */
static int take_file(const char *src, uint64_t hash, uint64_t size, const char *dest)
{
	uint64_t h = 0, n = 0;
	struct stat st;
	int in, out, rc = 0;

	in = kd_open_regular(src, O_NOFOLLOW, &st);
	if (in < 0)
		return 0;
	if ((uint64_t)st.st_size != size) {
		close(in);
		return 0;
	}
	out = open(dest, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (out >= 0 && !uapi_cc_hash_fd(in, size, out, &h, &n) && n == size && h == hash)
		rc = 1;
	if (out >= 0 && close(out) < 0)
		rc = 0;
	close(in);
	if (!rc && out >= 0)
		unlink(dest);
	return rc;
}

/* Look header @h up in @slot. 1 taken, 0 a miss, -ENOMEM. */
static int lookup_slot(struct uapi_cc_cache *c, struct cc_state *s, const char *dir, size_t h,
		       unsigned slot)
{
	struct kd_buf p = KD_BUF_INIT, text = KD_BUF_INIT, dest = KD_BUF_INIT, idx = KD_BUF_INIT;
	struct uapi_cc_index ix = { 0 };
	size_t i;
	int rc;

	rc = unit_path(c, s, dir, s->names[h], slot, "idx", &idx);
	if (!rc)
		rc = uapi_cc_read_index(idx.s, &text);
	if (!rc && text.len)
		rc = uapi_cc_index__parse(text.s, text.len, &ix);
	/* One unit: an object, or one failure of this header. */
	if (rc > 0 && (ix.nr_headers != 1 || ix.has_object == (ix.nr_failures != 0) ||
		       (ix.nr_failures && strcmp(ix.failures[0].header, s->names[h]))))
		rc = 0;
	for (i = 0; rc > 0 && i < ix.nr_deps; i++)
		rc = uapi_cc_dep_unchanged(s->tree, &ix.deps[i]);
	if (rc > 0 && ix.has_object) {
		rc = unit_path(c, s, dir, s->names[h], slot, "o", &p);
		if (!rc)
			rc = kd_buf_addf(&dest, "%s/h%zu.o", s->r->workdir, h);
		if (!rc)
			rc = take_file(p.s, ix.object_hash, ix.object_size, dest.s);
		if (rc > 0 && s->object_bytes + ix.object_size > UAPI_CC_MAX_OBJECTS)
			rc = 0;	/* compiled instead, which says why */
		if (rc > 0 && KD_GROW(s->objects, s->cap_objects, s->nr_objects + 1))
			rc = -ENOMEM;
		if (rc > 0) {
			s->objects[s->nr_objects] = kd_buf_detach(&dest);
			rc = s->objects[s->nr_objects] ? 1 : -ENOMEM;
		}
		if (rc > 0) {
			s->nr_objects++;
			s->object_bytes += ix.object_size;
			s->r->nr_compiled++;
		}
	} else if (rc > 0) {
		rc = uapi_cc_add_failure(s, s->names[h], ix.failures[0].message);
		rc = rc ? rc : 1;
	}
	/*
	 * The tree's entry lists every file read, also by cached units. A file
	 * of the same content that is now outside (a link out of the tree) is
	 * a miss: compiled, the unit is refused.
	 */
	for (i = 0; rc > 0 && i < ix.nr_deps; i++) {
		const struct uapi_cc_dep *d = &ix.deps[i];
		int err;

		kd_buf_reset(&p);
		/* As the compiler names it: under the directory's real path. */
		err = d->dir >= 0 ? kd_buf_addf(&p, "%s/%s", s->prefixes[d->dir], d->path) :
		      kd_buf_adds(&p, d->path);
		if (!err && uapi_cc_outside(s, p.s, p.len))
			rc = 0;
		if (!err)
			err = uapi_cc_note_dep(s, p.s);
		if (err)
			rc = err;
	}
	uapi_cc_index__release(&ix);
	kd_buf_release(&p);
	kd_buf_release(&text);
	kd_buf_release(&dest);
	if (rc > 0)
		utimensat(AT_FDCWD, idx.s, NULL, 0);	/* recently used: pruned last */
	kd_buf_release(&idx);
	return rc < 0 && rc != -ENOMEM ? 0 : rc;
}

/* Each recorded set of header @h's inputs in turn. 1 taken, 0 a miss, -ENOMEM. */
static int lookup_one(struct uapi_cc_cache *c, struct cc_state *s, const char *dir, size_t h)
{
	unsigned slot;
	int rc = 0;

	for (slot = 0; !rc && slot < UNIT_SLOTS; slot++)
		rc = lookup_slot(c, s, dir, h, slot);
	return rc;
}

/* s->unit_salt: the layout and the wrappers' digest; "" when they cannot be hashed. */
static int unit_salt(struct cc_state *s)
{
	static const struct kd_tree_bounds bounds = {
		.max_files = 10000, .max_bytes = 64ull << 20, .max_depth = 4,
	};
	const char *wrap[1] = { s->wrap };
	struct kd_digest *d;
	bool too_big = false;
	int err = kd_digest__new(&d);

	s->unit_salt[0] = '\0';
	if (err)
		return err;
	kd_digest__u64(d, (uint64_t)s->tree->source_layout);
	kd_digest__u64(d, (uint64_t)s->tree->nr_dirs);
	if (s->wrap)
		err = kd_tree__digest(d, wrap, 1, &bounds, &too_big);
	if (!err && kd_digest__final(d, NULL, s->unit_salt))
		err = -EIO;
	if (err || too_big)
		s->unit_salt[0] = '\0';
	kd_digest__free(d);
	return err == -ENOMEM ? err : 0;
}

int uapi_cc_units_lookup(struct uapi_cc_cache *c, struct cc_state *s)
{
	char *dir;
	size_t h;
	int rc = 0;

	s->unit_cached = kd_calloc(s->nr_names, sizeof(*s->unit_cached));
	if (!s->unit_cached)
		return -ENOMEM;
	rc = unit_salt(s);
	if (rc || !s->unit_salt[0])
		return rc;
	dir = units_dir(c);
	for (h = 0; dir && rc >= 0 && h < s->nr_names; h++) {
		rc = lookup_one(c, s, dir, h);
		if (rc > 0) {
			s->unit_cached[h] = true;
			s->r->nr_cached++;
		}
	}
	free(dir);
	return rc < 0 ? rc : 0;
}

/* The failure recorded for @name, or NULL. */
static const struct uapi_cc_failure *failure_of(const struct cc_state *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->r->nr_failures; i++)
		if (!strcmp(s->r->failures[i].header, name))
			return &s->r->failures[i];
	return NULL;
}

static int collect(const char *path, void *ctx)
{
	struct cc_state *s = ((void **)ctx)[0];
	struct uapi_cc_index *ix = ((void **)ctx)[1];
	size_t wlen = strlen(s->r->workdir);
	int rc;

	struct kd_buf b = KD_BUF_INIT;
	int i;

	if (!strncmp(path, s->r->workdir, wlen) && path[wlen] == '/')
		return 0;
	/*
	 * The compiler was given the tree's directories by their real paths:
	 * a file under one is recorded relative to it, so that another tree
	 * (the next stable update, elsewhere) finds it.
	 */
	for (i = 0; i < s->tree->nr_dirs && i < 6 && !b.len; i++) {
		size_t n = strlen(s->prefixes[i]);

		if (!strncmp(path, s->prefixes[i], n) && path[n] == '/' &&
		    kd_buf_addf(&b, "%s%s", s->tree->dirs[i], path + n))
			return -ENOMEM;
	}
	rc = uapi_cc_index_add_path(s->tree, ix, b.len ? b.s : path);
	kd_buf_release(&b);
	return rc < 0 ? rc : rc ? 0 : -EINVAL;	/* a file not recordable: the unit is not stored */
}

/* The slot to store header @name's new set in: a free one, else the least recently used. */
static int store_slot(const struct uapi_cc_cache *c, const struct cc_state *s, const char *dir,
		      const char *name, unsigned *slot)
{
	struct kd_buf p = KD_BUF_INIT;
	struct timespec oldest = { 0 };
	unsigned i;
	int err = 0;

	*slot = 0;
	for (i = 0; !err && i < UNIT_SLOTS; i++) {
		struct stat st;

		err = unit_path(c, s, dir, name, i, "idx", &p);
		if (err)
			break;
		if (lstat(p.s, &st) < 0) {
			*slot = i;
			break;
		}
		if (!i || st.st_mtim.tv_sec < oldest.tv_sec ||
		    (st.st_mtim.tv_sec == oldest.tv_sec && st.st_mtim.tv_nsec < oldest.tv_nsec)) {
			oldest = st.st_mtim;
			*slot = i;
		}
	}
	kd_buf_release(&p);
	return err;
}

/* Store the unit @h compiled in this run, if it finished. 0 or -ENOMEM; trouble is a warning. */
static int store_one(struct uapi_cc_cache *c, struct cc_state *s, const char *dir, size_t h)
{
	struct kd_buf p = KD_BUF_INIT, text = KD_BUF_INIT, obj = KD_BUF_INIT;
	struct uapi_cc_index ix = { .nr_headers = 1 };
	const struct uapi_cc_failure *f = failure_of(s, s->names[h]);
	struct uapi_cc_failure one;
	char *deps = NULL;
	void *ctx[2] = { s, &ix };
	unsigned slot = 0;
	int err;

	err = kd_buf_addf(&p, "%s/h%zu.d", s->r->workdir, h);
	if (!err)
		err = kd_buf_addf(&obj, "%s/h%zu.o", s->r->workdir, h);
	if (err)
		goto out;
	deps = uapi_cc_read_text(p.s);
	/* Not finished, or not the outcome of this header's content (a limit, the budget). */
	if (!deps || (!f && !kd_is_file(obj.s)) ||
	    (f && (!uapi_cc_index__storable(f->message) || !uapi_cc_index__storable(f->header))))
		goto out;
	err = uapi_cc_parse_deps(deps, collect, ctx);
	if (err)
		goto out;
	err = store_slot(c, s, dir, s->names[h], &slot);
	if (!err)
		err = unit_path(c, s, dir, s->names[h], slot, "o", &p);
	if (!err && !f) {
		ix.nr_compiled = 1;
		ix.has_object = true;
		err = uapi_cc_publish_file(obj.s, p.s, &ix.object_hash, &ix.object_size);
	}
	if (f) {
		one = *f;
		ix.failures = &one;
		ix.nr_failures = 1;
	}
	if (!err)
		err = uapi_cc_index__format(&ix, &text);
	ix.failures = NULL;
	ix.nr_failures = 0;
	if (!err)
		err = unit_path(c, s, dir, s->names[h], slot, "idx", &p);
	if (!err)
		err = kd_write_file_atomic(p.s, text.s, text.len, KD_WRITE_CACHE);
out:
	free(deps);
	uapi_cc_index__release(&ix);
	kd_buf_release(&p);
	kd_buf_release(&text);
	kd_buf_release(&obj);
	return err == -ENOMEM ? err : 0;
}

/* A unit entry KEY.SLOT.idx (with KEY.SLOT.o): its key's length. */
static size_t unit_entry_key(const char *name, bool *stale)
{
	(void)stale;
	return strlen(name) == KD_DIGEST_HEX_LEN + 6 && !strcmp(name + KD_DIGEST_HEX_LEN + 2, ".idx") ?
	       KD_DIGEST_HEX_LEN + 2 : 0;
}

int uapi_cc_units_store(struct uapi_cc_cache *c, struct cc_state *s)
{
	char *dir;
	size_t h;
	int err = 0;

	if (!s->unit_cached || !s->unit_salt[0])
		return 0;
	dir = units_dir(c);
	for (h = 0; dir && !err && h < s->nr_names; h++)
		if (!s->unit_cached[h])
			err = store_one(c, s, dir, h);
	if (dir && !err && s->nr_names > s->r->nr_cached)
		uapi_cc_prune(dir, UNIT_ENTRIES, unit_entry_key, ".o");
	free(dir);
	return err;
}
