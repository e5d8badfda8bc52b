// SPDX-License-Identifier: GPL-2.0-only
/*
 * The types only the headers reach: every named struct, union and enum
 * both header views declare, compared as user space compiles it whether
 * or not a syscall or ioctl reaches it (a program may read it from a
 * device, a socket, a file, a netlink message), reached from the header
 * that declares it (linux/nexthop.h -> struct nexthop_grp).
 *
 * Between two header trees the ioctls' argument types are header-view
 * types too: a pair an ioctl reached is the same node (dt_pair_find()).
 * Between two kernels the syscalls and ioctls reach DWARF types, another
 * row of the same name: a type they compared (kernel_names) is not
 * compared again from its header; where each side's layout of a change
 * comes from is its evidence (diff-provenance.c). Either way the
 * syscalls' and ioctls' nodes are compared first, so that their uses
 * (a union alternative, a size-tolerant argument) decide, not the header.
 */
#include "diff/diff_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb-diff.h"

struct hpass {
	struct diff_run *run;
};

static int on_header_type(const struct kdb_uapi_type_pair *p, void *ctx)
{
	struct hpass *h = ctx;
	struct diff_run *run = h->run;
	size_t root;
	int err;

	kd_buf_reset(&run->subj);
	err = kd_buf_addf(&run->subj, "%s %s", p->kind, p->name);
	if (err)
		return err;
	/* Compared through the kernel, reported there. */
	if (run->e.by_kernel_names && dt_names_find(&run->e, &run->e.kernel_names, run->subj.s) >= 0)
		return 0;
	err = dt_root(&run->e, p->file, &root);
	if (!err)
		err = dt_header_type(&run->e, root, p->file, run->subj.s, p->old_id, p->new_id);
	return err;
}

/*
 * Is every header change @c is reached from (its impacts' roots) one none
 * of whose ioctls the old kernel built code for?
 */
static bool all_unbuilt(const struct diff_run *run, const struct diff_change *c,
			struct kd_buf *scratch)
{
	size_t i;

	for (i = 0; i < c->nr_impacts; i++)
		if (!diff_header_unbuilt(run, c->impacts[i].root, scratch))
			return false;
	return c->nr_impacts > 0;
}

/*
 * A breaking change of a type only headers none of which the old kernel
 * served reach: type-unbuilt (source), as their ioctls' and constants'
 * changes are (diff-uapi.c).
 */
static int judge_unbuilt(struct hpass *h, size_t idx, struct kd_buf *scratch)
{
	struct diff_result *r = h->run->e.r;
	struct diff_change *c = &r->changes[idx];
	const struct diff_rule *u = diff_rule(DIFF_R_TYPE_UNBUILT);
	size_t k;

	if (c->rule->verdict != DIFF_BREAKING || !all_unbuilt(h->run, c, scratch))
		return 0;
	for (k = 0; k < DIFF_RULE_MAX_KINDS && u->kinds[k]; k++)
		if (!strcmp(diff_kind_name(u->kinds[k]), c->kind))
			break;
	if (k == DIFF_RULE_MAX_KINDS || !u->kinds[k])
		return 0;	/* a kind the rule does not judge stays as its layout says */
	c->rule = u;
	return diff_evidence(r, idx, DIFF_EV_KERNEL,
			     "no binary of the old kernel (vmlinux and %zu modules) defines a type of"
			     " %s's ioctls: nothing in it was served; %s is declared there and no"
			     " syscall or ioctl of either kernel reaches it", h->run->k.nr_modules[0],
			     c->impacts[0].root, c->cause);
}

/*
 * An enumerator removed from an enum only headers reach is a constant
 * removed (diff-uapi.c: source), unless another enumerator of the new
 * enum took its value: then the number means something else to the new
 * kernel (a netlink attribute renumbered: 6.12's vdpa.h), breaking.
 */
static int judge_enumerator(struct hpass *h, const struct kd_hashmap *types, size_t idx)
{
	struct diff_engine *e = &h->run->e;
	struct diff_change *c = &e->r->changes[idx];
	const struct kd_type *t;
	char *end;
	long node;
	long long v;
	size_t i;

	if (c->rule != diff_rule(DIFF_R_ENUMERATOR_REMOVED) || !c->old_value)
		return 0;
	node = dt_names_find(e, types, c->name);
	t = node >= 0 ? tgraph_get(&e->g[1], e->nodes[node].ids[1]) : NULL;
	errno = 0;
	v = strtoll(c->old_value, &end, 0);
	if (!t || t->kind != KD_KIND_ENUM || errno || *end)
		return 0;
	for (i = 0; i < t->nr_enumerators; i++)
		if (t->enumerators[i].value == v)
			return diff_evidence(e->r, idx, DIFF_EV_LAYOUT,
					     "the new headers give its value %lld to %s", v,
					     t->enumerators[i].name);
	c->rule = diff_rule(DIFF_R_ENUMERATOR_REMOVED_HEADER);
	return 0;
}

/*
 * The changes only header paths reach: a breaking one whose headers the
 * old kernel did not serve is source; an enumerator removed is a
 * constant removed, unless its value went to another.
 */
static int judge_header_only(struct hpass *h, size_t first_change)
{
	struct diff_engine *e = &h->run->e;
	struct diff_result *r = e->r;
	struct kd_hashmap roots = KD_HASHMAP_INIT, types = KD_HASHMAP_INIT;
	struct kd_buf scratch = KD_BUF_INIT;
	size_t i;
	int err = dt_names_index(e, &roots, e->header_from, e->nr_nodes, true);

	if (!err)
		err = dt_names_index(e, &types, e->header_from, e->nr_nodes, false);

	for (i = first_change; !err && i < r->nr_changes; i++) {
		const struct diff_change *c = &r->changes[i];

		if (c->category != DIFF_CAT_TYPE || !dt_only_roots(e, &roots, c))
			continue;
		err = judge_unbuilt(h, i, &scratch);
		if (!err)
			err = judge_enumerator(h, &types, i);
	}
	kd_hashmap_release(&roots);
	kd_hashmap_release(&types);
	kd_buf_release(&scratch);
	return err;
}

int diff_header_types(struct diff_run *run)
{
	struct diff_engine *e = &run->e;
	struct hpass h = { .run = run };
	size_t first_change;
	int err = dt_compare_pending(e);

	if (err)
		return err;
	first_change = e->r->nr_changes;
	e->header_from = e->nr_nodes;
	e->by_kernel_names = !e->r->headers_only;
	if (e->by_kernel_names)
		err = dt_names_index(e, &e->kernel_names, 0, e->header_from, false);
	if (!err)
		err = kdb__diff_uapi_types(run->db[0], on_header_type, &h);
	if (!err)
		err = dt_compare_pending(e);
	if (!err)
		err = dt_impacts(e);
	if (!err && e->by_kernel_names)
		err = judge_header_only(&h, first_change);
	return err;
}
