// SPDX-License-Identifier: GPL-2.0-only
/*
 * The text report, for a terminal or a CI log: the two kernels, whether a
 * contract judged the verdicts, a summary table (breaking / source /
 * compatible / info / suppressed per category), then one section per
 * verdict. Breaking and source-level findings list each change with its
 * rule, why, the evidence that decided it and every impact path; the
 * compatible, info and suppressed sections print one line per finding
 * unless report_conf.full asks for every change. Colors only when the
 * caller asks (report_conf.color: a tty, or --color=always).
 */
#include "diff/report.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "lib/buf.h"

#define MAX_PATHS 8	/* impact paths printed per change; the rest are counted */

static const char *col(const struct report_ctx *x, const char *code)
{
	return x->conf->color ? code : "";
}

#define RED "\033[31m"
#define MAGENTA "\033[35m"
#define GREEN "\033[32m"
#define CYAN "\033[36m"
#define YELLOW "\033[33m"
#define BOLD "\033[1m"
#define RESET "\033[0m"

/*
 * What each side covered and, when they differ or lack something, what
 * was therefore not compared:
 *   old: vmlinux, UAPI headers, 4022 modules; not: probe results, stored contract
 *   not compared: constants, ioctls (the old side was read without UAPI headers)
 */
/*
 * Headers whose old types were not compared, each with its types:
 *   not compared: linux/b.h: struct b_t, union b_u (the new linux/b.h does not compile ...)
 * Names and the compiler's error come from the headers: escaped.
 */
static void text_uncompared(struct report_ctx *x, struct kd_buf *b)
{
	size_t i, j;

	for (i = 0; i < diff_result__nr_uncompared(x->r); i++) {
		const struct diff_uncompared *u = diff_result__uncompared(x->r, i);

		if (!u->header) {
			fprintf(x->f, "not compared: the header views' types (%s)\n", report_plain(b, u->why));
			continue;
		}
		fprintf(x->f, "not compared: %s", report_plain(b, u->header));
		for (j = 0; j < u->nr_types; j++)
			fprintf(x->f, "%s%s", j ? ", " : ": ", report_plain(b, u->types[j]));
		fprintf(x->f, " (%s)\n", report_plain(b, u->why));
	}
}

static void text_coverage(struct report_ctx *x)
{
	struct kd_buf has = KD_BUF_INIT, lacks = KD_BUF_INIT;
	const char *why, *prev = NULL;
	int side, c;

	fputc('\n', x->f);
	for (side = 0; side < 2; side++) {
		const struct diff_coverage *cov = diff_result__coverage(x->r, side);

		if (diff_coverage_text(cov, true, &has) || diff_coverage_text(cov, false, &lacks))
			break;
		fprintf(x->f, "%s covers: %s; not: %s\n", side ? "new" : "old", has.s, lacks.s);
	}
	/* What of each tree's macros the comparison could see (older files: no line). */
	for (side = 0; side < 2; side++) {
		const char *n = diff_result__meta(x->r, side, "uapi_constants");

		if (n)
			fprintf(x->f, "%s constants: %s\n", side ? "new" : "old", report_plain(&has, n));
	}
	for (c = 0; c < DIFF__NR_CATEGORIES; c++) {
		if (diff_result__compared(x->r, c, &why))
			continue;
		if (prev && why == prev) {
			fprintf(x->f, ", %s", diff_category_name(c));
			continue;
		}
		if (prev)
			fprintf(x->f, " (%s)\n", prev);
		fprintf(x->f, "not compared: %s", diff_category_name(c));
		prev = why;
	}
	if (prev)
		fprintf(x->f, " (%s)\n", prev);
	if (!diff_result__probe_compared(x->r, &why) &&
	    (diff_result__coverage(x->r, false)->probe || diff_result__coverage(x->r, true)->probe))
		fprintf(x->f, "not compared: probe results (%s)\n", why);
	text_uncompared(x, &has);
	kd_buf_release(&has);
	kd_buf_release(&lacks);
}

static int text_begin(struct report_ctx *x)
{
	const struct diff_result *r = x->r;
	const char *o = diff_result__meta(r, false, "release"), *n = diff_result__meta(r, true, "release");
	struct kd_buf b[5] = { KD_BUF_INIT, KD_BUF_INIT, KD_BUF_INIT, KD_BUF_INIT, KD_BUF_INIT };
	FILE *f = x->f;
	int c;

	/* A release string or path is the input's: no escape sequence reaches the terminal. */
	fprintf(f, "%skabi-diff%s: %s (%s) -> %s (%s)\n", col(x, BOLD), col(x, RESET),
		o ? report_plain(&b[0], o) : "?", report_plain(&b[1], diff_result__meta(r, false, "path")),
		n ? report_plain(&b[2], n) : "?", report_plain(&b[3], diff_result__meta(r, true, "path")));
	if (diff_result__meta(r, false, "build_id") || diff_result__meta(r, true, "build_id"))
		fprintf(f, "build-id: %s -> %s\n",
			report_plain(&b[0], diff_result__meta(r, false, "build_id") ?
					    diff_result__meta(r, false, "build_id") : "none"),
			report_plain(&b[1], diff_result__meta(r, true, "build_id") ?
					    diff_result__meta(r, true, "build_id") : "none"));
	if (diff_result__has_contract(r))
		fprintf(f, "contract: %s; verdicts follow diff/RULES.md with the contract's facts\n",
			diff_result__contract_source(r) ?
			report_plain(&b[4], diff_result__contract_source(r)) : "yes");
	else
		fprintf(f, "contract: none; verdicts from layout alone (\"potentially breaking\": a contract"
			" could clear it)\n");
	if (report_for_lines(r, b))
		return -ENOMEM;
	for (c = 0; c < REPORT_FOR_LINES; c++)
		if (b[c].len)
			fprintf(f, "%s\n", report_plain(&b[4], b[c].s));
	fprintf(f, "\n%-12s %9s %7s %11s %6s %11s\n", "", "breaking", "source", "compatible", "info",
		"suppressed");
	for (c = 0; c <= DIFF__NR_CATEGORIES; c++) {
		const char *why = NULL;

		/* A category one side did not read was not checked: no zeros for it. */
		if (c < DIFF__NR_CATEGORIES && !diff_result__compared(r, c, &why))
			fprintf(f, "%-12s %9s\n", diff_category_name(c), "not compared");
		else
			fprintf(f, "%-12s %9zu %7zu %11zu %6zu %11zu\n",
				c == DIFF__NR_CATEGORIES ? "total" : diff_category_name(c),
				diff_result__count(r, c, DIFF_BREAKING),
				diff_result__count(r, c, DIFF_SOURCE),
				diff_result__count(r, c, DIFF_COMPATIBLE),
				diff_result__count(r, c, DIFF_INFO),
				diff_result__count_suppressed(r, c));
	}
	text_coverage(x);
	if (!diff_result__nr_changes(r))
		fprintf(f, "\nNo changes.\n");
	if (x->conf->stat && x->hidden)
		fprintf(f, "\n--stat: %zu change%s not listed\n", x->hidden, x->hidden == 1 ? "" : "s");
	else if (x->conf->only_breaking && x->hidden)
		fprintf(f, "\n--only breaking: %zu other change%s not listed (see the summary)\n",
			x->hidden, x->hidden == 1 ? "" : "s");
	for (size_t i = 0; i < diff_result__nr_unmatched(r); i++)
		fprintf(f, "%swarning: %s: this suppression matches no change\n", i ? "" : "\n",
			report_plain(&b[0], diff_result__unmatched(r, i)));
	for (c = 0; c < 5; c++)
		kd_buf_release(&b[c]);
	return 0;
}

static int text_section_begin(struct report_ctx *x, size_t count)
{
	static const char *const colors[] = { RED, MAGENTA, GREEN, CYAN, YELLOW };

	fprintf(x->f, "\n%s%s%s (%zu in %zu finding%s)%s\n", col(x, colors[x->section]),
		report_section_title(x->section), col(x, RESET), count, x->nr_groups,
		x->nr_groups == 1 ? "" : "s",
		report_section_detailed(x) ? ":" : "; --full lists each change:");
	return 0;
}

static int text_group_begin(struct report_ctx *x, const char *title, size_t count)
{
	struct kd_buf b = KD_BUF_INIT;

	title = report_plain(&b, title);
	x->prev = NULL;
	if (report_section_detailed(x))
		fprintf(x->f, "\n  %s%s%s (%s)\n", col(x, BOLD), title, col(x, RESET), x->group_kinds);
	else
		fprintf(x->f, "  %s: %s\n", title, x->group_kinds);
	kd_buf_release(&b);
	(void)count;
	return 0;
}

/* Does @c have @prev's rule and evidence (so its why and evidence need not be repeated)? */
static bool same_why(const struct diff_change *prev, const struct diff_change *c)
{
	return prev && prev->rule == c->rule && prev->evidence_kind == c->evidence_kind &&
	       !strcmp(prev->evidence, c->evidence) && !prev->suppressed && !c->suppressed;
}

static int text_change(struct report_ctx *x, const struct diff_change *c)
{
	struct kd_buf b[4] = { KD_BUF_INIT, KD_BUF_INIT, KD_BUF_INIT, KD_BUF_INIT };
	FILE *f = x->f;
	size_t i;

	if (!report_section_detailed(x))
		return 0;
	fprintf(f, "    %-24s %s: %s -> %s  [%s]\n", c->kind, report_plain(&b[0], c->subject),
		c->old_value ? report_plain(&b[1], c->old_value) : "(none)",
		c->new_value ? report_plain(&b[2], c->new_value) : "(none)", c->rule->id);
	if (c->note)
		fprintf(f, "        %s\n", report_plain(&b[0], c->note));
	/* Said once for a run of changes with the same rule and evidence (a
	 * driver's six ioctls, a struct's tail members): a few screens. */
	if (!same_why(x->prev, c)) {
		fprintf(f, "        %s%s%s: %s\n", x->section == REPORT_BREAKING ? col(x, RED) : "",
			report_verdict_label(c), x->section == REPORT_BREAKING ? col(x, RESET) : "",
			c->rule->why);
		fprintf(f, "        evidence (%s): %s\n", diff_evidence_name(c->evidence_kind),
			report_plain(&b[0], c->evidence));
	}
	x->prev = c;
	if (c->suppressed)
		fprintf(f, "        suppressed: %s\n", report_plain(&b[0], c->suppressed));
	for (i = 0; i < c->nr_impacts && i < MAX_PATHS; i++)
		if (strcmp(c->impacts[i].path, c->impacts[i].root))
			fprintf(f, "        via %s\n", report_plain(&b[0], c->impacts[i].path));
	if (c->nr_impacts > MAX_PATHS)
		fprintf(f, "        ... and %zu more\n", c->nr_impacts - MAX_PATHS);
	for (i = 0; i < 4; i++)
		kd_buf_release(&b[i]);
	return 0;
}

/* A list of names from the inputs, escaped: "a, b, c". */
static void text_list(FILE *f, char *const *v, size_t n, struct kd_buf *b)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? ", " : "", report_plain(b, v[i]));
}

/*
 * Every module the old kernel had and the new one lacks, whatever else
 * changed: a removed module is a removed feature.
 *   Modules removed (2):
 *     act_ipt: Iptables target actions
 *       includes: linux/tc_act/tc_ipt.h, ...
 *       alone served: TCA_IPT_HOOK, ... (breaking, above)
 */
static int text_end(struct report_ctx *x)
{
	size_t i, n = diff_result__nr_removed_modules(x->r);
	struct kd_buf b = KD_BUF_INIT;
	FILE *f = x->f;

	if (n)
		fprintf(f, "\n%sModules removed%s (%zu): the old kernel has them, the new one does not\n",
			col(x, BOLD), col(x, RESET), n);
	for (i = 0; i < n; i++) {
		const struct diff_module_removed *m = diff_result__removed_module(x->r, i);

		fprintf(f, "  %s: ", report_plain(&b, m->name));
		fprintf(f, "%s\n", m->description ? report_plain(&b, m->description) :
			"(no description)");
		fputs("      includes: ", f);
		if (m->nr_headers)
			text_list(f, m->headers, m->nr_headers, &b);
		else
			fputs("no UAPI header its DWARF names", f);
		fputc('\n', f);
		if (m->nr_served) {
			fputs("      alone served: ", f);
			text_list(f, m->served, m->nr_served, &b);
			fputs(" (see their changes)\n", f);
		}
		if (m->nr_shared) {
			fputs("      may have served (with others gone, the binaries do not say which): ", f);
			text_list(f, m->shared, m->nr_shared, &b);
			fputs(" (see their changes)\n", f);
		}
	}
	kd_buf_release(&b);
	return 0;
}

const struct report_ops report_text_ops = {
	.begin = text_begin,
	.section_begin = text_section_begin,
	.group_begin = text_group_begin,
	.change = text_change,
	.end = text_end,
};
