// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cache of compiled UAPI trees: $XDG_CACHE_HOME/kabi-diff/uapi/KEY.so
 * (the linked object) and KEY.idx (the rest of the result and what it was
 * built from, compile-cache-index.c). KEY is a 128-bit hash of the
 * compiler (its path and what `cc -dumpfullversion -dumpmachine` says),
 * the target flags, the tree's layout and everything the compiler can
 * reach by name under the tree's directories (compile-cache-key.c).
 *
 * The index lists every file the compiler read with its content hash, and
 * a hit verifies them against the tree being looked up: a file reached
 * through one of the tree's directories (linux/../../x.h leaves them) is
 * resolved in this tree, not in the one that filled the entry; any other
 * (glibc's headers) by its absolute path. A file outside the tree that
 * the compiler looked for and did not find is not recorded (doc/LIMITS.md).
 *
 * Two processes may fill and read one entry at once (the two sides of a
 * diff): an entry is stored only when the tree's key after the compilation
 * is the one it was looked up by, the index records the object's hash, and
 * a hit copies KEY.so into a directory of its own and checks the copy, so
 * an object published meanwhile for another tree is a miss. The index is
 * written last and renamed into place, so a half-written entry is never
 * seen. The newest entries are kept.
 *
 * The cache may be shared (a CI cache): an index that is not a regular
 * file or is larger than INDEX_MAX_BYTES is a miss and never opened
 * blocking; KEY.so must be a regular file of the recorded size; whatever
 * stands where an entry is stored and is not a regular file is replaced.
 *
 * A miss here is the fast path's only: the units of the tree are looked
 * up one by one in units/ (compile-cache-unit.c), which shares this
 * file's dependency records and index reader. Measured on Debian 6.12
 * (957 headers): a whole-tree hit ~5-7 s against ~10 s all from units, so
 * both are kept.
 */
#include "extract/uapi/compile_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "extract/uapi/uapi_internal.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/path.h"
#include "lib/tmpfile.h"

#define CACHE_ENTRIES 16
/* A whole kernel's index is about 100 KiB (a line per file the compiler read). */
#define INDEX_MAX_MIB 4
#define INDEX_MAX_BYTES ((size_t)INDEX_MAX_MIB << 20)

struct uapi_cc_cache {
	char *dir;		/* .../kabi-diff/uapi */
	char key[UAPI_CC_KEY_SIZE];
	const struct utree *tree;	/* the caller's, as are conf and the compiler's path */
	const struct uapi_cc_conf *conf;
	const char *cc_path;
	char *version;		/* what the compiler says it is */
};

/* --- lookup ------------------------------------------------------------------- */

/* $XDG_CACHE_HOME/kabi-diff/uapi (or ~/.cache/...), created; NULL when there is no home. */
static char *cache_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct kd_buf b = KD_BUF_INIT;
	char *p;

	if (xdg && *xdg ? kd_buf_addf(&b, "%s/kabi-diff/uapi", xdg) :
	    home && *home ? kd_buf_addf(&b, "%s/.cache/kabi-diff/uapi", home) : -ENOENT) {
		kd_buf_release(&b);
		return NULL;
	}
	for (p = b.s + 1; ; p++) {
		if (*p == '/' || !*p) {
			char c = *p;

			*p = '\0';
			if (mkdir(b.s, 0755) < 0 && errno != EEXIST) {
				kd_buf_release(&b);
				return NULL;
			}
			*p = c;
			if (!c)
				break;
		}
	}
	return kd_buf_detach(&b);
}

static int entry_path(const struct uapi_cc_cache *c, const char *ext, struct kd_buf *b)
{
	kd_buf_reset(b);
	return kd_buf_addf(b, "%s/%s.%s", c->dir, c->key, ext);
}

const char *uapi_cc_cache__dir(const struct uapi_cc_cache *c)
{
	return c->dir;
}

const char *uapi_cc_cache__version(const struct uapi_cc_cache *c)
{
	return c->version;
}

/* KEY.idx's text into @text, left empty when there is no usable one. 0 or -ENOMEM. */
int uapi_cc_read_index(const char *path, struct kd_buf *text)
{
	int err = kd_buf_read_regular(text, path, INDEX_MAX_BYTES);

	if (err == -KD_ENOTREG)
		kd_warn("%s: not a regular file; the cache entry is not used", path);
	else if (err == -KD_ELIMIT)
		kd_warn("%s: larger than %d MiB, the limit of a cache index; the cache entry is not used",
			path, INDEX_MAX_MIB);
	if (err == -ENOMEM)
		return err;
	if (err)
		kd_buf_reset(text);
	return 0;
}

/* Is the file @d names, resolved in @tree, what the index says? 1, 0 or -ENOMEM. */
int uapi_cc_dep_unchanged(const struct utree *tree, const struct uapi_cc_dep *d)
{
	struct kd_buf path = KD_BUF_INIT;
	uint64_t h, n;
	int rc;

	if (d->dir >= tree->nr_dirs)
		return 0;
	if (d->dir >= 0 ? kd_buf_addf(&path, "%s/%s", tree->dirs[d->dir], d->path) :
	    kd_buf_adds(&path, d->path)) {
		kd_buf_release(&path);
		return -ENOMEM;
	}
	rc = !uapi_cc_file_hash(path.s, d->size, &h, &n) && n == d->size && h == d->hash;
	kd_buf_release(&path);
	return rc;
}

/*
 * A hit's object: KEY.so copied into a directory of its own (r->workdir,
 * removed with @r), read once, hashed as it is copied. 1 when the copy is
 * the object the index recorded, 0 when not (nothing kept), -ENOMEM.
 */
static int take_object(const struct uapi_cc_cache *c, const struct uapi_cc_index *ix,
		       struct uapi_cc_result *r)
{
	struct kd_buf so = KD_BUF_INIT, dest = KD_BUF_INIT;
	char *dir = NULL;
	uint64_t h = 0, n = 0;
	struct stat st;
	int in = -1, out = -1, rc;

	rc = entry_path(c, "so", &so);
	if (rc)
		goto out;
	/* Anything else than the regular file of the recorded size is a miss, unread. */
	in = kd_open_regular(so.s, O_NOFOLLOW, &st);
	if (in < 0 || (uint64_t)st.st_size != ix->object_size)
		goto out;
	/* Registered like the compile's, so that a signal leaves it behind neither. */
	rc = kd_tmpdir_create(NULL, UAPI_CC_WORKDIR, &dir);
	if (rc) {
		rc = rc == -ENOMEM ? rc : 0;	/* the compilation that follows the miss says why */
		goto out;
	}
	rc = kd_buf_addf(&dest, "%s/headers.so", dir);
	if (rc)
		goto out;
	out = open(dest.s, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (out < 0 || uapi_cc_hash_fd(in, ix->object_size, out, &h, &n))
		goto out;
	rc = close(out);
	out = -1;
	if (rc < 0 || n != ix->object_size || h != ix->object_hash) {
		rc = 0;
		goto out;
	}
	r->object = kd_buf_detach(&dest);
	if (!r->object) {
		rc = -ENOMEM;
		goto out;
	}
	r->workdir = dir;
	dir = NULL;
	rc = 1;
out:
	if (out >= 0)
		close(out);
	if (in >= 0)
		close(in);
	kd_tmpdir_remove(dir);
	kd_buf_release(&so);
	kd_buf_release(&dest);
	return rc;
}

/* Is the entry @ix this tree's, with its object? Fills @r when it is: 1, 0 or -ENOMEM. */
static int take_entry(const struct uapi_cc_cache *c, struct uapi_cc_index *ix,
		      struct uapi_cc_result *r)
{
	size_t i;
	int rc = 1;

	for (i = 0; rc > 0 && i < ix->nr_deps; i++)
		rc = uapi_cc_dep_unchanged(c->tree, &ix->deps[i]);
	if (rc > 0 && ix->has_object)
		rc = take_object(c, ix, r);
	if (rc <= 0)
		return rc;
	r->nr_headers = ix->nr_headers;
	r->nr_compiled = ix->nr_compiled;
	r->failures = ix->failures;
	r->nr_failures = ix->nr_failures;
	ix->failures = NULL;
	ix->nr_failures = ix->cap_failures = 0;
	r->cached = true;
	return 1;
}

int uapi_cc_cache__lookup(const struct utree *tree, const struct uapi_cc_conf *conf,
			  const char *cc_path, struct uapi_cc_cache **cache, struct uapi_cc_result *r,
			  bool *hit)
{
	char *const version_argv[] = { (char *)cc_path, "-dumpfullversion", "-dumpmachine", NULL };
	struct kd_buf idx = KD_BUF_INIT, text = KD_BUF_INIT;
	struct uapi_cc_index ix = { 0 };
	struct uapi_cc_cache *c;
	int rc = 0, err;

	*cache = NULL;
	*hit = false;
	c = kd_calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->tree = tree;
	c->conf = conf;
	c->cc_path = cc_path;
	c->dir = cache_dir();
	/* A compiler that cannot say its version is used, but its output is not cached. */
	if (!c->dir || uapi_cc_run_capture(version_argv, &c->version)) {
		uapi_cc_cache__free(c);
		return 0;
	}
	err = uapi_cc_tree_key(c->tree, c->conf, c->cc_path, c->version, c->key);
	if (err || !c->key[0])
		goto out;
	err = entry_path(c, "idx", &idx);
	if (!err)
		err = uapi_cc_read_index(idx.s, &text);
	if (!err && text.len)
		rc = err = uapi_cc_index__parse(text.s, text.len, &ix);
	if (rc > 0)
		rc = err = take_entry(c, &ix, r);
	if (err < 0)
		goto out;
	err = 0;
	if (rc > 0) {
		*hit = true;
		utimensat(AT_FDCWD, idx.s, NULL, 0);	/* recently used */
	}
	*cache = c;
	c = NULL;
out:
	uapi_cc_index__release(&ix);
	kd_buf_release(&idx);
	kd_buf_release(&text);
	uapi_cc_cache__free(c);
	return err;
}

/* --- store -------------------------------------------------------------------- */

/* A cache entry by its last write; their order: newest first, then by name. */
struct entry_age {
	char *name;
	struct timespec mtime;
};

static int cmp_age(const void *a, const void *b)
{
	const struct entry_age *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec > y->mtime.tv_sec ? -1 : 1;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec > y->mtime.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

void uapi_cc_prune(const char *dir, size_t keep, uapi_cc_entry_key_fn key, const char *obj_ext)
{
	struct entry_age *v = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d))) {
		struct kd_buf p = KD_BUF_INIT;
		bool stale = false;
		size_t key_len = key(de->d_name, &stale);
		struct stat st;

		if (!key_len)
			continue;
		if (!kd_buf_addf(&p, "%s/%s", dir, de->d_name) && !lstat(p.s, &st) &&
		    !KD_GROW(v, cap, n + 1)) {
			v[n].name = kd_strndup(de->d_name, key_len);
			v[n].mtime = st.st_mtim;
			if (stale)
				v[n].mtime.tv_sec = v[n].mtime.tv_nsec = 0;	/* pruned first */
			if (v[n].name)
				n++;
		}
		kd_buf_release(&p);
	}
	if (d)
		closedir(d);
	if (n > keep)
		qsort(v, n, sizeof(*v), cmp_age);
	for (i = 0; i < n; i++) {
		struct kd_buf p = KD_BUF_INIT;

		if (i >= keep && !kd_buf_addf(&p, "%s/%s.idx", dir, v[i].name)) {
			unlink(p.s);
			kd_buf_reset(&p);
			if (!kd_buf_addf(&p, "%s/%s%s", dir, v[i].name, obj_ext))
				unlink(p.s);
		}
		kd_buf_release(&p);
		free(v[i].name);
	}
	free(v);
}

/*
 * A whole-tree entry KEY.idx (with KEY.so): the key's length. 32 digits: a
 * key of format 2, which no lookup computes any more: stale.
 */
static size_t tree_entry_key(const char *name, bool *stale)
{
	size_t len = strlen(name), key_len = len - strlen(".idx");

	if ((len != KD_DIGEST_HEX_LEN + 4 && len != 32 + 4) || strcmp(name + key_len, ".idx"))
		return 0;
	*stale = key_len != KD_DIGEST_HEX_LEN;
	return key_len;
}

/* Copy the object @src to @dest through a temporary file and a rename; its hash and size. */
int uapi_cc_publish_file(const char *src, const char *dest, uint64_t *hash, uint64_t *size)
{
	char *tmp = NULL;
	struct stat st;
	int in = kd_open_regular(src, 0, &st), out, err;

	if (in < 0)
		return in;
	out = kd_tmpfile_create_cache(dest, &tmp);
	if (out < 0) {
		close(in);
		return out;
	}
	err = uapi_cc_hash_fd(in, UINT64_MAX - 1, out, hash, size);
	close(in);
	if (close(out) && !err)
		err = -errno;
	if (!err)
		err = kd_tmpfile_commit(tmp, dest);
	if (err)
		kd_tmpfile_discard(tmp);
	free(tmp);
	return err;
}

/*
 * Record the file the compiler read as @path: relative to the tree's
 * directory it was reached through (the directory as the compiler was
 * given it, less trailing slashes, which gcc drops), else absolute (a
 * relative name is relative to our working directory, the compiler's).
 * 1 recorded, 0 when it cannot be (gone already, a name the index cannot
 * carry), -ENOMEM.
 */
int uapi_cc_index_add_path(const struct utree *tree, struct uapi_cc_index *ix, const char *path)
{
	struct kd_buf abs = KD_BUF_INIT;
	const char *rel = path;
	uint64_t h, n;
	int dir = -1, i, rc = 1;

	for (i = 0; dir < 0 && i < tree->nr_dirs; i++) {
		const char *d = tree->dirs[i];
		size_t len = strlen(d);

		while (len > 1 && d[len - 1] == '/')
			len--;
		if (!strncmp(path, d, len) && path[len] == '/') {
			for (rel = path + len; *rel == '/'; rel++)
				;
			dir = *rel ? i : -1;
		}
	}
	if (dir < 0 && path[0] != '/') {
		char *cwd = getcwd(NULL, 0);

		if (!cwd)
			return 0;
		rc = kd_buf_addf(&abs, "%s/%s", cwd, path) ? -ENOMEM : 1;
		free(cwd);
	}
	if (dir < 0)
		rel = abs.len ? abs.s : path;
	if (rc > 0 && (!uapi_cc_index__storable(rel) || !*rel ||
		       uapi_cc_file_hash(dir >= 0 ? path : rel, UINT64_MAX - 1, &h, &n)))
		rc = 0;
	if (rc > 0 && uapi_cc_index__add_dep(ix, h, n, dir, rel))
		rc = -ENOMEM;
	kd_buf_release(&abs);
	return rc;
}

int uapi_cc_cache__store(struct uapi_cc_cache *c, struct uapi_cc_result *r, char *const *deps,
			 size_t nr_deps)
{
	struct uapi_cc_index ix = { .nr_headers = r->nr_headers, .nr_compiled = r->nr_compiled };
	struct kd_buf idx = KD_BUF_INIT, so = KD_BUF_INIT, text = KD_BUF_INIT;
	char key[UAPI_CC_KEY_SIZE];
	size_t i;
	int rc = 1, err = 0;

	if (!c || !c->key[0])
		return 0;
	for (i = 0; i < r->nr_failures; i++)
		if (!*r->failures[i].header || !uapi_cc_index__storable(r->failures[i].header) ||
		    !uapi_cc_index__storable(r->failures[i].message))
			return 0;	/* a name the index cannot carry: not cached */
	for (i = 0; rc > 0 && i < nr_deps; i++)
		rc = uapi_cc_index_add_path(c->tree, &ix, deps[i]);
	err = rc < 0 ? rc : 0;
	/* The tree changed while it was compiled: the result is nobody's to keep. */
	if (!err && rc > 0)
		err = uapi_cc_tree_key(c->tree, c->conf, c->cc_path, c->version, key);
	if (err || rc <= 0 || strcmp(key, c->key))
		goto out;
	err = entry_path(c, "idx", &idx);
	if (!err)
		err = entry_path(c, "so", &so);
	if (!err && r->object) {
		ix.has_object = true;
		err = uapi_cc_publish_file(r->object, so.s, &ix.object_hash, &ix.object_size);
	}
	ix.failures = r->failures;
	ix.nr_failures = r->nr_failures;
	if (!err)
		err = uapi_cc_index__format(&ix, &text);
	ix.failures = NULL;
	ix.nr_failures = 0;
	if (!err)
		err = kd_write_file_atomic(idx.s, text.s, text.len, KD_WRITE_CACHE);
	if (!err)
		uapi_cc_prune(c->dir, CACHE_ENTRIES, tree_entry_key, ".so");
out:
	if (err && err != -ENOMEM)
		kd_warn("%s: cannot store the compiled UAPI headers in the cache: %s", c->dir,
			kd_strerror(err));
	uapi_cc_index__release(&ix);
	kd_buf_release(&idx);
	kd_buf_release(&so);
	kd_buf_release(&text);
	return err == -ENOMEM ? err : 0;
}

void uapi_cc_cache__free(struct uapi_cc_cache *c)
{
	if (!c)
		return;
	free(c->dir);
	free(c->version);
	free(c);
}
