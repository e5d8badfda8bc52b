// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON report: one document, schema "kabi-diff-report" version 2,
 * documented field by field in diff/REPORT-SCHEMA.md. One object per change
 * in the report's order (breaking first, grouped by finding), then the
 * findings themselves; tools should key on "kind" and "rule", which are
 * stable ids, never on the human-readable fields.
 */
#include "diff/report.h"

#include <string.h>

#include "lib/json.h"

#define REPORT_SCHEMA_VERSION 2

static void json_side(FILE *f, const struct diff_result *r, bool new_side)
{
	fputs("{\"path\": ", f);
	kd_json_str(f, diff_result__meta(r, new_side, "path"));
	fputs(", \"release\": ", f);
	kd_json_str(f, diff_result__meta(r, new_side, "release"));
	fputs(", \"build_id\": ", f);
	kd_json_str(f, diff_result__meta(r, new_side, "build_id"));
	fputc('}', f);
}

static void json_counts(FILE *f, const struct diff_result *r, enum diff_category c)
{
	fprintf(f, "{\"breaking\": %zu, \"source\": %zu, \"compatible\": %zu, \"info\": %zu,"
		" \"suppressed\": %zu}",
		diff_result__count(r, c, DIFF_BREAKING), diff_result__count(r, c, DIFF_SOURCE),
		diff_result__count(r, c, DIFF_COMPATIBLE), diff_result__count(r, c, DIFF_INFO),
		diff_result__count_suppressed(r, c));
}

static int json_begin(struct report_ctx *x)
{
	FILE *f = x->f;
	int c;

	fprintf(f, "{\n  \"schema\": \"kabi-diff-report\",\n  \"version\": %d,\n",
		REPORT_SCHEMA_VERSION);
	fputs("  \"old\": ", f);
	json_side(f, x->r, false);
	fputs(",\n  \"new\": ", f);
	json_side(f, x->r, true);
	fprintf(f, ",\n  \"contract\": %s,\n", diff_result__has_contract(x->r) ? "true" : "false");
	if (diff_result__contract_source(x->r)) {
		fputs("  \"contract_source\": ", f);
		kd_json_str(f, diff_result__contract_source(x->r));
		fputs(",\n", f);
	}
	fprintf(f, "  \"only_breaking\": %s,\n  \"hidden\": %zu,\n  \"exit_status\": %d,\n",
		x->conf->only_breaking ? "true" : "false", x->hidden, diff_result__exit_bits(x->r));
	fputs("  \"summary\": {\n", f);
	for (c = 0; c <= DIFF__NR_CATEGORIES; c++) {
		fprintf(f, "    \"%s\": ", c == DIFF__NR_CATEGORIES ? "total" : diff_category_name(c));
		json_counts(f, x->r, c);
		fputs(c == DIFF__NR_CATEGORIES ? "\n" : ",\n", f);
	}
	fputs("  },\n  \"changes\": [", f);
	return 0;
}

static int json_change(struct report_ctx *x, const struct diff_change *c)
{
	FILE *f = x->f;
	size_t i;

	fputs(x->index ? ",\n    {" : "\n    {", f);
	fputs("\"kind\": ", f);
	kd_json_str(f, c->kind);
	fputs(", \"category\": ", f);
	kd_json_str(f, diff_category_name(c->category));
	fputs(", \"verdict\": ", f);
	kd_json_str(f, diff_verdict_name(c->rule->verdict));
	fprintf(f, ", \"potential\": %s", c->rule->uncontracted ? "true" : "false");
	fputs(", \"rule\": ", f);
	kd_json_str(f, c->rule->id);
	fputs(",\n     \"cause\": ", f);
	kd_json_str(f, c->cause);
	fputs(", \"name\": ", f);
	kd_json_str(f, c->name);
	fputs(", \"subject\": ", f);
	kd_json_str(f, c->subject);
	fputs(", \"old\": ", f);
	kd_json_str(f, c->old_value);
	fputs(", \"new\": ", f);
	kd_json_str(f, c->new_value);
	fputs(", \"note\": ", f);
	kd_json_str(f, c->note);
	fputs(",\n     \"why\": ", f);
	kd_json_str(f, c->rule->why);
	fputs(",\n     \"evidence\": {\"kind\": ", f);
	kd_json_str(f, diff_evidence_name(c->evidence_kind));
	fputs(", \"text\": ", f);
	kd_json_str(f, c->evidence);
	fputs("}, \"suppressed\": ", f);
	kd_json_str(f, c->suppressed);
	fputs(",\n     \"impact\": [", f);
	for (i = 0; i < c->nr_impacts; i++) {
		fputs(i ? ", {\"root\": " : "{\"root\": ", f);
		kd_json_str(f, c->impacts[i].root);
		fputs(", \"path\": ", f);
		kd_json_str(f, c->impacts[i].path);
		fputc('}', f);
	}
	fputs("]}", f);
	return 0;
}

static int json_end(struct report_ctx *x)
{
	fputs(x->index ? "\n  ]\n}\n" : "]\n}\n", x->f);
	return 0;
}

const struct report_ops report_json_ops = {
	.begin = json_begin,
	.change = json_change,
	.end = json_end,
};
