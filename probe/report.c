// SPDX-License-Identifier: GPL-2.0-only
/*
 * The contract against the running kernel, for `kabi-diff check`: every
 * probe case stored in a .kabi whose observed result misses its
 * expectation becomes a mismatch with a rule id (probe/README.md, "Rules
 * of check"): an errno condition answered with another errno, a defined
 * flag refused, an unknown bit accepted where the spec says "unknown
 * reject" or refused where it says "unknown ignore", a case without a
 * result. The walk reads only the stored rows, so it works on any .kabi
 * a probe has run on, long after the boot.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-probe.h"
#include "lib/err.h"
#include "probe/probe.h"

static const char *rule_of(const struct kdb_probe_row *r)
{
	if (strcmp(r->status, "ret"))
		return "probe.no-result";
	if (!strcmp(r->kind, "flag") && !strcmp(r->expect, "accept"))
		return "probe.flag-rejected";
	if (!strcmp(r->kind, "unknown-flag") && !strcmp(r->expect, "accept"))
		return "probe.unknown-rejected";
	/* An unknown bit the spec says is refused, and the call succeeded. */
	if (!strcmp(r->kind, "unknown-flag") && !r->errno_name)
		return "probe.unknown-accepted";
	return "probe.errno-mismatch";
}

struct walk {
	probe_mismatch_fn cb;
	void *ctx;
	long n;
};

static int on_row(const struct kdb_probe_row *r, void *ctx)
{
	struct walk *w = ctx;
	char expected[64], observed[64];
	struct probe_mismatch m = { 0 };

	if (r->matches)
		return 0;
	if (!strcmp(r->expect, "accept"))
		snprintf(expected, sizeof(expected), "not %s", r->expect_errno ? r->expect_errno : "?");
	else if (!strcmp(r->expect, "errno"))
		snprintf(expected, sizeof(expected), "%s", r->expect_errno ? r->expect_errno : "?");
	else
		snprintf(expected, sizeof(expected), "%s", r->expect);
	if (strcmp(r->status, "ret"))
		snprintf(observed, sizeof(observed), "%s", r->status);
	else
		snprintf(observed, sizeof(observed), "%s", r->errno_name ? r->errno_name : "ok");
	m.rule = rule_of(r);
	m.case_id = r->id;
	m.call = r->call;
	m.args = r->args;
	m.expected = expected;
	m.observed = observed;
	m.what = r->what;
	m.origin = r->origin;
	m.release = r->release;
	w->n++;
	return w->cb ? w->cb(&m, w->ctx) : 0;
}

long probe__mismatches(struct kdb *db, probe_mismatch_fn cb, void *ctx)
{
	struct walk w = { cb, ctx, 0 };
	int err = kdb__foreach_probe(db, on_row, &w);

	return err ? err : w.n;
}

static int print_one(const struct probe_mismatch *m, void *ctx)
{
	FILE *f = ctx;

	fprintf(f, "%s: %s: %s(%s): expected %s, the kernel returned %s (%s)\n", m->rule,
		m->case_id, m->call, m->args ? m->args : "", m->expected, m->observed,
		m->origin ? m->origin : "?");
	return ferror(f) ? -EIO : 0;
}

long probe__mismatches_fprintf(struct kdb *db, FILE *f)
{
	long n = probe__mismatches(db, print_one, f);

	if (n > 0)
		fprintf(f, "probe: %ld case%s where the kernel disagrees with its expectation\n", n,
			n == 1 ? "" : "s");
	return n >= 0 && ferror(f) ? -EIO : n;
}
