// SPDX-License-Identifier: GPL-2.0-only
/*
 * The header job of extract.c; see header_job_internal.h. The glue of the
 * three readers of the UAPI headers (uapi/'s compiler and compat view,
 * header-types.c's DWARF), kept out of extract.c so that it sees only
 * uapi/uapi.h of the header reader.
 */
#include "extract/header_job_internal.h"

#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-uapi.h"
#include "extract/header_types_internal.h"
#include "extract/ioctl_types_internal.h"
#include "extract/uapi/compat_internal.h"
#include "lib/buf.h"
#include "lib/err.h"
int header_job__start(struct header_job *hj, const struct extract_conf *conf,
		      const struct kd_arch *arch)
{
	int err = utree__open(conf->uapi_dir, arch, &hj->tree);

	if (err)
		return err;
	hj->have_tree = true;
	uapi_cc_arch_init(&hj->arch, arch);
	hj->conf = (struct uapi_cc_conf){ .arch = &hj->arch, .jobs = conf->jobs,
					  .use_cache = !getenv("KABI_DIFF_NO_UAPI_CACHE"),
					  .progress = conf->progress || conf->phases };
	err = uapi_cc__start(&hj->tree, &hj->conf, &hj->job);
	/* Both compiles at once: they share the CPUs, the wall clock of one. */
	if (!err)
		err = compat_view__start(conf->uapi_dir, arch, conf->jobs,
					 conf->progress || conf->phases, &hj->compat);
	return err;
}

/* The compat view, last of all the types (its new rows are its own). */
int header_job__compat(struct header_job *hj, struct kdb *db, struct type_sink *sink,
			     struct extract_stats *stats)
{
	return hj->compat ? compat_view__finish(hj->compat, db, sink, &stats->problems) : 0;
}

/* Join the compilers; write the header view and the headers that did not compile. */
int header_job__finish(struct header_job *hj, struct kdb *db, struct type_sink *sink,
			     struct extract_stats *stats)
{
	struct header_view_stats hs = { 0 };
	struct uapi_cc_result *r = NULL;
	struct kd_buf msg = KD_BUF_INIT;
	size_t i;
	int err;

	err = uapi_cc__finish(hj->job, &r);
	hj->job = NULL;
	if (err)
		return err;
	if (r->not_compiled) {
		kd_warn("%s", r->not_compiled);
		err = kdb__put_problem(db, "uapi", NULL, NULL, "%s", r->not_compiled);
		stats->problems++;
	}
	for (i = 0; !err && i < r->nr_failures; i++) {
		err = kdb__put_uapi_failure(db, r->failures[i].header, r->failures[i].message);
		stats->problems++;
	}
	if (!err && r->object) {
		err = header_view__read(db, sink, r->object, &hj->tree, NULL, &hj->view, &hs);
		stats->types += hs.types;
		stats->problems += hs.conflicts;
	}
	if (!err && !r->not_compiled)
		err = kd_buf_addf(&msg, "%zu of %zu%s", r->nr_compiled, r->nr_headers,
				  r->cached ? " (cached)" : "");
	if (!err && msg.len)
		err = kdb__set_meta(db, "uapi_compiled", msg.s);
	/* How much the unit cache saved: the figure of a stable update's cost. */
	kd_buf_reset(&msg);
	if (!err && !r->not_compiled && !r->cached)
		err = kd_buf_addf(&msg, "%zu compiled, %zu cached", r->nr_units, r->nr_cached);
	if (!err && msg.len)
		err = kdb__set_meta(db, "uapi_units", msg.s);
	kd_buf_release(&msg);
	uapi_cc_result__free(r);
	return err;
}

void header_job__release(struct header_job *hj)
{
	struct uapi_cc_result *r = NULL;

	if (hj->job && !uapi_cc__finish(hj->job, &r))
		uapi_cc_result__free(r);
	compat_view__free(hj->compat);
	header_view__free(hj->view);
	if (hj->have_tree)
		utree__release(&hj->tree);
	memset(hj, 0, sizeof(*hj));
}

/*
 * sizeof() for the UAPI reader: the header view first (what user space's
 * compiler says), then the kernel's DWARF for headers that do not compile.
 * The module that defines the type in the kernel is kept either way.
 */
static int sizeof_both(const char *type_text, struct uapi_type_info *info, void *ctx)
{
	struct header_job *hj = ctx;
	struct uapi_type_info k = { 0 };
	/* Headers alone: no kernel binary to ask. */
	int kr = hj->it->wanted ? ioctl_types__sizeof(type_text, &k, hj->it) : 0;

	if (kr < 0)
		return kr;
	if (header_view__sizeof(hj->view, type_text, info)) {
		info->module_id = kr ? k.module_id : 0;
		return 1;
	}
	if (kr) {
		*info = k;
		return kr;
	}
	/* Neither the headers nor the kernel: the C library's, as user space has it. */
	return header_view__libc_sizeof(hj->view, type_text, info);
}

/* Enumerators in ioctl numbers (autofs's _IO(AUTOFS_IOCTL, AUTOFS_IOC_READY_CMD)). */
static int enumerator_value(const char *name, size_t len, int64_t *value, const char **ctype,
			    void *ctx)
{
	struct header_job *hj = ctx;

	return header_view__enumerator(hj->view, name, len, value, ctype);
}

/* offsetof() and __alignof__ as user space compiles them: the header view's layouts only. */
static int offset_value(const char *type_text, const char *designator, int64_t *offset, void *ctx)
{
	struct header_job *hj = ctx;

	return header_view__offsetof(hj->view, type_text, designator, offset);
}

static int align_value(const char *type_text, int64_t *align, void *ctx)
{
	struct header_job *hj = ctx;

	return header_view__alignof(hj->view, type_text, align);
}

void header_job__lookup(struct header_job *hj, struct ioctl_types *it, struct uapi_lookup *lk)
{
	hj->it = it;
	/* Without a header view (no compiler) no enumerator is known, nor known absent. */
	*lk = (struct uapi_lookup){ .size = sizeof_both,
				    .enumerator = hj->view ? enumerator_value : NULL,
				    .offset = hj->view ? offset_value : NULL,
				    .align = hj->view ? align_value : NULL, .ctx = hj };
}
