// SPDX-License-Identifier: GPL-2.0-only
/*
 * The signatures of the vDSO's entry points, from the DWARF of the images
 * the debug package ships (usr/lib/debug/lib/modules/REL/vdso/vdso64.so;
 * arm64: vdso.so): the image a vmlinux embeds is stripped, its debug twin
 * is not. Each exported function with a DIE of its name gets a functions
 * row ("vdso:ABI:NAME") with its parameters, their types laid out as the
 * syscalls' are, and every name at its address (its aliases) links to it.
 *
 * Only the 64-bit images are read: the ELF reader (elf.c) takes 64-bit
 * objects, and the ia32, x32 and AArch32 images are 32-bit; their names
 * and versions come from the vmlinux all the same.
 */
#include "extract/vdso_internal.h"
#include "extract/extract.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "db/kdb-vdso.h"
#include "extract/dwarf_internal.h"
#include "extract/elf_internal.h"
#include "extract/types_internal.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"

/* The debug images by ABI, as the packages name them. */
static const struct {
	const char *arch, *abi, *file;
} images[] = {
	{ "x86_64", "x64", "vdso64.so" },
	{ "arm64", "arm64", "vdso.so" },
};

const char *const extract__vdso_files[] = { "vdso64.so", "vdso.so", NULL };

/* Entry points found in one image, in the order of their DIEs. */
struct vfunc {
	char *name;
	int64_t ret;		/* table ids until written */
	char *decl_file;
	int decl_line;
	size_t nr_params;
	struct { char *name; int64_t type; } *params;
};

struct vwalk {
	struct xtable *xt;
	const char *abi;
	char **wanted;		/* the image's exported function names */
	size_t nr_wanted, cap_wanted;
	struct vfunc *f;
	size_t nr_f, cap_f;
	struct vfunc *cur;
	size_t cap_params;
};

static int want_row(const struct kd_vdso_symbol *s, void *ctx)
{
	struct vwalk *w = ctx;
	int err;

	if (strcmp(s->type, "func"))
		return 0;
	err = KD_GROW(w->wanted, w->cap_wanted, w->nr_wanted + 1);
	if (err)
		return err;
	w->wanted[w->nr_wanted] = kd_strdup(s->name);
	return w->wanted[w->nr_wanted++] ? 0 : -ENOMEM;
}

static bool wanted(const struct vwalk *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->nr_wanted; i++)
		if (!strcmp(w->wanted[i], name))
			return true;
	return false;
}

static int read_param(Dwarf_Die die, void *ctx)
{
	struct vwalk *w = ctx;
	struct vfunc *f = w->cur;
	Dwarf_Half tag;
	const char *name;
	int err;

	if (dwarf_tag(die, &tag, NULL) != DW_DLV_OK || tag != DW_TAG_formal_parameter)
		return 0;
	err = KD_GROW(f->params, w->cap_params, f->nr_params + 1);
	if (err)
		return err;
	name = die_name(w->xt->dwarf, die);
	f->params[f->nr_params].name = name ? kd_strdup(name) : NULL;
	f->params[f->nr_params].type = 0;
	f->nr_params++;
	if (name && !f->params[f->nr_params - 1].name)
		return -ENOMEM;
	return xt_type_attr(w->xt, die, &f->params[f->nr_params - 1].type);
}

/* A CU's child: an exported function's definition, by its symbol's name. */
static int read_function(Dwarf_Die die, void *ctx)
{
	struct vwalk *w = ctx;
	struct kdwarf *d = w->xt->dwarf;
	Dwarf_Unsigned line;
	Dwarf_Half tag;
	const char *name;
	struct vfunc *f;
	size_t i;
	int err;

	if (dwarf_tag(die, &tag, NULL) != DW_DLV_OK || tag != DW_TAG_subprogram ||
	    die_flag(d, die, DW_AT_declaration) || !(name = die_name(d, die)) || !wanted(w, name))
		return 0;
	for (i = 0; i < w->nr_f; i++)
		if (!strcmp(w->f[i].name, name))
			return 0;	/* the first definition speaks */
	err = KD_GROW(w->f, w->cap_f, w->nr_f + 1);
	if (err)
		return err;
	f = &w->f[w->nr_f++];
	memset(f, 0, sizeof(*f));
	f->name = kd_strdup(name);
	if (!f->name)
		return -ENOMEM;
	if (die_udata(d, die, DW_AT_decl_line, &line) && line < 1u << 30)
		f->decl_line = (int)line;
	f->decl_file = xt_decl_file(w->xt, die);
	err = xt_type_attr(w->xt, die, &f->ret);
	if (err)
		return err;
	w->cur = f;
	w->cap_params = 0;
	return kdwarf_for_each_child(d, die, read_param, w, "reading vDSO parameters");
}

static int read_cu(Dwarf_Die cu, void *ctx)
{
	struct vwalk *w = ctx;

	return kdwarf_for_each_child(w->xt->dwarf, cu, read_function, w, "reading a vDSO unit");
}

/* Write the functions found and link the symbols (and aliases) to them. */
static int write_functions(struct kdb *db, struct vwalk *w)
{
	struct kd_buf name = KD_BUF_INIT, text = KD_BUF_INIT;
	size_t i, j;
	int err = 0;

	for (i = 0; !err && i < w->nr_f; i++) {
		struct vfunc *f = &w->f[i];
		int64_t id = 0;

		kd_buf_reset(&name);
		err = kd_buf_addf(&name, "vdso:%s:%s", w->abi, f->name);
		if (!err)
			err = kdb__put_function(db, name.s, xt_canon(w->xt, f->ret), "dwarf",
						f->decl_file, f->decl_line, &id);
		for (j = 0; !err && j < f->nr_params; j++) {
			kd_buf_reset(&text);
			err = xt_cdecl(w->xt, &text, f->params[j].type, "");
			if (!err)
				err = kdb__put_param(db, id, (int)j, f->params[j].name,
						     xt_canon(w->xt, f->params[j].type), text.s);
		}
		if (!err) {
			err = kdb__link_vdso_function(db, w->abi, f->name, id);
			err = err < 0 ? err : 0;
		}
	}
	kd_buf_release(&name);
	kd_buf_release(&text);
	return err;
}

static void vwalk_release(struct vwalk *w)
{
	size_t i, j;

	for (i = 0; i < w->nr_wanted; i++)
		free(w->wanted[i]);
	free(w->wanted);
	for (i = 0; i < w->nr_f; i++) {
		for (j = 0; j < w->f[i].nr_params; j++)
			free(w->f[i].params[j].name);
		free(w->f[i].params);
		free(w->f[i].name);
		free(w->f[i].decl_file);
	}
	free(w->f);
}

/* One debug image: 1 when read, 0 when it gave nothing (a problem row says why). */
static int read_image(struct kdb *db, struct type_sink *sink, const char *abi, const char *path,
		      int64_t *problems)
{
	struct vwalk w = { .abi = abi };
	struct kd_buf why = KD_BUF_INIT;
	struct xtable xt = { 0 };
	bool bad;
	struct kelf *k = NULL;
	struct kdwarf *d = NULL;
	int64_t nr = 0;
	int err;

	err = kdb__foreach_vdso_symbol(db, abi, want_row, &w);
	if (err || !w.nr_wanted)
		goto out;
	/* Not a readable ELF, or no DWARF: a problem row with the reader's cause, not a failure. */
	kd_log_capture(&why);
	bad = kelf_open(path, &k) || kdwarf_open(k, &d);
	kd_log_capture(NULL);
	if (bad) {
		while (why.len && why.s[why.len - 1] == '\n')
			why.s[--why.len] = '\0';
		err = kdb__put_problem(db, "vdso", path, abi, "vDSO image %s: no signatures read: %s",
				       abi, why.len ? why.s : "no DWARF");
		if (!err && problems)
			(*problems)++;
		goto out;
	}
	err = xtable_init(&xt, d, db, path);
	if (err)
		goto out;
	xt.declarations_expected = true;	/* struct getcpu_cache: a pointer, never read */
	w.xt = &xt;
	err = kdwarf_for_each_cu(d, read_cu, &w);
	if (!err)
		err = xt_complete(&xt);
	if (!err)
		err = xt_write(&xt, sink, &nr);
	if (!err)
		err = write_functions(db, &w);
	if (!err && problems)
		*problems += xt.nr_problems;
	if (!err)
		err = w.nr_f ? 1 : 0;
out:
	kd_buf_release(&why);
	vwalk_release(&w);
	xtable_release(&xt);
	kdwarf_close(d);
	kelf_close(k);
	return err;
}

int extract_vdso_dwarf(struct kdb *db, struct type_sink *sink, const char *dir,
		       const struct kd_arch *arch, int64_t *problems)
{
	struct kd_buf path = KD_BUF_INIT, read = KD_BUF_INIT;
	size_t i;
	int err = 0;

	for (i = 0; !err && i < sizeof(images) / sizeof(images[0]); i++) {
		if (strcmp(images[i].arch, arch->name))
			continue;
		kd_buf_reset(&path);
		err = kd_buf_addf(&path, "%s/%s", dir, images[i].file);
		if (err || access(path.s, R_OK))
			continue;
		err = read_image(db, sink, images[i].abi, path.s, problems);
		if (err == 1)
			err = kd_buf_addf(&read, "%s%s (%s)", read.len ? " " : "", images[i].abi, path.s);
	}
	if (!err && read.len)
		err = kdb__set_meta(db, "vdso_dwarf", read.s);
	kd_buf_release(&path);
	kd_buf_release(&read);
	return err;
}
