// SPDX-License-Identifier: GPL-2.0-only
/*
 * The contract against the running kernel, for `kabi-diff check`: every
 * probe case stored in a .kabi whose observed result misses its
 * expectation becomes a mismatch with a rule id (probe/README.md, "Rules
 * of check"): an errno condition answered with another errno, a defined
 * flag refused, an unknown bit accepted where the spec says "unknown
 * reject" or refused where it says "unknown ignore", a case without a
 * result. A case whose arguments meet a known deviation of the contract
 * and that the kernel answered so is not a mismatch: it is reported as
 * known, with the reason; one answered as the contract expects says the
 * deviation was not seen. The walk reads only the stored rows, so it
 * works on any .kabi a probe has run on, long after the boot.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-probe.h"
#include "lib/err.h"
#include "lib/json.h"
#include "probe/probe.h"

/* Did the kernel answer @r's known deviation? */
static bool deviates(const struct kdb_probe_row *r)
{
	if (!r->deviation || strcmp(r->status, "ret"))
		return false;
	if (!strcmp(r->deviation, "ok"))
		return !r->errno_name;
	return r->errno_name && !strcmp(r->errno_name, r->deviation);
}

static const char *rule_of(const struct kdb_probe_row *r)
{
	if (r->matches)
		return "probe.deviation-not-seen";
	if (deviates(r))
		return "probe.known-deviation";
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

	/* As expected; with a deviation that answers the same, nothing to say either. */
	if (r->matches && (!r->deviation || deviates(r)))
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
	m.deviation_why = r->deviation_why;
	m.counted = !r->matches && !deviates(r);
	w->n += m.counted;
	return w->cb ? w->cb(&m, w->ctx) : 0;
}

long probe__mismatches(struct kdb *db, probe_mismatch_fn cb, void *ctx)
{
	struct walk w = { cb, ctx, 0 };
	int err = kdb__foreach_probe(db, on_row, &w);

	return err ? err : w.n;
}

struct counts {
	FILE *f;
	long known, unseen;
};

static int print_one(const struct probe_mismatch *m, void *ctx)
{
	struct counts *n = ctx;

	if (!strcmp(m->rule, "probe.known-deviation")) {
		n->known++;
		fprintf(n->f, "%s: %s: %s(%s): expected %s, the kernel returned %s, a known deviation: %s\n",
			m->rule, m->case_id, m->call, m->args ? m->args : "", m->expected, m->observed,
			m->deviation_why ? m->deviation_why : "?");
	} else if (!strcmp(m->rule, "probe.deviation-not-seen")) {
		n->unseen++;
		fprintf(n->f, "%s: %s: %s(%s): the kernel returned %s as the contract expects, not the"
			" known deviation (it may be gone: narrow its releases): %s\n",
			m->rule, m->case_id, m->call, m->args ? m->args : "", m->observed,
			m->deviation_why ? m->deviation_why : "?");
	} else {
		fprintf(n->f, "%s: %s: %s(%s): expected %s, the kernel returned %s (%s)\n", m->rule,
			m->case_id, m->call, m->args ? m->args : "", m->expected, m->observed,
			m->origin ? m->origin : "?");
	}
	return ferror(n->f) ? -EIO : 0;
}

long probe__mismatches_fprintf(struct kdb *db, FILE *f)
{
	struct counts c = { f, 0, 0 };
	long n = probe__mismatches(db, print_one, &c);

	if (n > 0)
		fprintf(f, "probe: %ld case%s where the kernel disagrees with its expectation\n", n,
			n == 1 ? "" : "s");
	if (n >= 0 && c.known)
		fprintf(f, "probe: %ld known deviation%s of the contract seen\n", c.known,
			c.known == 1 ? "" : "s");
	if (n >= 0 && c.unseen)
		fprintf(f, "probe: %ld known deviation%s not seen\n", c.unseen,
			c.unseen == 1 ? "" : "s");
	return n >= 0 && ferror(f) ? -EIO : n;
}

static int json_one(const struct probe_mismatch *m, void *ctx)
{
	struct kd_json *w = ctx;

	kd_json_object(w, false);
	kd_json_kstr(w, "rule", m->rule);
	kd_json_kstr(w, "case", m->case_id);
	kd_json_kstr(w, "call", m->call);
	kd_json_kstr(w, "args", m->args);
	kd_json_kstr(w, "expected", m->expected);
	kd_json_kstr(w, "observed", m->observed);
	kd_json_kstr(w, "origin", m->origin);
	kd_json_end(w);
	return 0;
}

long probe__mismatches_json(struct kdb *db, struct kd_json *w)
{
	long n;

	kd_json_array(w, true);
	n = probe__mismatches(db, json_one, w);
	kd_json_end(w);
	return n;
}
