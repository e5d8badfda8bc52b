// SPDX-License-Identifier: GPL-2.0-only
/*
 * The extraction cache as a whole (cache.h): the directory, its entries
 * told apart by name and, for a .kabi, by what it says of itself, and
 * their removal. Staleness is what no lookup can reach again: a .kabi of
 * another kabi-diff version or schema (its key covers the version), a
 * package reference whose .kabi is gone, a file digest whose file changed
 * or is gone, an index without its compiled
 * tree, an extraction's temporary left for more than a day.
 */
#include "extract/input/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/kdb.h"
#include "extract/extract.h"
#include "extract/input/file-digest.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/str.h"
#include "lib/tmpfile.h"

#define LEFTOVER_SECONDS (24 * 60 * 60)	/* no extraction runs this long */
#define REF_MAX_BYTES (16u << 10)	/* as diff-inputs.c's */

int kcache__dir(struct kd_buf *dir, bool create)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *p;
	int err;

	if (xdg && *xdg)
		err = kd_buf_addf(dir, "%s/kabi-diff", xdg);
	else if (home && *home)
		err = kd_buf_addf(dir, "%s/.cache/kabi-diff", home);
	else
		err = kd_buf_adds(dir, "./.kabi-diff-cache");
	if (err || !create)
		return err;
	for (p = dir->s + 1; ; p++) {
		if (*p == '/' || !*p) {
			char c = *p;

			*p = '\0';
			if (mkdir(dir->s, 0755) < 0 && errno != EEXIST) {
				err = -errno;
				kd_err("%s: cannot create the cache directory: %s", dir->s, strerror(errno));
				*p = c;
				return err;
			}
			*p = c;
			if (!c)
				break;
		}
	}
	return 0;
}

const char *kcache_kind_name(enum kcache_kind k)
{
	static const char *const names[] = { "kernel", "headers", "packages", "file digest",
					     "compiled headers", "compiled units", "partial", "other" };

	return (unsigned)k <= KCACHE_OTHER ? names[k] : "?";
}

/* nftw() takes no context: the sum of the tree being measured (one thread). */
static uint64_t tree_bytes;

static int add_bytes(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)path;
	(void)ftw;
	if (type == FTW_F)
		tree_bytes += (uint64_t)st->st_size;
	return 0;
}

/* A .kabi: what it says of itself. Never an error: an unreadable one is stale. */
static int describe_kabi(const char *path, struct kcache_entry *e)
{
	enum kd_level level = kd_log_level();
	char *tool = NULL, *input = NULL;
	struct kdb *db = NULL;
	int err = 0;

	kd_log_set_level(KD_LOG_QUIET);
	if (kdb__open(path, &db)) {
		e->stale = "not a .kabi of this kabi-diff's schema";
		goto out;
	}
	if ((err = kdb__get_meta(db, "tool_version", &tool)) == -ENOMEM ||
	    (err = kdb__get_meta(db, "input", &input)) == -ENOMEM ||
	    (err = kdb__get_meta(db, "release", &e->release)) == -ENOMEM)
		goto out;
	err = 0;
	e->kind = input && !strcmp(input, "headers") ? KCACHE_HEADERS : KCACHE_KERNEL;
	if (!tool || strcmp(tool, extract__tool_version()))
		e->stale = "extracted by another kabi-diff version, whose entries this one never reads";
out:
	kd_log_set_level(level);
	kdb__free(db);
	free(tool);
	free(input);
	return err;
}

/* "vmlinux, headers, modules" from BUILD-ID[-um]-KEY.kabi. */
static int kabi_what(struct kcache_entry *e)
{
	const char *dash = strchr(e->name, '-'), *next = dash ? strchr(dash + 1, '-') : NULL;
	bool u = false, m = false;
	struct kd_buf b = KD_BUF_INIT;

	for (const char *p = next ? dash + 1 : ""; next && p < next; p++) {
		u |= *p == 'u';
		m |= *p == 'm';
	}
	if (kd_buf_addf(&b, "%s%s%s", e->kind == KCACHE_HEADERS ? "headers" : "vmlinux",
			e->kind != KCACHE_HEADERS && u ? ", headers" : "", m ? ", modules" : ""))
		return -ENOMEM;
	e->what = kd_buf_detach(&b);
	return e->what ? 0 : -ENOMEM;
}

/* pkg-HASH.ref: the .kabi it names (its first line), stale when that is gone. */
static int describe_ref(const char *path, struct kcache_entry *e)
{
	struct kd_buf text = KD_BUF_INIT;
	char *nl;
	int err = kd_buf_read_regular(&text, path, REF_MAX_BYTES);
	struct stat st;

	if (err == -ENOMEM)
		return err;
	nl = err ? NULL : strchr(text.s, '\n');
	if (!nl) {
		e->stale = "not a package reference";
	} else {
		*nl = '\0';
		if (stat(text.s, &st) < 0)
			e->stale = "names a .kabi no longer cached";
		e->release = kd_strdup(strrchr(text.s, '/') ? strrchr(text.s, '/') + 1 : text.s);
		if (!e->release)
			err = -ENOMEM;
	}
	kd_buf_release(&text);
	return err < 0 && err != -ENOMEM ? 0 : err;
}

static int push(struct kcache_entry **v, size_t *nr, size_t *cap, const char *prefix,
		const char *name, struct kcache_entry **e)
{
	struct kd_buf b = KD_BUF_INIT;

	if (KD_GROW(*v, *cap, *nr + 1) || kd_buf_addf(&b, "%s%s", prefix, name)) {
		kd_buf_release(&b);
		return -ENOMEM;
	}
	*e = &(*v)[(*nr)++];
	memset(*e, 0, sizeof(**e));
	(*e)->name = kd_buf_detach(&b);
	(*e)->kind = KCACHE_OTHER;
	return (*e)->name ? 0 : -ENOMEM;
}

/* uapi/: each KEY.so with its KEY.idx (used: the index's time), and leftovers. */
static int list_compiled(const char *dir, time_t now, struct kcache_entry **v, size_t *nr,
			 size_t *cap)
{
	struct kd_buf path = KD_BUF_INIT;
	struct dirent *de;
	DIR *d;
	int err = 0;

	if (kd_buf_addf(&path, "%s/uapi", dir))
		return -ENOMEM;
	d = opendir(path.s);
	while (!err && d && (de = readdir(d))) {
		struct kcache_entry *e;
		struct stat st, idx;
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.' || fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    (kd_ends_with(de->d_name, ".idx") && !strstr(de->d_name, ".tmp.")))
			continue;	/* an index is listed with its tree */
		err = push(v, nr, cap, "uapi/", de->d_name, &e);
		if (err)
			break;
		e->bytes = (uint64_t)st.st_size;
		e->used = st.st_mtime;
		if (!strcmp(de->d_name, "units") && S_ISDIR(st.st_mode)) {
			/* The per-header objects: one entry, bounded by the compile cache itself. */
			struct kd_buf units = KD_BUF_INIT;

			e->kind = KCACHE_UNITS;
			if (kd_buf_addf(&units, "%s/units", path.s)) {
				err = -ENOMEM;
				break;
			}
			tree_bytes = 0;
			(void)nftw(units.s, add_bytes, 16, FTW_PHYS);
			e->bytes = tree_bytes;
			kd_buf_release(&units);
		} else if (strstr(de->d_name, ".tmp.")) {
			e->kind = KCACHE_PARTIAL;
			if (now - st.st_mtime > LEFTOVER_SECONDS)
				e->stale = "left by an interrupted compilation";
		} else if (S_ISREG(st.st_mode) && kd_ends_with(de->d_name, ".so")) {
			struct kd_buf ip = KD_BUF_INIT;

			e->kind = KCACHE_COMPILED;
			if (kd_buf_add(&ip, de->d_name, len - 3) || kd_buf_adds(&ip, ".idx")) {
				kd_buf_release(&ip);
				err = -ENOMEM;
				break;
			}
			if (fstatat(dirfd(d), ip.s, &idx, AT_SYMLINK_NOFOLLOW) || !S_ISREG(idx.st_mode)) {
				e->stale = "a compiled tree without its index";
			} else {
				e->bytes += (uint64_t)idx.st_size;
				e->used = idx.st_mtime;
			}
			kd_buf_release(&ip);
		}
	}
	if (d)
		closedir(d);
	kd_buf_release(&path);
	return err;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct kcache_entry *)a)->name, ((const struct kcache_entry *)b)->name);
}

int kcache__list(const char *dir, time_t now, struct kcache_entry **out, size_t *nr)
{
	struct kcache_entry *v = NULL, *e;
	size_t n = 0, cap = 0;
	struct kd_buf path = KD_BUF_INIT;
	struct dirent *de;
	DIR *d = opendir(dir);
	int err = 0;

	*out = NULL;
	*nr = 0;
	if (!d) {
		if (errno == ENOENT)
			return 0;
		err = -errno;
		kd_err("%s: %s", dir, kd_strerror(err));
		return err;
	}
	while (!err && (de = readdir(d))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (!strcmp(de->d_name, "uapi") && S_ISDIR(st.st_mode)) {
			err = list_compiled(dir, now, &v, &n, &cap);
			continue;
		}
		err = push(&v, &n, &cap, "", de->d_name, &e);
		if (err)
			break;
		e->bytes = (uint64_t)st.st_size;
		e->used = st.st_mtime;
		kd_buf_reset(&path);
		if (kd_buf_addf(&path, "%s/%s", dir, de->d_name)) {
			err = -ENOMEM;
			break;
		}
		if (strstr(de->d_name, ".tmp.") || (kd_starts_with(de->d_name, ".kabi-unpack-") &&
						    S_ISDIR(st.st_mode))) {
			e->kind = KCACHE_PARTIAL;
			if (S_ISDIR(st.st_mode)) {
				tree_bytes = 0;
				(void)nftw(path.s, add_bytes, 16, FTW_PHYS);
				e->bytes = tree_bytes;
			}
			if (now - st.st_mtime > LEFTOVER_SECONDS)
				e->stale = "left by an interrupted extraction";
		} else if (S_ISREG(st.st_mode) && kd_ends_with(de->d_name, ".kabi")) {
			err = describe_kabi(path.s, e);
			if (!err)
				err = kabi_what(e);
		} else if (S_ISREG(st.st_mode) && kd_starts_with(de->d_name, "pkg-") &&
			   kd_ends_with(de->d_name, ".ref")) {
			e->kind = KCACHE_PACKAGES;
			err = describe_ref(path.s, e);
		} else if (S_ISREG(st.st_mode) && kd_starts_with(de->d_name, "file-") &&
			   kd_ends_with(de->d_name, ".ref")) {
			bool live;

			e->kind = KCACHE_DIGEST;
			err = kfile_digest__describe(path.s, &e->release, &live);
			if (!err && !live)
				e->stale = e->release ? "remembers a file changed or gone since"
						      : "not a file digest";
		}
	}
	closedir(d);
	kd_buf_release(&path);
	if (err) {
		if (err == -ENOMEM)
			kd_err("out of memory");
		kcache__entries_free(v, n);
		return err;
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_entry);
	*out = v;
	*nr = n;
	return 0;
}

void kcache__entries_free(struct kcache_entry *e, size_t nr)
{
	size_t i;

	for (i = 0; e && i < nr; i++) {
		free(e[i].name);
		free(e[i].release);
		free(e[i].what);
	}
	free(e);
}

int kcache__remove(const char *dir, const struct kcache_entry *e)
{
	struct kd_buf path = KD_BUF_INIT;
	struct stat st;
	int err;

	if (kd_buf_addf(&path, "%s/%s", dir, e->name)) {
		kd_err("out of memory");
		return -ENOMEM;
	}
	if (lstat(path.s, &st) < 0)
		err = errno == ENOENT ? 0 : -errno;
	else if (S_ISDIR(st.st_mode))
		err = kd_remove_tree(path.s);
	else
		err = unlink(path.s) < 0 ? -errno : 0;
	if (!err && e->kind == KCACHE_COMPILED) {
		/* KEY.so's index: KEY.idx. */
		path.len -= 3;
		path.s[path.len] = '\0';
		if (kd_buf_adds(&path, ".idx"))
			err = -ENOMEM;
		else if (unlink(path.s) < 0 && errno != ENOENT)
			err = -errno;
	}
	if (err)
		kd_err("%s: cannot remove: %s", path.s, kd_strerror(err));
	kd_buf_release(&path);
	return err;
}
