// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Markdown report, for a pull-request comment: a summary table, then
 * one section per verdict with one table per finding, a row per change
 * with its change, verdict, why, evidence and impact. Breaking and
 * source-level findings are open (long ones folded); the compatible, info
 * and suppressed sections are folded into <details> blocks so a long list
 * does not bury the verdict.
 */
#include "diff/report.h"

#include <string.h>

#include "lib/buf.h"

#define FOLD_ROWS 10	/* open findings longer than this are folded */

/*
 * Table cell text, from the inputs: never Markdown or HTML of its own (a
 * name like "<img src=x onerror=...>" or "**[click](http://...)**" is
 * shown as written), '|' escaped, newlines flattened, control characters
 * as \xNN (report_plain()); code spans where useful, in which Markdown is
 * not interpreted: only '`' (it would end the span) and '|' change.
 */
static void cell(FILE *f, const char *s, bool code)
{
	size_t n;

	if (!s) {
		fputs("—", f);
		return;
	}
	if (code)
		fputc('`', f);
	for (; *s; s += n ? n : 1) {
		n = report_control_len(s);
		if (*s == '\n')
			fputc(' ', f);
		else if (n == 2)
			fprintf(f, "\\x%02x\\x%02x", (unsigned char)s[0], (unsigned char)s[1]);
		else if (n)
			fprintf(f, "\\x%02x", (unsigned char)*s);
		else if (*s == '|')
			fputs("\\|", f);
		else if (*s == '`' && code)
			fputc('\'', f);
		else if (code)
			fputc(*s, f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (strchr("\\`*_[]()#!~", *s))
			fprintf(f, "\\%c", *s);
		else
			fputc(*s, f);
	}
	if (code)
		fputc('`', f);
}

static bool open_section(enum report_section s)
{
	return s == REPORT_BREAKING || s == REPORT_SOURCE;
}

/* What each side covered; what was not compared, and why. */
static void md_coverage(struct report_ctx *x)
{
	struct kd_buf has = KD_BUF_INIT, lacks = KD_BUF_INIT;
	const char *why;
	size_t i, j;
	int side, c;

	fputc('\n', x->f);
	for (side = 0; side < 2; side++) {
		if (diff_coverage_text(diff_result__coverage(x->r, side), true, &has) ||
		    diff_coverage_text(diff_result__coverage(x->r, side), false, &lacks))
			break;
		fprintf(x->f, "%s**%s** covers: %s; not: %s\n", side ? "<br>" : "",
			side ? "new" : "old", has.s, lacks.s);
	}
	for (c = 0; c < DIFF__NR_CATEGORIES; c++)
		if (!diff_result__compared(x->r, c, &why))
			fprintf(x->f, "<br>**Not compared**: %s (%s)\n", diff_category_name(c), why);
	if (!diff_result__probe_compared(x->r, &why) &&
	    (diff_result__coverage(x->r, false)->probe || diff_result__coverage(x->r, true)->probe))
		fprintf(x->f, "<br>**Not compared**: probe results (%s)\n", why);
	for (i = 0; i < diff_result__nr_uncompared(x->r); i++) {
		const struct diff_uncompared *u = diff_result__uncompared(x->r, i);

		fputs("<br>**Not compared**: ", x->f);
		if (u->header)
			cell(x->f, u->header, true);
		else
			fputs("the header views' types", x->f);
		for (j = 0; j < u->nr_types; j++) {
			fputs(j ? ", " : ": ", x->f);
			cell(x->f, u->types[j], true);
		}
		fputs(" (", x->f);
		cell(x->f, u->why, false);
		fputs(")\n", x->f);
	}
	kd_buf_release(&has);
	kd_buf_release(&lacks);
}

static int md_begin(struct report_ctx *x)
{
	const struct diff_result *r = x->r;
	const char *o = diff_result__meta(r, false, "release"), *n = diff_result__meta(r, true, "release");
	FILE *f = x->f;
	int c;

	fputs("## kabi-diff: ", f);
	cell(f, o ? o : "?", true);
	fputs(" → ", f);
	cell(f, n ? n : "?", true);
	fputs("\n\n", f);
	for (c = 0; c < 2; c++) {
		const char *bid = diff_result__meta(r, c, "build_id");

		fputs(c ? "<br>new: " : "old: ", f);
		cell(f, diff_result__meta(r, c, "path"), true);
		if (bid) {
			fputs(", build-id ", f);
			cell(f, bid, true);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
	if (diff_result__has_contract(r)) {
		fputs("Verdicts follow `diff/RULES.md` with the contract's facts (contract: ", f);
		cell(f, diff_result__contract_source(r) ? diff_result__contract_source(r) : "yes", false);
		fputs(").\n\n", f);
	}
	else
		fputs("> **No contract**: verdicts from layout alone; *potentially breaking* marks what a"
		      " contract could clear.\n\n", f);
	fputs("| | breaking | source | compatible | info | suppressed |\n"
	      "|---|---:|---:|---:|---:|---:|\n", f);
	for (c = 0; c <= DIFF__NR_CATEGORIES; c++) {
		if (c < DIFF__NR_CATEGORIES && !diff_result__compared(r, c, NULL)) {
			fprintf(f, "| %s | *not compared* | | | | |\n", diff_category_name(c));
			continue;
		}
		fprintf(f, "| %s%s%s | %zu | %zu | %zu | %zu | %zu |\n",
			c == DIFF__NR_CATEGORIES ? "**" : "",
			c == DIFF__NR_CATEGORIES ? "total" : diff_category_name(c),
			c == DIFF__NR_CATEGORIES ? "**" : "",
			diff_result__count(r, c, DIFF_BREAKING), diff_result__count(r, c, DIFF_SOURCE),
			diff_result__count(r, c, DIFF_COMPATIBLE), diff_result__count(r, c, DIFF_INFO),
			diff_result__count_suppressed(r, c));
	}
	md_coverage(x);
	if (!diff_result__nr_changes(r))
		fputs("\nNo changes.\n", f);
	if (x->conf->only_breaking && x->hidden)
		fprintf(f, "\n*Only breaking changes are listed: %zu other change%s left out (see the"
			" summary).*\n", x->hidden, x->hidden == 1 ? "" : "s");
	for (size_t i = 0; i < diff_result__nr_unmatched(r); i++) {
		fputs(i ? "" : "\n", f);
		fputs("> **Warning**: ", f);
		cell(f, diff_result__unmatched(r, i), true);
		fputs(": this suppression matches no change\n", f);
	}
	return 0;
}

static void table_head(FILE *f)
{
	fputs("| change | verdict | why | evidence | impact |\n|---|---|---|---|---|\n", f);
}

static int md_section_begin(struct report_ctx *x, size_t count)
{
	if (open_section(x->section))
		fprintf(x->f, "\n### %s (%zu in %zu finding%s)\n", report_section_title(x->section),
			count, x->nr_groups, x->nr_groups == 1 ? "" : "s");
	else
		fprintf(x->f, "\n<details><summary>%s (%zu in %zu finding%s)</summary>\n",
			report_section_title(x->section), count, x->nr_groups,
			x->nr_groups == 1 ? "" : "s");
	return 0;
}

static int md_section_end(struct report_ctx *x)
{
	if (!open_section(x->section))
		fputs("\n</details>\n", x->f);
	return 0;
}

static int md_group_begin(struct report_ctx *x, const char *title, size_t count)
{
	fputs("\n#### ", x->f);
	cell(x->f, title, true);
	fprintf(x->f, " (%s)\n\n", x->group_kinds);
	if (open_section(x->section) && count > FOLD_ROWS)
		fprintf(x->f, "<details><summary>%zu changes</summary>\n\n", count);
	table_head(x->f);
	return 0;
}

static int md_group_end(struct report_ctx *x)
{
	if (open_section(x->section) && x->group_count > FOLD_ROWS)
		fputs("\n</details>\n", x->f);
	return 0;
}

static int md_change(struct report_ctx *x, const struct diff_change *c)
{
	FILE *f = x->f;
	size_t i;

	fputs("| ", f);
	cell(f, c->kind, true);
	fputc(' ', f);
	cell(f, c->subject, true);
	fputs(": ", f);
	cell(f, c->old_value, true);
	fputs(" → ", f);
	cell(f, c->new_value, true);
	if (c->note) {
		fputs(" (", f);
		cell(f, c->note, false);
		fputc(')', f);
	}
	fputs(" | ", f);
	cell(f, report_verdict_label(c), false);
	fputs(" (", f);
	cell(f, c->rule->id, false);
	fputs(") | ", f);
	cell(f, c->rule->why, false);
	if (c->suppressed) {
		fputs("; suppressed: ", f);
		cell(f, c->suppressed, false);
	}
	fputs(" | ", f);
	cell(f, diff_evidence_name(c->evidence_kind), false);
	fputs(": ", f);
	cell(f, c->evidence, false);
	fputs(" | ", f);
	for (i = 0; i < c->nr_impacts; i++) {
		if (i)
			fputs("<br>", f);
		cell(f, c->impacts[i].path, false);
	}
	if (!c->nr_impacts)
		fputs("—", f);
	fputs(" |\n", f);
	return 0;
}

static void md_list(FILE *f, char *const *v, size_t n)
{
	size_t i;

	if (!n)
		fputs("—", f);
	for (i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		cell(f, v[i], true);
	}
}

/* Every module the old kernel had and the new one lacks, in a table of its own. */
static int md_end(struct report_ctx *x)
{
	size_t i, n = diff_result__nr_removed_modules(x->r);
	FILE *f = x->f;

	if (!n)
		return 0;
	fprintf(f, "\n### Modules removed (%zu)\n\n"
		"The old kernel has them, the new one does not.\n\n"
		"| module | description | UAPI headers its code includes | alone served |\n"
		"|---|---|---|---|\n", n);
	for (i = 0; i < n; i++) {
		const struct diff_module_removed *m = diff_result__removed_module(x->r, i);

		fputs("| ", f);
		cell(f, m->name, true);
		fputs(" | ", f);
		cell(f, m->description, false);
		fputs(" | ", f);
		md_list(f, m->headers, m->nr_headers);
		fputs(" | ", f);
		if (m->nr_served || !m->nr_shared)
			md_list(f, m->served, m->nr_served);
		if (m->nr_shared) {
			fputs(m->nr_served ? "; " : "", f);
			fputs("one of them: ", f);
			md_list(f, m->shared, m->nr_shared);
		}
		fputs(" |\n", f);
	}
	return 0;
}

const struct report_ops report_md_ops = {
	.end = md_end,
	.begin = md_begin,
	.section_begin = md_section_begin,
	.group_begin = md_group_begin,
	.change = md_change,
	.group_end = md_group_end,
	.section_end = md_section_end,
};
