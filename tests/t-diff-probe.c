// SPDX-License-Identifier: GPL-2.0-only
/*
 * diff/diff-probe.c and db/kdb-probe.c's join: two .kabi files holding
 * probe results (written with the kdb API as `kabi-diff probe` stores
 * them) diffed into the exact observed changes, each with its rule and
 * verdict; cases equal on both sides, with other arguments, or on one
 * side only give no change; a kernel never probed gives none at all.
 * Also probe/report.c's mismatch walk with its rule ids.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-probe.h"
#include "diff/diff.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "probe/probe.h"
#include "tests/tap.h"

struct row {
	const char *id, *kind, *args, *expect, *expect_errno;
	const char *status, *err;	/* err NULL: the call succeeded */
	bool matches;
};

static const struct row old_rows[] = {
	{ "a.null", "errno", "0, 0", "errno", "EFAULT", "ret", "ENOSYS", false },
	{ "b.flags.X", "flag", "buf[24]{0:8=0x1}", "accept", "EINVAL", "ret", "EINVAL", false },
	{ "b.flags.unknown", "unknown-flag", "buf[24]{0:8=0x8}", "accept", "EINVAL", "ret", NULL, true },
	{ "c.bad", "errno", "-1", "errno", "EINVAL", "ret", "EINVAL", true },
	{ "d.ok", "errno", "1", "errno", "EPERM", "ret", "EPERM", true },
	{ "e.same", "errno", "2", "errno", "EBADF", "ret", "EBADF", true },
	{ "f.args", "errno", "3", "errno", "EBADF", "ret", "EBADF", true },
	{ "g.only-old", "errno", "4", "errno", "EBADF", "ret", "EBADF", true },
	{ "h.hang", "errno", "5", "errno", "EINVAL", "timeout", NULL, false },
};
static const struct row new_rows[] = {
	{ "a.null", "errno", "0, 0", "errno", "EFAULT", "ret", "EFAULT", true },
	{ "b.flags.X", "flag", "buf[24]{0:8=0x1}", "accept", "EINVAL", "ret", NULL, true },
	{ "b.flags.unknown", "unknown-flag", "buf[24]{0:8=0x8}", "accept", "EINVAL", "ret", "EINVAL", false },
	{ "c.bad", "errno", "-1", "errno", "EINVAL", "ret", "EOPNOTSUPP", false },
	{ "d.ok", "errno", "1", "errno", "EPERM", "ret", NULL, false },
	{ "e.same", "errno", "2", "errno", "EBADF", "ret", "EBADF", true },
	{ "f.args", "errno", "33", "errno", "EBADF", "ret", "EINVAL", false },
	{ "h.hang", "errno", "5", "errno", "EINVAL", "timeout", NULL, false },
};

static int build(const char *path, const char *release, const struct row *rows, size_t n)
{
	struct kdb *db = NULL;
	size_t i;
	int err;

	err = kdb__create(path, &db);
	err = err ? err : kdb__set_meta(db, "release", release);
	if (!err && n)
		err = kdb__clear_probe(db);
	for (i = 0; !err && i < n; i++) {
		struct kdb_probe_row r = {
			.id = rows[i].id, .call = rows[i].id, .nr = 1, .kind = rows[i].kind,
			.args = rows[i].args, .expect = rows[i].expect,
			.expect_errno = rows[i].expect_errno, .what = "", .origin = "test:1",
			.status = rows[i].status, .ret = rows[i].err ? -1 : 0, .err = rows[i].err ? 1 : 0,
			.errno_name = rows[i].err, .matches = rows[i].matches, .release = release,
		};

		err = kdb__put_probe(db, &r);
	}
	err = err ? err : kdb__commit(db);
	kdb__free(db);
	return err;
}

static char *path_of(const char *name)
{
	struct kd_buf b = KD_BUF_INIT;

	kd_buf_addf(&b, "%s/%s", tap_tmpdir(), name);
	return kd_buf_detach(&b);
}

/* "kind subject old->new [rule verdict]" of every change, joined by "; ". */
static char *changes(const struct diff_result *r)
{
	struct kd_buf b = KD_BUF_INIT;
	size_t i;

	kd_buf_adds(&b, "");
	for (i = 0; i < diff_result__nr_changes(r); i++) {
		const struct diff_change *c = diff_result__change(r, i);

		kd_buf_addf(&b, "%s%s %s %s->%s [%s %s]", i ? "; " : "", c->kind, c->subject,
			    c->old_value, c->new_value, c->rule->id,
			    diff_verdict_name(c->rule->verdict));
	}
	return kd_buf_detach(&b);
}

static struct diff_result *run(const char *a, const char *b)
{
	struct kdb *db[2] = { NULL, NULL };
	struct diff_result *r = NULL;

	if (!kdb__open(a, &db[0]) && !kdb__open(b, &db[1]))
		diff__run(db[0], db[1], NULL, &r);
	kdb__free(db[0]);
	kdb__free(db[1]);
	return r;
}

static int collect(const struct probe_mismatch *m, void *ctx)
{
	kd_buf_addf(ctx, "%s %s %s/%s;", m->rule, m->case_id, m->expected, m->observed);
	return 0;
}

int main(void)
{
	char *p_old = path_of("probe-old.kabi"), *p_new = path_of("probe-new.kabi");
	char *p_none = path_of("probe-none.kabi"), *text;
	struct kd_buf b = KD_BUF_INIT;
	struct diff_result *r;
	struct kdb *db = NULL;

	is_int(build(p_old, "6.1", old_rows, sizeof(old_rows) / sizeof(old_rows[0])), 0, "old DB");
	is_int(build(p_new, "6.12", new_rows, sizeof(new_rows) / sizeof(new_rows[0])), 0, "new DB");
	is_int(build(p_none, "6.12", NULL, 0), 0, "a DB never probed");

	r = run(p_old, p_new);
	ok(r != NULL, "diff ran");
	text = r ? changes(r) : NULL;
	is_str(text,
	       "probe.errno a.null ENOSYS->EFAULT [probe-call-implemented compatible]; "
	       "probe.flag b.flags.X EINVAL->ok [probe-flag-accepted compatible]; "
	       "probe.flag b.flags.unknown ok->EINVAL [probe-flag-rejected breaking]; "
	       "probe.errno c.bad EINVAL->EOPNOTSUPP [probe-errno-changed breaking]; "
	       "probe.errno d.ok EPERM->ok [probe-now-succeeds compatible]",
	       "exact observed changes; e (same), f (other args), g (old only), h (timeout twice): none");
	is_int(r ? (long)diff_result__count(r, DIFF_CAT_SYSCALL, DIFF_BREAKING) : -1, 2, "2 breaking");
	is_int(r ? diff_result__exit_bits(r) : -1, 12, "exit bits 4|8");
	ok(r && diff_rule_by_id("probe-errno-changed") && diff_rule_by_id("probe-flag-accepted"),
	   "the rules are in the table");
	free(text);
	diff_result__free(r);

	r = run(p_old, p_none);
	is_int(r ? (long)diff_result__nr_changes(r) : -1, 0, "new kernel never probed: no change");
	diff_result__free(r);
	r = run(p_none, p_new);
	is_int(r ? (long)diff_result__nr_changes(r) : -1, 0, "old kernel never probed: no change");
	diff_result__free(r);

	/* check: the stored mismatches with their rule ids. */
	is_int(kdb__open(p_new, &db), 0, "open the new DB");
	is_int(db ? probe__mismatches(db, collect, &b) : -1, 5, "5 mismatches");
	is_str(b.s,
	       "probe.unknown-rejected b.flags.unknown not EINVAL/EINVAL;"
	       "probe.errno-mismatch c.bad EINVAL/EOPNOTSUPP;"
	       "probe.errno-mismatch d.ok EPERM/ok;"
	       "probe.errno-mismatch f.args EBADF/EINVAL;"
	       "probe.no-result h.hang EINVAL/timeout;",
	       "rule, case, expected/observed");
	kdb__free(db);
	db = NULL;
	is_int(kdb__open(p_none, &db), 0, "open the unprobed DB");
	is_int(db ? probe__mismatches(db, NULL, NULL) : -1, 0, "never probed: no mismatch");
	kdb__free(db);
	kd_buf_release(&b);
	free(p_old);
	free(p_new);
	free(p_none);
	return tap_done();
}
