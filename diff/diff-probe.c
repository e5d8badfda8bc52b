// SPDX-License-Identifier: GPL-2.0-only
/*
 * Observed changes: the probe results of two kernels (kabi-diff probe on
 * each) compared case by case. Layout and spec changes say what the
 * headers promise; these say what the running kernels did with the same
 * call and the same arguments: an errno that changed, a call that now
 * exists (ENOSYS before), a flag bit one kernel refused and the other
 * accepted, a known deviation of the contract that appeared or went away.
 * Only cases with the same arguments on both sides are compared
 * (db/kdb-probe.c), so a case whose constants changed between the kernels
 * is not mistaken for a behaviour change.
 *
 * One finding per cause: the bits of one flag argument that changed the
 * same way (same rule, same outcomes) are one change, with the bits
 * listed in its note; an input two cases pass (a flag case and the errno
 * case of the bit above the set) is reported once, as the flag case.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-probe.h"
#include "diff/diff_internal.h"
#include "lib/buf.h"
#include "lib/mem.h"

/* "EINVAL", "ok", or the status ("timeout") when the call did not return. */
static const char *outcome(const char *status, const char *err)
{
	return strcmp(status, "ret") ? status : err ? err : "ok";
}

/* Was the flag bit refused (the case's errno: "unknown or invalid flag", or the
 * errno of the spec condition the bit meets)? */
static bool refused(const char *status, const char *err, const char *reject)
{
	return !strcmp(status, "ret") && err && reject && !strcmp(err, reject);
}

/* Did one side answer its known deviation (@dev: an errno name, or "ok")? */
static bool deviated(const char *dev, const char *status, const char *err)
{
	if (!dev || strcmp(status, "ret"))
		return false;
	return !strcmp(dev, "ok") ? !err : err && !strcmp(err, dev);
}

/* Were the two kernels probed with their files on different file systems? */
static bool fs_differ(const struct kdb_probe_pair *p)
{
	return p->old_fs && p->new_fs && strcmp(p->old_fs, p->new_fs);
}

static enum diff_rule_id rule_of(const struct kdb_probe_pair *p)
{
	bool was_ok = !strcmp(p->old_status, "ret") && !p->old_errno;
	bool now_ok = !strcmp(p->new_status, "ret") && !p->new_errno;
	bool dev_old = deviated(p->old_deviation, p->old_status, p->old_errno);
	bool dev_new = deviated(p->new_deviation, p->new_status, p->new_errno);

	/*
	 * A deviation of one file system (`on tmpfs`) on either side, the
	 * sides on different ones: the answer may be the file system's.
	 */
	if (fs_differ(p) && (p->old_deviation_fs || p->new_deviation_fs))
		return DIFF_R_PROBE_FS_DIFFERS;
	/* The outcomes differ: at most one side answered its deviation. */
	if (dev_old && !dev_new)
		return DIFF_R_PROBE_DEVIATION_GONE;
	if (dev_new && !dev_old)
		return now_ok && !was_ok ? DIFF_R_PROBE_DEVIATION_ACCEPTS : DIFF_R_PROBE_DEVIATION_NEW;
	if (p->old_errno && !strcmp(p->old_errno, "ENOSYS"))
		return DIFF_R_PROBE_CALL_IMPLEMENTED;
	if (strcmp(p->kind, "errno")) {
		bool before = refused(p->old_status, p->old_errno, p->expect_errno);
		bool after = refused(p->new_status, p->new_errno, p->expect_errno);

		/* Refused with another errno is not accepted: the errno changed. */
		if (before && !after && now_ok)
			return DIFF_R_PROBE_FLAG_ACCEPTED;
		if (!before && after)
			return DIFF_R_PROBE_FLAG_REJECTED;
		/*
		 * A bit unknown to the old kernel is a flag of the new one, no
		 * longer refused as unknown: what its own checks answer with the
		 * probe's arguments is no change of an old binary's outcome.
		 */
		if (before && !strcmp(p->kind, "unknown-flag") && p->new_kind &&
		    !strcmp(p->new_kind, "flag") &&
		    !refused(p->new_status, p->new_errno, p->new_expect_errno))
			return DIFF_R_PROBE_FLAG_KNOWN;
	}
	if (!was_ok && now_ok && !strcmp(p->old_status, "ret"))
		return DIFF_R_PROBE_NOW_SUCCEEDS;
	/*
	 * Another errno, each the one its kernel's contract expects for these
	 * arguments: the contract changed with the kernel, and the contract
	 * diff judges that change.
	 */
	if (p->old_matches && p->new_matches && p->new_expect && !strcmp(p->expect, "errno") &&
	    !strcmp(p->new_expect, "errno") && p->old_errno && p->new_errno)
		return DIFF_R_PROBE_ERRNO_CONTRACTED;
	return DIFF_R_PROBE_ERRNO_CHANGED;
}

/* One change of the diff: a case, or the bits of one flag argument that changed alike. */
struct pchange {
	char *group;		/* "openat2.flags", or the case id alone */
	char *id;		/* the first case's */
	bool flag;		/* a flag bit: others of its group may join */
	enum diff_rule_id rule;
	char *old_out, *new_out;
	char *call, *first;	/* the first case: "openat2(...): what" */
	char *why;		/* the deviation's reason, NULL: none */
	char *layout;		/* why the case is not comparable (its struct's size), NULL: it is */
	char *fs;		/* "old on tmpfs, new on ext4" when the sides' differ, else NULL */
	struct kd_buf bits;	/* the flag names or bitN, comma separated */
	size_t n;
};

struct pchanges {
	const struct diff_run *run;	/* both kernels: their types and signatures */
	struct pchange *v;
	size_t n, cap;
	char **inputs;		/* "call(args)" already reported: one change per input */
	size_t nr_inputs, cap_inputs;
	struct kd_buf why;	/* a case not comparable: why (diff_probe_size_changed()) */
};

static void pchange_release(struct pchange *c)
{
	free(c->group);
	free(c->id);
	free(c->old_out);
	free(c->new_out);
	free(c->call);
	free(c->first);
	free(c->why);
	free(c->layout);
	free(c->fs);
	kd_buf_release(&c->bits);
}

/* The flag set a flag case belongs to: its id without the last component. */
static char *group_of(const struct kdb_probe_pair *p, const char *id, const char **bit)
{
	const char *dot = strcmp(p->kind, "errno") ? strrchr(id, '.') : NULL;

	*bit = dot ? dot + 1 : NULL;
	return dot ? kd_strndup(id, (size_t)(dot - id)) : kd_strdup(id);
}

/* 1 when @call(@args) was reported already, else remember it and return 0. */
static int input_seen(struct pchanges *all, const char *call, const char *args)
{
	struct kd_buf key = KD_BUF_INIT;
	size_t i;

	if (kd_buf_addf(&key, "%s(%s)", call, args ? args : ""))
		return -ENOMEM;
	for (i = 0; i < all->nr_inputs; i++)
		if (!strcmp(all->inputs[i], key.s)) {
			kd_buf_release(&key);
			return 1;
		}
	if (KD_GROW(all->inputs, all->cap_inputs, all->nr_inputs + 1)) {
		kd_buf_release(&key);
		return -ENOMEM;
	}
	all->inputs[all->nr_inputs] = kd_buf_detach(&key);
	kd_buf_release(&key);
	return all->inputs[all->nr_inputs++] ? 0 : -ENOMEM;
}

/* The flag change of @group that the case of outcomes @o/@n under @rule joins, or NULL. */
static struct pchange *flag_change(struct pchanges *all, const char *group, enum diff_rule_id rule,
				   const char *o, const char *n)
{
	size_t i;

	for (i = 0; i < all->n; i++)
		if (all->v[i].flag && !strcmp(all->v[i].group, group) && all->v[i].rule == rule &&
		    !strcmp(all->v[i].old_out, o) && !strcmp(all->v[i].new_out, n))
			return &all->v[i];
	return NULL;
}

/* @c's texts of case @p: the file systems when the sides' differ, the first case. */
static int case_texts(struct pchange *c, const struct kdb_probe_pair *p)
{
	struct kd_buf b = KD_BUF_INIT;
	int err = 0;

	if (fs_differ(p)) {
		err = kd_buf_addf(&b, "the old kernel probed on %s, the new on %s", p->old_fs,
				  p->new_fs);
		c->fs = err ? NULL : kd_buf_detach(&b);
		if (!err && !c->fs)
			err = -ENOMEM;
	}
	kd_buf_reset(&b);
	if (!err)
		err = kd_buf_addf(&b, "%s(%s)%s%s", p->call, p->args ? p->args : "",
				  p->what && *p->what ? ": " : "", p->what ? p->what : "");
	c->first = err ? NULL : kd_buf_detach(&b);
	kd_buf_release(&b);
	return err;
}

static int on_pair(const struct kdb_probe_pair *p, void *ctx)
{
	struct pchanges *all = ctx;
	const char *id = p->new_id ? p->new_id : p->id, *bit;
	enum diff_rule_id rule = rule_of(p);
	bool resized = false;
	const char *o = outcome(p->old_status, p->old_errno), *n = outcome(p->new_status, p->new_errno);
	const char *why = rule == DIFF_R_PROBE_DEVIATION_GONE ? p->old_deviation_why
			  : rule == DIFF_R_PROBE_FS_DIFFERS && !p->new_deviation_fs ? p->old_deviation_why
			  : diff_rule(rule)->kinds[0] == DIFF_K_PROBE_DEVIATION ? p->new_deviation_why
			  : NULL;
	char *group = group_of(p, id, &bit);
	struct pchange *c = NULL;
	int err;

	if (!group)
		return -ENOMEM;
	/* The struct a case passes changed size: its outcome follows the struct, not the call. */
	err = diff_probe_size_changed(all->run, p, &all->why, &resized);
	if (!err && resized)
		rule = DIFF_R_PROBE_SIZE_CHANGED;
	/*
	 * One input, one change: an errno case that passes what a flag case
	 * passes (the bit above a set's mask) says the same (flag cases come first).
	 */
	if (!err)
		err = input_seen(all, p->call, p->args);
	if (!err && bit)
		c = flag_change(all, group, rule, o, n);
	if (!err && !c)
		err = KD_GROW(all->v, all->cap, all->n + 1);
	if (err || c) {
		free(group);
		if (err)
			return err < 0 ? err : 0;
		c->n++;
		return kd_buf_addf(&c->bits, ", %s", bit);
	}
	c = &all->v[all->n++];
	memset(c, 0, sizeof(*c));
	c->group = group;
	c->id = kd_strdup(id);
	c->flag = bit != NULL;
	c->rule = rule;
	c->n = 1;
	c->bits = (struct kd_buf)KD_BUF_INIT;
	c->old_out = kd_strdup(o);
	c->new_out = kd_strdup(n);
	c->call = kd_strdup(p->call);
	c->why = why && !resized ? kd_strdup(why) : NULL;
	c->layout = resized ? kd_strdup(all->why.s) : NULL;
	err = bit ? kd_buf_adds(&c->bits, bit) : 0;
	if (!err)
		err = case_texts(c, p);
	return err ? err : !c->id || !c->old_out || !c->new_out || !c->call ||
			   (why && !resized && !c->why) || (resized && !c->layout) || !c->first ?
			   -ENOMEM : 0;
}

static int add_change(struct diff_result *r, const struct pchange *c)
{
	struct kd_buf note = KD_BUF_INIT;
	size_t idx;
	int err = 0;

	if (c->n > 1)
		err = kd_buf_addf(&note, "%zu bits: %s; the first: %s", c->n, c->bits.s, c->first);
	else
		err = kd_buf_adds(&note, c->first);
	if (!err && c->why)
		err = kd_buf_addf(&note, "; known deviation: %s", c->why);
	if (!err && c->fs)
		err = kd_buf_addf(&note, "; %s", c->fs);
	if (!err)
		err = diff_add(r, &(struct diff_new){
				.rule = c->rule, .name = c->call, .subject = c->n > 1 ? c->group : c->id,
				.kind = c->layout && c->flag ? DIFF_K_PROBE_FLAG : DIFF_K_NONE,
				.old_value = c->old_out, .new_value = c->new_out, .note = note.s }, &idx);
	if (!err && c->why)
		err = diff_evidence(r, idx, DIFF_EV_CONTRACT, "known deviation: %s", c->why);
	if (!err && c->layout)
		err = diff_evidence(r, idx, DIFF_EV_LAYOUT, "%s", c->layout);
	if (!err)
		err = diff_add_impact(r, idx, c->call, c->call);
	kd_buf_release(&note);
	return err;
}

int diff_probe(struct diff_run *run)
{
	struct diff_result *r = run->e.r;
	struct pchanges all = { run, NULL, 0, 0, NULL, 0, 0, KD_BUF_INIT };
	size_t i;
	int err = kdb__diff_probe(run->db[0], on_pair, &all);

	for (i = 0; !err && i < all.n; i++)
		err = add_change(r, &all.v[i]);
	for (i = 0; i < all.n; i++)
		pchange_release(&all.v[i]);
	for (i = 0; i < all.nr_inputs; i++)
		free(all.inputs[i]);
	free(all.inputs);
	free(all.v);
	kd_buf_release(&all.why);
	return err;
}
