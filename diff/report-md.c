// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Markdown report, for a pull-request comment: a summary table, the
 * breaking changes as one table per syscall or ioctl, and the compatible,
 * info and suppressed changes folded into <details> blocks so a long list
 * does not bury the verdict. Long breaking groups are folded too.
 */
#include "diff/report.h"

#include <string.h>

#define FOLD_ROWS 10	/* breaking groups longer than this are folded */

/* A table cell: '|' escaped, newlines flattened, code spans where useful. */
static void cell(FILE *f, const char *s, bool code)
{
	if (!s) {
		fputs("—", f);
		return;
	}
	if (code)
		fputc('`', f);
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '\n')
			fputc(' ', f);
		else if (*s == '`' && code)
			fputc('\'', f);
		else
			fputc(*s, f);
	}
	if (code)
		fputc('`', f);
}

static int md_begin(struct report_ctx *x)
{
	const struct diff_result *r = x->r;
	const char *o = diff_result__meta(r, false, "release"), *n = diff_result__meta(r, true, "release");
	FILE *f = x->f;
	int c;

	fprintf(f, "## kabi-diff: `%s` → `%s`\n\n", o ? o : "?", n ? n : "?");
	if (diff_result__has_contract(r))
		fprintf(f, "Verdicts follow `diff/RULES.md` with the contract's facts (contract: %s).\n\n",
			diff_result__contract_source(r) ? diff_result__contract_source(r) : "yes");
	else
		fputs("> **No contract**: verdicts from layout alone; *potentially breaking* marks what a"
		      " contract could clear.\n\n", f);
	fputs("| | breaking | compatible | info | suppressed |\n|---|---:|---:|---:|---:|\n", f);
	for (c = 0; c <= DIFF__NR_CATEGORIES; c++)
		fprintf(f, "| %s%s%s | %zu | %zu | %zu | %zu |\n",
			c == DIFF__NR_CATEGORIES ? "**" : "",
			c == DIFF__NR_CATEGORIES ? "total" : diff_category_name(c),
			c == DIFF__NR_CATEGORIES ? "**" : "",
			diff_result__count(r, c, DIFF_BREAKING), diff_result__count(r, c, DIFF_COMPATIBLE),
			diff_result__count(r, c, DIFF_INFO), diff_result__count_suppressed(r, c));
	if (!diff_result__nr_changes(r))
		fputs("\nNo changes.\n", f);
	return 0;
}

static void table_head(FILE *f, enum report_section s)
{
	fputs(s == REPORT_SUPPRESSED ? "| change | subject | old | new | rule | reason |\n"
				       "|---|---|---|---|---|---|\n" :
	      "| change | subject | old | new | rule | impact |\n|---|---|---|---|---|---|\n", f);
}

static int md_section_begin(struct report_ctx *x, size_t count)
{
	if (x->section == REPORT_BREAKING) {
		fprintf(x->f, "\n### %s (%zu)\n", report_section_title(x->section), count);
		return 0;
	}
	fprintf(x->f, "\n<details><summary>%s (%zu)</summary>\n\n", report_section_title(x->section),
		count);
	table_head(x->f, x->section);
	return 0;
}

static int md_section_end(struct report_ctx *x)
{
	if (x->section != REPORT_BREAKING)
		fputs("\n</details>\n", x->f);
	return 0;
}

static int md_group_begin(struct report_ctx *x, const char *title, size_t count)
{
	if (x->section != REPORT_BREAKING)
		return 0;
	fprintf(x->f, "\n#### `%s` (%zu)\n\n", title, count);
	if (count > FOLD_ROWS)
		fprintf(x->f, "<details><summary>%zu changes</summary>\n\n", count);
	table_head(x->f, x->section);
	return 0;
}

static int md_group_end(struct report_ctx *x)
{
	if (x->section == REPORT_BREAKING && x->group_count > FOLD_ROWS)
		fputs("\n</details>\n", x->f);
	return 0;
}

static int md_change(struct report_ctx *x, const struct diff_change *c)
{
	FILE *f = x->f;
	size_t i;

	fputs("| ", f);
	cell(f, c->kind, true);
	fputs(" | ", f);
	cell(f, c->subject, true);
	fputs(" | ", f);
	cell(f, c->old_value, true);
	fputs(" | ", f);
	cell(f, c->new_value, true);
	fputs(" | ", f);
	cell(f, c->rule->id, false);
	if (c->rule->uncontracted)
		fputs(" (potentially)", f);
	fputs(" | ", f);
	if (x->section == REPORT_SUPPRESSED) {
		cell(f, c->suppressed, false);
	} else {
		for (i = 0; i < c->nr_impacts; i++) {
			if (i)
				fputs("<br>", f);
			cell(f, c->impacts[i].path, false);
		}
		if (c->note) {
			fputs(c->nr_impacts ? "<br>" : "", f);
			cell(f, c->note, false);
		}
	}
	fputs(" |\n", f);
	return 0;
}

const struct report_ops report_md_ops = {
	.begin = md_begin,
	.section_begin = md_section_begin,
	.group_begin = md_group_begin,
	.change = md_change,
	.group_end = md_group_end,
	.section_end = md_section_end,
};
