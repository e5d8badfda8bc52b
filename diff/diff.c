// SPDX-License-Identifier: GPL-2.0-only
/*
 * diff__run(): the driver. It loads both kernels' types, ATTACHes the new
 * DB to the old one so db/ can join syscall tables, constants and ioctls
 * in SQL, turns every row of those joins into changes, and hands each
 * syscall signature and ioctl argument to the type comparison (a root of
 * the path graph, diff-types.c). The changes themselves, their order and
 * the result's accessors are changes.c's.
 */
#include "diff/diff_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "db/kdb-uapi.h"
#include "db/kdb-diff.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/model.h"

static int constant_value(const struct kd_constant *c, void *ctx)
{
	if (ctx)
		*(int64_t *)ctx = c->value;
	return 0;
}

bool diff_constant(struct kdb *db, const char *name, int64_t *value)
{
	return db && name && !kdb__get_constant(db, name, constant_value, value);
}

/* --- syscalls ------------------------------------------------------------- */

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

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
		} else if (cmp_str(a->type_text, b->type_text)) {
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

static int on_syscall(const struct kdb_syscall_pair *p, void *ctx)
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

/* --- the run ------------------------------------------------------------- */

static int load_meta(struct kdb *db, const char *input, const char *release,
		     struct diff_side_meta *m)
{
	int err;

	m->path = kd_strdup(input ? input : kdb__path(db));
	m->kabi = kd_strdup(kdb__path(db));
	if (!m->path || !m->kabi)
		return -ENOMEM;
	if (release)
		err = (m->release = kd_strdup(release)) ? 0 : -ENOMEM;
	else
		err = kdb__get_meta(db, "release", &m->release);
	if (!err)
		err = kdb__get_meta(db, "build_id", &m->build_id);
	if (!err)
		err = kdb__get_meta(db, "arch", &m->arch);
	if (!err)
		err = kdb__get_meta(db, "uapi_constants", &m->constants);
	/* Written before arm64 was read (or by hand): x86_64 was all there was. */
	if (!err && !m->arch && !(m->arch = kd_strdup("x86_64")))
		err = -ENOMEM;
	return err;
}

/* Are both sides header trees (extract --uapi DIR alone: meta input=headers)? */
static int headers_only(struct kdb *old, struct kdb *new, bool *out)
{
	char *in[2] = { NULL, NULL };
	int err = kdb__get_meta(old, "input", &in[0]);

	if (!err)
		err = kdb__get_meta(new, "input", &in[1]);
	*out = !err && in[0] && in[1] && !strcmp(in[0], "headers") && !strcmp(in[1], "headers");
	free(in[0]);
	free(in[1]);
	return err;
}

/*
 * Two architectures number their syscalls and lay out their types
 * differently by design: every difference would read as a break. Refused
 * in one line naming both.
 */
static int check_same_arch(const struct diff_result *r)
{
	const struct diff_side_meta *o = &r->meta[0], *n = &r->meta[1];

	if (!strcmp(o->arch, n->arch))
		return 0;
	kd_err("%s is an %s kernel and %s an %s one: kabi-diff compares two builds of one"
	       " architecture", o->path, o->arch, n->path, n->arch);
	return -KD_EUSAGE;
}

int diff__run(struct kdb *old, struct kdb *new, const struct diff_conf *conf,
	      struct diff_result **out)
{
	static const struct diff_conf no_conf;
	struct diff_run run = { .db = { old, new }, .subj = KD_BUF_INIT, .ov = KD_BUF_INIT,
			   .nv = KD_BUF_INIT };
	struct diff_result *r;
	bool attached = false;
	int err;

	*out = NULL;
	if (!conf)
		conf = &no_conf;
	r = kd_calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	run.e.r = r;
	run.e.conf = conf;
	run.e.new_db = new;
	run.e.old_db = old;
	run.e.scratch[0] = (struct kd_buf)KD_BUF_INIT;
	run.e.scratch[1] = (struct kd_buf)KD_BUF_INIT;
	r->has_contract = conf->contract != NULL;
	if (conf->contract && conf->contract->source) {
		r->contract_source = kd_strdup(conf->contract->source);
		if (!r->contract_source) {
			err = -ENOMEM;
			goto out;
		}
	}
	err = load_meta(old, conf->input[0], conf->release[0], &r->meta[0]);
	if (!err)
		err = load_meta(new, conf->input[1], conf->release[1], &r->meta[1]);
	if (!err)
		err = check_same_arch(r);
	if (!err)
		err = headers_only(old, new, &r->headers_only);
	if (!err)
		nr_tables_init(&run.nr, old, new, r->meta[1].arch);
	if (!err)
		err = kdb__load_types(old, &run.e.g[0].types, &run.e.g[0].nr);
	if (!err)
		err = kdb__load_types(new, &run.e.g[1].types, &run.e.g[1].nr);
	if (!err)
		err = diff_facts_load(&run);
	if (!err)
		err = diff_modules_load(&run);
	if (!err)
		err = kdb__attach_other(old, new);
	if (err)
		goto out;
	attached = true;
	/* Only what both sides cover (diff-coverage.c). */
	diff_coverage_load(r, old, new);
	err = diff_abis_load(&run);
	if (!err && diff_result__compared(r, DIFF_CAT_SYSCALL, NULL)) {
		err = kdb__diff_syscalls(old, conf->abi, on_syscall, &run);
		if (!err)
			err = diff_abis_changes(&run);
	}
	if (!err && diff_result__compared(r, DIFF_CAT_IOCTL, NULL))
		err = kdb__diff_ioctls(old, diff_on_ioctl, &run);
	/* The same headers as i386 programs compile them, when both sides have that view. */
	if (!err && diff_result__compared(r, DIFF_CAT_IOCTL, NULL))
		err = diff_ia32(&run);
	if (!err && diff_result__compared(r, DIFF_CAT_CONSTANT, NULL))
		err = kdb__diff_constants(old, diff_on_constant, &run);
	/* Before the impacts: the vDSO's signatures reach types too. */
	if (!err && diff_result__compared(r, DIFF_CAT_VDSO, NULL))
		err = diff_vdso(&run);
	if (!err && diff_result__compared(r, DIFF_CAT_CONSTANT, NULL))
		err = diff_modules_unserved_headers(&run);
	/*
	 * Both sides' headers: their types too, those no syscall or ioctl
	 * reaches included (diff-header-types.c, RULES.md "How types are
	 * matched"); then every type change's impacts.
	 */
	if (!err && diff_result__compared(r, DIFF_CAT_CONSTANT, NULL)) {
		err = diff_header_types(&run);
		if (!err)
			err = diff_header_lost(&run);
	} else if (!err)
		err = dt_impacts(&run.e);
	/* Two header trees: no DWARF, the default names the one source. */
	if (!err && !r->headers_only)
		err = diff_layout_sources(&run, diff_default_evidence(DIFF_CAT_TYPE));
	if (!err)
		err = diff_header_kernel(r, old, &run.e.g[0], new, &run.e.g[1]);
	if (!err)
		err = diff_probe(&run);	/* observed: both kernels' probe results */
	if (!err)
		err = diff_contract_changes(r, conf);	/* two contract versions */
	if (!err)
		err = diff_modules_finish(&run);
	if (!err)
		diff_result_sort(r);
out:
	if (attached && kdb__detach_other(old) && !err)
		err = -EIO;
	dt_release(&run.e);
	kdb__free_types(run.e.g[0].types, run.e.g[0].nr);
	kdb__free_types(run.e.g[1].types, run.e.g[1].nr);
	free(run.done);
	diff_facts_release(&run.k);
	diff_modules_release(&run.mods);
	nr_tables_release(&run.nr);
	diff_abis_release(&run.abis);
	kd_buf_release(&run.subj);
	kd_buf_release(&run.ov);
	kd_buf_release(&run.nv);
	if (err) {
		if (err == -ENOMEM)
			kd_err("diff: out of memory");
		diff_result__free(r);
		return err;
	}
	*out = r;
	return 0;
}
