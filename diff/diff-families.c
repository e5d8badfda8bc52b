// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ioctl families (db/SCHEMA.md, ioctl_families): function-like ioctl
 * macros compared by name. A program computes its commands from the
 * macro, so the macro's formula is what old binaries carry: one gone, or
 * another formula, and the commands they send are no longer the kernel's
 * (diff/RULES.md, ioctl-family-*). Formulas are compared as the text the
 * extraction gave them, tokens one space apart: a macro spaced otherwise
 * is the same, an equivalent formula written otherwise is not, and the
 * evidence shows both.
 */
#include "diff/diff_internal.h"

#include "db/kdb-diff.h"
#include "lib/buf.h"

/* NAME(PARAMS) and _IOC(dir, type, nr, size) of @f into @sig and @formula. */
static int family_text(const struct kd_ioctl_family *f, struct kd_buf *sig, struct kd_buf *formula)
{
	int err = kd_buf_addf(sig, "%s(%s)", f->name, f->params);

	return err ? err : kd_buf_addf(formula, "_IOC(%s, %s, %s, %s)", f->dir, f->type, f->nr, f->size);
}

int diff_on_ioctl_family(const struct kdb_ioctl_family_pair *p, void *ctx)
{
	struct diff_run *run = ctx;
	const struct kd_ioctl_family *o = p->old, *n = p->new;
	struct kd_buf osig = KD_BUF_INIT, nsig = KD_BUF_INIT;
	enum diff_rule_id rule = !o ? DIFF_R_IOCTL_FAMILY_ADDED :
				 !n ? DIFF_R_IOCTL_FAMILY_REMOVED : DIFF_R_IOCTL_FAMILY_CHANGED;
	size_t idx;
	int err;

	kd_buf_reset(&run->ov);
	kd_buf_reset(&run->nv);
	err = o ? family_text(o, &osig, &run->ov) : 0;
	if (!err && n)
		err = family_text(n, &nsig, &run->nv);
	if (!err)
		err = diff_add(run->e.r, &(struct diff_new){
				.rule = rule, .name = o ? osig.s : nsig.s, .subject = o ? osig.s : nsig.s,
				.old_value = o ? run->ov.s : NULL, .new_value = n ? run->nv.s : NULL }, &idx);
	if (!err && o && n)
		err = diff_evidence(run->e.r, idx, DIFF_EV_LAYOUT, "%s:%d defines %s as %s; %s:%d as %s",
				    o->file, o->line, osig.s, run->ov.s, n->file, n->line, run->nv.s);
	else if (!err && o)
		err = diff_evidence(run->e.r, idx, DIFF_EV_LAYOUT, "%s:%d defines %s as %s; the new"
				    " headers define no macro %s", o->file, o->line, osig.s, run->ov.s, o->name);
	if (!err)
		err = diff_add_impact(run->e.r, idx, o ? o->name : n->name, o ? o->name : n->name);
	kd_buf_release(&osig);
	kd_buf_release(&nsig);
	return err;
}
