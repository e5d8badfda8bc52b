// SPDX-License-Identifier: GPL-2.0-only
/*
 * diff__run(): the driver. It loads both kernels' types, ATTACHes the new
 * DB to the old one so db/ can join syscall tables, constants and ioctls
 * in SQL, and hands the rows of those joins to the comparisons in order
 * (diff-syscalls.c, diff-uapi.c, diff-constants.c), then the passes that
 * need every root compared first (the header view's types, the impacts,
 * the evidence of layouts), and sorts the result. The changes themselves
 * and the result's accessors are changes.c's (see README.md).
 */
#include "diff/diff_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "db/kdb-uapi.h"
#include "db/kdb-diff.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/model.h"

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

/* Both kernels' metadata, types, binary facts and modules, before the DBs are attached. */
static int load_sides(struct diff_run *run)
{
	const struct diff_conf *conf = run->e.conf;
	struct kdb *old = run->db[0], *new = run->db[1];
	struct diff_result *r = run->e.r;
	int err;

	r->has_contract = conf->contract != NULL;
	if (conf->contract && conf->contract->source &&
	    !(r->contract_source = kd_strdup(conf->contract->source)))
		return -ENOMEM;
	err = load_meta(old, conf->input[0], conf->release[0], &r->meta[0]);
	if (!err)
		err = load_meta(new, conf->input[1], conf->release[1], &r->meta[1]);
	if (!err)
		err = check_same_arch(r);
	if (!err)
		err = headers_only(old, new, &r->headers_only);
	if (!err)
		nr_tables_init(&run->nr, old, new, r->meta[1].arch);
	if (!err)
		err = kdb__load_types(old, &run->e.g[0].types, &run->e.g[0].nr);
	if (!err)
		err = kdb__load_types(new, &run->e.g[1].types, &run->e.g[1].nr);
	if (!err)
		err = diff_facts_load(run);
	return err ? err : diff_modules_load(run);
}

/* The rows of db/'s joins, category by category, to the comparisons. */
static int compare_rows(struct diff_run *run)
{
	struct diff_result *r = run->e.r;
	struct kdb *old = run->db[0];
	int err = diff_abis_load(run);

	if (!err && diff_result__compared(r, DIFF_CAT_SYSCALL, NULL)) {
		err = kdb__diff_syscalls(old, run->e.conf->abi, diff_on_syscall, run);
		if (!err)
			err = diff_abis_changes(run);
	}
	if (!err && diff_result__compared(r, DIFF_CAT_IOCTL, NULL))
		err = kdb__diff_ioctls(old, diff_on_ioctl, run);
	if (!err && diff_result__compared(r, DIFF_CAT_IOCTL, NULL))
		err = kdb__diff_ioctl_families(old, diff_on_ioctl_family, run);
	/* The same headers as i386 programs compile them, when both sides have that view. */
	if (!err && diff_result__compared(r, DIFF_CAT_IOCTL, NULL))
		err = diff_ia32(run);
	if (!err && diff_result__compared(r, DIFF_CAT_CONSTANT, NULL))
		err = kdb__diff_constants(old, diff_on_constant, run);
	/* Before the impacts: the vDSO's signatures reach types too. */
	if (!err && diff_result__compared(r, DIFF_CAT_VDSO, NULL))
		err = diff_vdso(run);
	if (!err && diff_result__compared(r, DIFF_CAT_CONSTANT, NULL))
		err = diff_modules_unserved_headers(run);
	return err;
}

/* The passes that need every root compared first; then the result sorted. */
static int after_roots(struct diff_run *run)
{
	struct diff_result *r = run->e.r;
	int err;

	/*
	 * Both sides' headers: their types too, those no syscall or ioctl
	 * reaches included (diff-header-types.c, RULES.md "How types are
	 * matched"); then every type change's impacts.
	 */
	if (diff_result__compared(r, DIFF_CAT_CONSTANT, NULL)) {
		err = diff_header_types(run);
		if (!err)
			err = diff_header_lost(run);
	} else {
		err = dt_compare_pending(&run->e);
		if (!err)
			err = dt_impacts(&run->e);
	}
	/* Two header trees: no DWARF, the default names the one source. */
	if (!err && !r->headers_only)
		err = diff_layout_sources(run, diff_default_evidence(DIFF_CAT_TYPE));
	if (!err)
		err = diff_header_kernel(r, run->db[0], &run->e.g[0], run->db[1], &run->e.g[1]);
	if (!err)
		err = diff_probe(run);	/* observed: both kernels' probe results */
	if (!err)
		err = diff_contract_changes(r, run->e.conf);	/* two contract versions */
	if (!err)
		err = diff_modules_finish(run);
	if (!err)
		diff_result_sort(r);
	return err;
}

/* What @run holds besides its result. */
static void run_release(struct diff_run *run)
{
	dt_release(&run->e);
	kdb__free_types(run->e.g[0].types, run->e.g[0].nr);
	kdb__free_types(run->e.g[1].types, run->e.g[1].nr);
	free(run->done);
	diff_facts_release(&run->k);
	diff_modules_release(&run->mods);
	nr_tables_release(&run->nr);
	diff_abis_release(&run->abis);
	kd_buf_release(&run->subj);
	kd_buf_release(&run->ov);
	kd_buf_release(&run->nv);
}

int diff__run(struct kdb *old, struct kdb *new, const struct diff_conf *conf,
	      struct diff_result **out)
{
	static const struct diff_conf no_conf;
	struct diff_run run = { .db = { old, new }, .subj = KD_BUF_INIT, .ov = KD_BUF_INIT,
			   .nv = KD_BUF_INIT };
	struct diff_result *r;
	int err;

	*out = NULL;
	r = kd_calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	run.e.r = r;
	run.e.conf = conf ? conf : &no_conf;
	run.e.new_db = new;
	run.e.old_db = old;
	run.e.scratch[0] = (struct kd_buf)KD_BUF_INIT;
	run.e.scratch[1] = (struct kd_buf)KD_BUF_INIT;
	err = load_sides(&run);
	if (!err)
		err = kdb__attach_other(old, new);
	if (!err) {
		/* Only what both sides cover (diff-coverage.c). */
		diff_coverage_load(r, old, new);
		err = compare_rows(&run);
		if (!err)
			err = after_roots(&run);
		if (kdb__detach_other(old) && !err)
			err = -EIO;
	}
	run_release(&run);
	if (err) {
		if (err == -ENOMEM)
			kd_err("diff: out of memory");
		diff_result__free(r);
		return err;
	}
	*out = r;
	return 0;
}
