// SPDX-License-Identifier: GPL-2.0-only
/*
 * DW_AT_decl_file -> a path relative to the kernel tree, per CU, from the
 * file and directory tables of the CU's line-program header
 * (dwarf_srclines_b reads only the header). dwarf_srcfiles() is not used:
 * in libdwarf 20210528 it overflows a heap buffer while joining paths of
 * some modules' DWARF 5 tables (found with ASan on Debian's 6.1 modules).
 */
#include "extract/types_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/mem.h"
#include "lib/str.h"

struct cu_files {
	Dwarf_Off cu;
	Dwarf_Signed base;	/* index of names[0]: 0 in DWARF 5, 1 before */
	size_t count;
	char **names;		/* tree-relative; NULL entries when unreadable */
};

struct srcfiles_cache {
	size_t n, cap;
	struct cu_files *v;
};

int srcfiles_new(struct srcfiles_cache **out)
{
	*out = kd_calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void srcfiles_free(struct srcfiles_cache *c)
{
	size_t i, j;

	if (!c)
		return;
	for (i = 0; i < c->n; i++) {
		for (j = 0; j < c->v[i].count; j++)
			free(c->v[i].names[j]);
		free(c->v[i].names);
	}
	free(c->v);
	free(c);
}

/*
 * Paths relative to the kernel tree, so the same header has the same name
 * in two builds. A file below the build directory (DW_AT_comp_dir) is named
 * from there. An out-of-tree build (O=) names the source tree's files by
 * absolute paths: Debian builds in /build/linux-6.1.170/debian/build/...
 * and names /build/linux-6.1.170/include/linux/fs.h. Those are named from
 * the CU's source root (source_root()); any other absolute path stays
 * absolute. Only sharing a directory with the build is no evidence of a
 * tree: a fixture built in /tmp/t/build from /tmp/src/x.c is not
 * "src/x.c" of a tree at /tmp.
 */
static char *relative_path(const char *path, const char *comp_dir, size_t root_len)
{
	size_t n = comp_dir ? strlen(comp_dir) : 0;

	if (n && !strncmp(path, comp_dir, n) && path[n] == '/')
		path += n + 1;
	else if (root_len && !strncmp(path, comp_dir, root_len) && path[root_len] == '/')
		path += root_len + 1;
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	return kd_strdup(path);
}

/*
 * The kernel source tree an out-of-tree build of this CU read, as the
 * length of its prefix of @comp_dir; 0 when there is none. It is the
 * deepest directory above the build directory whose include/ holds one of
 * the CU's files: a kernel tree keeps its headers at include/ of its top,
 * and every C file of it includes some.
 */
static size_t source_root(char *const *names, size_t count, const char *comp_dir)
{
	size_t len = comp_dir && comp_dir[0] == '/' ? strlen(comp_dir) : 0, i;

	while (len > 1 && comp_dir[len - 1] == '/')
		len--;
	while (len > 1) {
		while (len > 0 && comp_dir[len - 1] != '/')
			len--;
		/* comp_dir[0, len) is "/a/b/": the directory above, with its slash. */
		if (len <= 1)
			break;
		for (i = 0; i < count; i++)
			if (names[i] && !strncmp(names[i], comp_dir, len) &&
			    kd_starts_with(names[i] + len, "include/"))
				return len - 1;
		len--;
	}
	return 0;
}

static const char *cu_comp_dir(struct kdwarf *d, Dwarf_Die cu, char **to_free)
{
	Dwarf_Error derr = NULL;
	Dwarf_Attribute attr;
	char *s = NULL;

	*to_free = NULL;
	if (dwarf_attr(cu, DW_AT_comp_dir, &attr, &derr) != DW_DLV_OK)
		return NULL;
	if (dwarf_formstring(attr, &s, &derr) == DW_DLV_OK)
		*to_free = kd_strdup(s);
	dwarf_dealloc(d->dbg, attr, DW_DLA_ATTR);
	return *to_free;
}

/* @dir/@name, or @name when absolute or without a directory. */
static char *join(const char *dir, const char *name)
{
	struct kd_buf b = KD_BUF_INIT;

	if (name[0] == '/' || !dir || !*dir)
		return kd_strdup(name);
	if (kd_buf_addf(&b, "%s/%s", dir, name)) {
		kd_buf_release(&b);
		return NULL;
	}
	return kd_buf_detach(&b);
}

/* Each of @f's names, as the line table spells it, made tree-relative. */
static void relative_names(struct cu_files *f, const char *comp_dir)
{
	size_t root_len = source_root(f->names, f->count, comp_dir), i;

	for (i = 0; i < f->count; i++) {
		char *rel;

		if (!f->names[i])
			continue;
		rel = relative_path(f->names[i], comp_dir, root_len);
		free(f->names[i]);
		f->names[i] = rel;
	}
}

static void load_files(struct kdwarf *d, Dwarf_Die cu, struct cu_files *f)
{
	Dwarf_Error derr = NULL;
	Dwarf_Line_Context ctx = NULL;
	Dwarf_Unsigned version = 0;
	Dwarf_Small tables = 0;
	Dwarf_Signed base = 0, count = 0, end = 0, ndirs = 0, i;
	char *comp_dir_copy;
	const char *comp_dir = cu_comp_dir(d, cu, &comp_dir_copy);

	if (dwarf_srclines_b(cu, &version, &tables, &ctx, &derr) != DW_DLV_OK)
		goto out;
	if (dwarf_srclines_files_indexes(ctx, &base, &count, &end, &derr) != DW_DLV_OK || count <= 0)
		goto out;
	if (dwarf_srclines_include_dir_count(ctx, &ndirs, &derr) != DW_DLV_OK)
		ndirs = 0;
	f->names = kd_calloc((size_t)count, sizeof(*f->names));
	if (!f->names)
		goto out;
	f->base = base;
	f->count = (size_t)count;
	for (i = 0; i < count; i++) {
		const char *name = NULL, *dir = NULL;
		Dwarf_Unsigned dir_idx = 0, mtime, length;
		Dwarf_Form_Data16 *md5;

		if (dwarf_srclines_files_data_b(ctx, base + i, &name, &dir_idx, &mtime, &length,
						&md5, &derr) != DW_DLV_OK || !name)
			continue;
		/* Directory 0 is the build directory; the others are 1-based here. */
		if (dir_idx == 0)
			dir = comp_dir;
		else if ((Dwarf_Signed)dir_idx <= ndirs &&
			 dwarf_srclines_include_dir_data(ctx, (Dwarf_Signed)dir_idx, &dir, &derr) != DW_DLV_OK)
			dir = NULL;
		f->names[i] = join(dir, name);
	}
	relative_names(f, comp_dir);
out:
	if (ctx)
		dwarf_srclines_dealloc_b(ctx);
	free(comp_dir_copy);
}

const char *srcfiles_name(struct srcfiles_cache *c, struct kdwarf *d, Dwarf_Die die,
			  Dwarf_Unsigned idx)
{
	Dwarf_Error derr = NULL;
	Dwarf_Off cu_off;
	Dwarf_Die cu = NULL;
	struct cu_files *f = NULL;
	size_t i;

	if (dwarf_CU_dieoffset_given_die(die, &cu_off, &derr) != DW_DLV_OK)
		return NULL;
	/* The last CU asked about is by far the most likely. */
	for (i = c->n; i-- > 0;) {
		if (c->v[i].cu == cu_off) {
			f = &c->v[i];
			break;
		}
	}
	if (!f) {
		if (KD_GROW(c->v, c->cap, c->n + 1))
			return NULL;
		f = &c->v[c->n++];
		memset(f, 0, sizeof(*f));
		f->cu = cu_off;
		if (dwarf_offdie_b(d->dbg, cu_off, 1, &cu, &derr) == DW_DLV_OK) {
			load_files(d, cu, f);
			dwarf_dealloc_die(cu);
		}
	}
	if ((Dwarf_Signed)idx < f->base || idx - (Dwarf_Unsigned)f->base >= f->count)
		return NULL;
	return f->names[idx - (Dwarf_Unsigned)f->base];
}

int srcfiles_for_each(struct kdwarf *d, Dwarf_Die cu, int (*fn)(const char *name, void *ctx),
		      void *ctx)
{
	struct cu_files f = { 0 };
	size_t i;
	int err = 0;

	load_files(d, cu, &f);
	for (i = 0; i < f.count; i++) {
		if (!err && f.names[i])
			err = fn(f.names[i], ctx);
		free(f.names[i]);
	}
	free(f.names);
	return err;
}
