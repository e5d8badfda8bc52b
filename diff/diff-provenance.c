// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where each side's layout of a changed type was read, said in its
 * evidence. The sources are read from the rows the node compared, not
 * inferred from the path that reached them: a header of the tree
 * declares the row (uapi_types: the header view, compiled as user space
 * compiles it), vmlinux's or a module's DWARF has it (type_origins), or
 * both (one layout). So a change only headers reach cannot be said to be
 * "the headers' layouts" when a row is the kernel's own (the header view
 * once followed a pointer into kernel-internal structs, issue 23).
 *
 * A row that records no source of its own (an anonymous aggregate, a
 * function type, a C library type) is part of the layout of the type it
 * was reached from: the sources are those of the nearest named node up
 * its impact path that has some.
 */
#include "diff/diff_internal.h"

#include <stdlib.h>
#include <string.h>

#include "db/kdb-uapi.h"
#include "lib/buf.h"

/* Parent links followed to a row with sources (doc/LIMITS.md). */
#define MAX_UP 256

struct side_source {
	struct kdb_type_sources s;
	const char *subject;	/* display of the node whose row records them; NULL: none */
	bool too_deep;		/* none within MAX_UP nodes up the path */
};

static bool has_kernel(const struct side_source *s)
{
	return s->s.vmlinux || s->s.module;
}

/* The sources of node @node's layout on @side (0 old, 1 new). */
static int node_sources(const struct diff_run *run, size_t node, int side, struct side_source *out)
{
	const struct diff_engine *e = &run->e;
	long cur = (long)node;
	int hops = 0, err;

	memset(out, 0, sizeof(*out));
	while (cur >= 0 && e->nodes[cur].ids[0]) {
		const struct dnode *n = &e->nodes[cur];
		const struct kd_type *t = tgraph_get(&e->g[side], n->ids[side]);

		if (hops++ == MAX_UP) {
			out->too_deep = true;
			return 0;
		}
		if (t && t->name && t->kind != KD_KIND_FUNC) {
			err = kdb__type_sources(run->db[side], n->ids[side], &out->s);
			if (err)
				return err;
			if (out->s.header || has_kernel(out)) {
				out->subject = n->display;
				return 0;
			}
		}
		cur = n->parent;
	}
	return 0;
}

/* "struct x in the header view (linux/x.h:3)", "... in vmlinux's DWARF". */
static int add_source(struct kd_buf *b, const struct side_source *s)
{
	int err;

	if (s->too_deep)
		return kd_buf_addf(b, "a layout whose source is not within %d levels up its path",
				   MAX_UP);
	if (!s->subject)
		return kd_buf_adds(b, "a layout no header view and no DWARF records");
	err = kd_buf_addf(b, "%s in ", s->subject);
	if (!err && s->s.header)
		err = kd_buf_addf(b, "the header view (%s, compiled as user space compiles it)%s",
				  s->s.header, has_kernel(s) ? " and in " : "");
	if (!err && s->s.vmlinux)
		err = kd_buf_adds(b, "vmlinux's DWARF");
	else if (!err && s->s.module)
		err = kd_buf_addf(b, "module %s's DWARF", s->s.module);
	if (!err && s->s.header && has_kernel(s))
		err = kd_buf_adds(b, ", one layout");
	return err;
}

/*
 * The evidence of change @idx, node @node's, from the sources of both
 * sides; @header_only: only headers reach it. The kernels' default stays
 * where both rows are DWARF's and a syscall or ioctl reaches the change.
 */
static int layout_evidence(struct diff_run *run, size_t node, size_t idx, bool header_only,
			   struct kd_buf *b)
{
	struct diff_result *r = run->e.r;
	const char *cause = r->changes[idx].cause;
	/* Both zeroed: out: releases the second even when the first fails. */
	struct side_source src[2] = { 0 };
	int err = node_sources(run, node, 0, &src[0]);

	if (!err)
		err = node_sources(run, node, 1, &src[1]);
	if (err)
		goto out;
	kd_buf_reset(b);
	if (src[0].s.header && src[1].s.header && (header_only || !has_kernel(&src[0]) ||
						   !has_kernel(&src[1]))) {
		err = kd_buf_addf(b, "the layouts both header views give (compiled as user space"
				  " compiles them): %s at %s in the old headers, ", src[0].subject,
				  src[0].s.header);
		if (!err && strcmp(src[0].subject, src[1].subject))
			err = kd_buf_addf(b, "%s at ", src[1].subject);
		if (!err)
			err = kd_buf_addf(b, "%s in the new", src[1].s.header);
	} else if (!header_only && has_kernel(&src[0]) && has_kernel(&src[1])) {
		goto out;	/* the default says it */
	} else {
		err = kd_buf_adds(b, "old: ");
		if (!err)
			err = add_source(b, &src[0]);
		if (!err)
			err = kd_buf_adds(b, "; new: ");
		if (!err)
			err = add_source(b, &src[1]);
	}
	if (!err && header_only)
		err = !strcmp(cause, src[0].subject ? src[0].subject : "") ?
		      kd_buf_adds(b, "; no syscall or ioctl of either kernel reaches it") :
		      kd_buf_addf(b, "; no syscall or ioctl of either kernel reaches %s", cause);
	if (!err)
		err = diff_evidence(r, idx, DIFF_EV_LAYOUT, "%s", b->s);
out:
	kdb_type_sources__release(&src[0].s);
	kdb_type_sources__release(&src[1].s);
	return err;
}

int diff_layout_sources(struct diff_run *run, const char *dflt)
{
	struct diff_engine *e = &run->e;
	struct kd_hashmap header_roots = KD_HASHMAP_INIT;
	struct kd_buf b = KD_BUF_INIT;
	size_t i, j;
	int err = 0;

	/* Nodes from header_from on are the header pass's (diff-header-types.c). */
	if (e->by_kernel_names)
		err = dt_names_index(e, &header_roots, e->header_from, e->nr_nodes, true);
	for (i = 0; !err && i < e->nr_nodes; i++) {
		const struct dnode *n = &e->nodes[i];

		if (!n->ids[0])
			continue;	/* a root's own changes are its syscall's or ioctl's */
		for (j = 0; !err && j < n->nr_changes; j++) {
			const struct diff_change *c = &e->r->changes[n->changes[j]];

			if (c->category != DIFF_CAT_TYPE || c->evidence_kind != DIFF_EV_LAYOUT ||
			    strcmp(c->evidence, dflt))
				continue;
			err = layout_evidence(run, i, n->changes[j],
					      e->by_kernel_names && dt_only_roots(e, &header_roots, c), &b);
		}
	}
	kd_hashmap_release(&header_roots);
	kd_buf_release(&b);
	return err;
}
