// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAPI reader: which kind of header tree DIR is, where #include <x/y.h>
 * resolves, and which headers are scanned (the "roots").
 *
 * An installed tree (make headers_install) is one include directory with
 * linux/ and asm/. A source tree keeps the generic headers in include/uapi
 * and the architecture's in arch/ARCH/include/uapi (x86, arm64: the
 * kernel's, lib/arch.h); Debian's linux-headers-*-common package ships
 * them under one include/ (include/uapi, include/arch/ARCH/include/uapi,
 * every architecture side by side). The search order is the kernel's: arch
 * first, then generic. Kbuild generates an asm/X.h wrapper that includes
 * <asm-generic/X.h> for every asm header the arch lacks (mandatory-y of
 * asm-generic/Kbuild); such a name resolves straight to asm-generic/X.h.
 * Roots are every header except asm-generic/ (whose files only count when
 * an asm/ header includes them: asm-generic/unistd.h, for one, is not
 * x86's syscall table; arm64's asm/unistd.h includes it).
 */
#include "extract/uapi/uapi_internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/err.h"
#include "lib/mem.h"
#include "lib/path.h"
#include "lib/str.h"

static int add_dir(struct utree *t, const char *dir, const char *sub)
{
	char *p = sub ? kd_path_join(dir, sub) : kd_strdup(dir);

	if (!p)
		return -ENOMEM;
	t->dirs[t->nr_dirs++] = p;
	return 0;
}

static int add_root(struct utree *t, size_t *cap, const char *name)
{
	char *s;

	if (KD_GROW(t->roots, *cap, t->nr_roots + 1))
		return -ENOMEM;
	s = kd_strdup(name);
	if (!s)
		return -ENOMEM;
	t->roots[t->nr_roots++] = s;
	return 0;
}

/* Note that directory @path could not be read: a problem row, not silence. */
#define STR_(x) #x
#define STR(x) STR_(x)

/* @why: "Permission denied"; the problem row names @path and says its headers are left out. */
static int unreadable(struct utree *t, const char *path, const char *why)
{
	struct kd_buf b = KD_BUF_INIT;
	int err;

	if (KD_GROW(t->unreadable, t->cap_unreadable, t->nr_unreadable + 1))
		return -ENOMEM;
	err = kd_buf_addf(&b, "%s: %s; its headers are left out", path, why);
	if (err)
		return err;
	t->unreadable[t->nr_unreadable++] = kd_buf_detach(&b);
	return 0;
}

/* Has the directory open as @fd been walked? If not, remember it. */
static int seen_before(struct utree *t, int fd, bool *seen)
{
	struct stat st;
	size_t i;

	*seen = false;
	if (fstat(fd, &st))
		return 0;
	for (i = 0; i < t->nr_seen; i++)
		if (t->seen[i].dev == st.st_dev && t->seen[i].ino == st.st_ino) {
			*seen = true;
			return 0;
		}
	if (KD_GROW(t->seen, t->cap_seen, t->nr_seen + 1))
		return -ENOMEM;
	t->seen[t->nr_seen++] = (struct utree_seen){ st.st_dev, st.st_ino };
	return 0;
}

/*
 * Add every *.h under @base/@rel (recursively) as "rel/x.h", except
 * asm-generic. Symlinks are followed (an installed tree may link asm/),
 * each directory once: two links to "." would make the walk exponential.
 */
static int walk(struct utree *t, size_t *cap, const char *base, const char *rel, int depth)
{
	char *path = rel[0] ? kd_path_join(base, rel) : kd_strdup(base);
	struct kd_buf sub = KD_BUF_INIT;
	struct dirent *de;
	DIR *d = NULL;
	bool seen;
	int err = -ENOMEM;

	if (!path)
		goto out;
	d = opendir(path);
	if (!d) {
		err = unreadable(t, path, strerror(errno));
		goto out;
	}
	err = seen_before(t, dirfd(d), &seen);
	if (err || seen)
		goto out;
	if (depth > UTREE_MAX_DEPTH) {
		err = unreadable(t, path, "more than " STR(UTREE_MAX_DEPTH) " directories below the tree's top");
		goto out;
	}
	for (errno = 0; (de = readdir(d)); errno = 0) {
		size_t len = strlen(de->d_name);
		char *full;
		bool dir;

		if (de->d_name[0] == '.')
			continue;
		kd_buf_reset(&sub);
		err = rel[0] ? kd_buf_addf(&sub, "%s/%s", rel, de->d_name) : kd_buf_adds(&sub, de->d_name);
		if (err)
			goto out;
		full = kd_path_join(base, sub.s);
		if (!full) {
			err = -ENOMEM;
			goto out;
		}
		dir = kd_is_dir(full);
		free(full);
		if (dir && strcmp(sub.s, "asm-generic") && strcmp(sub.s, "arch"))
			err = walk(t, cap, base, sub.s, depth + 1);
		else if (!dir && rel[0] && len > 2 && !strcmp(de->d_name + len - 2, ".h"))
			err = add_root(t, cap, sub.s);
		if (err)
			goto out;
	}
	if (errno)
		err = unreadable(t, path, strerror(errno));
out:
	if (d)
		closedir(d);
	kd_buf_release(&sub);
	free(path);
	return err;
}

/*
 * A kernel source tree (include/ beside fs/ and drivers/, as @inc/..):
 * remember its top and which headers of the outside-include/uapi list
 * (outside.c) it has. A headers_install or Debian -common tree has none.
 */
static int find_outside(struct utree *t, const char *inc)
{
	const struct uoutside *o;
	char *top = kd_path_join(inc, "..");
	size_t i, n = 0;

	if (!top)
		return -ENOMEM;
	if (!kd_has_dir(top, "fs") || !kd_has_dir(top, "drivers")) {
		free(top);
		return 0;
	}
	for (i = 0; uoutside__nth(i); i++)
		n++;
	t->src = kd_calloc(1, sizeof(*t->src) + n * sizeof(t->src->outside[0]));
	if (!t->src) {
		free(top);
		return -ENOMEM;
	}
	t->src->top = top;
	for (i = 0; (o = uoutside__nth(i)); i++) {
		char *p = kd_path_join(top, o->path);

		if (!p)
			return -ENOMEM;
		if (kd_is_file(p))
			t->src->outside[t->src->nr_outside++] = o;
		free(p);
	}
	return 0;
}

/* The list's row of @name when it is one of the tree's outside headers, else NULL. */
static const struct uoutside *utree__outside(const struct utree *t, const char *name)
{
	size_t i;

	for (i = 0; t->src && i < t->src->nr_outside; i++)
		if (!strcmp(t->src->outside[i]->path, name))
			return t->src->outside[i];
	return NULL;
}

/* Source layout: asm/X.h for each mandatory asm-generic header the arch lacks. */
static int add_generic_wrappers(struct utree *t, size_t *cap)
{
	char *kbuild = kd_path_join(t->dirs[1], "asm-generic/Kbuild");
	struct ufile *f = NULL;
	struct kd_buf name = KD_BUF_INIT;
	const char *p;
	int err = -ENOMEM;

	if (!kbuild)
		goto out;
	err = ufile__load(kbuild, "asm-generic/Kbuild", &f);
	if (err) {		/* no Kbuild: wrappers still resolve on demand */
		err = 0;
		goto out;
	}
	for (p = f->text; (p = strstr(p, "mandatory-y")); ) {
		const char *h;
		size_t len;

		p += strlen("mandatory-y");
		p += strspn(p, " \t+=");
		len = strcspn(p, " \t\n");
		h = p;
		kd_buf_reset(&name);
		if (len < 3 || memcmp(h + len - 2, ".h", 2))
			continue;
		err = kd_buf_addf(&name, "asm/%.*s", (int)len, h);
		if (err)
			goto out;
		if (bsearch(&name.s, t->roots, t->nr_roots, sizeof(*t->roots), kd_strcmp_ptr))
			continue;	/* the arch has its own */
		err = add_root(t, cap, name.s);
		if (err)
			goto out;
	}
out:
	kd_buf_release(&name);
	ufile__free(f);
	free(kbuild);
	return err;
}

/* DIR is include/ (uapi/ inside), or the tree containing include/: that include/ (malloc'ed). */
static char *include_of(const char *dir)
{
	return kd_has_dir(dir, "uapi/linux") ? kd_strdup(dir) : kd_path_join(dir, "include");
}

/*
 * The directory below which @inc's tree has @arch_rel (arch/ARCH/include/
 * uapi): @inc itself (Debian's -common), or its parent in a kernel source
 * tree, where include/ and arch/ are siblings. *base malloc'ed; -ENOENT.
 */
static int arch_base(const char *inc, const char *arch_rel, char **base)
{
	char *top;

	*base = NULL;
	if (kd_has_dir(inc, arch_rel))
		return (*base = kd_strdup(inc)) ? 0 : -ENOMEM;
	top = kd_path_join(inc, "..");
	if (!top)
		return -ENOMEM;
	if (kd_has_dir(top, arch_rel)) {
		*base = top;
		return 0;
	}
	free(top);
	return -ENOENT;
}

/* Does the tree of @dir (include/ or the tree holding it) have arch/@a's UAPI? */
static bool has_arch_uapi(const char *dir, const struct kd_arch *a)
{
	struct kd_buf rel = KD_BUF_INIT;
	char *inc = include_of(dir), *base = NULL;
	bool yes = inc && !kd_buf_addf(&rel, "arch/%s/include/uapi", a->uapi_dir) &&
		   !arch_base(inc, rel.s, &base);

	free(base);
	kd_buf_release(&rel);
	free(inc);
	return yes;
}

const struct kd_arch *utree__guess_arch(const char *dir)
{
	const struct kd_arch *a;
	size_t i;

	if (kd_has_dir(dir, "linux") && kd_has_dir(dir, "asm"))
		return NULL;
	for (i = 0; (a = kd_arch__nth(i)); i++)	/* x86_64 first */
		if (has_arch_uapi(dir, a))
			return a;
	return NULL;
}

int utree__open(const char *dir, const struct kd_arch *arch, struct utree *t)
{
	struct kd_buf rel = KD_BUF_INIT;
	const char *arch_rel;
	char *inc = NULL, *base;
	size_t cap = 0;
	int err = -ENOMEM;

	memset(t, 0, sizeof(*t));
	t->arch = arch ? arch : kd_arch__by_name("x86_64");
	if (kd_buf_addf(&rel, "arch/%s/include/uapi", t->arch->uapi_dir))
		goto fail;
	arch_rel = rel.s;
	if (!kd_is_dir(dir)) {
		kd_err("%s: not a directory", dir);
		err = -ENOTDIR;
		goto fail;
	}
	if (kd_has_dir(dir, "linux") && kd_has_dir(dir, "asm")) {
		err = add_dir(t, dir, NULL);
		if (err)
			goto fail;
		err = walk(t, &cap, dir, "", 0);
		if (err)
			goto fail;
		qsort(t->roots, t->nr_roots, sizeof(*t->roots), kd_strcmp_ptr);
		kd_buf_release(&rel);
		return 0;
	}
	inc = include_of(dir);
	if (!inc)
		goto fail;
	if (!kd_has_dir(inc, "uapi/linux")) {
		kd_err("%s: not a UAPI header tree (expected linux/ and asm/, or uapi/linux/"
		       " and %s/)", dir, arch_rel);
		err = -KD_EFORMAT;
		goto fail;
	}
	t->source_layout = true;
	err = arch_base(inc, arch_rel, &base);
	if (!err)
		err = add_dir(t, base, arch_rel);
	free(base);
	if (err == -ENOENT)
		kd_err("%s: no %s beside uapi/ (%s headers, for an %s kernel)", dir,
		       arch_rel, t->arch->uapi_dir, t->arch->name);
	if (err)
		goto fail;
	err = add_dir(t, inc, "uapi");
	if (err)
		goto fail;
	err = walk(t, &cap, t->dirs[0], "", 0);
	if (!err)
		err = walk(t, &cap, t->dirs[1], "", 0);
	if (err)
		goto fail;
	qsort(t->roots, t->nr_roots, sizeof(*t->roots), kd_strcmp_ptr);
	err = add_generic_wrappers(t, &cap);
	if (!err)
		err = find_outside(t, inc);
	if (err)
		goto fail;
	qsort(t->roots, t->nr_roots, sizeof(*t->roots), kd_strcmp_ptr);
	free(inc);
	kd_buf_release(&rel);
	return 0;
fail:
	free(inc);
	kd_buf_release(&rel);
	utree__release(t);
	return err;
}

void utree__release(struct utree *t)
{
	size_t i;

	for (i = 0; i < (size_t)t->nr_dirs; i++)
		free(t->dirs[i]);
	for (i = 0; i < t->nr_roots; i++)
		free(t->roots[i]);
	free(t->roots);
	for (i = 0; i < t->nr_unreadable; i++)
		free(t->unreadable[i]);
	free(t->unreadable);
	free(t->seen);
	if (t->src)
		free(t->src->top);
	free(t->src);
	memset(t, 0, sizeof(*t));
}

int utree__resolve(const struct utree *t, const char *name, char **path, char **display)
{
	int i;

	*path = *display = NULL;
	if (utree__outside(t, name)) {	/* by its path in the source tree */
		*path = kd_path_join(t->src->top, name);
		*display = kd_strdup(name);
		if (*path && *display)
			return 0;
		free(*path);
		free(*display);
		*path = *display = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < t->nr_dirs; i++) {
		char *p = kd_path_join(t->dirs[i], name);

		if (!p)
			return -ENOMEM;
		if (kd_is_file(p)) {
			*path = p;
			*display = kd_strdup(name);
			return *display ? 0 : -ENOMEM;
		}
		free(p);
	}
	if (t->source_layout && kd_starts_with(name, "asm/")) {
		struct kd_buf g = KD_BUF_INIT;
		int err;

		err = kd_buf_addf(&g, "asm-generic/%s", name + 4);
		if (!err)
			err = utree__resolve(t, g.s, path, display);
		kd_buf_release(&g);
		return err;
	}
	return -ENOENT;
}
