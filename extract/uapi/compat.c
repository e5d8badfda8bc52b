// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compat user ABI's header view; see compat_internal.h.
 *
 * Why a second scan and not the native ioctls with other sizes: a header
 * may define a command differently for 32-bit programs (under
 * __BITS_PER_LONG or __i386__), and the number an i386 program compiles
 * is the one its preprocessor and its sizeof give; so the tree is read as
 * that program's compiler reads it. Only the ioctls of that scan are
 * kept: the constants are the native scan's.
 */
#include "extract/uapi/compat_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb-compat.h"
#include "db/kdb-uapi.h"
#include "extract/uapi/compile_internal.h"
#include "extract/header_types_internal.h"
#include "extract/uapi/uapi.h"
#include "extract/uapi/uapi_internal.h"
#include "lib/arch.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"

struct compat_view {
	const struct kd_arch *abi;	/* NULL: the arch has no compat view */
	const struct kd_arch *arch;	/* the kernel's */
	char *dir;
	struct utree tree;
	bool have_tree;
	struct uapi_cc_arch cc_arch;
	struct uapi_cc_conf conf;
	struct uapi_cc_job *job;
	struct header_view *view;
	bool skipped;			/* $KABI_DIFF_NO_COMPAT: not built */
};

int compat_view__start(const char *dir, const struct kd_arch *arch, int jobs, bool progress,
		       struct compat_view **out)
{
	struct compat_view *cv = kd_calloc(1, sizeof(*cv));
	int err;

	*out = cv;
	if (!cv)
		return -ENOMEM;
	/* A header tree read alone with no arch of its own is x86_64's (uapi_cc_arch_init()). */
	cv->arch = arch ? arch : kd_arch__by_name("x86_64");
	cv->abi = kd_arch__compat_user(cv->arch);
	cv->skipped = getenv("KABI_DIFF_NO_COMPAT") && *getenv("KABI_DIFF_NO_COMPAT");
	if (!cv->abi || cv->skipped)
		return 0;
	cv->dir = kd_strdup(dir);
	if (!cv->dir)
		return -ENOMEM;
	err = utree__open(dir, cv->abi, &cv->tree);
	if (err)
		return err;
	cv->have_tree = true;
	uapi_cc_arch_init(&cv->cc_arch, cv->abi);
	cv->conf = (struct uapi_cc_conf){ .arch = &cv->cc_arch, .jobs = jobs,
					  .use_cache = !getenv("KABI_DIFF_NO_UAPI_CACHE"),
					  .progress = progress };
	return uapi_cc__start(&cv->tree, &cv->conf, &cv->job);
}

/* sizeof for the compat scan: the compat view, then its C library's; never the kernel's. */
static int compat_sizeof(const char *type_text, struct uapi_type_info *info, void *ctx)
{
	struct compat_view *cv = ctx;

	if (header_view__sizeof(cv->view, type_text, info))
		return 1;
	return header_view__libc_sizeof(cv->view, type_text, info);
}

static int compat_enumerator(const char *name, size_t len, int64_t *value, const char **ctype,
			     void *ctx)
{
	struct compat_view *cv = ctx;

	return header_view__enumerator(cv->view, name, len, value, ctype);
}

static int compat_offsetof(const char *type_text, const char *designator, int64_t *offset,
			   void *ctx)
{
	struct compat_view *cv = ctx;

	return header_view__offsetof(cv->view, type_text, designator, offset);
}

static int compat_alignof(const char *type_text, int64_t *align, void *ctx)
{
	struct compat_view *cv = ctx;

	return header_view__alignof(cv->view, type_text, align);
}

/* The tree's ioctls as the compat ABI's programs compile them, into compat_ioctls. */
static int write_ioctls(struct compat_view *cv, struct kdb *db, struct kd_buf *note)
{
	struct uapi_result *r = NULL;
	size_t i, unknown = 0;
	int err;

	err = uapi__scan(cv->dir, cv->abi, &(struct uapi_lookup){ .size = compat_sizeof,
				.enumerator = compat_enumerator, .offset = compat_offsetof,
				.align = compat_alignof, .ctx = cv }, &r);
	if (err)
		return err;
	/* The scan's sizes are the compat view's: its ids, never a module's. */
	for (i = 0; i < r->nr_ioctls; i++) {
		r->ioctls[i].module_id = 0;
		unknown += !r->ioctls[i].has_cmd;
	}
	err = kdb__put_compat_ioctls(db, cv->abi->name, r->ioctls, r->nr_ioctls);
	if (!err)
		err = kd_buf_addf(note, ", %zu ioctls (%zu without a number)", r->nr_ioctls, unknown);
	uapi_result__free(r);
	return err;
}

struct failed {
	const struct uapi_cc_result *r;
	bool *native;		/* r->failures[i] failed natively too */
};

static int note_native(const struct kdb_uapi_failure *f, void *ctx)
{
	struct failed *fl = ctx;
	size_t i;

	for (i = 0; i < fl->r->nr_failures; i++)
		if (!strcmp(fl->r->failures[i].header, f->header))
			fl->native[i] = true;
	return 0;
}

/*
 * The headers that compile natively but not for the compat ABI (a header
 * that fails both ways is the native view's problem row already).
 */
static int write_failures(struct compat_view *cv, struct kdb *db, const struct uapi_cc_result *r,
			  int64_t *problems)
{
	struct failed fl = { r, kd_calloc(r->nr_failures + 1, sizeof(bool)) };
	size_t i;
	int err;

	if (!fl.native)
		return -ENOMEM;
	err = kdb__foreach_uapi_failure(db, note_native, &fl);
	for (i = 0; !err && i < r->nr_failures; i++) {
		if (fl.native[i])
			continue;
		err = kdb__put_problem(db, "uapi", r->failures[i].header, r->failures[i].header,
				       "%s: does not compile on its own for %s programs, so its types"
				       " have no %s view: %s", cv->abi->name, cv->abi->name,
				       cv->abi->name, r->failures[i].message);
		(*problems)++;
	}
	free(fl.native);
	return err;
}

int compat_view__finish(struct compat_view *cv, struct kdb *db, struct type_sink *sink,
			int64_t *problems)
{
	struct header_view_stats hs = { 0 };
	struct uapi_cc_result *r = NULL;
	struct kd_buf note = KD_BUF_INIT;
	int err;

	if (cv->skipped) {
		err = kd_buf_addf(&note, "%s: not built ($KABI_DIFF_NO_COMPAT is set)",
				  cv->abi ? cv->abi->name : "compat");
		goto meta;
	}
	if (!cv->abi) {
		/* arm64: AArch32 programs' headers are arch/arm's, not this tree's arm64 ones. */
		err = kd_buf_addf(&note, "%s: no 32-bit header view (kabi-diff builds one for"
				  " x86_64's ia32 programs only)",
				  cv->arch && !strcmp(cv->arch->name, "arm64") ? "aarch32" : "compat");
		goto meta;
	}
	err = uapi_cc__finish(cv->job, &r);
	cv->job = NULL;
	if (err)
		goto out;
	if (r->not_compiled) {
		err = kd_buf_addf(&note, "%s: not built: %s", cv->abi->name, r->not_compiled);
		goto meta;
	}
	err = write_failures(cv, db, r, problems);
	if (!err && r->object) {
		err = header_view__read(db, sink, r->object, &cv->tree, cv->abi, &cv->view, &hs);
		*problems += hs.conflicts;
	}
	if (!err)
		err = kd_buf_addf(&note, "%s: %zu of %zu headers compiled%s", cv->abi->name,
				  r->nr_compiled, r->nr_headers, r->cached ? " (cached)" : "");
	if (!err)
		err = write_ioctls(cv, db, &note);
meta:
	if (!err)
		err = kdb__set_meta(db, "uapi_compat", note.s);
out:
	kd_buf_release(&note);
	uapi_cc_result__free(r);
	return err;
}

void compat_view__free(struct compat_view *cv)
{
	struct uapi_cc_result *r = NULL;

	if (!cv)
		return;
	if (cv->job && !uapi_cc__finish(cv->job, &r))
		uapi_cc_result__free(r);
	header_view__free(cv->view);
	if (cv->have_tree)
		utree__release(&cv->tree);
	free(cv->dir);
	free(cv);
}
