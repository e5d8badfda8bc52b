// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a compile cache entry (compile-cache.c) is keyed and verified by:
 * files' content hashes, and the key of a tree. The key covers everything
 * the compiler can reach by name under the tree's directories: every
 * entry, dot-files included, with its kind (file, directory, dangling
 * link, FIFO or device, unreadable), and each regular file's size and
 * contents -- contents, not modification times, so a copied or
 * re-extracted tree hits and a same-size edit misses. Directories reached
 * through symbolic links are walked too, each once (by device and inode):
 * a second name for one, a link back up (a loop) included, is hashed as
 * "the same as" the name it was walked under. Names are hashed in
 * alphasort() order.
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
#include "lib/hashmap.h"
#include "lib/mem.h"

#define KEY_FORMAT "kabi-diff uapi-cc key 2"
/* A tree beyond these is compiled but not cached (hashing it would cost more than it saves). */
#define TREE_MAX_FILES 50000
#define TREE_MAX_BYTES (512ull << 20)
#define TREE_MAX_DEPTH 16
/* Files are hashed in blocks of this size, whatever read() returns at a time. */
#define HASH_BLOCK 65536

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

/* --- file contents ---------------------------------------------------------- */

/* @path opened for reading, never blocking (a FIFO); -KD_ENOTREG unless a regular file. */
int uapi_cc_open_regular(const char *path, int flags, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | flags), err;

	if (fd < 0)
		return -errno;
	err = fstat(fd, st) < 0 ? -errno : S_ISREG(st->st_mode) ? 0 : -KD_ENOTREG;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int uapi_cc_write_all(int fd, const void *data, size_t n)
{
	const unsigned char *p = data;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * The content hash and size of what @fd holds, read to its end but no
 * further than @max + 1 bytes (-KD_ELIMIT past @max); each block also
 * written to @copy_fd unless that is -1.
 */
int uapi_cc_hash_fd(int fd, uint64_t max, int copy_fd, uint64_t *hash, uint64_t *size)
{
	unsigned char block[HASH_BLOCK];
	uint64_t h = KD_HASH_SEED, n = 0;
	bool eof = false;
	int err = 0;

	while (!eof && !err) {
		size_t fill = 0;

		/* Whole blocks: the same hash however the reads were split. */
		while (fill < sizeof(block) && n + fill <= max) {
			size_t want = sizeof(block) - fill;
			ssize_t r;

			if (want > max + 1 - n - fill)
				want = (size_t)(max + 1 - n - fill);
			r = read(fd, block + fill, want);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				eof = r == 0;
				err = r < 0 ? -EIO : 0;
				break;
			}
			fill += (size_t)r;
		}
		n += fill;
		if (!err && n > max)
			err = -KD_ELIMIT;
		if (!err && fill) {
			h = kd_hash_bytes(h, block, fill);
			if (copy_fd >= 0)
				err = uapi_cc_write_all(copy_fd, block, fill);
		}
	}
	*hash = h;
	*size = n;
	return err;
}

/* Content hash and size of the regular file @path, if at most @max bytes (else -KD_ELIMIT). */
int uapi_cc_file_hash(const char *path, uint64_t max, uint64_t *hash, uint64_t *size)
{
	struct stat st;
	int fd = uapi_cc_open_regular(path, 0, &st), err;

	if (fd < 0)
		return fd;
	err = (uint64_t)st.st_size > max ? -KD_ELIMIT : uapi_cc_hash_fd(fd, max, -1, hash, size);
	close(fd);
	return err;
}

/* --- the key of a tree ----------------------------------------------------------- */

struct seen_dir {
	dev_t dev;
	ino_t ino;
	char *name;		/* "TOP:REL", where it was walked first */
};

struct walk {
	struct hash2 *h;
	const struct utree *tree;
	long files;
	uint64_t bytes;
	bool too_big;
	struct kd_hashmap seen;	/* hash of (device, inode) -> index + 1 into dirs */
	struct seen_dir *dirs;
	size_t nr_dirs, cap_dirs;
};

static void walk_release(struct walk *w)
{
	size_t i;

	for (i = 0; i < w->nr_dirs; i++)
		free(w->dirs[i].name);
	free(w->dirs);
	kd_hashmap_release(&w->seen);
}

/*
 * Has the directory @st been walked? *first is then the name it was walked
 * under; else NULL, and it is recorded under @top:@rel.
 */
static int seen_before(struct walk *w, const struct stat *st, int top, const char *rel,
		       const char **first)
{
	uint64_t hash = kd_hash_u64(kd_hash_u64(KD_HASH_SEED, (uint64_t)st->st_dev),
				    (uint64_t)st->st_ino), v;
	struct kd_buf name = KD_BUF_INIT;
	size_t pos = KD_HASHMAP_FIRST;
	struct seen_dir *d;

	*first = NULL;
	if (kd_hashmap_reserve(&w->seen, 1))
		return -ENOMEM;
	while ((v = kd_hashmap_next(&w->seen, hash, &pos))) {
		d = &w->dirs[v - 1];
		if (d->dev == st->st_dev && d->ino == st->st_ino) {
			*first = d->name;
			return 0;
		}
	}
	if (KD_GROW(w->dirs, w->cap_dirs, w->nr_dirs + 1) || kd_buf_addf(&name, "%d:%s", top, rel)) {
		kd_buf_release(&name);
		return -ENOMEM;
	}
	d = &w->dirs[w->nr_dirs];
	d->dev = st->st_dev;
	d->ino = st->st_ino;
	d->name = kd_buf_detach(&name);
	if (!d->name)
		return -ENOMEM;
	kd_hashmap_insert_at(&w->seen, pos, hash, ++w->nr_dirs);
	return 0;
}

/* One record of the key: what kind of entry the name @rel is. */
static void entry(struct walk *w, const char *kind, const char *rel)
{
	h2_str(w->h, kind);
	h2_str(w->h, rel);
}

static int hash_dir(struct walk *w, int top, const char *rel, int depth);

/* The entry @rel (@path) of the tree's directory @top, as opening it by name finds it. */
static int hash_entry(struct walk *w, int top, const char *rel, const char *path, int depth)
{
	const char *first;
	uint64_t fh, size;
	struct stat st;
	int err;

	if (stat(path, &st) < 0) {
		entry(w, "missing", rel);	/* a dangling link */
		return 0;
	}
	if (S_ISDIR(st.st_mode)) {
		err = seen_before(w, &st, top, rel, &first);
		if (err)
			return err;
		if (first) {
			entry(w, "same", rel);
			h2_str(w->h, first);
			return 0;
		}
		entry(w, "dir", rel);
		return hash_dir(w, top, rel, depth);
	}
	if (!S_ISREG(st.st_mode)) {
		entry(w, "special", rel);	/* a FIFO, a device: never read here */
		return 0;
	}
	if (++w->files > TREE_MAX_FILES || (uint64_t)st.st_size > TREE_MAX_BYTES - w->bytes) {
		w->too_big = true;
		return 0;
	}
	err = uapi_cc_file_hash(path, TREE_MAX_BYTES - w->bytes, &fh, &size);
	if (err == -KD_ELIMIT) {
		w->too_big = true;
		return 0;
	}
	if (err) {
		entry(w, "unreadable", rel);	/* the compiler will say so */
		return 0;
	}
	w->bytes += size;
	entry(w, "file", rel);
	h2_bytes(w->h, &size, sizeof(size));
	h2_bytes(w->h, &fh, sizeof(fh));
	return 0;
}

/* Every entry of the directory @rel (depth @depth) of the tree's directory @top, in name order. */
static int hash_dir(struct walk *w, int top, const char *rel, int depth)
{
	const char *dir = w->tree->dirs[top];
	struct kd_buf path = KD_BUF_INIT, sub = KD_BUF_INIT;
	struct dirent **names = NULL;
	int n, i, err = 0;

	if (depth > TREE_MAX_DEPTH) {
		w->too_big = true;
		return 0;
	}
	if (kd_buf_addf(&path, "%s%s%s", dir, *rel ? "/" : "", rel))
		return -ENOMEM;
	n = scandir(path.s, &names, NULL, alphasort);
	if (n < 0)
		entry(w, "unlisted", rel);
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;

		if (err || w->too_big || !strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		kd_buf_reset(&sub);
		kd_buf_reset(&path);
		err = kd_buf_addf(&sub, "%s%s%s", rel, *rel ? "/" : "", name);
		if (!err)
			err = kd_buf_addf(&path, "%s/%s", dir, sub.s);
		if (!err)
			err = hash_entry(w, top, sub.s, path.s, depth + 1);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	kd_buf_release(&path);
	kd_buf_release(&sub);
	return err;
}

int uapi_cc_tree_key(const struct utree *tree, const struct uapi_cc_conf *conf, const char *cc_path,
		     const char *version, char key[33])
{
	struct hash2 h = { KD_HASH_SEED, ~KD_HASH_SEED };
	struct walk w = { .h = &h, .tree = tree };
	const char *const *f;
	int i, err = 0;

	key[0] = '\0';
	h2_str(&h, KEY_FORMAT);
	h2_str(&h, cc_path);
	h2_str(&h, version);
	h2_str(&h, conf->arch->name);
	for (f = conf->arch->flags; f && *f; f++)
		h2_str(&h, *f);
	for (f = conf->arch->not_roots; f && *f; f++)
		h2_str(&h, *f);
	h2_bytes(&h, &tree->source_layout, sizeof(tree->source_layout));
	for (i = 0; !err && !w.too_big && i < tree->nr_dirs; i++) {
		const char *first = NULL;
		struct stat st;

		h2_str(&h, "top");
		if (stat(tree->dirs[i], &st) < 0 || !S_ISDIR(st.st_mode)) {
			entry(&w, "missing", "");
			continue;
		}
		err = seen_before(&w, &st, i, "", &first);
		if (!err && first)
			entry(&w, "same", first);
		else if (!err)
			err = hash_dir(&w, i, "", 0);
	}
	if (!err && !w.too_big)
		snprintf(key, 33, "%016" PRIx64 "%016" PRIx64, h.a, h.b);
	walk_release(&w);
	return err;
}
