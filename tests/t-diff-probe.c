// SPDX-License-Identifier: GPL-2.0-only
/*
 * diff/diff-probe.c and db/kdb-probe.c's join: two .kabi files holding
 * probe results (written with the kdb API as `kabi-diff probe` stores
 * them) diffed into the exact observed changes, each with its rule and
 * verdict; cases equal on both sides, with other arguments, or on one
 * side only give no change; a kernel never probed gives none at all.
 * Bits of one flag argument that changed alike are one change; a bit
 * refused with another errno is an errno change, not an accepted bit;
 * known deviations present, gone and new. Also probe/report.c's mismatch
 * walk with its rule ids, known deviations counted apart.
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
#include "tests/diff-fixture.h"
#include "tests/tap.h"

struct row {
	const char *id, *kind, *args, *expect, *expect_errno;
	const char *status, *err;	/* err NULL: the call succeeded */
	bool matches;
	const char *deviation;		/* a known deviation's outcome, NULL: none */
};

static const struct row old_rows[] = {
	{ "a.null", "errno", "0, 0", "errno", "EFAULT", "ret", "ENOSYS", false, NULL },
	{ "b.flags.X", "flag", "buf[24]{0:8=0x1}", "accept", "EINVAL", "ret", "EINVAL", false, NULL },
	{ "b.flags.unknown", "unknown-flag", "buf[24]{0:8=0x8}", "accept", "EINVAL", "ret", NULL, true, NULL },
	{ "c.bad", "errno", "-1", "errno", "EINVAL", "ret", "EINVAL", true, NULL },
	{ "d.ok", "errno", "1", "errno", "EPERM", "ret", "EPERM", true, NULL },
	{ "e.same", "errno", "2", "errno", "EBADF", "ret", "EBADF", true, NULL },
	{ "f.args", "errno", "3", "errno", "EBADF", "ret", "EBADF", true, NULL },
	{ "g.only-old", "errno", "4", "errno", "EBADF", "ret", "EBADF", true, NULL },
	{ "h.hang", "errno", "5", "errno", "EINVAL", "timeout", NULL, false, NULL },
	/* two unknown bits refused with EINVAL, then with EOPNOTSUPP: one change */
	{ "i.flags.bit5", "unknown-flag", "0x20", "errno", "EINVAL", "ret", "EINVAL", true, NULL },
	{ "i.flags.bit6", "unknown-flag", "0x40", "errno", "EINVAL", "ret", "EINVAL", true, NULL },
	/* a defined flag refused with EINVAL, then with EOPNOTSUPP: not accepted */
	{ "j.flags.X", "flag", "0x1", "accept", "EINVAL", "ret", "EINVAL", false, NULL },
	/* a known deviation (6.1 only) that goes away */
	{ "k.dev", "flag", "0x2", "accept", "EINVAL", "ret", "EINVAL", false, "EINVAL" },
	/* no deviation on the old kernel, one on the new */
	{ "l.dev", "errno", "6", "ok", NULL, "ret", NULL, true, NULL },
	/* each kernel answers what its own contract expects */
	{ "m.contracted", "errno", "7", "errno", "EINVAL", "ret", "EINVAL", true, NULL },
	{ "n.unseen", "errno", "8", "ok", NULL, "ret", NULL, true, NULL },
	/* a bit unknown to the old kernel, a flag of the new one; and the
	 * errno case of the bit above the old set, which passes the same */
	{ "p.EINVAL", "errno", "0x8", "errno", "EINVAL", "ret", "EINVAL", true, NULL },
	{ "p.flags.bit3", "unknown-flag", "0x8", "errno", "EINVAL", "ret", "EINVAL", true, NULL },
	/* an unknown bit the new kernel accepts as a known deviation */
	{ "q.flags.bit9", "unknown-flag", "0x200", "errno", "EINVAL", "ret", "EINVAL", true, NULL },
};
static const struct row new_rows[] = {
	{ "a.null", "errno", "0, 0", "errno", "EFAULT", "ret", "EFAULT", true, NULL },
	{ "b.flags.X", "flag", "buf[24]{0:8=0x1}", "accept", "EINVAL", "ret", NULL, true, NULL },
	{ "b.flags.unknown", "unknown-flag", "buf[24]{0:8=0x8}", "accept", "EINVAL", "ret", "EINVAL", false, NULL },
	{ "c.bad", "errno", "-1", "errno", "EINVAL", "ret", "EOPNOTSUPP", false, NULL },
	{ "d.ok", "errno", "1", "errno", "EPERM", "ret", NULL, false, NULL },
	{ "e.same", "errno", "2", "errno", "EBADF", "ret", "EBADF", true, NULL },
	{ "f.args", "errno", "33", "errno", "EBADF", "ret", "EINVAL", false, NULL },
	{ "h.hang", "errno", "5", "errno", "EINVAL", "timeout", NULL, false, NULL },
	{ "i.flags.bit5", "unknown-flag", "0x20", "errno", "EINVAL", "ret", "EOPNOTSUPP", false, NULL },
	{ "i.flags.bit6", "unknown-flag", "0x40", "errno", "EINVAL", "ret", "EOPNOTSUPP", false, NULL },
	{ "j.flags.X", "flag", "0x1", "accept", "EINVAL", "ret", "EOPNOTSUPP", true, NULL },
	{ "k.dev", "flag", "0x2", "accept", "EINVAL", "ret", NULL, true, NULL },
	{ "l.dev", "errno", "6", "ok", NULL, "ret", "EINVAL", false, "EINVAL" },
	{ "m.contracted", "errno", "7", "errno", "E2BIG", "ret", "E2BIG", true, NULL },
	{ "n.unseen", "errno", "8", "ok", NULL, "ret", NULL, true, "EPERM" },
	/* the deviation answers what the contract expects: nothing to report */
	{ "o.both", "errno", "9", "errno", "EINVAL", "ret", "EINVAL", true, "EINVAL" },
	{ "p.EINVAL", "errno", "0x10", "errno", "EINVAL", "ret", "EINVAL", true, NULL },
	{ "p.flags.P_NEW", "flag", "0x8", "accept", "EINVAL", "ret", "EFAULT", true, NULL },
	{ "q.flags.bit9", "unknown-flag", "0x200", "errno", "EINVAL", "ret", NULL, false, "ok" },
};

/*
 * A probed DB; with @fs (NULL: none) its meta probe_fs, and the deviation
 * of case @fs_case (NULL: none) holds on that file system only.
 */
static int build_fs(const char *path, const char *release, const char *fs, const char *fs_case,
		    const struct row *rows, size_t n)
{
	struct kdb *db = NULL;
	size_t i;
	int err;

	err = kdb__create(path, &db);
	if (!err)
		err = kdb__set_meta(db, "release", release);
	err = err || !fs ? err : kdb__set_meta(db, "probe_fs", fs);
	if (!err && n)
		err = kdb__clear_probe(db);
	for (i = 0; !err && i < n; i++) {
		char call[2] = { rows[i].id[0], 0 };	/* "a" of "a.null" */
		struct kdb_probe_row r = {
			.id = rows[i].id, .call = call, .nr = 1, .kind = rows[i].kind,
			.args = rows[i].args, .expect = rows[i].expect,
			.expect_errno = rows[i].expect_errno, .what = "", .origin = "test:1",
			.status = rows[i].status, .ret = rows[i].err ? -1 : 0, .err = rows[i].err ? 1 : 0,
			.errno_name = rows[i].err, .matches = rows[i].matches, .release = release,
			.deviation = rows[i].deviation,
			.deviation_why = rows[i].deviation ? "the probe's filesystem (test:9)" : NULL,
			.deviation_fs = fs_case && !strcmp(fs_case, rows[i].id) ? fs : NULL,
		};

		err = kdb__put_probe(db, &r);
	}
	if (!err)
		err = kdb__commit(db);
	kdb__free(db);
	return err;
}

static int build(const char *path, const char *release, const struct row *rows, size_t n)
{
	return build_fs(path, release, NULL, NULL, rows, n);
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

static const struct diff_change *change_of(const struct diff_result *r, const char *subject)
{
	size_t i;

	for (i = 0; i < diff_result__nr_changes(r); i++)
		if (!strcmp(diff_result__change(r, i)->subject, subject))
			return diff_result__change(r, i);
	return NULL;
}

static const char *note_of(const struct diff_result *r, const char *subject)
{
	const struct diff_change *c = change_of(r, subject);

	return c ? c->note : NULL;
}

static const char *evidence_of(const struct diff_result *r, const char *subject)
{
	const struct diff_change *c = change_of(r, subject);

	return c ? c->evidence : NULL;
}

static int collect(const struct probe_mismatch *m, void *ctx)
{
	kd_buf_addf(ctx, "%s %s %s/%s;", m->rule, m->case_id, m->expected, m->observed);
	return 0;
}

/* The diff of @o and @n, its changes checked against @want; the caller frees it. */
static struct diff_result *diffed(const char *o, const char *n, const char *want, const char *what)
{
	struct diff_result *r = diff_paths(o, n, NULL, NULL);
	char *text = r ? changes(r) : NULL;

	is_str(text, want, what);
	free(text);
	return r;
}

/*
 * A deviation of one file system (`on tmpfs`): gone between two kernels
 * probed on tmpfs both, but only the file system's between kernels probed
 * on tmpfs and ext4 (probe-fs-differs, info), and every change then says
 * the file systems differed. A deviation of any file system still counts.
 */
static void fs_deviations(void)
{
	static const struct row old_rows_fs[] = {
		{ "r.flags.NOWAIT", "flag", "0x8", "accept", "EOPNOTSUPP", "ret", "EOPNOTSUPP", false,
		  "EOPNOTSUPP" },
		{ "s.dev", "flag", "0x2", "accept", "EINVAL", "ret", "EINVAL", false, "EINVAL" },
	};
	static const struct row new_rows_fs[] = {
		{ "r.flags.NOWAIT", "flag", "0x8", "accept", "EOPNOTSUPP", "ret", NULL, true, NULL },
		{ "s.dev", "flag", "0x2", "accept", "EINVAL", "ret", NULL, true, NULL },
	};
	char *p_old = tap_tmp_path("fs-old.kabi"), *p_tmpfs = tap_tmp_path("fs-tmpfs.kabi");
	char *p_ext4 = tap_tmp_path("fs-ext4.kabi");
	struct diff_result *r;

	is_int(build_fs(p_old, "6.1", "tmpfs", "r.flags.NOWAIT", old_rows_fs, 2), 0, "old on tmpfs");
	is_int(build_fs(p_tmpfs, "6.12", "tmpfs", NULL, new_rows_fs, 2), 0, "new on tmpfs");
	is_int(build_fs(p_ext4, "6.12", "ext4", NULL, new_rows_fs, 2), 0, "new on ext4");
	r = diffed(p_old, p_tmpfs,
		   "probe.deviation r.flags.NOWAIT EOPNOTSUPP->ok [probe-deviation-gone compatible]; "
		   "probe.deviation s.dev EINVAL->ok [probe-deviation-gone compatible]",
		   "both on tmpfs: the tmpfs deviation gone is a change of the kernel");
	is_str(r ? note_of(r, "r.flags.NOWAIT") : NULL,
	       "r(0x8); known deviation: the probe's filesystem (test:9)", "no word of file systems");
	diff_result__free(r);
	r = diffed(p_old, p_ext4,
		   "probe.deviation r.flags.NOWAIT EOPNOTSUPP->ok [probe-fs-differs info]; "
		   "probe.deviation s.dev EINVAL->ok [probe-deviation-gone compatible]",
		   "tmpfs then ext4: the tmpfs deviation is the file system's; the other one gone still");
	is_str(r ? note_of(r, "r.flags.NOWAIT") : NULL,
	       "r(0x8); known deviation: the probe's filesystem (test:9); the old kernel probed on "
	       "tmpfs, the new on ext4", "the note names both file systems");
	is_str(r ? note_of(r, "s.dev") : NULL,
	       "s(0x2); known deviation: the probe's filesystem (test:9); the old kernel probed on "
	       "tmpfs, the new on ext4", "every change says the file systems differed");
	is_int(r ? diff_result__exit_bits(r) : -1, 4, "nothing breaking: exit bits 4 (compatible)");
	diff_result__free(r);
	/* The other way round: a deviation of the new side's file system. */
	is_int(build_fs(p_old, "6.1", "ext4", NULL, new_rows_fs, 2), 0, "old on ext4");
	is_int(build_fs(p_tmpfs, "6.12", "tmpfs", "r.flags.NOWAIT", old_rows_fs, 2), 0, "new on tmpfs");
	diff_result__free(diffed(p_old, p_tmpfs,
				 "probe.deviation r.flags.NOWAIT ok->EOPNOTSUPP [probe-fs-differs info]; "
				 "probe.deviation s.dev ok->EINVAL [probe-deviation-new breaking]",
				 "ext4 then tmpfs: the new side's tmpfs deviation is the file system's"));
	free(p_old);
	free(p_tmpfs);
	free(p_ext4);
}

int main(void)
{
	char *p_old = tap_tmp_path("probe-old.kabi"), *p_new = tap_tmp_path("probe-new.kabi");
	char *p_none = tap_tmp_path("probe-none.kabi"), *text;
	struct kd_buf b = KD_BUF_INIT;
	struct diff_result *r;
	struct kdb *db = NULL;

	is_int(build(p_old, "6.1", old_rows, sizeof(old_rows) / sizeof(old_rows[0])), 0, "old DB");
	is_int(build(p_new, "6.12", new_rows, sizeof(new_rows) / sizeof(new_rows[0])), 0, "new DB");
	is_int(build(p_none, "6.12", NULL, 0), 0, "a DB never probed");

	r = diff_paths(p_old, p_new, NULL, NULL);
	ok(r != NULL, "diff ran");
	text = r ? changes(r) : NULL;
	is_str(text,
	       "probe.errno a.null ENOSYS->EFAULT [probe-call-implemented compatible]; "
	       "probe.flag b.flags.X EINVAL->ok [probe-flag-accepted compatible]; "
	       "probe.flag b.flags.unknown ok->EINVAL [probe-flag-rejected breaking]; "
	       "probe.errno c.bad EINVAL->EOPNOTSUPP [probe-errno-changed breaking]; "
	       "probe.errno d.ok EPERM->ok [probe-now-succeeds compatible]; "
	       "probe.errno i.flags EINVAL->EOPNOTSUPP [probe-errno-changed breaking]; "
	       "probe.errno j.flags.X EINVAL->EOPNOTSUPP [probe-errno-changed breaking]; "
	       "probe.deviation k.dev EINVAL->ok [probe-deviation-gone compatible]; "
	       "probe.deviation l.dev ok->EINVAL [probe-deviation-new breaking]; "
	       "probe.errno m.contracted EINVAL->E2BIG [probe-errno-contracted info]; "
	       "probe.flag p.flags.P_NEW EINVAL->EFAULT [probe-flag-known compatible]; "
	       "probe.deviation q.flags.bit9 EINVAL->ok [probe-deviation-accepts compatible]",
	       "exact observed changes; e (same), f (other args), g (old only), h (timeout twice), "
	       "n (same outcome): none; i's two bits one change; j refused with another errno is "
	       "not accepted; p's bit once, as the new flag, not again as p.EINVAL");
	is_int(r ? (long)diff_result__count(r, DIFF_CAT_SYSCALL, DIFF_BREAKING) : -1, 5, "5 breaking");
	is_str(r ? note_of(r, "i.flags") : NULL, "2 bits: bit5, bit6; the first: i(0x20)",
	       "the grouped change lists its bits");
	is_str(r ? note_of(r, "k.dev") : NULL,
	       "k(0x2); known deviation: the probe's filesystem (test:9)",
	       "a deviation gone: its reason");
	is_str(r ? note_of(r, "q.flags.bit9") : NULL,
	       "q(0x200); known deviation: the probe's filesystem (test:9)",
	       "a deviation that accepts: its reason");
	is_str(r ? evidence_of(r, "l.dev") : NULL,
	       "known deviation: the probe's filesystem (test:9)", "a new deviation: its reason is the evidence");
	is_int(r ? diff_result__exit_bits(r) : -1, 12, "exit bits 4|8");
	ok(r && diff_rule_by_id("probe-errno-changed") && diff_rule_by_id("probe-flag-accepted"),
	   "the rules are in the table");
	free(text);
	diff_result__free(r);

	r = diff_paths(p_old, p_none, NULL, NULL);
	is_int(r ? (long)diff_result__nr_changes(r) : -1, 0, "new kernel never probed: no change");
	diff_result__free(r);
	r = diff_paths(p_none, p_new, NULL, NULL);
	is_int(r ? (long)diff_result__nr_changes(r) : -1, 0, "old kernel never probed: no change");
	diff_result__free(r);

	fs_deviations();

	/* check: the stored mismatches with their rule ids. */
	is_int(kdb__open(p_new, &db), 0, "open the new DB");
	is_int(db ? probe__mismatches(db, collect, &b) : -1, 7,
	       "7 mismatches; the known deviation seen and the one not seen are not counted");
	is_str(b.s,
	       "probe.unknown-rejected b.flags.unknown not EINVAL/EINVAL;"
	       "probe.errno-mismatch c.bad EINVAL/EOPNOTSUPP;"
	       "probe.errno-mismatch d.ok EPERM/ok;"
	       "probe.errno-mismatch f.args EBADF/EINVAL;"
	       "probe.no-result h.hang EINVAL/timeout;"
	       "probe.errno-mismatch i.flags.bit5 EINVAL/EOPNOTSUPP;"
	       "probe.errno-mismatch i.flags.bit6 EINVAL/EOPNOTSUPP;"
	       "probe.known-deviation l.dev ok/EINVAL;"
	       "probe.deviation-not-seen n.unseen ok/ok;"
	       "probe.known-deviation q.flags.bit9 EINVAL/ok;",
	       "rule, case, expected/observed");
	kd_buf_reset(&b);
	text = NULL;
	{
		FILE *f = tmpfile();
		long n = f && db ? probe__mismatches_fprintf(db, f) : -1;
		char line[512];

		is_int(n, 7, "check's text: 7 mismatches");
		if (f)
			rewind(f);
		while (f && fgets(line, sizeof(line), f))
			if (!strncmp(line, "probe.known-deviation", 21) || !strncmp(line, "probe: ", 7) ||
			    !strncmp(line, "probe.deviation-not-seen", 24))
				kd_buf_adds(&b, line);
		if (f)
			fclose(f);
	}
	is_str(b.s,
	       "probe.known-deviation: l.dev: l(6): expected ok, the kernel returned EINVAL, a known "
	       "deviation: the probe's filesystem (test:9)\n"
	       "probe.deviation-not-seen: n.unseen: n(8): the kernel returned ok as the contract "
	       "expects, not the known deviation (it may be gone: narrow its releases): the probe's "
	       "filesystem (test:9)\n"
	       "probe.known-deviation: q.flags.bit9: q(0x200): expected EINVAL, the kernel returned ok, "
	       "a known deviation: the probe's filesystem (test:9)\n"
	       "probe: 7 cases where the kernel disagrees with its expectation\n"
	       "probe: 2 known deviations of the contract seen\n"
	       "probe: 1 known deviation not seen\n",
	       "check's text: known deviations with their reasons, counted apart");
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
