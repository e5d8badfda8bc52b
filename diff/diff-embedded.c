// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which named structs and unions a type of either kernel embeds by value:
 * as a member, or as the element of a member's array (at any depth of
 * arrays). An alignment places a type inside others and nowhere else: a
 * struct no type embeds crosses between user space and the kernel as the
 * bytes behind a pointer, where its alignment is the caller's business
 * (diff/RULES.md, type-align-unembedded). The names are collected once,
 * on the first question, from every type both graphs hold (the DWARF of
 * the kernels and modules, and the header views).
 */
#include "diff/type-walk.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mem.h"
#include "lib/typegraph.h"

/* The named aggregate member @m of a type of @g holds by value, or NULL. */
static const char *embedded_name(const struct tgraph *g, const struct kd_member *m)
{
	const struct kd_type *t = tgraph_strip(g, m->type);
	int hops = 0;

	while (t && t->kind == KD_KIND_ARRAY && hops++ < KD_TYPE_MAX_HOPS)
		t = tgraph_strip(g, t->ref);
	return t && (t->kind == KD_KIND_STRUCT || t->kind == KD_KIND_UNION) ? t->name : NULL;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int collect(struct diff_engine *e)
{
	size_t side, i, j;
	int err = 0;

	for (side = 0; !err && side < 2; side++)
		for (i = 0; !err && i < e->g[side].nr; i++) {
			const struct kd_type *t = &e->g[side].types[i];

			if (t->kind != KD_KIND_STRUCT && t->kind != KD_KIND_UNION)
				continue;
			for (j = 0; !err && j < t->nr_members; j++) {
				const char *name = embedded_name(&e->g[side], &t->members[j]);

				if (!name)
					continue;
				err = KD_GROW(e->embedded, e->cap_embedded, e->nr_embedded + 1);
				if (!err)
					e->embedded[e->nr_embedded++] = name;
			}
		}
	if (!err && e->nr_embedded)
		qsort(e->embedded, e->nr_embedded, sizeof(*e->embedded), by_name);
	return err;
}

int dt_embedded(struct diff_engine *e, const char *name, bool *embedded)
{
	int err;

	*embedded = true;
	if (!name)
		return 0;	/* an anonymous aggregate is a member of its owner */
	if (!e->embedded_loaded) {
		err = collect(e);
		if (err)
			return err;
		e->embedded_loaded = true;
	}
	*embedded = e->nr_embedded &&
		    bsearch(&name, e->embedded, e->nr_embedded, sizeof(*e->embedded), by_name);
	return 0;
}
