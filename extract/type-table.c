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

/*
 * XT_MAX_TYPES, or the lower value of KABI_DIFF_TEST_MAX_TYPES: reaching
 * 4 Mi types takes a DWARF image of gigabytes, so the test suite (t0696)
 * lowers the bound to reach it with a fixture. Only ever lowered.
 */
static size_t max_types(void)
{
	const char *env = getenv("KABI_DIFF_TEST_MAX_TYPES");
	char *end;
	unsigned long v;

	if (!env || !*env)
		return XT_MAX_TYPES;
	errno = 0;
	v = strtoul(env, &end, 10);
	return !errno && !*end && v < XT_MAX_TYPES ? v : XT_MAX_TYPES;
}

int xtable_init(struct xtable *xt, struct kdwarf *d, struct kdb *db, const char *input)
{
	memset(xt, 0, sizeof(*xt));
	xt->dwarf = d;
	xt->db = db;
	xt->input = input;
	xt->max_types = max_types();
	return srcfiles_new(&xt->files);
}

void xtable_detach_dwarf(struct xtable *xt)
{
	srcfiles_free(xt->files);
	xt->files = NULL;
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
	kd_hashmap_release(&xt->by_die);
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

int xt_new(struct xtable *xt, enum kd_kind kind, int64_t *id)
{
	struct xtype *x;
	int err;

	if (xt->n >= xt->max_types) {
		kd_err("%s: more than %zu types reachable; giving up", xt->input, xt->max_types);
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
	size_t pos = KD_HASHMAP_FIRST;
	int err;

	/* DIE offset 0 is the first CU header, never a type. */
	if (!off) {
		*id = 0;
		return 0;
	}
	err = kd_hashmap_reserve(&xt->by_die, 1);
	if (err)
		return err;
	*id = (int64_t)kd_hashmap_next(&xt->by_die, off, &pos);
	if (*id)
		return 0;
	err = KD_GROW(xt->todo, xt->todo_cap, xt->nr_todo + 1);
	if (err)
		return err;
	err = xt_new(xt, KD_KIND_VOID, id);
	if (err)
		return err;
	xt->v[*id - 1].die = off;
	kd_hashmap_insert_at(&xt->by_die, pos, off, (uint64_t)*id);
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

char *xt_decl_file(struct xtable *xt, Dwarf_Die die)
{
	Dwarf_Unsigned idx;
	const char *path;

	if (!xt->files || !die_udata(xt->dwarf, die, DW_AT_decl_file, &idx))
		return NULL;
	path = srcfiles_name(xt->files, xt->dwarf, die, idx);
	return path ? kd_strdup(path) : NULL;
}
