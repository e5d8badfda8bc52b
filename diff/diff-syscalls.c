// SPDX-License-Identifier: GPL-2.0-only
/*
 * The syscalls: each row of the join of both kernels' syscall tables
 * (db/kdb-diff.h) becomes its changes (added, removed, renumbered; a
 * slot that became or stopped being a COND_SYSCALL stub), and each pair
 * of entry points is compared by signature: parameter count, names, and
 * each parameter's and the return's type handed to the type comparison
 * as a slot of the syscall's root (diff-types.c). The vDSO's functions
 * are compared the same way (diff-vdso.c).
 */
#include "diff/diff_internal.h"

#include <errno.h>
#include <string.h>

#include "db/kdb-diff.h"
#include "db/kdb-kernel.h"
#include "lib/buf.h"
#include "lib/mem.h"
#include "lib/model.h"
#include "lib/str.h"

static int syscall_change(struct diff_run *run, enum diff_rule_id rule, const char *name,
			  const char *subject, const char *ov, const char *nv)
{
	size_t idx;
	int err;

	err = diff_add(run->e.r, &(struct diff_new){ .rule = rule, .name = name, .subject = subject,
						      .old_value = ov, .new_value = nv }, &idx);
	return err ? err : diff_add_impact(run->e.r, idx, name, name);
}

/* Is @f a COND_SYSCALL stub of kernel/sys_ni.c (the call compiled out: -ENOSYS)? */
static bool is_sys_ni(const struct kd_function *f)
{
	return f && kd_is_sys_ni_file(f->decl_file);
}

/*
 * One side's entry is a COND_SYSCALL stub of kernel/sys_ni.c, the other's
 * the call: compiled in (DIFF_R_SYSCALL_IMPLEMENTED, arm64's pkey_* since
 * 6.12: old binaries got ENOSYS and still work) or compiled out
 * (DIFF_R_SYSCALL_COMPILED_OUT: old binaries now get ENOSYS). The stub's
 * parameters are no signature of the call: nothing else is compared.
 */
static int syscall_stub(struct diff_run *run, enum diff_rule_id rule, const char *name,
			const struct kd_function *o, const struct kd_function *n, size_t root)
{
	const struct kd_function *stub = rule == DIFF_R_SYSCALL_IMPLEMENTED ? o : n;
	size_t idx;
	int err;

	kd_buf_reset(&run->ov);
	kd_buf_reset(&run->nv);
	kd_buf_reset(&run->subj);
	err = kd_buf_addf(&run->ov, "%zu", o->nr_params);
	if (!err)
		err = kd_buf_addf(&run->nv, "%zu", n->nr_params);
	if (!err)
		err = kd_buf_addf(&run->subj, "%s()", name);
	if (!err)
		err = diff_add(run->e.r, &(struct diff_new){
				.rule = rule, .name = name, .subject = run->subj.s,
				.old_value = run->ov.s, .new_value = run->nv.s }, &idx);
	if (!err)
		err = diff_evidence(run->e.r, idx, DIFF_EV_KERNEL,
				    "the %s kernel's %s is the stub at %s:%d (COND_SYSCALL: returns -ENOSYS)",
				    stub == o ? "old" : "new", stub->name, stub->decl_file,
				    stub->decl_line);
	return err ? err : dt_own(&run->e, root, idx);
}

int diff_compare_signatures(struct diff_run *run, const char *name, int64_t fo, int64_t fn)
{
	struct kd_function *f[2] = { NULL, NULL };
	struct kd_buf *subj = &run->subj, *ov = &run->ov, *nv = &run->nv;
	size_t root, i, idx;
	int err;

	for (i = 0; i < run->nr_done; i++)
		if (run->done[i][0] == fo && run->done[i][1] == fn)
			return 0;
	err = KD_GROW(run->done, run->cap_done, run->nr_done + 1);
	if (err)
		return err;
	run->done[run->nr_done][0] = fo;
	run->done[run->nr_done++][1] = fn;
	err = kdb__get_function_by_id(run->db[0], fo, &f[0]);
	if (!err)
		err = kdb__get_function_by_id(run->db[1], fn, &f[1]);
	if (!err)
		err = dt_root(&run->e, name, &root);
	if (err)
		goto out;
	if (is_sys_ni(f[0]) || is_sys_ni(f[1])) {
		if (!is_sys_ni(f[0]))
			err = syscall_stub(run, DIFF_R_SYSCALL_COMPILED_OUT, name, f[0], f[1], root);
		else if (!is_sys_ni(f[1]))
			err = syscall_stub(run, DIFF_R_SYSCALL_IMPLEMENTED, name, f[0], f[1], root);
		goto out;
	}
	if (f[0]->nr_params != f[1]->nr_params) {
		kd_buf_reset(ov);
		kd_buf_reset(nv);
		kd_buf_reset(subj);
		err = kd_buf_addf(ov, "%zu", f[0]->nr_params);
		if (!err)
			err = kd_buf_addf(nv, "%zu", f[1]->nr_params);
		if (!err)
			err = kd_buf_addf(subj, "%s()", name);
		if (!err)
			err = diff_add(run->e.r, &(struct diff_new){
					.rule = DIFF_R_SYSCALL_PARAMS_COUNT, .name = name,
					.subject = subj->s, .old_value = ov->s, .new_value = nv->s }, &idx);
		if (!err)
			err = dt_own(&run->e, root, idx);
	}
	for (i = 0; !err && i < f[0]->nr_params && i < f[1]->nr_params; i++) {
		const struct kd_param *a = &f[0]->params[i], *b = &f[1]->params[i];
		const char *label = b->name ? b->name : a->name ? a->name : "?";

		kd_buf_reset(subj);
		err = kd_buf_addf(subj, "%s(%s)", name, label);
		if (!err && a->name && b->name && strcmp(a->name, b->name)) {
			err = diff_add(run->e.r, &(struct diff_new){
					.rule = DIFF_R_SYSCALL_PARAM_RENAMED, .name = name,
					.subject = subj->s, .old_value = a->name, .new_value = b->name },
				       &idx);
			if (!err)
				err = dt_own(&run->e, root, idx);
		}
		if (err)
			break;
		if (a->type_id && b->type_id) {
			err = dt_slot(&run->e, root, SLOT_PARAM, name, subj->s, label, a->type_id, b->type_id);
		} else if (kd_strcmp_null(a->type_text, b->type_text)) {
			err = diff_add(run->e.r, &(struct diff_new){
					.rule = DIFF_R_SYSCALL_PARAM_TYPE, .name = name,
					.subject = subj->s, .old_value = a->type_text,
					.new_value = b->type_text,
					.note = "types known by their text only" }, &idx);
			if (!err)
				err = dt_own(&run->e, root, idx);
		}
	}
	kd_buf_reset(subj);
	if (!err)
		err = kd_buf_addf(subj, "%s() return", name);
	if (!err)
		err = dt_slot(&run->e, root, SLOT_RETURN, name, subj->s, "return", f[0]->ret_type,
			      f[1]->ret_type);
out:
	kd_function__free(f[0]);
	kd_function__free(f[1]);
	return err;
}

/*
 * Did the old kernel implement syscall @p at all? A syscall compiled out
 * (or dropped, as lookup_dcookie in 5.12) keeps its table slot pointing to
 * a COND_SYSCALL stub of kernel/sys_ni.c that returns -ENOSYS: its DWARF
 * says where it is defined. The contract may say so too ('unimplemented').
 */
static int syscall_removed(struct diff_run *run, const struct kdb_syscall_pair *p)
{
	const struct diff_contract *c = run->e.conf->contract;
	struct kd_function *f = NULL;
	struct diff_where w = { NULL, 0 };
	size_t idx = run->e.r->nr_changes;
	int err;

	if (c && c->unimplemented && c->unimplemented(c->ctx, false, p->name, &w)) {
		err = syscall_change(run, DIFF_R_SYSCALL_REMOVED_UNIMPLEMENTED, p->name,
				     run->subj.s, p->old_nrs, NULL);
		return err ? err : diff_evidence(run->e.r, idx, DIFF_EV_CONTRACT,
			"%s:%d: %s is unimplemented: the old kernel already failed it",
			w.file ? w.file : "contract", w.line, p->name);
	}
	if (p->old_func) {
		err = kdb__get_function_by_id(run->db[0], p->old_func, &f);
		if (err && err != -ENOENT)
			return err;
	}
	if (is_sys_ni(f)) {
		err = syscall_change(run, DIFF_R_SYSCALL_REMOVED_UNIMPLEMENTED, p->name,
				     run->subj.s, p->old_nrs, NULL);
		if (!err)
			err = diff_evidence(run->e.r, idx, DIFF_EV_KERNEL,
				"the old kernel's %s is the stub at %s:%d (COND_SYSCALL: returns -ENOSYS)",
				f->name, f->decl_file, f->decl_line);
	} else {
		err = syscall_change(run, DIFF_R_SYSCALL_REMOVED, p->name, run->subj.s,
				     p->old_nrs, NULL);
	}
	kd_function__free(f);
	return err;
}

int diff_on_syscall(const struct kdb_syscall_pair *p, void *ctx)
{
	struct diff_run *run = ctx;
	int err;

	kd_buf_reset(&run->subj);
	err = kd_buf_addf(&run->subj, "%s (%s)", p->name, p->abi);
	if (err)
		return err;
	/* An ABI one kernel lacks is one change (diff-abi.c), not one per syscall. */
	if (!p->old_nrs)
		return diff_abi_lone(run, 1, p->abi, true) ? 0 :
		       syscall_change(run, DIFF_R_SYSCALL_ADDED, p->name, run->subj.s, NULL,
				      p->new_nrs);
	if (!p->new_nrs)
		return diff_abi_lone(run, 0, p->abi, true) ? 0 : syscall_removed(run, p);
	if (strcmp(p->old_nrs, p->new_nrs))
		err = syscall_change(run, DIFF_R_SYSCALL_RENUMBERED, p->name,
				     run->subj.s, p->old_nrs, p->new_nrs);
	if (!err && p->old_func && p->new_func)
		err = diff_compare_signatures(run, p->name, p->old_func, p->new_func);
	return err;
}
