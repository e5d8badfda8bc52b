// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SARIF 2.1.0 report (--format sarif), for code-scanning views that
 * show findings on the changed lines (GitHub, GitLab). One run; its
 * driver's rules are the rules of diff/RULES.md in table order (ruleIndex
 * is the position there); one result per change listed in the report's
 * order: ruleId the rule id, level from the verdict (breaking: error,
 * source-level: warning, compatible and info: note), the message the
 * verdict, the values and the syscalls that reach the change with their
 * paths. A change whose declaration the kernels know (see
 * diff_result__locate()) points at that line of the kernel's source tree
 * (uriBaseId SRCROOT); every change also carries a logical location, its
 * subject. Suppressed changes are results with an external suppression
 * whose justification is the suppression's reason.
 */
#include "diff/report.h"

#include <ctype.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/json.h"

/* Impact paths spelled out in a message; the rest are counted (all are in properties). */
#define SARIF_MESSAGE_PATHS 5

static const char *level_of(enum diff_verdict v)
{
	switch (v) {
	case DIFF_BREAKING: return "error";
	case DIFF_COMPATIBLE:
	case DIFF_INFO: return "note";
	default: return "warning";	/* source-level: old binaries fine, old source not */
	}
}

/* A relative reference or a file: URI, percent-encoded (RFC 3986). */
static void json_uri(FILE *f, const char *path)
{
	struct kd_buf b = KD_BUF_INIT;
	const unsigned char *p;
	int err = path[0] == '/' ? kd_buf_adds(&b, "file://") : 0;

	for (p = (const unsigned char *)path; !err && *p; p++) {
		if (isalnum(*p) || strchr("/-._~+,=@", *p))
			err = kd_buf_addc(&b, (char)*p);
		else
			err = kd_buf_addf(&b, "%%%02X", *p);
	}
	kd_json_str(f, err ? path : b.s);
	kd_buf_release(&b);
}

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

static int sarif_begin(struct report_ctx *x)
{
	const struct diff_rule *rules;
	FILE *f = x->f;
	size_t i, n;

	rules = diff_rules(&n);
	fputs("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
	      "  \"version\": \"2.1.0\",\n  \"runs\": [{\n"
	      "    \"tool\": {\"driver\": {\"name\": \"kabi-diff\"", f);
	if (x->conf->tool_version) {
		fputs(", \"version\": ", f);
		kd_json_str(f, x->conf->tool_version);
	}
	fputs(",\n      \"rules\": [", f);
	for (i = 0; i < n; i++) {
		fputs(i ? ",\n        {\"id\": " : "\n        {\"id\": ", f);
		kd_json_str(f, rules[i].id);
		fputs(", \"shortDescription\": {\"text\": ", f);
		kd_json_str(f, rules[i].matches);
		fputs("}, \"fullDescription\": {\"text\": ", f);
		kd_json_str(f, rules[i].why);
		fprintf(f, "}, \"defaultConfiguration\": {\"level\": \"%s\"}", level_of(rules[i].verdict));
		fprintf(f, ", \"properties\": {\"verdict\": \"%s\", \"potential\": %s}}",
			diff_verdict_name(rules[i].verdict), rules[i].uncontracted ? "true" : "false");
	}
	fputs("]}},\n", f);
	fputs("    \"originalUriBaseIds\": {\"SRCROOT\": {\"description\": {\"text\": "
	      "\"the root of the kernel's source tree\"}}},\n", f);
	fprintf(f, "    \"invocations\": [{\"executionSuccessful\": true, \"exitCode\": %d}],\n",
		diff_result__exit_bits(x->r));
	fputs("    \"properties\": {\"old\": ", f);
	json_side(f, x->r, false);
	fputs(", \"new\": ", f);
	json_side(f, x->r, true);
	fprintf(f, ", \"contract\": %s", diff_result__has_contract(x->r) ? "true" : "false");
	if (diff_result__contract_source(x->r)) {
		fputs(", \"contract_source\": ", f);
		kd_json_str(f, diff_result__contract_source(x->r));
	}
	fprintf(f, ", \"only_breaking\": %s},\n", x->conf->only_breaking ? "true" : "false");
	fputs("    \"results\": [", f);
	return 0;
}

/* "potentially breaking (tail-growth-uncontracted): struct open_how: 24 -> 32 (note). why. Reached from ..." */
static int message(const struct diff_change *c, struct kd_buf *b)
{
	size_t i;
	int err;

	err = kd_buf_addf(b, "%s (%s): %s: %s -> %s", report_verdict_label(c), c->rule->id,
			  c->subject, c->old_value ? c->old_value : "(none)",
			  c->new_value ? c->new_value : "(none)");
	if (!err && c->note)
		err = kd_buf_addf(b, " (%s)", c->note);
	if (!err)
		err = kd_buf_addf(b, ". %s. Evidence (%s): %s.", c->rule->why,
				  diff_evidence_name(c->evidence_kind), c->evidence);
	for (i = 0; !err && i < c->nr_impacts && i < SARIF_MESSAGE_PATHS; i++)
		err = kd_buf_addf(b, "%s%s", i ? "; " : " Reached from: ", c->impacts[i].path);
	if (!err && c->nr_impacts > SARIF_MESSAGE_PATHS)
		err = kd_buf_addf(b, "; and %zu more", c->nr_impacts - SARIF_MESSAGE_PATHS);
	if (!err && c->nr_impacts)
		err = kd_buf_addc(b, '.');
	if (!err && c->suppressed)
		err = kd_buf_addf(b, " Suppressed: %s", c->suppressed);
	return err;
}

static const char *logical_kind(const struct diff_change *c)
{
	if (strchr(c->subject, '.') && c->category == DIFF_CAT_TYPE)
		return "member";
	switch (c->category) {
	case DIFF_CAT_TYPE: return "type";
	case DIFF_CAT_SYSCALL: return "function";
	default: return "variable";
	}
}

static int sarif_change(struct report_ctx *x, const struct diff_change *c)
{
	struct kd_buf msg = KD_BUF_INIT, fp = KD_BUF_INIT;
	const struct diff_rule *rules;
	FILE *f = x->f;
	size_t i, n;
	int err;

	rules = diff_rules(&n);
	err = message(c, &msg);
	if (!err)
		err = kd_buf_addf(&fp, "%s %s", c->kind, c->subject);
	if (err)
		goto out;
	fputs(x->index ? ",\n      {\"ruleId\": " : "\n      {\"ruleId\": ", f);
	kd_json_str(f, c->rule->id);
	if (c->rule >= rules && c->rule < rules + n)
		fprintf(f, ", \"ruleIndex\": %zu", (size_t)(c->rule - rules));
	fprintf(f, ", \"level\": \"%s\",\n       \"message\": {\"text\": ", level_of(c->rule->verdict));
	kd_json_str(f, msg.s);
	fputs("},\n       \"locations\": [{", f);
	if (c->decl_file) {
		fputs("\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", f);
		json_uri(f, c->decl_file);
		if (c->decl_file[0] != '/')
			fputs(", \"uriBaseId\": \"SRCROOT\"", f);
		fputc('}', f);
		if (c->decl_line > 0)
			fprintf(f, ", \"region\": {\"startLine\": %d}", c->decl_line);
		fputs("}, ", f);
	}
	fputs("\"logicalLocations\": [{\"name\": ", f);
	kd_json_str(f, c->name);
	fputs(", \"fullyQualifiedName\": ", f);
	kd_json_str(f, c->subject);
	fprintf(f, ", \"kind\": \"%s\"}]}],\n", logical_kind(c));
	fputs("       \"partialFingerprints\": {\"kabiDiffChange/v1\": ", f);
	kd_json_str(f, fp.s);
	fputc('}', f);
	if (c->suppressed) {
		fputs(",\n       \"suppressions\": [{\"kind\": \"external\", \"justification\": ", f);
		kd_json_str(f, c->suppressed);
		fputs("}]", f);
	}
	fputs(",\n       \"properties\": {\"kind\": ", f);
	kd_json_str(f, c->kind);
	fputs(", \"category\": ", f);
	kd_json_str(f, diff_category_name(c->category));
	fputs(", \"verdict\": ", f);
	kd_json_str(f, diff_verdict_name(c->rule->verdict));
	fprintf(f, ", \"potential\": %s", c->rule->uncontracted ? "true" : "false");
	fputs(", \"subject\": ", f);
	kd_json_str(f, c->subject);
	fputs(", \"old\": ", f);
	kd_json_str(f, c->old_value);
	fputs(", \"new\": ", f);
	kd_json_str(f, c->new_value);
	fputs(", \"note\": ", f);
	kd_json_str(f, c->note);
	fputs(", \"cause\": ", f);
	kd_json_str(f, c->cause);
	fputs(", \"evidence\": {\"kind\": ", f);
	kd_json_str(f, diff_evidence_name(c->evidence_kind));
	fputs(", \"text\": ", f);
	kd_json_str(f, c->evidence);
	fputs("}, \"impact\": [", f);
	for (i = 0; i < c->nr_impacts; i++) {
		fputs(i ? ", {\"root\": " : "{\"root\": ", f);
		kd_json_str(f, c->impacts[i].root);
		fputs(", \"path\": ", f);
		kd_json_str(f, c->impacts[i].path);
		fputc('}', f);
	}
	fputs("]}}", f);
out:
	kd_buf_release(&msg);
	kd_buf_release(&fp);
	return err;
}

static int sarif_end(struct report_ctx *x)
{
	fputs(x->index ? "\n    ]\n  }]\n}\n" : "]\n  }]\n}\n", x->f);
	return 0;
}

const struct report_ops report_sarif_ops = {
	.begin = sarif_begin,
	.change = sarif_change,
	.end = sarif_end,
};
