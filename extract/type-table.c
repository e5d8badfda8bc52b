// SPDX-License-Identifier: GPL-2.0-only
/*
 * The extractor's in-memory type table: nodes, the DIE-offset index, the
 * worklist, source-file names per CU, and problem reporting.
 */
#include "extract/types_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/mem.h"

struct srcfiles_entry {
	Dwarf_Off cu;
	char **names;
	Dwarf_Signed count;
	char *comp_dir;
	int version;
};

struct srcfiles_cache {
	size_t n, cap;
	struct srcfiles_entry *v;
};

int xtable_init(struct xtable *xt, struct kdwarf *d, struct kdb *db, const char *input)
{
	memset(xt, 0, sizeof(*xt));
	xt->dwarf = d;
	xt->db = db;
	xt->input = input;
	xt->files = kd_calloc(1, sizeof(*xt->files));
	return xt->files ? 0 : -ENOMEM;
}

void xtable_detach_dwarf(struct xtable *xt)
{
	size_t i;

	if (xt->files) {
		for (i = 0; i < xt->files->n; i++) {
			struct srcfiles_entry *e = &xt->files->v[i];
			Dwarf_Signed j;

			for (j = 0; j < e->count; j++)
				dwarf_dealloc(xt->dwarf->dbg, e->names[j], DW_DLA_STRING);
			if (e->names)
				dwarf_dealloc(xt->dwarf->dbg, e->names, DW_DLA_LIST);
			free(e->comp_dir);
		}
		free(xt->files->v);
		free(xt->files);
		xt->files = NULL;
	}
	xt->dwarf = NULL;
}

void xtable_release(struct xtable *xt)
{
	size_t i;

	if (xt->dwarf)
		xtable_detach_dwarf(xt);
	for (i = 0; i < xt->n; i++)
		kd_type__release(&xt->v[i].t);
	for (i = 0; i < xt->nr_held; i++)
		free(xt->held_problems[i]);
	free(xt->held_problems);
	free(xt->v);
	free(xt->map_key);
	free(xt->map_val);
	free(xt->todo);
	memset(xt, 0, sizeof(*xt));
}

int xtable_attach_db(struct xtable *xt, struct kdb *db)
{
	size_t i;
	int err = 0;

	xt->db = db;
	for (i = 0; !err && i < xt->nr_held; i++) {
		char *tab = strchr(xt->held_problems[i], '\t');

		*tab = '\0';
		err = kdb__put_problem(db, "extract", xt->input, *xt->held_problems[i] ?
				       xt->held_problems[i] : NULL, "%s", tab + 1);
	}
	return err;
}

void xt_problem(struct xtable *xt, Dwarf_Off off, const char *fmt, ...)
{
	struct kd_buf msg = KD_BUF_INIT, loc = KD_BUF_INIT;
	va_list ap;

	xt->nr_problems++;
	va_start(ap, fmt);
	(void)kd_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (off)
		(void)kd_buf_addf(&loc, "DIE 0x%llx", (unsigned long long)off);
	kd_debug("%s: %s: %s", xt->input, loc.s, msg.s);
	if (xt->db) {
		(void)kdb__put_problem(xt->db, "extract", xt->input, off ? loc.s : NULL, "%s", msg.s);
	} else if (!KD_GROW(xt->held_problems, xt->held_cap, xt->nr_held + 1)) {
		struct kd_buf held = KD_BUF_INIT;

		char *h = kd_buf_addf(&held, "%s\t%s", loc.s, msg.s) ? NULL : kd_buf_detach(&held);

		if (h)
			xt->held_problems[xt->nr_held++] = h;
		kd_buf_release(&held);
	}
	kd_buf_release(&msg);
	kd_buf_release(&loc);
}

static uint64_t mix_off(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x7fb5d329728ea185ULL;
	x ^= x >> 27;
	return x;
}

static int map_grow(struct xtable *xt)
{
	size_t ncap = xt->map_cap ? xt->map_cap * 2 : 1024, i;
	uint64_t *keys = kd_calloc(ncap, sizeof(*keys));
	int64_t *vals = kd_calloc(ncap, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -ENOMEM;
	}
	for (i = 0; i < xt->map_cap; i++) {
		size_t j;

		if (!xt->map_key[i])
			continue;
		for (j = mix_off(xt->map_key[i]) & (ncap - 1); keys[j]; j = (j + 1) & (ncap - 1))
			;
		keys[j] = xt->map_key[i];
		vals[j] = xt->map_val[i];
	}
	free(xt->map_key);
	free(xt->map_val);
	xt->map_key = keys;
	xt->map_val = vals;
	xt->map_cap = ncap;
	return 0;
}

int xt_new(struct xtable *xt, enum kd_kind kind, int64_t *id)
{
	struct xtype *x;
	int err;

	if (xt->n >= XT_MAX_TYPES) {
		kd_err("%s: more than %u types reachable; giving up", xt->input, XT_MAX_TYPES);
		return -KD_ELIMIT;
	}
	err = KD_GROW(xt->v, xt->cap, xt->n + 1);
	if (err)
		return err;
	x = &xt->v[xt->n++];
	memset(x, 0, sizeof(*x));
	x->t.id = (int64_t)xt->n;
	x->t.kind = kind;
	x->t.size = -1;
	*id = x->t.id;
	return 0;
}

int xt_type_of_die(struct xtable *xt, Dwarf_Off off, int64_t *id)
{
	size_t j;
	int err;

	/* DIE offset 0 is the first CU header, never a type: safe as "empty". */
	if (!off) {
		*id = 0;
		return 0;
	}
	if (xt->map_n * 2 >= xt->map_cap) {
		err = map_grow(xt);
		if (err)
			return err;
	}
	for (j = mix_off(off) & (xt->map_cap - 1); xt->map_key[j]; j = (j + 1) & (xt->map_cap - 1)) {
		if (xt->map_key[j] == off) {
			*id = xt->map_val[j];
			return 0;
		}
	}
	err = KD_GROW(xt->todo, xt->todo_cap, xt->nr_todo + 1);
	if (err)
		return err;
	err = xt_new(xt, KD_KIND_VOID, id);
	if (err)
		return err;
	xt->v[*id - 1].die = off;
	xt->map_key[j] = off;
	xt->map_val[j] = *id;
	xt->map_n++;
	xt->todo[xt->nr_todo++] = *id;
	return 0;
}

int xt_type_attr(struct xtable *xt, Dwarf_Die die, int64_t *id)
{
	Dwarf_Off off;

	*id = 0;
	if (!die_ref(xt->dwarf, die, DW_AT_type, &off))
		return 0;
	return xt_type_of_die(xt, off, id);
}

static struct srcfiles_entry *srcfiles_for(struct xtable *xt, Dwarf_Die die)
{
	struct srcfiles_cache *c = xt->files;
	struct srcfiles_entry *e;
	Dwarf_Error derr = NULL;
	Dwarf_Off cu_off;
	Dwarf_Die cu = NULL;
	Dwarf_Half version = 0, offset_size = 0;
	size_t i;

	if (dwarf_CU_dieoffset_given_die(die, &cu_off, &derr) != DW_DLV_OK)
		return NULL;
	for (i = 0; i < c->n; i++)
		if (c->v[i].cu == cu_off)
			return &c->v[i];
	if (KD_GROW(c->v, c->cap, c->n + 1))
		return NULL;
	e = &c->v[c->n++];
	memset(e, 0, sizeof(*e));
	e->cu = cu_off;
	if (dwarf_offdie_b(xt->dwarf->dbg, cu_off, 1, &cu, &derr) != DW_DLV_OK)
		return e;
	if (dwarf_srcfiles(cu, &e->names, &e->count, &derr) != DW_DLV_OK) {
		e->names = NULL;
		e->count = 0;
	}
	if (dwarf_get_version_of_die(cu, &version, &offset_size) == DW_DLV_OK)
		e->version = version;
	{
		Dwarf_Attribute attr;
		char *s;

		if (dwarf_attr(cu, DW_AT_comp_dir, &attr, &derr) == DW_DLV_OK) {
			if (dwarf_formstring(attr, &s, &derr) == DW_DLV_OK)
				e->comp_dir = kd_strdup(s);
			dwarf_dealloc(xt->dwarf->dbg, attr, DW_DLA_ATTR);
		}
	}
	dwarf_dealloc_die(cu);
	return e;
}

/*
 * Source paths relative to the kernel tree, so the same header has the
 * same name in two builds. libdwarf joins the CU's build directory to
 * relative names; Debian builds with a relative, prefix-mapped build
 * directory (debian/build/build_amd64_none_amd64) whose files are named
 * from the source tree: strip it. Otherwise strip the longest directory
 * prefix shared with the build directory (/build/linux-6.1.170/ for
 * /build/linux-6.1.170/debian/build/...).
 */
static char *relative_path(const char *path, const char *comp_dir)
{
	size_t common = 0, i, n = comp_dir ? strlen(comp_dir) : 0;

	/* A relative comp_dir (-fdebug-prefix-map) joined to tree-relative names. */
	if (n && !strncmp(path, comp_dir, n) && path[n] == '/')
		path += n + 1;
	else if (path[0] == '/' && comp_dir) {
		for (i = 0; path[i] && path[i] == comp_dir[i]; i++)
			if (path[i] == '/')
				common = i + 1;
		if (!comp_dir[i] && path[i] == '/')
			common = i + 1;
		if (common > 1)
			path += common;
	}
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	return kd_strdup(path);
}

char *xt_decl_file(struct xtable *xt, Dwarf_Die die)
{
	struct srcfiles_entry *e;
	Dwarf_Unsigned idx;

	if (!die_udata(xt->dwarf, die, DW_AT_decl_file, &idx))
		return NULL;
	e = srcfiles_for(xt, die);
	if (!e || !e->names)
		return NULL;
	/* DWARF 5 numbers files from 0, earlier versions from 1. */
	if (e->version < 5) {
		if (!idx)
			return NULL;
		idx--;
	}
	if (idx >= (Dwarf_Unsigned)e->count)
		return NULL;
	return relative_path(e->names[idx], e->comp_dir);
}
