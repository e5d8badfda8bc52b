// SPDX-License-Identifier: GPL-2.0-only
/*
 * Changes for i386 programs (issue 27): both kernels' 32-bit header views
 * (db/kdb-compat.h) compared ioctl by ioctl. What changed the same way on
 * both ABIs is the x86_64 report's already (one verdict, not two); what
 * only the i386 view shows gets a change of its own, kind ioctl.ia32:
 *   the i386 command number changed and the x86_64 one did not (a
 *     __u64 appended after a __u32: 16 bytes on x86_64 both times, 12 ->
 *     16 on i386), rule ioctl-cmd-ia32.
 * The old kernel built no code for it: ioctl-ia32-unbuilt, as ioctl-cmd.
 * (A member that moves on i386 only at an unchanged i386 size is not
 * judged yet.)
 */
#include "diff/diff_internal.h"

#include <inttypes.h>
#include <string.h>

#include "db/kdb-compat.h"
#include "lib/buf.h"

static const char *dir_macro(const char *dir)
{
	return !strcmp(dir, "rw") ? "_IOWR" : !strcmp(dir, "r") ? "_IOR" : !strcmp(dir, "w") ? "_IOW" :
	       "_IO";
}

static int judge(struct diff_run *run, const struct kdb_compat_ioctl_pair *p, enum diff_rule_id rule,
		 const char *note)
{
	const struct kd_ioctl *o = p->old, *n = p->new;
	struct kd_buf ov = KD_BUF_INIT, nv = KD_BUF_INIT, mod = KD_BUF_INIT;
	int built = diff_ioctl_built(run, p->old_native), err;
	size_t idx;

	if (built == 0 || (built < 0 && diff_header_unbuilt(run, p->old_native->file, &mod)))
		rule = DIFF_R_IOCTL_IA32_UNBUILT;
	err = o->has_cmd ? kd_buf_addf(&ov, "0x%08" PRIx32, o->cmd) : kd_buf_adds(&ov, "?");
	if (!err)
		err = n->has_cmd ? kd_buf_addf(&nv, "0x%08" PRIx32, n->cmd) : kd_buf_adds(&nv, "?");
	if (!err)
		err = diff_add(run->e.r, &(struct diff_new){ .rule = rule, .name = n->name,
				.subject = n->name, .old_value = ov.s, .new_value = nv.s, .note = note }, &idx);
	if (!err && rule == DIFF_R_IOCTL_IA32_UNBUILT)
		err = diff_evidence(run->e.r, idx, DIFF_EV_KERNEL, "no binary of the old kernel (vmlinux"
				    " and %zu modules) defines a type of %s's ioctls: none of them was"
				    " served", run->k.nr_modules[0], o->file ? o->file : "its header");
	else if (!err)
		err = diff_evidence(run->e.r, idx, DIFF_EV_LAYOUT, "%s", "the layouts and command numbers"
				    " both kernels' headers give i386 programs (compiled with gcc -m32)"
				    " and x86_64 ones");
	if (!err)
		err = diff_add_impact(run->e.r, idx, n->name, n->name);
	if (!err && n->file)
		err = diff_cause(run->e.r, idx, n->file);
	kd_buf_release(&ov);
	kd_buf_release(&nv);
	kd_buf_release(&mod);
	return err;
}

static int on_pair(const struct kdb_compat_ioctl_pair *p, void *ctx)
{
	struct diff_run *run = ctx;
	const struct kd_ioctl *o = p->old, *n = p->new, *no = p->old_native, *nn = p->new_native;
	struct kd_buf note = KD_BUF_INIT, what = KD_BUF_INIT;
	const struct kd_type *t;
	int err = 0;

	/* A native change is judged for every program already: no second verdict. */
	if (no->has_cmd != nn->has_cmd || (no->has_cmd && no->cmd != nn->cmd))
		goto out;
	if (o->has_cmd && n->has_cmd && o->cmd != n->cmd) {
		t = n->arg_type ? tgraph_strip(&run->e.g[1], n->arg_type) : NULL;
		if (t && t->name)
			err = kd_buf_addf(&what, "%s %s", t->kind == KD_KIND_UNION ? "union" : "struct",
					  t->name);
		else
			err = kd_buf_adds(&what, n->arg_type_text ? n->arg_type_text : "its argument");
		if (!err && o->has_size && n->has_size && o->size != n->size)
			err = kd_buf_addf(&note, "breaking for i386 programs: %s %s %" PRId64 " bytes on i386"
					  " only (%" PRId64 " -> %" PRId64 "), the %s number changed from"
					  " 0x%08" PRIx32 " to 0x%08" PRIx32, what.s,
					  n->size > o->size ? "grew" : "shrank",
					  n->size > o->size ? n->size - o->size : o->size - n->size,
					  o->size, n->size, dir_macro(n->dir), o->cmd, n->cmd);
		else if (!err)
			err = kd_buf_addf(&note, "breaking for i386 programs: the %s number changed from"
					  " 0x%08" PRIx32 " to 0x%08" PRIx32 " on i386 only",
					  dir_macro(n->dir), o->cmd, n->cmd);
		if (!err)
			err = judge(run, p, DIFF_R_IOCTL_CMD_IA32, note.s);
		goto out;
	}
out:
	kd_buf_release(&note);
	kd_buf_release(&what);
	return err;
}

int diff_ia32(struct diff_run *run)
{
	int a = kdb__has_compat_view(run->db[0], "ia32"), b;

	if (a <= 0)
		return a;
	b = kdb__has_compat_view(run->db[1], "ia32");
	if (b <= 0)
		return b;
	return kdb__diff_compat_ioctls(run->db[0], "ia32", on_pair, run);
}
