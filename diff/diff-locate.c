// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where each change is declared, for reports that point at source lines
 * (SARIF): the struct, union or enum a type change is about (DWARF's
 * decl_file/decl_line), the header line of a constant or ioctl, the
 * SYSCALL_DEFINE of a syscall. The new kernel is asked first (the line a
 * reviewer of the new tree sees), the old one for what was removed.
 *
 * Paths are made relative to the kernel's source tree, the root a CI
 * checkout has: DWARF paths already are (include/uapi/linux/openat2.h);
 * a type of the header view is where the header view says it is (the
 * header that declares it, whatever a #line made DWARF say);
 * the UAPI reader's include-relative names become the source tree's
 * (linux/magic.h -> include/uapi/linux/magic.h, asm/x.h ->
 * arch/ARCH/include/uapi/asm/x.h). Absolute paths stay absolute.
 */
#include "diff/changes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "db/kdb-uapi.h"
#include "lib/buf.h"
#include "lib/mem.h"
#include "lib/model.h"
#include "lib/str.h"

struct decl {
	char *file;	/* as the DB has it; NULL: not found */
	int line;
	bool include_relative;	/* a UAPI include name (linux/x.h) */
};

/*
 * Where the header view says header type @id is declared (uapi_types:
 * the header that really declares it, include-relative), rather than its
 * DWARF decl_file, which a #line sets to any text.
 */
static int header_decl(struct kdb *db, int64_t id, struct decl *d)
{
	char *where = NULL, *colon;
	bool kernel;
	int err = kdb__type_views(db, id, &kernel, &where);

	if (err || !where)
		return err;
	colon = strrchr(where, ':');
	d->line = colon ? atoi(colon + 1) : 0;
	if (colon)
		*colon = '\0';
	d->file = where;
	d->include_relative = true;
	return 0;
}

static int type_decl(struct kdb *db, const char *name, struct decl *d)
{
	static const char *const tags[] = { "struct", "union", "enum" };
	const char *kind = NULL, *p;
	char *bare;
	int64_t *ids = NULL;
	int n, err = 0;
	size_t i;

	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		size_t len = strlen(tags[i]);

		if (!strncmp(name, tags[i], len) && name[len] == ' ') {
			kind = tags[i];
			name += len + 1;
			break;
		}
	}
	if (!kind)
		return 0;
	/* "struct fx_node.u": an anonymous member is declared in its parent. */
	p = strchr(name, '.');
	bare = p ? kd_strndup(name, (size_t)(p - name)) : kd_strdup(name);
	if (!bare)
		return -ENOMEM;
	n = kdb__find_types(db, kind, bare, &ids);
	if (n < 0)
		err = n;
	for (int k = 0; !err && k < n && !d->file; k++) {
		struct kd_type *t = NULL;

		err = header_decl(db, ids[k], d);
		if (err || d->file)
			break;
		err = kdb__get_type(db, ids[k], &t);
		if (!err && t->decl_file) {
			d->file = kd_strdup(t->decl_file);
			d->line = t->decl_line;
			if (!d->file)
				err = -ENOMEM;
		}
		kd_type__free(t);
	}
	free(ids);
	free(bare);
	return err;
}

static int take_row(const char *file, int line, struct decl *d)
{
	if (!file)
		return 0;
	d->file = kd_strdup(file);
	d->line = line;
	d->include_relative = true;
	return d->file ? 0 : -ENOMEM;
}

static int constant_row(const struct kd_constant *c, void *ctx)
{
	return take_row(c->file, c->line, ctx);
}

static int ioctl_row(const struct kd_ioctl *io, void *ctx)
{
	return take_row(io->file, io->line, ctx);
}

struct syscall_ctx {
	struct kdb *db;
	struct decl *d;
};

static int syscall_row(const struct kd_syscall *sc, void *ctx)
{
	struct syscall_ctx *s = ctx;
	struct kd_function *fn = NULL;
	int err;

	if (!sc->func_id || s->d->file)
		return 0;
	err = kdb__get_function_by_id(s->db, sc->func_id, &fn);
	if (err == -ENOENT)
		return 0;
	if (!err && fn->decl_file) {
		s->d->file = kd_strdup(fn->decl_file);
		s->d->line = fn->decl_line;
		if (!s->d->file)
			err = -ENOMEM;
	}
	kd_function__free(fn);
	return err;
}

/* The declaration of @c in @db, if @db has one. */
static int find_decl(struct kdb *db, const struct diff_change *c, struct decl *d)
{
	struct syscall_ctx s = { db, d };
	int err;

	/* A header no binary serves any more: the header itself, from its top. */
	if (!strcmp(c->kind, diff_kind_name(DIFF_K_HEADER_UNSERVED))) {
		d->file = kd_strdup(c->name);
		d->line = 1;
		d->include_relative = true;
		return d->file ? 0 : -ENOMEM;
	}
	err = type_decl(db, c->name, d);
	if (err || d->file)
		return err;
	switch (c->category) {
	case DIFF_CAT_CONSTANT:
		err = kdb__get_constant(db, c->name, constant_row, d);
		break;
	case DIFF_CAT_IOCTL:
		err = kdb__get_ioctl(db, c->name, ioctl_row, d);
		break;
	case DIFF_CAT_SYSCALL:
		err = kdb__foreach_syscall_named(db, c->name, syscall_row, &s);
		break;
	default:
		break;
	}
	return err == -ENOENT ? 0 : err;
}

/* The kernel's source directory name of its arch: arch/x86, arch/arm64. */
static const char *source_arch(const char *arch)
{
	if (!arch || !strcmp(arch, "x86_64") || !strcmp(arch, "i386") || !strcmp(arch, "i686"))
		return "x86";
	if (!strcmp(arch, "aarch64"))
		return "arm64";
	return arch;
}

static char *source_path(const struct decl *d, const char *arch)
{
	struct kd_buf b = KD_BUF_INIT;
	const char *f = d->file;
	int err;

	while (kd_starts_with(f, "./"))
		f += 2;
	if (f[0] == '/' || !d->include_relative)
		err = kd_buf_adds(&b, f);
	else if (kd_starts_with(f, "asm/"))
		err = kd_buf_addf(&b, "arch/%s/include/uapi/%s", source_arch(arch), f);
	else
		err = kd_buf_addf(&b, "include/uapi/%s", f);
	if (err) {
		kd_buf_release(&b);
		return NULL;
	}
	return kd_buf_detach(&b);
}

int diff_result__locate(struct diff_result *r, struct kdb *old, struct kdb *new)
{
	char *arch[2] = { NULL, NULL };
	struct kdb *dbs[2] = { new, old };
	size_t i;
	int err = 0;

	for (i = 0; !err && i < 2; i++)
		err = dbs[i] ? kdb__get_meta(dbs[i], "arch", &arch[i]) : 0;
	for (i = 0; !err && i < r->nr_changes; i++) {
		struct diff_change *c = &r->changes[i];
		struct decl d = { 0 };
		int side;

		for (side = 0; !err && side < 2 && !d.file; side++)
			if (dbs[side])
				err = find_decl(dbs[side], c, &d);
		side--;
		if (!err && d.file) {
			free(c->decl_file);
			c->decl_file = source_path(&d, arch[side]);
			c->decl_line = d.line;
			if (!c->decl_file)
				err = -ENOMEM;
		}
		free(d.file);
	}
	free(arch[0]);
	free(arch[1]);
	return err;
}
