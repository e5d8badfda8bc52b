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
 * (uriBaseId SRCROOT) when the path is one of the tree (relative, no "."
 * or ".." segment); every change also carries a logical location, its
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

/*
 * Is @path a path inside the kernel's source tree, which a result may
 * point at? Relative, without "." or ".." segments: DWARF's decl_file and
 * a header's line come from #line, which can name any file
 * ("../../../../etc/passwd", "/etc/passwd"), and an annotation must never
 * land outside the checkout (nor claim a line of a file it did not see).
 * A backslash counts as a separator, as a Windows reader may take it.
 */
static bool inside_tree(const char *path)
{
	const char *seg = path;

	if (!*path || *path == '/' || *path == '\\')
		return false;
	for (;;) {
		size_t len = strcspn(seg, "/\\");

		if ((len == 1 && seg[0] == '.') || (len == 2 && seg[0] == '.' && seg[1] == '.'))
			return false;
		if (!seg[len])
			return len > 0;
		seg += len + 1;
	}
}

/* A relative reference, percent-encoded (RFC 3986). */
static void json_uri(struct kd_json *w, const char *path)
{
	struct kd_buf b = KD_BUF_INIT;
	const unsigned char *p;
	int err = 0;

	for (p = (const unsigned char *)path; !err && *p; p++) {
		if (isalnum(*p) || strchr("/-._~+,=@", *p))
			err = kd_buf_addc(&b, (char)*p);
		else
			err = kd_buf_addf(&b, "%%%02X", *p);
	}
	kd_json_string(w, err ? path : b.s);
	kd_buf_release(&b);
}

/* {"text": @s} */
static void json_text(struct kd_json *w, const char *key, const char *s)
{
	kd_json_key(w, key);
	kd_json_object(w, false);
	kd_json_kstr(w, "text", s);
	kd_json_end(w);
}

static int sarif_begin(struct report_ctx *x)
{
	struct kd_json *w = &x->json;
	const struct diff_rule *rules;
	size_t i, n;

	rules = diff_rules(&n);
	kd_json_init(w, x->f);
	kd_json_object(w, true);
	kd_json_kstr(w, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
	kd_json_kstr(w, "version", "2.1.0");
	kd_json_key(w, "runs");
	kd_json_array(w, false);
	kd_json_object(w, true);
	kd_json_key(w, "tool");
	kd_json_object(w, false);
	kd_json_key(w, "driver");
	kd_json_object(w, false);
	kd_json_kstr(w, "name", "kabi-diff");
	if (x->conf->tool_version)
		kd_json_kstr(w, "version", x->conf->tool_version);
	kd_json_key(w, "rules");
	kd_json_array(w, true);
	for (i = 0; i < n; i++) {
		kd_json_object(w, false);
		kd_json_kstr(w, "id", rules[i].id);
		json_text(w, "shortDescription", rules[i].matches);
		json_text(w, "fullDescription", rules[i].why);
		kd_json_key(w, "defaultConfiguration");
		kd_json_object(w, false);
		kd_json_kstr(w, "level", level_of(rules[i].verdict));
		kd_json_end(w);
		kd_json_key(w, "properties");
		kd_json_object(w, false);
		kd_json_kstr(w, "verdict", diff_verdict_name(rules[i].verdict));
		kd_json_kbool(w, "potential", rules[i].uncontracted);
		kd_json_end(w);
		kd_json_end(w);
	}
	kd_json_end(w);		/* rules */
	kd_json_end(w);		/* driver */
	kd_json_end(w);		/* tool */
	kd_json_key(w, "originalUriBaseIds");
	kd_json_object(w, false);
	kd_json_key(w, "SRCROOT");
	kd_json_object(w, false);
	json_text(w, "description", "the root of the kernel's source tree");
	kd_json_end(w);
	kd_json_end(w);
	kd_json_key(w, "invocations");
	kd_json_array(w, false);
	kd_json_object(w, false);
	kd_json_kbool(w, "executionSuccessful", true);
	kd_json_kint(w, "exitCode", diff_result__exit_bits(x->r));
	if (diff_result__nr_unmatched(x->r)) {
		/* A stale suppression entry: a warning of the run, not a result. */
		kd_json_key(w, "toolExecutionNotifications");
		kd_json_array(w, false);
		for (size_t i = 0; i < diff_result__nr_unmatched(x->r); i++) {
			struct kd_buf b = KD_BUF_INIT;

			kd_json_object(w, false);
			kd_json_kstr(w, "level", "warning");
			json_text(w, "message", kd_buf_addf(&b, "%s: this suppression matches no change",
							    diff_result__unmatched(x->r, i)) ?
				  diff_result__unmatched(x->r, i) : b.s);
			kd_json_end(w);
			kd_buf_release(&b);
		}
		kd_json_end(w);
	}
	kd_json_end(w);
	kd_json_end(w);
	kd_json_key(w, "properties");
	kd_json_object(w, false);
	report_json_sides(w, x->r);
	kd_json_kbool(w, "only_breaking", x->conf->only_breaking);
	kd_json_kuint(w, "hidden", x->hidden);
	kd_json_end(w);
	kd_json_key(w, "results");
	kd_json_array(w, true);
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
	if (!strcmp(c->kind, diff_kind_name(DIFF_K_HEADER_COMPILE)) ||
	    !strcmp(c->kind, diff_kind_name(DIFF_K_HEADER_UNSERVED)))
		return "module";	/* a header: its name's '.' is no member's */
	if (strchr(c->subject, '.') && c->category == DIFF_CAT_TYPE)
		return "member";
	switch (c->category) {
	case DIFF_CAT_TYPE: return "type";
	case DIFF_CAT_SYSCALL: return "function";
	/* An image is a module of its own; its names are entry points. */
	case DIFF_CAT_VDSO: return strchr(c->subject, '(') ? "function" : "module";
	default: return "variable";
	}
}

/*
 * The physical location of a change the kernels declare inside the source
 * tree (inside_tree()), then its logical one, which every change has.
 */
static void sarif_locations(struct kd_json *w, const struct diff_change *c)
{
	kd_json_key(w, "locations");
	kd_json_array(w, false);
	kd_json_object(w, false);
	if (c->decl_file && inside_tree(c->decl_file)) {
		kd_json_key(w, "physicalLocation");
		kd_json_object(w, false);
		kd_json_key(w, "artifactLocation");
		kd_json_object(w, false);
		kd_json_key(w, "uri");
		json_uri(w, c->decl_file);
		kd_json_kstr(w, "uriBaseId", "SRCROOT");
		kd_json_end(w);
		if (c->decl_line > 0) {
			kd_json_key(w, "region");
			kd_json_object(w, false);
			kd_json_kint(w, "startLine", c->decl_line);
			kd_json_end(w);
		}
		kd_json_end(w);
	}
	kd_json_key(w, "logicalLocations");
	kd_json_array(w, false);
	kd_json_object(w, false);
	kd_json_kstr(w, "name", c->name);
	kd_json_kstr(w, "fullyQualifiedName", c->subject);
	kd_json_kstr(w, "kind", logical_kind(c));
	kd_json_end(w);
	kd_json_end(w);
	kd_json_end(w);
	kd_json_end(w);
}

static int sarif_change(struct report_ctx *x, const struct diff_change *c)
{
	struct kd_buf msg = KD_BUF_INIT, fp = KD_BUF_INIT;
	struct kd_json *w = &x->json;
	const struct diff_rule *rules;
	size_t n;
	int err;

	rules = diff_rules(&n);
	err = message(c, &msg);
	if (!err)
		err = kd_buf_addf(&fp, "%s %s", c->kind, c->subject);
	if (err)
		goto out;
	kd_json_object(w, false);
	kd_json_kstr(w, "ruleId", c->rule->id);
	if (c->rule >= rules && c->rule < rules + n)
		kd_json_kuint(w, "ruleIndex", (size_t)(c->rule - rules));
	kd_json_kstr(w, "level", level_of(c->rule->verdict));
	json_text(w, "message", msg.s);
	sarif_locations(w, c);
	kd_json_key(w, "partialFingerprints");
	kd_json_object(w, false);
	kd_json_kstr(w, "kabiDiffChange/v1", fp.s);
	kd_json_end(w);
	if (c->suppressed) {
		kd_json_key(w, "suppressions");
		kd_json_array(w, false);
		kd_json_object(w, false);
		kd_json_kstr(w, "kind", "external");
		kd_json_kstr(w, "justification", c->suppressed);
		kd_json_end(w);
		kd_json_end(w);
	}
	kd_json_key(w, "properties");
	kd_json_object(w, false);
	report_json_change(w, c);
	kd_json_end(w);
	kd_json_end(w);
out:
	kd_buf_release(&msg);
	kd_buf_release(&fp);
	return err;
}

static int sarif_end(struct report_ctx *x)
{
	kd_json_end(&x->json);	/* results */
	kd_json_end(&x->json);	/* the run */
	kd_json_end(&x->json);	/* runs */
	kd_json_end(&x->json);	/* the log */
	return 0;
}

const struct report_ops report_sarif_ops = {
	.begin = sarif_begin,
	.change = sarif_change,
	.end = sarif_end,
};
