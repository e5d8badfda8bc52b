// SPDX-License-Identifier: GPL-2.0-only
/*
 * What each side covers, and therefore what the diff compares. A .kabi
 * holds what its extraction read: a vmlinux (syscall tables, DWARF), its
 * modules, the UAPI headers (constants, ioctls, the header view), probe
 * results, a stored contract. Comparing a category one side never read
 * would report everything the other side has as added or removed (a .kabi
 * extracted without --uapi against one with headers: every constant
 * "removed"), and printing zeros for a category neither side read would
 * say it was checked. So a category is compared only when both sides
 * cover it; the reports say what each side covered and what was not
 * compared, and why.
 */
#include "diff/diff_internal.h"

#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "diff/report.h"

static bool meta_is(struct kdb *db, const char *key, const char *value)
{
	char *v = NULL;
	bool is = !kdb__get_meta(db, key, &v) && v && !strcmp(v, value);

	free(v);
	return is;
}

static bool has_meta(struct kdb *db, const char *key)
{
	char *v = NULL;
	bool has = !kdb__get_meta(db, key, &v) && v;

	free(v);
	return has;
}

static int64_t count(struct kdb *db, const char *table)
{
	int64_t n = kdb__count(db, table);

	return n > 0 ? n : 0;	/* a table older files lack counts as empty */
}

static void side_coverage(struct kdb *db, struct diff_coverage *c)
{
	bool headers_only = meta_is(db, "input", "headers");

	memset(c, 0, sizeof(*c));
	c->vmlinux = !headers_only;
	/* uapi_headers: written since the headers' directories were recorded. */
	c->headers = headers_only || has_meta(db, "uapi_headers") || count(db, "constants") > 0;
	c->modules = count(db, "modules");
	c->probe = count(db, "probe_results") > 0;
	c->contract = count(db, "spec_files") > 0;
}

/* Why a category both sides must have is missing: "the old kernel has no ...". */
static const char *missing(const struct diff_coverage *c, bool vmlinux)
{
	bool o = vmlinux ? c[0].vmlinux : c[0].headers, n = vmlinux ? c[1].vmlinux : c[1].headers;

	if (vmlinux)
		return !o && !n ? "neither side is a kernel image (header trees: no syscall table)" :
		       !o ? "the old side is a header tree (no vmlinux: no syscall table)" :
			    "the new side is a header tree (no vmlinux: no syscall table)";
	return !o && !n ? "neither side was read with UAPI headers" :
	       !o ? "the old side was read without UAPI headers" :
		    "the new side was read without UAPI headers";
}

void diff_coverage_load(struct diff_result *r, struct kdb *old, struct kdb *new)
{
	const struct diff_coverage *c = r->coverage;
	int i;

	side_coverage(old, &r->coverage[0]);
	side_coverage(new, &r->coverage[1]);
	for (i = 0; i < DIFF__NR_CATEGORIES; i++)
		r->not_compared[i] = NULL;
	if (!c[0].vmlinux || !c[1].vmlinux)
		r->not_compared[DIFF_CAT_SYSCALL] = missing(c, true);
	if (!c[0].headers || !c[1].headers)
		r->not_compared[DIFF_CAT_CONSTANT] = r->not_compared[DIFF_CAT_IOCTL] = missing(c, false);
	/* Types are reached from syscalls and ioctls: compared when either is. */
	if (r->not_compared[DIFF_CAT_SYSCALL] && r->not_compared[DIFF_CAT_IOCTL])
		r->not_compared[DIFF_CAT_TYPE] = "no syscall or ioctl was compared to reach them";
	/* Meta vdso: the extraction looked for the images (a vmlinux of schema 5 on). */
	if (!has_meta(old, "vdso") || !has_meta(new, "vdso"))
		r->not_compared[DIFF_CAT_VDSO] =
			!c[0].vmlinux && !c[1].vmlinux ? "neither side is a kernel image (no vDSO)" :
			!c[0].vmlinux ? "the old side is a header tree (no vDSO)" :
			!c[1].vmlinux ? "the new side is a header tree (no vDSO)" :
			!has_meta(old, "vdso") ? "the old side's vDSO was not read" :
						  "the new side's vDSO was not read";
	if (!c[0].probe || !c[1].probe)
		r->probe_not_compared = !c[0].probe && !c[1].probe ? "neither side has probe results" :
					!c[0].probe ? "the old side has no probe results" :
						      "the new side has no probe results";
}

bool diff_result__compared(const struct diff_result *r, enum diff_category c, const char **why)
{
	const char *w = (unsigned)c < DIFF__NR_CATEGORIES ? r->not_compared[c] : NULL;

	if (why)
		*why = w;
	return !w;
}

bool diff_result__probe_compared(const struct diff_result *r, const char **why)
{
	if (why)
		*why = r->probe_not_compared;
	return !r->probe_not_compared;
}

const struct diff_coverage *diff_result__coverage(const struct diff_result *r, bool new_side)
{
	return &r->coverage[new_side ? 1 : 0];
}

int diff_coverage_text(const struct diff_coverage *c, bool covered, struct kd_buf *b)
{
	static const char *const names[] = { "vmlinux", "UAPI headers", "modules", "probe results",
					     "stored contract" };
	bool has[5] = { c->vmlinux, c->headers, c->modules > 0, c->probe, c->contract };
	int i, err = 0;

	kd_buf_reset(b);
	for (i = 0; !err && i < 5; i++) {
		if (has[i] != covered)
			continue;
		if (i == 2 && covered)
			err = kd_buf_addf(b, "%s%lld module%s", b->len ? ", " : "", (long long)c->modules,
					  c->modules == 1 ? "" : "s");
		else
			err = kd_buf_addf(b, "%s%s", b->len ? ", " : "", names[i]);
	}
	if (!err && !b->len)
		err = kd_buf_adds(b, covered ? "nothing" : "-");
	return err;
}
