// SPDX-License-Identifier: GPL-2.0-only
/*
 * The walk behind kd_tree__digest() (lib/tree-digest.h says what it
 * covers). Each record is a kind and a name, both NUL-terminated, then
 * for a file its size and its own SHA-256: fixed-length fields after
 * terminated names, so no two trees feed the same bytes.
 */
#include "tree-digest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "digest.h"
#include "err.h"
#include "hash.h"
#include "hashmap.h"
#include "mem.h"
#include "path.h"

/* Files are read in blocks of this size. */
#define READ_BLOCK 65536

struct seen_dir {
	dev_t dev;
	ino_t ino;
	char *name;		/* "TOP:REL", where it was walked first */
};

struct walk {
	struct kd_digest *d;
	struct kd_digest *file;	/* one file's contents */
	const char *const *dirs;
	const struct kd_tree_bounds *bounds;
	long files;
	uint64_t bytes;
	bool too_big;
	struct kd_hashmap seen;	/* hash of (device, inode) -> index + 1 into seen_dirs */
	struct seen_dir *seen_dirs;
	size_t nr_seen, cap_seen;
};

static void walk_release(struct walk *w)
{
	size_t i;

	for (i = 0; i < w->nr_seen; i++)
		free(w->seen_dirs[i].name);
	free(w->seen_dirs);
	kd_hashmap_release(&w->seen);
	kd_digest__free(w->file);
}

/*
 * The SHA-256 and size of the regular file @path, read to its end but
 * no further than @max bytes: -KD_ELIMIT past that, -KD_ENOTREG when it
 * is no regular file (never opened blocking: a FIFO), -errno.
 */
static int file_digest(struct walk *w, const char *path, uint64_t max,
		       unsigned char raw[KD_DIGEST_BYTES], uint64_t *size)
{
	unsigned char block[READ_BLOCK];
	struct stat st;
	int fd = kd_open_regular(path, 0, &st), err = 0;
	uint64_t n = 0;

	if (fd < 0)
		return fd;
	while (!err) {
		ssize_t r = read(fd, block, sizeof(block));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			err = r < 0 ? -errno : 0;
			break;
		}
		n += (uint64_t)r;
		if (n > max)
			err = -KD_ELIMIT;
		else
			kd_digest__update(w->file, block, (size_t)r);
	}
	close(fd);
	/* Always finished: the next file starts from a fresh digest. */
	if (kd_digest__final(w->file, raw, NULL) && !err)
		err = -EIO;
	*size = n;
	return err;
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
	struct seen_dir *s;

	*first = NULL;
	if (kd_hashmap_reserve(&w->seen, 1))
		return -ENOMEM;
	/* A match of the 64-bit hash is checked on the device and inode themselves. */
	while ((v = kd_hashmap_next(&w->seen, hash, &pos))) {
		s = &w->seen_dirs[v - 1];
		if (s->dev == st->st_dev && s->ino == st->st_ino) {
			*first = s->name;
			return 0;
		}
	}
	if (KD_GROW(w->seen_dirs, w->cap_seen, w->nr_seen + 1) ||
	    kd_buf_addf(&name, "%d:%s", top, rel)) {
		kd_buf_release(&name);
		return -ENOMEM;
	}
	s = &w->seen_dirs[w->nr_seen];
	s->dev = st->st_dev;
	s->ino = st->st_ino;
	s->name = kd_buf_detach(&name);
	if (!s->name)
		return -ENOMEM;
	kd_hashmap_insert_at(&w->seen, pos, hash, ++w->nr_seen);
	return 0;
}

/* One record: what kind of entry the name @rel is. */
static void entry(struct walk *w, const char *kind, const char *rel)
{
	kd_digest__str(w->d, kind);
	kd_digest__str(w->d, rel);
}

static int walk_dir(struct walk *w, int top, const char *rel, int depth);

/* The entry @rel (@path) of the top directory @top, as opening it by name finds it. */
static int walk_entry(struct walk *w, int top, const char *rel, const char *path, int depth)
{
	unsigned char raw[KD_DIGEST_BYTES];
	const char *first;
	uint64_t size;
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
			kd_digest__str(w->d, first);
			return 0;
		}
		entry(w, "dir", rel);
		return walk_dir(w, top, rel, depth);
	}
	if (!S_ISREG(st.st_mode)) {
		entry(w, "special", rel);	/* a FIFO, a device: never read here */
		return 0;
	}
	if (++w->files > w->bounds->max_files ||
	    (uint64_t)st.st_size > w->bounds->max_bytes - w->bytes) {
		w->too_big = true;
		return 0;
	}
	err = file_digest(w, path, w->bounds->max_bytes - w->bytes, raw, &size);
	if (err == -KD_ELIMIT) {
		w->too_big = true;
		return 0;
	}
	if (err == -ENOMEM)
		return err;
	if (err) {
		entry(w, "unreadable", rel);	/* its reader will say so */
		return 0;
	}
	w->bytes += size;
	entry(w, "file", rel);
	kd_digest__u64(w->d, size);
	kd_digest__update(w->d, raw, sizeof(raw));
	return 0;
}

/* Every entry of the directory @rel (depth @depth) of the top directory @top, in name order. */
static int walk_dir(struct walk *w, int top, const char *rel, int depth)
{
	const char *dir = w->dirs[top];
	struct kd_buf path = KD_BUF_INIT, sub = KD_BUF_INIT;
	struct dirent **names = NULL;
	int n, i, err = 0;

	if (depth > w->bounds->max_depth) {
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
			err = walk_entry(w, top, sub.s, path.s, depth + 1);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	kd_buf_release(&path);
	kd_buf_release(&sub);
	return err;
}

int kd_tree__digest(struct kd_digest *d, const char *const *dirs, int nr_dirs,
		    const struct kd_tree_bounds *bounds, bool *too_big)
{
	struct walk w = { .d = d, .dirs = dirs, .bounds = bounds };
	int i, err = kd_digest__new(&w.file);

	for (i = 0; !err && !w.too_big && i < nr_dirs; i++) {
		const char *first = NULL;
		struct stat st;

		kd_digest__str(d, "top");
		if (!dirs[i] || stat(dirs[i], &st) < 0 || !S_ISDIR(st.st_mode)) {
			entry(&w, "missing", "");
			continue;
		}
		err = seen_before(&w, &st, i, "", &first);
		if (!err && first)
			entry(&w, "same", first);
		else if (!err)
			err = walk_dir(&w, i, "", 0);
	}
	*too_big = w.too_big;
	walk_release(&w);
	return err;
}
