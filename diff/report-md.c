// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Markdown report, for a pull-request comment: a summary table, then
 * one section per verdict with one table per finding, a row per change
 * with its change, verdict, why, evidence and impact. Breaking and
 * source-level findings are open (long ones folded); the compatible, info
 * and suppressed sections are folded into <details> blocks so a long list
 * does not bury the verdict.
 *
 * With report_conf.max_bytes (--review) the report fits a review comment:
 * it is written in memory, each finding on its own first; a finding that
 * would pass the limit and every one after it are left out (the sections
 * come breaking first, so what is cut is the least important), and a note
 * under the summary says how many findings of which verdict were left out
 * and where the whole report is (report_conf.whole_name: the same run can
 * write it, uncut, for a CI job to keep as an artifact).
 * 6.1 -> 6.12's whole report is ~1 MB, where GitHub stops at 65,536.
 */
#include "diff/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/mem.h"

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

/*
 * A URL as a Markdown link's destination: the characters a URL may hold
 * unescaped and that end no link ('(', ')', '<', '>', spaces, quotes are
 * percent-encoded), so that a URL from the command line stays one link.
 */
static void link_dest(FILE *f, const char *url)
{
	for (; *url; url++) {
		unsigned char ch = (unsigned char)*url;

		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		    strchr("-._~:/?#@!$&*+,;=%", ch))
			fputc(ch, f);
		else
			fprintf(f, "%%%02X", ch);
	}
}

/*
 * Where the rest of a report cut for review is: the file the same run
 * wrote it to (a CI artifact), linked when the job said where it is kept;
 * else the command that gives it.
 */
static void whole_report(FILE *f, const struct report_conf *conf)
{
	if (!conf->whole_name) {
		fputs("the same command without `--review`", f);
		return;
	}
	if (conf->whole_url)
		fputc('[', f);
	cell(f, conf->whole_name, true);
	if (conf->whole_url) {
		fputs("](", f);
		link_dest(f, conf->whole_url);
		fputc(')', f);
	}
}

/*
 * Room kept for what follows the findings: each section's closing tag and
 * its left-out line, and the note (a few hundred bytes at most).
 */
#define CAP_RESERVE 2048

struct md_cap {
	FILE *out;		/* the caller's stream */
	FILE *body;		/* the report so far (x->f outside a finding) */
	char *body_s, *group_s;
	size_t body_len, group_len;
	size_t head_len;	/* the summary's end: the note goes there */
	bool cutting;		/* a finding did not fit: this and the rest are left out */
	bool section_shown;	/* the current section's heading was written */
	size_t cut_findings[REPORT__NR_SECTIONS], cut_changes[REPORT__NR_SECTIONS];
};

static int cap_begin(struct report_ctx *x)
{
	struct md_cap *c = kd_calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->out = x->f;
	c->body = open_memstream(&c->body_s, &c->body_len);
	if (!c->body) {
		free(c);
		return -ENOMEM;
	}
	x->cap = c;
	x->f = c->body;
	return 0;
}

/* A finding starts: written apart, into its own buffer, unless cutting. */
static int cap_group_begin(struct report_ctx *x)
{
	struct md_cap *c = x->cap;

	if (c->cutting)
		return 0;
	x->f = open_memstream(&c->group_s, &c->group_len);
	return x->f ? 0 : -ENOMEM;
}

/* The finding is written: into the report if it fits, else cut from here on. */
static int cap_group_end(struct report_ctx *x)
{
	struct md_cap *c = x->cap;
	int err = 0;

	if (!c->cutting) {
		err = fclose(x->f) ? -ENOMEM : 0;
		x->f = c->body;
		if (!err && fflush(c->body))
			err = -ENOMEM;
		if (!err && c->body_len + c->group_len + CAP_RESERVE <= x->conf->max_bytes)
			fwrite(c->group_s, 1, c->group_len, c->body);
		else
			c->cutting = true;
		free(c->group_s);
		c->group_s = NULL;
	}
	if (c->cutting) {
		c->cut_findings[x->section]++;
		c->cut_changes[x->section] += x->group_count;
	}
	return err;
}

/* The note on what was left out, after the summary; then the rest. */
static int cap_end(struct report_ctx *x)
{
	static const char *const verdicts[REPORT__NR_SECTIONS] = {
		"breaking", "source-level", "compatible", "info", "suppressed",
	};
	struct md_cap *c = x->cap;
	size_t findings = 0, i;
	bool first = true;
	int err = fclose(c->body) ? -ENOMEM : 0;

	x->f = c->out;
	for (i = 0; i < REPORT__NR_SECTIONS; i++)
		findings += c->cut_findings[i];
	if (!err)
		fwrite(c->body_s, 1, c->head_len, x->f);
	if (!err && findings) {
		fprintf(x->f, "\n> **Cut to fit a review comment** (at most %zu characters): left out",
			x->conf->max_bytes);
		for (i = 0; i < REPORT__NR_SECTIONS; i++) {
			if (!c->cut_findings[i])
				continue;
			fprintf(x->f, "%s %zu %s finding%s (%zu change%s)", first ? "" : ",",
				c->cut_findings[i], verdicts[i], c->cut_findings[i] == 1 ? "" : "s",
				c->cut_changes[i], c->cut_changes[i] == 1 ? "" : "s");
			first = false;
		}
		fputs("; the whole report: ", x->f);
		whole_report(x->f, x->conf);
		fputs(".\n", x->f);
	}
	if (!err)
		fwrite(c->body_s + c->head_len, 1, c->body_len - c->head_len, x->f);
	free(c->body_s);
	free(c);
	x->cap = NULL;
	return err;
}

void report_md_cap_discard(struct report_ctx *x)
{
	struct md_cap *c = x->cap;

	if (!c)
		return;
	if (x->f != c->body && x->f != c->out) {	/* inside a finding */
		fclose(x->f);
		free(c->group_s);
	}
	fclose(c->body);
	free(c->body_s);
	x->f = c->out;
	free(c);
	x->cap = NULL;
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

/* --for: what the program uses, each line of report_for_lines() a paragraph line. */
static int md_for(FILE *f, const struct diff_result *r)
{
	struct kd_buf lines[REPORT_FOR_LINES] = { KD_BUF_INIT, KD_BUF_INIT, KD_BUF_INIT, KD_BUF_INIT };
	int i, n = 0, err = report_for_lines(r, lines);

	for (i = 0; !err && i < REPORT_FOR_LINES; i++) {
		if (!lines[i].len)
			continue;
		fputs(n++ ? "<br>" : "**", f);
		cell(f, lines[i].s, false);
		fputs(n == 1 ? "**\n" : "\n", f);
	}
	if (n)
		fputc('\n', f);
	for (i = 0; i < REPORT_FOR_LINES; i++)
		kd_buf_release(&lines[i]);
	return err;
}

static int md_begin(struct report_ctx *x)
{
	const struct diff_result *r = x->r;
	const char *o = diff_result__meta(r, false, "release"), *n = diff_result__meta(r, true, "release");
	FILE *f;
	int c;

	if (x->conf->max_bytes && (c = cap_begin(x)) < 0)
		return c;
	f = x->f;
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
	if ((c = md_for(f, r)) < 0)
		return c;
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
	if (x->conf->stat && x->hidden)
		fprintf(f, "\n*Summary only (--stat): %zu change%s not listed.*\n", x->hidden,
			x->hidden == 1 ? "" : "s");
	else if (x->conf->only_breaking && x->hidden)
		fprintf(f, "\n*Only breaking changes are listed: %zu other change%s left out (see the"
			" summary).*\n", x->hidden, x->hidden == 1 ? "" : "s");
	for (size_t i = 0; i < diff_result__nr_unmatched(r); i++) {
		fputs(i ? "" : "\n", f);
		fputs("> **Warning**: ", f);
		cell(f, diff_result__unmatched(r, i), true);
		fputs(": this suppression matches no change\n", f);
	}
	if (x->cap) {
		if (fflush(f))
			return -ENOMEM;
		x->cap->head_len = x->cap->body_len;
	}
	return 0;
}

static void table_head(FILE *f)
{
	fputs("| change | verdict | why | evidence | impact |\n|---|---|---|---|---|\n", f);
}

static int md_section_begin(struct report_ctx *x, size_t count)
{
	if (x->cap && (x->cap->section_shown = !x->cap->cutting) == false)
		return 0;
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
	if (x->cap && !x->cap->section_shown)
		return 0;
	if (x->cap && x->cap->cut_findings[x->section])
		fprintf(x->f, "\n*%zu of these findings left out: see the note under the summary.*\n",
			x->cap->cut_findings[x->section]);
	if (!open_section(x->section))
		fputs("\n</details>\n", x->f);
	return 0;
}

static int md_group_begin(struct report_ctx *x, const char *title, size_t count)
{
	int err = x->cap ? cap_group_begin(x) : 0;

	if (err || (x->cap && x->cap->cutting))
		return err;
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
	if (x->cap && x->cap->cutting)
		return cap_group_end(x);
	if (open_section(x->section) && x->group_count > FOLD_ROWS)
		fputs("\n</details>\n", x->f);
	return x->cap ? cap_group_end(x) : 0;
}

static int md_change(struct report_ctx *x, const struct diff_change *c)
{
	FILE *f = x->f;
	size_t i;

	if (x->cap && x->cap->cutting)
		return 0;
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

/*
 * Every module the old kernel had and the new one lacks, in a table of its
 * own; a report cut for review names their count only: the table is long
 * (109 rows for 6.1 -> 6.12) and the findings they explain carry it anyway.
 */
static int md_removed_modules(struct report_ctx *x)
{
	size_t i, n = diff_result__nr_removed_modules(x->r);
	FILE *f = x->f;

	if (!n)
		return 0;
	if (x->cap) {
		fprintf(f, "\n### Modules removed (%zu)\n\nThe old kernel has them, the new one does"
			" not; the whole report (", n);
		if (x->conf->whole_name)
			whole_report(f, x->conf);
		else
			fputs("without `--review`", f);
		fputs(") lists them.\n", f);
		return 0;
	}
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

static int md_end(struct report_ctx *x)
{
	int err = md_removed_modules(x), cap_err = x->cap ? cap_end(x) : 0;

	/* cap_end() always runs: it writes the kept body and frees it. */
	return err ? err : cap_err;
}

const struct report_ops report_md_ops = {
	.begin = md_begin,
	.section_begin = md_section_begin,
	.group_begin = md_group_begin,
	.change = md_change,
	.group_end = md_group_end,
	.section_end = md_section_end,
	.end = md_end,
};
