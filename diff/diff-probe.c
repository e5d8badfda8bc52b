// SPDX-License-Identifier: GPL-2.0-only
/*
 * Observed changes: the probe results of two kernels (kabi-diff probe on
 * each) compared case by case. Layout and spec changes say what the
 * headers promise; these say what the running kernels did with the same
 * call and the same arguments: an errno that changed, a call that now
 * exists (ENOSYS before), a flag bit one kernel refused and the other
 * accepted. Only cases with the same id and the same arguments on both
 * sides are compared (db/kdb-probe.c), so a case whose constants changed
 * between the kernels is not mistaken for a behaviour change.
 */
#include <errno.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-probe.h"
#include "diff/diff_internal.h"
#include "lib/buf.h"

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

static const char *rule_of(const struct kdb_probe_pair *p)
{
	bool was_ok = !strcmp(p->old_status, "ret") && !p->old_errno;
	bool now_ok = !strcmp(p->new_status, "ret") && !p->new_errno;

	if (strcmp(p->kind, "errno")) {
		bool before = refused(p->old_status, p->old_errno, p->expect_errno);
		bool after = refused(p->new_status, p->new_errno, p->expect_errno);

		if (before && !after)
			return "probe-flag-accepted";
		if (!before && after)
			return "probe-flag-rejected";
	}
	if (p->old_errno && !strcmp(p->old_errno, "ENOSYS"))
		return "probe-call-implemented";
	if (!was_ok && now_ok && !strcmp(p->old_status, "ret"))
		return "probe-now-succeeds";
	return "probe-errno-changed";
}

static int on_pair(const struct kdb_probe_pair *p, void *ctx)
{
	struct diff_result *r = ctx;
	struct kd_buf note = KD_BUF_INIT;
	const char *rule = rule_of(p);
	size_t idx;
	int err;

	err = kd_buf_addf(&note, "%s(%s)%s%s", p->call, p->args ? p->args : "",
			  p->what && *p->what ? ": " : "", p->what ? p->what : "");
	if (!err)
		err = diff_add(r, strncmp(rule, "probe-flag", 10) ? "probe.errno" : "probe.flag",
			       DIFF_CAT_SYSCALL, rule, p->call, p->new_id ? p->new_id : p->id,
			       outcome(p->old_status, p->old_errno),
			       outcome(p->new_status, p->new_errno), note.s, &idx);
	if (!err)
		err = diff_add_impact(r, idx, p->call, p->call);
	kd_buf_release(&note);
	return err;
}

int diff_probe(struct diff_result *r, struct kdb *old)
{
	return kdb__diff_probe(old, on_pair, r);
}
