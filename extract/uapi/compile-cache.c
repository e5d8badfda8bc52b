// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cache of compiled UAPI trees: $XDG_CACHE_HOME/kabi-diff/uapi/KEY.so
 * (the linked object) and KEY.idx (the rest of the result and what it was
 * built from). KEY is a 128-bit hash of the compiler (its path and what
 * `cc -dumpfullversion -dumpmachine` says), the target flags, the tree's
 * layout and the name, size and contents of every file under the tree's
 * directories -- contents, not modification times, so a copied or
 * re-extracted tree hits and a same-size edit misses. The index also lists
 * every other file the compiler read (glibc's headers, through the UAPI
 * headers' #ifndef __KERNEL__ branches) with its content hash; an entry
 * whose dependencies changed is a miss. The index is written last and
 * renamed into place, so a half-written entry is never seen. The newest
 * entries are kept. The cache may be shared (a CI cache): an index that is
 * not a regular file or is larger than INDEX_MAX_BYTES is a miss and never
 * opened blocking, and whatever stands where an entry is stored and is not
 * a regular file is replaced.
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
#include "lib/hash.h"
#include "lib/mem.h"
#include "lib/path.h"
#include "lib/tmpfile.h"

#define CACHE_FORMAT "kabi-diff uapi-cc 1"
#define CACHE_ENTRIES 16
/* A tree beyond these is compiled but not cached (hashing it would cost more than it saves). */
#define TREE_MAX_FILES 50000
#define TREE_MAX_BYTES (512ull << 20)
#define TREE_MAX_DEPTH 16
/* A whole kernel's index is about 100 KiB (a line per file the compiler read). */
#define INDEX_MAX_MIB 4
#define INDEX_MAX_BYTES ((size_t)INDEX_MAX_MIB << 20)

struct uapi_cc_cache {
	char *dir;		/* .../kabi-diff/uapi */
	char key[33];
};

struct hash2 {
	uint64_t a, b;
};

static void h2_bytes(struct hash2 *h, const void *p, size_t n)
{
	h->a = kd_hash_bytes(h->a, p, n);
	h->b = kd_hash_bytes(h->b ^ 0x5bd1e995u, p, n);
}

static void h2_str(struct hash2 *h, const char *s)
{
	h2_bytes(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

/* Content hash of @path; -errno when unreadable. */
static int file_hash(const char *path, uint64_t *out, uint64_t *size)
{
	unsigned char chunk[65536];
	uint64_t h = KD_HASH_SEED, n = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	while ((r = read(fd, chunk, sizeof(chunk))) > 0) {
		h = kd_hash_bytes(h, chunk, (size_t)r);
		n += (uint64_t)r;
	}
	close(fd);
	if (r < 0)
		return -EIO;
	*out = h;
	*size = n;
	return 0;
}

struct walk {
	struct hash2 *h;
	long files;
	uint64_t bytes;
	bool too_big;
};

/* Every regular file under @dir/@rel in name order (directory links not followed). */
static int hash_dir(struct walk *w, const char *dir, const char *rel, int depth)
{
	struct dirent **names = NULL;
	struct kd_buf path = KD_BUF_INIT, sub = KD_BUF_INIT;
	int n, i, err = 0;

	if (depth > TREE_MAX_DEPTH) {
		w->too_big = true;
		return 0;
	}
	if (kd_buf_addf(&path, "%s%s%s", dir, *rel ? "/" : "", rel))
		return -ENOMEM;
	n = scandir(path.s, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		struct stat st;

		if (err || w->too_big || name[0] == '.')
			continue;
		kd_buf_reset(&sub);
		kd_buf_reset(&path);
		err = kd_buf_addf(&sub, "%s%s%s", rel, *rel ? "/" : "", name);
		if (!err)
			err = kd_buf_addf(&path, "%s/%s", dir, sub.s);
		if (err || lstat(path.s, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			err = hash_dir(w, dir, sub.s, depth + 1);
		} else if (!stat(path.s, &st) && S_ISREG(st.st_mode)) {
			uint64_t fh, size;

			if (++w->files > TREE_MAX_FILES || (w->bytes += (uint64_t)st.st_size) > TREE_MAX_BYTES) {
				w->too_big = true;
				continue;
			}
			if (file_hash(path.s, &fh, &size))
				continue;	/* unreadable: the compiler will say so */
			h2_str(w->h, sub.s);
			h2_bytes(w->h, &size, sizeof(size));
			h2_bytes(w->h, &fh, sizeof(fh));
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	kd_buf_release(&path);
	kd_buf_release(&sub);
	return err;
}

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

/* Parse an index; fill @r. 1 when valid and every dependency is unchanged. */
static int read_index(const struct uapi_cc_cache *c, const char *text, struct uapi_cc_result *r)
{
	const char *p = text;
	size_t cap = 0, headers = 0, compiled = 0;
	int has_object = -1;
	int err = 0;

	if (strncmp(p, CACHE_FORMAT "\n", strlen(CACHE_FORMAT) + 1))
		return 0;
	p += strlen(CACHE_FORMAT) + 1;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = kd_strndup(p, len);

		if (!line)
			return -ENOMEM;
		if (!strncmp(line, "headers ", 8)) {
			headers = strtoul(line + 8, NULL, 10);
		} else if (!strncmp(line, "compiled ", 9)) {
			compiled = strtoul(line + 9, NULL, 10);
		} else if (!strncmp(line, "object ", 7)) {
			has_object = !strcmp(line + 7, "yes");
		} else if (!strncmp(line, "dep ", 4)) {
			uint64_t want_h, want_n, h, n;
			int off = 0;

			if (sscanf(line + 4, "%16" SCNx64 " %" SCNu64 " %n", &want_h, &want_n, &off) != 2 ||
			    !off || file_hash(line + 4 + off, &h, &n) || h != want_h || n != want_n) {
				free(line);
				return 0;	/* a dependency changed */
			}
		} else if (!strncmp(line, "fail ", 5) && strchr(line + 5, '\t')) {
			char *tab = strchr(line + 5, '\t');
			struct uapi_cc_failure *f;

			err = KD_GROW(r->failures, cap, r->nr_failures + 1);
			if (err) {
				free(line);
				return err;
			}
			f = &r->failures[r->nr_failures];
			f->header = kd_strndup(line + 5, (size_t)(tab - line - 5));
			f->message = kd_strdup(tab + 1);
			if (!f->header || !f->message) {
				free(f->header);
				free(f->message);
				free(line);
				return -ENOMEM;
			}
			r->nr_failures++;
		}
		free(line);
		p += len + (nl ? 1 : 0);
	}
	if (has_object < 0)
		return 0;
	r->nr_headers = headers;
	r->nr_compiled = compiled;
	if (has_object) {
		struct kd_buf so = KD_BUF_INIT;

		if (entry_path(c, "so", &so)) {
			kd_buf_release(&so);
			return -ENOMEM;
		}
		if (!kd_is_file(so.s)) {
			kd_buf_release(&so);
			return 0;
		}
		r->object = kd_buf_detach(&so);
		if (!r->object)
			return -ENOMEM;
	}
	return 1;
}

/* KEY.idx's text into @text, left empty when there is no usable one. 0 or -ENOMEM. */
static int read_index_file(const char *path, struct kd_buf *text)
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

static void clear_result(struct uapi_cc_result *r)
{
	size_t i;

	for (i = 0; i < r->nr_failures; i++) {
		free(r->failures[i].header);
		free(r->failures[i].message);
	}
	free(r->failures);
	free(r->object);
	r->failures = NULL;
	r->nr_failures = 0;
	r->object = NULL;
}

int uapi_cc_cache__lookup(const struct utree *tree, const struct uapi_cc_conf *conf,
			  const char *cc_path, struct uapi_cc_cache **cache, struct uapi_cc_result *r,
			  bool *hit)
{
	char *const version_argv[] = { (char *)cc_path, "-dumpfullversion", "-dumpmachine", NULL };
	struct hash2 h = { KD_HASH_SEED, ~KD_HASH_SEED };
	struct walk w = { .h = &h };
	struct uapi_cc_cache *c;
	struct kd_buf idx = KD_BUF_INIT, text = KD_BUF_INIT;
	const char *const *f;
	char *version = NULL;
	int i, err;

	*cache = NULL;
	*hit = false;
	c = kd_calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->dir = cache_dir();
	/* A compiler that cannot say its version is used, but its output is not cached. */
	if (!c->dir || uapi_cc_run_capture(version_argv, &version)) {
		uapi_cc_cache__free(c);
		return 0;
	}
	h2_str(&h, CACHE_FORMAT);
	h2_str(&h, cc_path);
	h2_str(&h, version);
	h2_str(&h, conf->arch->name);
	for (f = conf->arch->flags; f && *f; f++)
		h2_str(&h, *f);
	for (f = conf->arch->not_roots; f && *f; f++)
		h2_str(&h, *f);
	h2_bytes(&h, &tree->source_layout, sizeof(tree->source_layout));
	for (i = 0; i < tree->nr_dirs; i++) {
		h2_str(&h, "dir");
		err = hash_dir(&w, tree->dirs[i], "", 0);
		if (err)
			goto out;
	}
	if (w.too_big) {
		err = 0;
		goto out;
	}
	snprintf(c->key, sizeof(c->key), "%016" PRIx64 "%016" PRIx64, h.a, h.b);
	err = entry_path(c, "idx", &idx);
	if (err)
		goto out;
	err = read_index_file(idx.s, &text);
	if (err)
		goto out;
	if (text.len) {
		int rc = read_index(c, text.s, r);

		if (rc < 0) {
			err = rc;
			goto out;
		}
		if (rc > 0) {
			*hit = true;
			r->cached = true;
			utimensat(AT_FDCWD, idx.s, NULL, 0);	/* recently used */
		} else {
			clear_result(r);
		}
	}
	*cache = c;
	c = NULL;
	err = 0;
out:
	free(version);
	kd_buf_release(&text);
	kd_buf_release(&idx);
	uapi_cc_cache__free(c);
	return err;
}

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

/* Keep the CACHE_ENTRIES most recently used entries. */
static void prune(const char *dir)
{
	struct entry_age *v = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct kd_buf p = KD_BUF_INIT;
		struct stat st;

		if (len != 36 || strcmp(de->d_name + 32, ".idx"))
			continue;
		if (kd_buf_addf(&p, "%s/%s", dir, de->d_name) || stat(p.s, &st) ||
		    KD_GROW(v, cap, n + 1)) {
			kd_buf_release(&p);
			continue;
		}
		v[n].name = kd_strndup(de->d_name, 32);
		v[n].mtime = st.st_mtim;
		if (v[n].name)
			n++;
		kd_buf_release(&p);
	}
	if (d)
		closedir(d);
	if (n > CACHE_ENTRIES)
		qsort(v, n, sizeof(*v), cmp_age);
	for (i = 0; i < n; i++) {
		if (i >= CACHE_ENTRIES) {
			struct kd_buf p = KD_BUF_INIT;

			if (!kd_buf_addf(&p, "%s/%s.idx", dir, v[i].name))
				unlink(p.s);
			kd_buf_reset(&p);
			if (!kd_buf_addf(&p, "%s/%s.so", dir, v[i].name))
				unlink(p.s);
			kd_buf_release(&p);
		}
		free(v[i].name);
	}
	free(v);
}

static bool storable(const char *s)
{
	return !strpbrk(s, "\t\n\r");
}

/* Write @text to @dest through a temporary file and a rename. */
static int publish(const char *dest, const char *text, size_t len)
{
	char *tmp = NULL;
	int fd = kd_tmpfile_create_cache(dest, &tmp), err = 0;

	if (fd < 0)
		return fd;
	if (write(fd, text, len) != (ssize_t)len)
		err = errno ? -errno : -EIO;
	if (close(fd) && !err)
		err = -errno;
	if (!err)
		err = kd_tmpfile_commit(tmp, dest);
	if (err)
		kd_tmpfile_discard(tmp);
	free(tmp);
	return err;
}

/* Copy @src to @dest through a temporary file and a rename. */
static int publish_file(const char *src, const char *dest)
{
	struct kd_buf b = KD_BUF_INIT;
	int err = kd_buf_read_file(&b, src);

	if (!err)
		err = publish(dest, b.s, b.len);
	kd_buf_release(&b);
	return err;
}

int uapi_cc_cache__store(struct uapi_cc_cache *c, struct uapi_cc_result *r, char *const *deps,
			 size_t nr_deps)
{
	struct kd_buf idx = KD_BUF_INIT, so = KD_BUF_INIT, text = KD_BUF_INIT;
	size_t i;
	int err;

	if (!c || !c->key[0])
		return 0;
	for (i = 0; i < r->nr_failures; i++)
		if (!storable(r->failures[i].header) || !storable(r->failures[i].message))
			return 0;	/* a name the index cannot carry: not cached */
	err = kd_buf_addf(&text, "%s\nheaders %zu\ncompiled %zu\nobject %s\n", CACHE_FORMAT,
			  r->nr_headers, r->nr_compiled, r->object ? "yes" : "no");
	for (i = 0; !err && i < nr_deps; i++) {
		uint64_t h, n;

		if (!storable(deps[i]) || file_hash(deps[i], &h, &n))
			goto out;	/* gone already, or unnamable: not cached */
		err = kd_buf_addf(&text, "dep %016" PRIx64 " %" PRIu64 " %s\n", h, n, deps[i]);
	}
	for (i = 0; !err && i < r->nr_failures; i++)
		err = kd_buf_addf(&text, "fail %s\t%s\n", r->failures[i].header, r->failures[i].message);
	if (!err)
		err = entry_path(c, "idx", &idx);
	if (!err)
		err = entry_path(c, "so", &so);
	if (err)
		goto out;
	if (r->object) {
		err = publish_file(r->object, so.s);
		if (!err) {
			free(r->object);
			r->object = kd_buf_detach(&so);
			err = r->object ? 0 : -ENOMEM;
		}
	}
	if (!err)
		err = publish(idx.s, text.s, text.len);
	if (!err)
		prune(c->dir);
out:
	if (err && err != -ENOMEM)
		kd_warn("%s: cannot store the compiled UAPI headers in the cache: %s", c->dir,
			kd_strerror(err));
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
	free(c);
}
