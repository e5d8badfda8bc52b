// SPDX-License-Identifier: GPL-2.0-only
/*
 * report__fprintf(): the walk shared by the text, JSON and Markdown
 * reports. One section per verdict, breaking first, then source-level,
 * compatible, info and suppressed changes. Inside a section the changes
 * are grouped into findings, one per cause (a struct with its members and
 * the ioctl numbers its size changed, a header with its constants and
 * ioctls, a syscall), in the order of their causes' names. --only breaking
 * drops the later sections but never the summary, and says how many
 * changes it left out.
 */
#include "diff/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/mem.h"
#include "lib/plain.h"

size_t report_control_len(const char *p)
{
	return kd_control_len(p);
}

const char *report_plain(struct kd_buf *b, const char *s)
{
	return kd_plain(b, s);
}

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
	static const char *const t[] = { "Breaking changes", "Source-level changes",
					 "Compatible changes", "Info", "Suppressed changes" };

	return (unsigned)s < REPORT__NR_SECTIONS ? t[s] : "?";
}

bool report_section_detailed(const struct report_ctx *x)
{
	return x->section == REPORT_BREAKING || x->conf->full;
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
	case REPORT_SOURCE: return c->rule->verdict == DIFF_SOURCE;
	case REPORT_COMPATIBLE: return c->rule->verdict == DIFF_COMPATIBLE;
	default: return c->rule->verdict == DIFF_INFO;
	}
}

/* By cause, then in the result's order (category, name, subject). */
static int cmp_cause(const void *pa, const void *pb)
{
	const struct diff_change *a = *(const struct diff_change *const *)pa;
	const struct diff_change *b = *(const struct diff_change *const *)pb;
	int d = strcmp(a->cause, b->cause);

	if (d)
		return d;
	return a < b ? -1 : a > b;
}

/* "2 ioctl.removed, 5 constant.removed": the kinds of @list[0..n), first seen first. */
static int group_kinds(const struct diff_change **list, size_t n, struct kd_buf *b)
{
	size_t i, j, count;
	int err = 0;

	kd_buf_reset(b);
	for (i = 0; !err && i < n; i++) {
		for (j = 0; j < i && strcmp(list[j]->kind, list[i]->kind); j++)
			;
		if (j < i)
			continue;	/* counted with its first */
		for (count = 0, j = i; j < n; j++)
			count += !strcmp(list[j]->kind, list[i]->kind);
		err = kd_buf_addf(b, "%s%zu %s", b->len ? ", " : "", count, list[i]->kind);
	}
	return err;
}

static int walk_section(struct report_ctx *x, const struct report_ops *ops,
			const struct diff_change **list, size_t n)
{
	struct kd_buf kinds = KD_BUF_INIT;
	size_t i, j;
	int err = 0;

	for (i = 0, x->nr_groups = 0; i < n; i = j, x->nr_groups++)
		for (j = i + 1; j < n && !strcmp(list[j]->cause, list[i]->cause); j++)
			;
	if (ops->section_begin)
		err = ops->section_begin(x, n);
	for (i = 0; !err && i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(list[j]->cause, list[i]->cause); j++)
			;
		x->group_count = j - i;
		err = group_kinds(list + i, j - i, &kinds);
		x->group_kinds = kinds.s;
		if (!err && ops->group_begin)
			err = ops->group_begin(x, list[i]->cause, j - i);
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
	kd_buf_release(&kinds);
	x->group_kinds = NULL;
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

	list = kd_malloc_array(total + 1, sizeof(*list));
	if (!list)
		return -ENOMEM;
	if (conf->stat)
		x.hidden = total;
	else if (conf->only_breaking)
		for (i = 0; i < total; i++)
			x.hidden += !in_section(diff_result__change(r, i), REPORT_BREAKING);
	if (ops->begin)
		err = ops->begin(&x);
	for (s = 0; !err && !conf->stat && s < REPORT__NR_SECTIONS; s++) {
		if (conf->only_breaking && s != REPORT_BREAKING)
			break;
		for (i = n = 0; i < total; i++)
			if (in_section(diff_result__change(r, i), s))
				list[n++] = diff_result__change(r, i);
		qsort(list, n, sizeof(*list), cmp_cause);
		x.section = s;
		if (n)
			err = walk_section(&x, ops, list, n);
	}
	if (!err && ops->end)
		err = ops->end(&x);
	if (err)
		report_md_cap_discard(&x);
	free(list);
	if (!err && (fflush(f) || ferror(f)))
		err = -EIO;
	return err;
}

/* --- JSON members shared by the JSON and SARIF reports ------------------- */

static void json_side(struct kd_json *w, const struct diff_result *r, bool new_side)
{
	kd_json_object(w, false);
	kd_json_kstr(w, "path", diff_result__meta(r, new_side, "path"));
	kd_json_kstr(w, "kabi", diff_result__meta(r, new_side, "kabi"));
	kd_json_kstr(w, "release", diff_result__meta(r, new_side, "release"));
	kd_json_kstr(w, "build_id", diff_result__meta(r, new_side, "build_id"));
	kd_json_end(w);
}

/*
 * "headers_not_compared": the headers whose types were not compared, with
 * them and why; absent when there is none, as not_compared's members are.
 */
static void json_uncompared(struct kd_json *w, const struct diff_result *r)
{
	size_t i, j;

	if (!diff_result__nr_uncompared(r))
		return;
	kd_json_key(w, "headers_not_compared");
	kd_json_array(w, false);
	for (i = 0; i < diff_result__nr_uncompared(r); i++) {
		const struct diff_uncompared *u = diff_result__uncompared(r, i);

		kd_json_object(w, false);
		kd_json_kstr(w, "header", u->header);
		kd_json_kstr(w, "why", u->why);
		kd_json_key(w, "types");
		kd_json_array(w, false);
		for (j = 0; j < u->nr_types; j++)
			kd_json_string(w, u->types[j]);
		kd_json_end(w);
		kd_json_end(w);
	}
	kd_json_end(w);
}

/* "coverage": what each side covered, and what was not compared and why. */
static void json_coverage(struct kd_json *w, const struct diff_result *r)
{
	const char *why;
	int side, c;

	kd_json_key(w, "coverage");
	kd_json_object(w, true);
	for (side = 0; side < 2; side++) {
		const struct diff_coverage *cov = diff_result__coverage(r, side);

		kd_json_key(w, side ? "new" : "old");
		kd_json_object(w, false);
		kd_json_kbool(w, "vmlinux", cov->vmlinux);
		kd_json_kbool(w, "headers", cov->headers);
		kd_json_kuint(w, "modules", (size_t)cov->modules);
		kd_json_kbool(w, "probe", cov->probe);
		kd_json_kbool(w, "contract", cov->contract);
		kd_json_end(w);
	}
	kd_json_key(w, "not_compared");
	kd_json_object(w, false);
	for (c = 0; c < DIFF__NR_CATEGORIES; c++)
		if (!diff_result__compared(r, c, &why))
			kd_json_kstr(w, diff_category_name(c), why);
	if (!diff_result__probe_compared(r, &why))
		kd_json_kstr(w, "probe", why);
	kd_json_end(w);
	json_uncompared(w, r);
	kd_json_end(w);
}

void report_json_sides(struct kd_json *w, const struct diff_result *r)
{
	kd_json_key(w, "old");
	json_side(w, r, false);
	kd_json_key(w, "new");
	json_side(w, r, true);
	kd_json_kbool(w, "contract", diff_result__has_contract(r));
	if (diff_result__contract_source(r))
		kd_json_kstr(w, "contract_source", diff_result__contract_source(r));
	json_coverage(w, r);
}

void report_json_for(struct kd_json *w, const struct diff_result *r)
{
	const struct diff_for *df = diff_result__for(r);
	size_t i;
	int v;

	kd_json_key(w, "for");
	if (!df) {
		kd_json_null(w);
		return;
	}
	kd_json_object(w, true);
	kd_json_kstr(w, "file", df->file);
	kd_json_kstr(w, "kind", df->kind);
	kd_json_key(w, "syscalls");
	kd_json_array(w, false);
	for (i = 0; i < df->nr_syscalls; i++)
		kd_json_string(w, df->names[i]);
	kd_json_end(w);
	kd_json_key(w, "ioctls");
	kd_json_array(w, false);
	for (i = df->nr_syscalls; i < df->nr_names; i++)
		kd_json_string(w, df->names[i]);
	kd_json_end(w);
	kd_json_kuint(w, "unknown_ioctl_numbers", df->nr_unknown_cmds);
	kd_json_key(w, "unknown_syscalls");
	kd_json_array(w, false);
	for (i = 0; i < df->nr_unknown; i++)
		kd_json_string(w, df->unknown[i]);
	kd_json_end(w);
	kd_json_key(w, "left_out");
	kd_json_object(w, false);
	for (v = DIFF__NR_VERDICTS - 1; v >= 0; v--)
		kd_json_kuint(w, diff_verdict_name(v), df->left_out[v]);
	kd_json_kuint(w, "suppressed", df->left_out_suppressed);
	kd_json_end(w);
	kd_json_kstr(w, "unseen", df->unseen);
	kd_json_end(w);
}

/* "12 breaking, 3 compatible" of @n (by verdict), most severe first; none: nothing. */
static int verdict_counts(struct kd_buf *b, const size_t n[DIFF__NR_VERDICTS], size_t suppressed)
{
	int v, err = 0;
	size_t before = b->len;

	for (v = DIFF__NR_VERDICTS - 1; !err && v >= 0; v--)
		if (n[v])
			err = kd_buf_addf(b, "%s%zu %s", b->len > before ? ", " : "", n[v],
					  diff_verdict_name(v));
	if (!err && suppressed)
		err = kd_buf_addf(b, "%s%zu suppressed", b->len > before ? ", " : "", suppressed);
	return err;
}

int report_for_lines(const struct diff_result *r, struct kd_buf *lines)
{
	const struct diff_for *df = diff_result__for(r);
	size_t kept[DIFF__NR_VERDICTS], out = 0, i;
	int v, err;

	for (i = 0; i < REPORT_FOR_LINES; i++)
		kd_buf_reset(&lines[i]);
	if (!df)
		return 0;
	for (v = 0; v < DIFF__NR_VERDICTS; v++) {
		kept[v] = diff_result__count(r, DIFF__NR_CATEGORIES, v);
		out += df->left_out[v];
	}
	out += df->left_out_suppressed;
	err = kd_buf_addf(&lines[0], "for %s (%s): the program uses %zu syscall%s and %zu ioctl%s; ",
			  df->file, df->kind, df->nr_syscalls, df->nr_syscalls == 1 ? "" : "s",
			  df->nr_ioctls, df->nr_ioctls == 1 ? "" : "s");
	if (!err && !diff_result__nr_changes(r))
		err = kd_buf_adds(&lines[0], "none of them changed");
	else if (!err)
		err = kd_buf_addf(&lines[0], "%zu change%s reach%s them (", diff_result__nr_changes(r),
				  diff_result__nr_changes(r) == 1 ? "" : "s",
				  diff_result__nr_changes(r) == 1 ? "es" : "") ||
		      verdict_counts(&lines[0], kept, diff_result__count_suppressed(r, DIFF__NR_CATEGORIES)) ||
		      kd_buf_adds(&lines[0], ")");
	if (!err && out)
		err = kd_buf_addf(&lines[1], "left out: %zu change%s none of them reaches (", out,
				  out == 1 ? "" : "s") ||
		      verdict_counts(&lines[1], df->left_out, df->left_out_suppressed) ||
		      kd_buf_adds(&lines[1], ")");
	for (i = 0; !err && i < df->nr_unknown; i++)
		err = kd_buf_addf(&lines[2], "%s%s", i ? ", " : "syscalls neither kernel has: ",
				  df->unknown[i]);
	if (!err && df->nr_unknown_cmds)
		err = kd_buf_addf(&lines[2], "%s%zu ioctl number%s neither kernel defines",
				  df->nr_unknown ? "; " : "", df->nr_unknown_cmds,
				  df->nr_unknown_cmds == 1 ? "" : "s");
	if (!err && df->unseen)
		err = kd_buf_addf(&lines[3], "not seen in an %s: %s", df->kind, df->unseen);
	return err ? -ENOMEM : 0;
}

void report_json_change(struct kd_json *w, const struct diff_change *c)
{
	size_t i;

	kd_json_kstr(w, "kind", c->kind);
	kd_json_kstr(w, "category", diff_category_name(c->category));
	kd_json_kstr(w, "verdict", diff_verdict_name(c->rule->verdict));
	kd_json_kbool(w, "potential", c->rule->uncontracted);
	kd_json_kstr(w, "subject", c->subject);
	kd_json_kstr(w, "old", c->old_value);
	kd_json_kstr(w, "new", c->new_value);
	kd_json_kstr(w, "note", c->note);
	kd_json_kstr(w, "cause", c->cause);
	kd_json_key(w, "evidence");
	kd_json_object(w, false);
	kd_json_kstr(w, "kind", diff_evidence_name(c->evidence_kind));
	kd_json_kstr(w, "text", c->evidence);
	kd_json_end(w);
	kd_json_key(w, "impact");
	kd_json_array(w, false);
	for (i = 0; i < c->nr_impacts; i++) {
		kd_json_object(w, false);
		kd_json_kstr(w, "root", c->impacts[i].root);
		kd_json_kstr(w, "path", c->impacts[i].path);
		kd_json_end(w);
	}
	kd_json_end(w);
}
