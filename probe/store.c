// SPDX-License-Identifier: GPL-2.0-only
/*
 * A probe run into the kernel's .kabi: every case with its observed result
 * (tables probe_cases and probe_results, read back by probe/report.c and
 * the diff) and the run's summary in meta (probe_release, probe_kernel,
 * probe_fs, probe_cases, probe_mismatches, probe_known).
 */
#include <stdbool.h>
#include <stddef.h>

#include "db/kdb.h"
#include "db/kdb-probe.h"
#include "lib/buf.h"
#include "probe/probe.h"

int probe__store(struct kdb *db, const struct probe_set *set, const struct probe_run *run,
		 const char *kernel, size_t *mismatches, size_t *known)
{
	static const char *const status_names[] = { "missing", "ret", "timeout", "signal" };
	struct kd_buf args = KD_BUF_INIT, num = KD_BUF_INIT;
	size_t i, nknown = 0;
	int err;

	*mismatches = 0;
	err = kdb__clear_probe(db);
	for (i = 0; !err && i < probe_set__count(set); i++) {
		const struct probe_case *c = probe_set__case(set, i);
		const struct probe_result *r = &run->results[i];
		char tmp[16];
		struct kdb_probe_row row = {
			.id = c->id, .call = c->call, .nr = c->nr,
			.kind = probe_case_kind_name(c->kind),
			.expect = probe_expect_name(c->expect), .expect_errno = c->expect_errno,
			.what = c->what, .origin = c->origin, .status = status_names[r->status],
			.ret = r->ret, .err = r->err,
			.errno_name = r->status == PROBE_ST_RET && r->err
				      ? probe_errno_name(r->err, tmp) : NULL,
			.matches = probe__matches(c, r), .release = run->release,
			.deviation = c->deviation, .deviation_why = c->deviation_why,
			.deviation_fs = c->deviation_fs,
		};
		bool deviates = !row.matches && probe__deviates(c, r);

		kd_buf_reset(&args);
		err = probe_case__format_args(c, &args);
		row.args = args.s;
		if (!err)
			err = kdb__put_probe(db, &row);
		*mismatches += !row.matches && !deviates;
		nknown += deviates;
	}
	if (!err)
		err = kdb__set_meta(db, "probe_release", run->release);
	if (!err)
		err = kdb__set_meta(db, "probe_kernel", kernel);
	if (!err)
		err = kdb__set_meta(db, "probe_fs", run->fs ? run->fs : "unknown");
	if (!err)
		err = kd_buf_addf(&num, "%zu", probe_set__count(set));
	if (!err)
		err = kdb__set_meta(db, "probe_cases", num.s);
	kd_buf_reset(&num);
	if (!err)
		err = kd_buf_addf(&num, "%zu", *mismatches);
	if (!err)
		err = kdb__set_meta(db, "probe_mismatches", num.s);
	kd_buf_reset(&num);
	if (!err)
		err = kd_buf_addf(&num, "%zu", nknown);
	if (!err)
		err = kdb__set_meta(db, "probe_known", num.s);
	if (known)
		*known = nknown;
	kd_buf_release(&args);
	kd_buf_release(&num);
	return err;
}
