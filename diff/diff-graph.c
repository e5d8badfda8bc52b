// SPDX-License-Identifier: GPL-2.0-only
/*
 * The engine's graph: the nodes of compared type pairs with their edges
 * (dt_*). Once every root is compared, dt_impacts() marks the nodes that
 * own or reach a change and walks breadth-first from each root, so every
 * change lists each syscall or ioctl that reaches it once, with its
 * shortest path.
 */
#include "diff/type-walk.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hash.h"
#include "lib/mem.h"

static uint64_t pair_hash(int64_t a, int64_t b)
{
	uint64_t h = (uint64_t)a * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)b + 0x632be59bd9b4e019ULL);

	h ^= h >> 29;
	return h * 0xbf58476d1ce4e5b9ULL;
}

long dt_pair_find(const struct diff_engine *e, int64_t a, int64_t b)
{
	size_t pos = KD_HASHMAP_FIRST;
	uint64_t v;

	while ((v = kd_hashmap_next(&e->pairs, pair_hash(a, b), &pos))) {
		const struct dnode *n = &e->nodes[v - 1];

		if (n->ids[0] == a && n->ids[1] == b)
			return (long)(v - 1);
	}
	return -1;
}

int dt_pair_insert(struct diff_engine *e, size_t node)
{
	uint64_t h = pair_hash(e->nodes[node].ids[0], e->nodes[node].ids[1]);
	size_t pos = KD_HASHMAP_FIRST;
	int err = kd_hashmap_reserve(&e->pairs, 1);

	if (err)
		return err;
	while (kd_hashmap_next(&e->pairs, h, &pos))
		;
	kd_hashmap_insert_at(&e->pairs, pos, h, (uint64_t)node + 1);
	return 0;
}

int dt_names_index(const struct diff_engine *e, struct kd_hashmap *m, size_t from, size_t to,
		   bool roots)
{
	size_t i;

	for (i = from; i < to; i++) {
		const struct dnode *n = &e->nodes[i];
		uint64_t h = kd_hash_str(KD_HASH_SEED, n->display);
		size_t pos = KD_HASHMAP_FIRST;
		int err;

		if (!n->ids[0] != roots)
			continue;
		err = kd_hashmap_reserve(m, 1);
		if (err)
			return err;
		while (kd_hashmap_next(m, h, &pos))
			;
		kd_hashmap_insert_at(m, pos, h, (uint64_t)i + 1);
	}
	return 0;
}

long dt_names_find(const struct diff_engine *e, const struct kd_hashmap *m, const char *name)
{
	size_t pos = KD_HASHMAP_FIRST;
	uint64_t v;

	while ((v = kd_hashmap_next(m, kd_hash_str(KD_HASH_SEED, name), &pos)))
		if (!strcmp(e->nodes[v - 1].display, name))
			return (long)(v - 1);
	return -1;
}

bool dt_only_roots(const struct diff_engine *e, const struct kd_hashmap *roots,
		   const struct diff_change *c)
{
	size_t i;

	for (i = 0; i < c->nr_impacts; i++)
		if (dt_names_find(e, roots, c->impacts[i].root) < 0)
			return false;
	return c->nr_impacts > 0;
}

int dt_new_node(struct diff_engine *e, int64_t a, int64_t b, const char *display, size_t *out)
{
	struct dnode *n;
	int err;

	err = KD_GROW(e->nodes, e->cap_nodes, e->nr_nodes + 1);
	if (err)
		return err;
	n = &e->nodes[e->nr_nodes];
	memset(n, 0, sizeof(*n));
	n->ids[0] = a;
	n->ids[1] = b;
	n->parent = -1;
	n->seen = -1;
	n->display = kd_strdup(display);
	if (!n->display)
		return -ENOMEM;
	*out = e->nr_nodes++;
	return 0;
}

int dt_root(struct diff_engine *e, const char *label, size_t *node)
{
	return dt_new_node(e, 0, 0, label, node);
}

int dt_own(struct diff_engine *e, size_t node, size_t idx)
{
	struct dnode *n = &e->nodes[node];
	int err = KD_GROW(n->changes, n->cap_changes, n->nr_changes + 1);

	if (!err)
		n->changes[n->nr_changes++] = idx;
	return err;
}

int dt_edge(struct diff_engine *e, size_t from, const char *label, size_t to)
{
	struct dnode *n = &e->nodes[from];
	size_t i;
	int err;

	for (i = 0; i < n->nr_edges; i++)
		if (n->edges[i].node == to)
			return 0;
	err = KD_GROW(n->edges, n->cap_edges, n->nr_edges + 1);
	if (err)
		return err;
	n->edges[n->nr_edges].label = kd_strdup(label ? label : "");
	if (!n->edges[n->nr_edges].label)
		return -ENOMEM;
	n->edges[n->nr_edges++].node = to;
	return 0;
}

/* --- impacts ------------------------------------------------------------ */

static int node_path(const struct diff_engine *e, size_t node, struct kd_buf *b)
{
	size_t chain[256], n = 0, cur = node;
	int err = 0;

	while (e->nodes[cur].parent >= 0 && n < 256) {
		chain[n++] = cur;
		cur = (size_t)e->nodes[cur].parent;
	}
	kd_buf_reset(b);
	err = kd_buf_adds(b, e->nodes[cur].display);
	while (!err && n--) {
		const struct dnode *v = &e->nodes[chain[n]];
		const struct dnode *p = &e->nodes[v->parent];
		const char *label = p->edges[v->parent_edge].label;
		size_t pl = strlen(p->display);

		err = kd_buf_addf(b, " -> %s", label);
		/* An anonymous aggregate is named after its parent and member, a
		 * header's type after itself (header -> struct X): say it once. */
		if (!err && !(strncmp(v->display, p->display, pl) == 0 && v->display[pl] == '.') &&
		    strcmp(v->display, label))
			err = kd_buf_addf(b, " -> %s", v->display);
	}
	return err;
}

static int walk_root(struct diff_engine *e, size_t root, size_t *queue)
{
	struct kd_buf path = KD_BUF_INIT;
	size_t head = 0, tail = 0, i;
	int err = 0;

	e->nodes[root].seen = (long)root;
	e->nodes[root].parent = -1;
	queue[tail++] = root;
	while (!err && head < tail) {
		size_t v = queue[head++];
		struct dnode *n = &e->nodes[v];

		if (n->nr_changes) {
			err = node_path(e, v, &path);
			for (i = 0; !err && i < n->nr_changes; i++)
				err = diff_add_impact(e->r, n->changes[i], e->nodes[root].display, path.s);
		}
		for (i = 0; !err && i < n->nr_edges; i++) {
			struct dnode *w = &e->nodes[n->edges[i].node];

			if (!w->dirty || w->seen == (long)root)
				continue;
			w->seen = (long)root;
			w->parent = (long)v;
			w->parent_edge = i;
			queue[tail++] = n->edges[i].node;
		}
	}
	kd_buf_release(&path);
	return err;
}

int dt_impacts(struct diff_engine *e)
{
	size_t *queue, i, j;
	bool changed = true;
	int err = 0;

	for (i = 0; i < e->nr_nodes; i++)
		e->nodes[i].dirty = e->nodes[i].nr_changes > 0;
	while (changed) {
		changed = false;
		for (i = e->nr_nodes; i-- > 0;) {
			struct dnode *n = &e->nodes[i];

			for (j = 0; !n->dirty && j < n->nr_edges; j++)
				if (e->nodes[n->edges[j].node].dirty)
					n->dirty = changed = true;
		}
	}
	queue = kd_malloc_array(e->nr_nodes + 1, sizeof(*queue));
	if (!queue)
		return -ENOMEM;
	for (i = 0; !err && i < e->nr_nodes; i++)
		if (!e->nodes[i].ids[0] && e->nodes[i].dirty)
			err = walk_root(e, i, queue);
	free(queue);
	return err;
}

void dt_release(struct diff_engine *e)
{
	size_t i, j;

	for (i = 0; i < e->nr_nodes; i++) {
		for (j = 0; j < e->nodes[i].nr_edges; j++)
			free(e->nodes[i].edges[j].label);
		free(e->nodes[i].edges);
		free(e->nodes[i].changes);
		free(e->nodes[i].display);
	}
	free(e->nodes);
	kd_hashmap_release(&e->pairs);
	kd_hashmap_release(&e->kernel_names);
	free(e->embedded);
	e->embedded = NULL;
	e->nr_embedded = e->cap_embedded = 0;
	e->embedded_loaded = false;
	kd_buf_release(&e->scratch[0]);
	kd_buf_release(&e->scratch[1]);
	e->nodes = NULL;
	e->nr_nodes = e->cap_nodes = 0;
}
