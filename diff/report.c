// SPDX-License-Identifier: GPL-2.0-only
/*
 * report__fprintf(): the walk shared by the text, JSON and Markdown
 * reports. Breaking changes come first, grouped by the syscall or ioctl
 * they reach (a change reached from several is listed under the first, by
 * name, and names the others in its impacts); then compatible changes,
 * info and suppressed ones, each grouped by category. --only breaking
 * drops the three later sections but never the summary.
 */
#include "diff/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mem.h"

int report_format_from_name(const char *name)
{
	if (!strcmp(name, "text"))
		return REPORT_TEXT;
	if (!strcmp(name, "json"))
		return REPORT_JSON;
	if (!strcmp(name, "md") || !strcmp(name, "markdown"))
		return REPORT_MD;
	if (!strcmp(name, "sarif"))
		return REPORT_SARIF;
	return -1;
}

const char *report_section_title(enum report_section s)
{
	static const char *const t[] = { "Breaking changes", "Compatible changes", "Info",
					 "Suppressed changes" };

	return (unsigned)s < REPORT__NR_SECTIONS ? t[s] : "?";
}

const char *report_group_of(const struct diff_change *c)
{
	return c->nr_impacts ? c->impacts[0].root : diff_category_name(c->category);
}

const char *report_verdict_label(const struct diff_change *c)
{
	if (c->rule->uncontracted && c->rule->verdict == DIFF_BREAKING)
		return "potentially breaking";
	return diff_verdict_name(c->rule->verdict);
}

static bool in_section(const struct diff_change *c, enum report_section s)
{
	if (s == REPORT_SUPPRESSED)
		return c->suppressed != NULL;
	if (c->suppressed)
		return false;
	switch (s) {
	case REPORT_BREAKING: return c->rule->verdict == DIFF_BREAKING;
	case REPORT_COMPATIBLE: return c->rule->verdict == DIFF_COMPATIBLE;
	default: return c->rule->verdict == DIFF_INFO;
	}
}

static int cmp_breaking(const void *pa, const void *pb)
{
	const struct diff_change *a = *(const struct diff_change *const *)pa;
	const struct diff_change *b = *(const struct diff_change *const *)pb;
	int d = strcmp(report_group_of(a), report_group_of(b));

	if (d)
		return d;
	if (a->category != b->category)
		return (int)a->category - (int)b->category;
	return a < b ? -1 : a > b;	/* keep the result's order inside a group */
}

static const char *group_title(const struct diff_change *c, enum report_section s)
{
	return s == REPORT_BREAKING ? report_group_of(c) : diff_category_name(c->category);
}

static int walk_section(struct report_ctx *x, const struct report_ops *ops,
			const struct diff_change **list, size_t n)
{
	size_t i, j;
	int err = 0;

	if (ops->section_begin)
		err = ops->section_begin(x, n);
	for (i = 0; !err && i < n; i = j) {
		const char *title = group_title(list[i], x->section);

		for (j = i + 1; j < n && !strcmp(group_title(list[j], x->section), title); j++)
			;
		x->group_count = j - i;
		if (ops->group_begin)
			err = ops->group_begin(x, title, j - i);
		for (size_t k = i; !err && k < j; k++) {
			if (ops->change)
				err = ops->change(x, list[k]);
			x->index++;
		}
		if (!err && ops->group_end)
			err = ops->group_end(x);
	}
	if (!err && ops->section_end)
		err = ops->section_end(x);
	return err;
}

int report__fprintf(const struct diff_result *r, const struct report_conf *conf, FILE *f)
{
	const struct report_ops *ops = conf->format == REPORT_JSON ? &report_json_ops :
				       conf->format == REPORT_MD ? &report_md_ops :
				       conf->format == REPORT_SARIF ? &report_sarif_ops : &report_text_ops;
	struct report_ctx x = { .r = r, .conf = conf, .f = f };
	size_t total = diff_result__nr_changes(r), i, n;
	const struct diff_change **list;
	int s, err = 0;

	list = kd_malloc((total + 1) * sizeof(*list));
	if (!list)
		return -ENOMEM;
	if (ops->begin)
		err = ops->begin(&x);
	for (s = 0; !err && s < REPORT__NR_SECTIONS; s++) {
		if (conf->only_breaking && s != REPORT_BREAKING)
			break;
		for (i = n = 0; i < total; i++)
			if (in_section(diff_result__change(r, i), s))
				list[n++] = diff_result__change(r, i);
		if (s == REPORT_BREAKING)
			qsort(list, n, sizeof(*list), cmp_breaking);
		x.section = s;
		if (n)
			err = walk_section(&x, ops, list, n);
	}
	if (!err && ops->end)
		err = ops->end(&x);
	free(list);
	if (!err && (fflush(f) || ferror(f)))
		err = -EIO;
	return err;
}
