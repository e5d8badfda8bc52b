// SPDX-License-Identifier: GPL-2.0-only
/* Writing the syscall tables and signatures once the types have DB ids. */
#include "extract/syscalls_internal.h"

#include <errno.h>
#include <stdlib.h>

#include "lib/cdecl.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/model.h"

static const struct kd_type *lookup(int64_t id, void *ctx)
{
	struct xtype *x = xt_get(ctx, id);

	return x ? &x->t : NULL;
}

int xt_cdecl(struct xtable *xt, struct kd_buf *b, int64_t id, const char *decl)
{
	return kd_cdecl(b, id, decl, lookup, xt);
}

static int write_func(struct xtable *xt, struct kdb *db, struct xfunc *f, int64_t *id)
{
	struct kd_buf text = KD_BUF_INIT;
	size_t i;
	int err;

	err = kdb__put_function(db, f->name, xt_canon(xt, f->ret), f->source, f->decl_file,
				f->decl_line, id);
	for (i = 0; !err && i < f->nr_params; i++) {
		const struct xparam *p = &f->params[i];

		kd_buf_reset(&text);
		if (!p->type_text)
			err = xt_cdecl(xt, &text, p->type, "");
		if (!err)
			err = kdb__put_param(db, *id, (int)i, p->name, xt_canon(xt, p->type),
					     p->type_text ? p->type_text : text.s);
	}
	kd_buf_release(&text);
	return err;
}

int xsyscalls_write(struct xsyscalls *s, struct xtable *xt, struct kdb *db)
{
	int64_t *ids;
	size_t i;
	int err = 0;

	ids = kd_calloc(s->nr_funcs ? s->nr_funcs : 1, sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	for (i = 0; !err && i < s->nr_funcs; i++)
		if (s->funcs[i].found)
			err = write_func(xt, db, &s->funcs[i], &ids[i]);
	for (i = 0; !err && i < s->nr_slots; i++) {
		const struct xslot *slot = &s->slots[i];
		struct kd_syscall sc = {
			.abi = slot->abi,
			.nr = slot->nr,
			.name = slot->name,
			.entry = slot->entry ? slot->entry->name : NULL,
			.implemented = slot->implemented,
		};

		if (slot->func) {
			struct xfunc *f = xsyscalls_func(s, slot->func);

			sc.func_id = f ? ids[f - s->funcs] : 0;
			/* A COND_SYSCALL stub: the slot is there, the call is not. */
			if (f && f->found && kd_is_sys_ni_file(f->decl_file))
				sc.implemented = false;
		}
		err = kdb__put_syscall(db, &sc);
	}
	free(ids);
	/* Which entry points the table-less ABIs hold, and how that was known. */
	if (!err && s->dispatch)
		err = kdb__set_meta(db, "syscall_dispatch", s->dispatch);
	return err;
}
