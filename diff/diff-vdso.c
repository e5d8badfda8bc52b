// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vDSO of both kernels (RULES.md, the vdso-* rules): images paired by
 * ABI, then the exported names of the ABIs both kernels have an image of,
 * paired by name. C libraries and runtimes look an entry point up by name
 * and version node: a name gone, or no longer at a node it had, fails that
 * lookup (breaking); a name, an alias or a node added is found only by
 * those that ask for it (compatible); a binding or symbol type changes no
 * versioned lookup (info). An image gone is one change, not one per name.
 * A removal the contract promised (its `vdso ABI` block) cites that line
 * as its evidence.
 */
#include "diff/diff_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "db/kdb-vdso.h"

struct vdso_diff {
	struct diff_run *run;
	struct kd_buf name, subj, ov, nv;
};

static bool skipped(const struct vdso_diff *v, const char *abi)
{
	const char *only = v->run->e.conf->abi;

	return only && strcmp(only, abi);
}

/* *@idx (may be NULL): the change's index (diff_add()). */
static int change(struct vdso_diff *v, enum diff_rule_id rule, const char *ov, const char *nv,
		  size_t *idx)
{
	return diff_add(v->run->e.r, &(struct diff_new){ .rule = rule, .name = v->name.s,
			.subject = v->subj.s, .old_value = ov, .new_value = nv }, idx);
}

/*
 * Only processes of @abi map its image: its loss breaks those alone. When
 * the new kernel lacks the whole ABI, the image goes with its syscalls:
 * one finding (diff-abi.c). *@idx: the change's index.
 */
static int image_removed(struct vdso_diff *v, const char *abi, size_t *idx)
{
	struct diff_result *r = v->run->e.r;
	int err;

	kd_buf_reset(&v->nv);
	err = kd_buf_addf(&v->nv, "breaking for %s programs only", abi);
	if (!err)
		err = diff_add(r, &(struct diff_new){ .rule = DIFF_R_VDSO_IMAGE_REMOVED,
				.name = v->name.s, .subject = v->subj.s, .old_value = v->ov.s,
				.note = v->nv.s }, idx);
	if (!err && diff_abi_lone(v->run, 0, abi, false)) {
		err = diff_abi_cause(&v->nv, abi);
		if (!err)
			err = diff_cause(r, *idx, v->nv.s);
	}
	return err;
}

/*
 * Change @idx, a removal, is of what the contract promises (@name at
 * @node in @abi's vDSO; @name NULL: the image): its line is the evidence.
 * 1 when the contract says so, 0 when not, or a negative code.
 */
static int promised(struct vdso_diff *v, size_t idx, const char *abi, const char *name,
		    const char *node)
{
	const struct diff_contract *c = v->run->e.conf->contract;
	struct diff_where w = { NULL, 0 };
	struct diff_result *r = v->run->e.r;
	int err;

	if (!c || !c->vdso_promise || !c->vdso_promise(c->ctx, abi, name, node, &w))
		return 0;
	if (!name)
		err = diff_evidence(r, idx, DIFF_EV_CONTRACT,
				    "%s:%d: the contract promises a vDSO to %s processes",
				    w.file ? w.file : "contract", w.line, abi);
	else
		err = diff_evidence(r, idx, DIFF_EV_CONTRACT,
				    "%s:%d: the contract promises %s@%s in the %s vDSO",
				    w.file ? w.file : "contract", w.line, name, node, abi);
	return err ? err : 1;
}

static int image_text(struct kd_buf *b, const struct kd_vdso_image *im)
{
	kd_buf_reset(b);
	return kd_buf_addf(b, "%s, %" PRId64 " bytes", im->soname ? im->soname : "(no soname)",
			   im->size);
}

static int on_image(const char *abi, const struct kd_vdso_image *o, const struct kd_vdso_image *n,
		    void *ctx)
{
	struct vdso_diff *v = ctx;
	size_t idx;
	int err;

	if (skipped(v, abi))
		return 0;
	kd_buf_reset(&v->name);
	kd_buf_reset(&v->subj);
	err = kd_buf_addf(&v->name, "vdso %s", abi);
	if (!err)
		err = kd_buf_adds(&v->subj, v->name.s);
	if (err)
		return err;
	if (!n) {
		err = image_text(&v->ov, o) ? -ENOMEM : image_removed(v, abi, &idx);
		return err ? err : promised(v, idx, abi, NULL, NULL) < 0 ? -ENOMEM : 0;
	}
	if (!o)
		return image_text(&v->nv, n) ? -ENOMEM :
		       change(v, DIFF_R_VDSO_IMAGE_ADDED, NULL, v->nv.s, NULL);
	if ((o->soname == NULL) != (n->soname == NULL) ||
	    (o->soname && strcmp(o->soname, n->soname)))
		return change(v, DIFF_R_VDSO_SONAME, o->soname ? o->soname : "(none)",
			      n->soname ? n->soname : "(none)", NULL);
	return 0;
}

/* Is @node (@len bytes) one of the space-separated @list's? "" is an unversioned name. */
static bool has_node(const char *list, const char *node, size_t len)
{
	const char *p = list;

	for (;;) {
		size_t n = strcspn(p, " ");

		if (n == len && !strncmp(p, node, len))
			return true;
		if (!p[n])
			return false;
		p += n + 1;
	}
}

/* promised() of change @idx for node @node (@len bytes) of @p's name. */
static int promised_node(struct vdso_diff *v, size_t idx, const struct kdb_vdso_pair *p,
			 const char *node, size_t len)
{
	kd_buf_reset(&v->nv);
	return kd_buf_add(&v->nv, node, len) ? -ENOMEM : promised(v, idx, p->abi, p->name, v->nv.s);
}

/*
 * One change of @rule per node of @list that @other (NULL: none) lacks,
 * the subject NAME@NODE (ABI). Returns how many, or a negative code.
 */
static int per_node(struct vdso_diff *v, const struct kdb_vdso_pair *p, enum diff_rule_id rule,
		    const char *list, const char *other, const char *ov, const char *nv)
{
	const char *q = list;
	int count = 0, err;

	for (;;) {
		size_t n = strcspn(q, " "), idx;

		if (!other || !has_node(other, q, n)) {
			kd_buf_reset(&v->subj);
			err = kd_buf_addf(&v->subj, "%s%s%.*s (%s)", p->name, n ? "@" : "", (int)n, q,
					  p->abi);
			if (!err)
				err = change(v, rule, ov, nv, &idx);
			if (!err && rule == DIFF_R_VDSO_SYMBOL_REMOVED && n)
				err = promised_node(v, idx, p, q, n) < 0 ? -ENOMEM : 0;
			if (err)
				return err;
			count++;
		}
		if (!q[n])
			return count;
		q += n + 1;
	}
}

/* How many nodes of the space-separated @old the list @new lacks. */
static int nodes_lost(const char *old, const char *new)
{
	int lost = 0;

	for (;;) {
		size_t n = strcspn(old, " ");

		lost += !has_node(new, old, n);
		if (!old[n])
			return lost;
		old += n + 1;
	}
}

/* Change @idx, @p's name off nodes it had: the first lost node the contract promises. */
static int promised_lost(struct vdso_diff *v, size_t idx, const struct kdb_vdso_pair *p)
{
	const char *q = p->old_versions;

	for (;;) {
		size_t n = strcspn(q, " ");
		int rc = 0;

		if (n && !has_node(p->new_versions, q, n))
			rc = promised_node(v, idx, p, q, n);
		if (rc || !q[n])
			return rc < 0 ? rc : 0;
		q += n + 1;
	}
}

static int on_symbol(const struct kdb_vdso_pair *p, void *ctx)
{
	struct vdso_diff *v = ctx;
	size_t idx;
	int err, lost;

	if (skipped(v, p->abi))
		return 0;
	kd_buf_reset(&v->name);
	if (kd_buf_addf(&v->name, "vdso %s", p->abi))
		return -ENOMEM;
	if (!p->old_versions)
		return per_node(v, p, DIFF_R_VDSO_SYMBOL_ADDED, p->new_versions, NULL, NULL,
				p->new_attrs) < 0 ? -ENOMEM : 0;
	if (!p->new_versions)
		return per_node(v, p, DIFF_R_VDSO_SYMBOL_REMOVED, p->old_versions, NULL, p->old_attrs,
				NULL) < 0 ? -ENOMEM : 0;
	/* A node the name lost: one change naming both lists. */
	lost = nodes_lost(p->old_versions, p->new_versions);
	kd_buf_reset(&v->subj);
	if (kd_buf_addf(&v->subj, "%s (%s)", p->name, p->abi))
		return -ENOMEM;
	if (lost)
		err = change(v, DIFF_R_VDSO_SYMBOL_VERSION, p->old_versions, p->new_versions, &idx);
	if (lost && !err)
		err = promised_lost(v, idx, p);
	else if (!lost)
		err = per_node(v, p, DIFF_R_VDSO_SYMBOL_ADDED, p->new_versions, p->old_versions, NULL,
			       p->new_attrs);
	if (err < 0)
		return err;
	/* Both debug images read: the syscalls' rules (aliases share one pair, compared once). */
	if (p->old_func && p->new_func) {
		err = diff_compare_signatures(v->run, p->name, p->old_func, p->new_func);
		if (err < 0)
			return err;
	}
	if (p->old_attrs && p->new_attrs && strcmp(p->old_attrs, p->new_attrs)) {
		kd_buf_reset(&v->subj);
		err = kd_buf_addf(&v->subj, "%s (%s)", p->name, p->abi);
		if (!err)
			err = change(v, DIFF_R_VDSO_SYMBOL_BINDING, p->old_attrs, p->new_attrs, NULL);
	}
	return err < 0 ? err : 0;
}

int diff_vdso(struct diff_run *run)
{
	struct vdso_diff v = { .run = run, .name = KD_BUF_INIT, .subj = KD_BUF_INIT,
			       .ov = KD_BUF_INIT, .nv = KD_BUF_INIT };
	int err = kdb__diff_vdso_images(run->db[0], on_image, &v);

	if (!err)
		err = kdb__diff_vdso_symbols(run->db[0], on_symbol, &v);
	kd_buf_release(&v.name);
	kd_buf_release(&v.subj);
	kd_buf_release(&v.ov);
	kd_buf_release(&v.nv);
	return err;
}
