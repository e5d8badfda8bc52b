// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON report: one document, schema "kabi-diff-report" version 2,
 * documented field by field in diff/REPORT-SCHEMA.md. One object per change
 * in the report's order (breaking first, grouped by finding), one a line;
 * tools should key on "kind" and "rule", which are stable ids, never on the
 * human-readable fields. Written through the JSON writer of lib/json.h.
 */
#include "diff/report.h"

#include <string.h>

#include "lib/json.h"

#define REPORT_SCHEMA_VERSION 2

static void json_counts(struct kd_json *w, const struct diff_result *r, enum diff_category c)
{
	kd_json_object(w, false);
	kd_json_kuint(w, "breaking", diff_result__count(r, c, DIFF_BREAKING));
	kd_json_kuint(w, "source", diff_result__count(r, c, DIFF_SOURCE));
	kd_json_kuint(w, "compatible", diff_result__count(r, c, DIFF_COMPATIBLE));
	kd_json_kuint(w, "info", diff_result__count(r, c, DIFF_INFO));
	kd_json_kuint(w, "suppressed", diff_result__count_suppressed(r, c));
	kd_json_end(w);
}

static int json_begin(struct report_ctx *x)
{
	struct kd_json *w = &x->json;
	int c;

	kd_json_init(w, x->f);
	kd_json_object(w, true);
	kd_json_kstr(w, "schema", "kabi-diff-report");
	kd_json_kint(w, "version", REPORT_SCHEMA_VERSION);
	report_json_sides(w, x->r);
	kd_json_kbool(w, "only_breaking", x->conf->only_breaking);
	kd_json_kuint(w, "hidden", x->hidden);
	kd_json_key(w, "unmatched_suppressions");
	kd_json_array(w, false);
	for (size_t i = 0; i < diff_result__nr_unmatched(x->r); i++)
		kd_json_string(w, diff_result__unmatched(x->r, i));
	kd_json_end(w);
	report_json_for(w, x->r);
	kd_json_kint(w, "exit_status", diff_result__exit_bits(x->r));
	kd_json_key(w, "summary");
	kd_json_object(w, true);
	for (c = 0; c <= DIFF__NR_CATEGORIES; c++) {
		kd_json_key(w, c == DIFF__NR_CATEGORIES ? "total" : diff_category_name(c));
		/* Not compared (coverage.not_compared says why): null, not zeros. */
		if (c < DIFF__NR_CATEGORIES && !diff_result__compared(x->r, c, NULL))
			kd_json_null(w);
		else
			json_counts(w, x->r, c);
	}
	kd_json_end(w);
	kd_json_key(w, "changes");
	kd_json_array(w, true);
	return 0;
}

static int json_change(struct report_ctx *x, const struct diff_change *c)
{
	struct kd_json *w = &x->json;

	kd_json_object(w, false);
	kd_json_kstr(w, "rule", c->rule->id);
	kd_json_kstr(w, "name", c->name);
	kd_json_kstr(w, "why", c->rule->why);
	kd_json_kstr(w, "suppressed", c->suppressed);
	report_json_change(w, c);
	kd_json_end(w);
	return 0;
}

static void json_strings(struct kd_json *w, const char *key, char *const *v, size_t n)
{
	size_t i;

	kd_json_key(w, key);
	kd_json_array(w, false);
	for (i = 0; i < n; i++)
		kd_json_string(w, v[i]);
	kd_json_end(w);
}

static int json_end(struct report_ctx *x)
{
	struct kd_json *w = &x->json;
	size_t i;

	kd_json_end(w);	/* changes */
	/* The old kernel's modules the new one lacks, one object a line. */
	kd_json_key(w, "modules_removed");
	kd_json_array(w, true);
	for (i = 0; i < diff_result__nr_removed_modules(x->r); i++) {
		const struct diff_module_removed *m = diff_result__removed_module(x->r, i);

		kd_json_object(w, false);
		kd_json_kstr(w, "name", m->name);
		kd_json_kstr(w, "description", m->description);
		kd_json_kstr(w, "path", m->path);
		json_strings(w, "headers", m->headers, m->nr_headers);
		json_strings(w, "served", m->served, m->nr_served);
		json_strings(w, "served_maybe", m->shared, m->nr_shared);
		kd_json_end(w);
	}
	kd_json_end(w);
	kd_json_end(w);	/* the document */
	return 0;
}

const struct report_ops report_json_ops = {
	.begin = json_begin,
	.change = json_change,
	.end = json_end,
};
