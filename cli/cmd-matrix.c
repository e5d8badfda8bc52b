// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-diff matrix K1 K2 ... Kn: a distribution's release matrix on one
 * page. Each kernel is opened once (extracted into the cache the first
 * time), each consecutive update of a flavour and each flavour of a release
 * against its base are compared (diff/matrix.h says which), and the page
 * gives per pair the verdict counts and every breaking change with the
 * evidence that decided it. The exit status is the OR over all pairs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/builtin.h"
#include "cli/contract.h"
#include "cli/output.h"
#include "cli/output-check.h"
#include "cli/parse-options.h"
#include "db/kdb.h"
#include "diff/diff.h"
#include "diff/matrix.h"
#include "diff/report.h"
#include "extract/input/diff-inputs.h"
#include "lib/err.h"
#include "lib/json.h"
#include "lib/mem.h"
#include "lib/tmpfile.h"

static const struct cli_command matrix_cmd = {
	.name = "matrix",
	.head = "usage: kabi-diff matrix K1 K2 ... [options]\n"
		"\n"
		"Compare a release matrix: each kernel (a .kabi, a vmlinux, a kernel\n"
		"directory or packages, as for 'kabi-diff OLD NEW') is opened once, and\n"
		"each consecutive update of one flavour (6.12.107+deb12-amd64 ->\n"
		"6.12.111+deb12-amd64) and each flavour of a release against its base\n"
		"(6.12.107+deb12-amd64 -> 6.12.107+deb12-cloud-amd64; the base is the\n"
		"flavour of the first kernel given of that architecture) are compared.\n"
		"A release's version is its leading words that start with a digit, its\n"
		"flavour the rest; versions are ordered as sort -V does; kernels of two\n"
		"architectures are never paired. One page: per pair the verdict counts,\n"
		"then every breaking change with its evidence.\n"
		"\n",
	.help_col = 27,
	.tail = "\n"
		"Exit status: 0 no change in any pair, 1 error, 2 usage error; otherwise\n"
		"the OR over all pairs of 4 (changes), 8 (breaking) and 16 (source-level).\n",
};

struct matrix_run {
	size_t n;
	const char **input;		/* as given */
	char **release;			/* meta "release", NULL when absent */
	char **arch;
	struct matrix_pair *pairs;
	size_t nr_pairs;
	struct diff_result **result;	/* per pair */
	int status;
};

/* The verdicts, most severe first, as every table of the page lists them. */
static const enum diff_verdict by_severity[] = { DIFF_BREAKING, DIFF_SOURCE, DIFF_COMPATIBLE,
						 DIFF_INFO };

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

/*
 * Open every kernel, two at a time so that uncached ones extract side by
 * side; an odd last one goes with the one before it, cached by then.
 */
static int open_kernels(struct matrix_run *m, struct kdb **db, bool quiet)
{
	size_t i;

	for (i = 0; i < m->n; i += 2) {
		size_t first = i + 1 < m->n ? i : i - 1;
		const char *args[2] = { m->input[first], m->input[first + 1] };
		struct kdb *two[2];
		int err = diff_inputs__open(args, NULL, quiet, two, NULL);

		if (first == i)
			db[i] = two[0];
		else
			kdb__free(two[0]);
		db[first + 1] = two[1];
		if (err)
			return err;
	}
	for (i = 0; i < m->n; i++)
		if (kdb__get_meta(db[i], "release", &m->release[i]) ||
		    kdb__get_meta(db[i], "arch", &m->arch[i])) {
			kd_err("%s: cannot read the kernel's release and architecture", m->input[i]);
			return -1;
		}
	return 0;
}

static int compare_pairs(struct matrix_run *m, struct kdb **db, const char *spec_dir,
			 bool no_spec, const struct diff_suppressions *sup)
{
	size_t i;

	for (i = 0; i < m->nr_pairs; i++) {
		const struct matrix_pair *p = &m->pairs[i];
		struct diff_conf conf = { .input = { m->input[p->old], m->input[p->new] } };
		struct cli_contract cc = { 0 };
		int err;

		err = cli_contract_setup(&cc, spec_dir, no_spec, NULL, NULL, db[p->new],
					 m->input[p->new], &conf);
		if (!err)
			err = diff__run(db[p->old], db[p->new], &conf, &m->result[i]);
		if (!err && sup && diff_result__suppress(m->result[i], sup) < 0) {
			kd_err("out of memory");
			err = -1;
		}
		cli_contract_release(&cc);
		if (err)
			return err;
		m->status |= diff_result__exit_bits(m->result[i]);
	}
	return 0;
}

static size_t count(const struct diff_result *r, enum diff_verdict v)
{
	return diff_result__count(r, DIFF__NR_CATEGORIES, v);
}

static void text_pair_line(FILE *f, const struct matrix_run *m, size_t i)
{
	const struct matrix_pair *p = &m->pairs[i];
	const struct diff_result *r = m->result[i];

	fprintf(f, "%-8s %s -> %s: %zu breaking, %zu source, %zu compatible, %zu info",
		matrix_pair_kind_name(p->kind), or_dash(m->release[p->old]),
		or_dash(m->release[p->new]), count(r, DIFF_BREAKING), count(r, DIFF_SOURCE),
		count(r, DIFF_COMPATIBLE), count(r, DIFF_INFO));
	if (diff_result__count_suppressed(r, DIFF__NR_CATEGORIES))
		fprintf(f, " (%zu suppressed)", diff_result__count_suppressed(r, DIFF__NR_CATEGORIES));
	fputc('\n', f);
}

/* Each unsuppressed breaking change of @r, through @fn. */
static void for_each_breaking(const struct diff_result *r,
			      void (*fn)(const struct diff_change *c, void *ctx), void *ctx)
{
	size_t j;

	for (j = 0; j < diff_result__nr_changes(r); j++) {
		const struct diff_change *c = diff_result__change(r, j);

		if (c->rule->verdict == DIFF_BREAKING && !c->suppressed)
			fn(c, ctx);
	}
}

static void text_change(const struct diff_change *c, void *ctx)
{
	FILE *f = ctx;

	fprintf(f, "  %s [%s] %s: %s -> %s\n      evidence (%s): %s\n", c->cause, c->rule->id,
		c->subject, or_dash(c->old_value), or_dash(c->new_value),
		diff_evidence_name(c->evidence_kind), c->evidence);
}

static int print_text(FILE *f, void *ctx)
{
	const struct matrix_run *m = ctx;
	size_t i;

	fprintf(f, "kabi-diff matrix: %zu kernels, %zu pairs\n\n", m->n, m->nr_pairs);
	for (i = 0; i < m->n; i++)
		fprintf(f, "  [%zu] %s (%s) %s\n", i + 1, or_dash(m->release[i]),
			or_dash(m->arch[i]), m->input[i]);
	fputc('\n', f);
	for (i = 0; i < m->nr_pairs; i++)
		text_pair_line(f, m, i);
	for (i = 0; i < m->nr_pairs; i++) {
		const struct matrix_pair *p = &m->pairs[i];

		if (!count(m->result[i], DIFF_BREAKING))
			continue;
		fprintf(f, "\nBreaking in %s -> %s:\n", or_dash(m->release[p->old]),
			or_dash(m->release[p->new]));
		for_each_breaking(m->result[i], text_change, f);
	}
	return ferror(f) ? -1 : 0;
}

static void md_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	for (s = or_dash(s); *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '`' || *s == '*' || *s == '_' || *s == '<')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc(' ', f);
}

static void md_change(const struct diff_change *c, void *ctx)
{
	FILE *f = ctx;

	md_cell(f, c->cause);
	md_cell(f, c->rule->id);
	md_cell(f, c->subject);
	md_cell(f, c->evidence);
	fputs("|\n", f);
}

static int print_md(FILE *f, void *ctx)
{
	const struct matrix_run *m = ctx;
	char num[32];
	size_t i;

	fprintf(f, "# kabi-diff matrix: %zu kernels, %zu pairs\n\n", m->n, m->nr_pairs);
	fputs("| pair | old | new | breaking | source | compatible | info |\n"
	      "| --- | --- | --- | ---: | ---: | ---: | ---: |\n", f);
	for (i = 0; i < m->nr_pairs; i++) {
		const struct matrix_pair *p = &m->pairs[i];
		size_t v;

		md_cell(f, matrix_pair_kind_name(p->kind));
		md_cell(f, m->release[p->old]);
		md_cell(f, m->release[p->new]);
		for (v = 0; v < DIFF__NR_VERDICTS; v++) {
			snprintf(num, sizeof(num), "%zu", count(m->result[i], by_severity[v]));
			md_cell(f, num);
		}
		fputs("|\n", f);
	}
	for (i = 0; i < m->nr_pairs; i++) {
		const struct matrix_pair *p = &m->pairs[i];

		if (!count(m->result[i], DIFF_BREAKING))
			continue;
		fprintf(f, "\n## Breaking in %s -> %s\n\n", or_dash(m->release[p->old]),
			or_dash(m->release[p->new]));
		fputs("| finding | rule | subject | evidence |\n| --- | --- | --- | --- |\n", f);
		for_each_breaking(m->result[i], md_change, f);
	}
	return ferror(f) ? -1 : 0;
}

static void json_change(const struct diff_change *c, void *ctx)
{
	kd_json_object(ctx, false);
	kd_json_kstr(ctx, "rule", c->rule->id);
	kd_json_kstr(ctx, "name", c->name);
	report_json_change(ctx, c);
	kd_json_end(ctx);
}

static int print_json(FILE *f, void *ctx)
{
	const struct matrix_run *m = ctx;
	struct kd_json w;
	size_t i;

	kd_json_init(&w, f);
	kd_json_object(&w, true);
	kd_json_key(&w, "kernels");
	kd_json_array(&w, true);
	for (i = 0; i < m->n; i++) {
		kd_json_object(&w, false);
		kd_json_kstr(&w, "input", m->input[i]);
		kd_json_kstr(&w, "release", m->release[i]);
		kd_json_kstr(&w, "arch", m->arch[i]);
		kd_json_end(&w);
	}
	kd_json_end(&w);
	kd_json_key(&w, "pairs");
	kd_json_array(&w, true);
	for (i = 0; i < m->nr_pairs; i++) {
		const struct matrix_pair *p = &m->pairs[i];
		size_t v;

		kd_json_object(&w, true);
		kd_json_kstr(&w, "kind", matrix_pair_kind_name(p->kind));
		kd_json_kuint(&w, "old", p->old);
		kd_json_kuint(&w, "new", p->new);
		kd_json_key(&w, "counts");
		kd_json_object(&w, false);
		for (v = 0; v < DIFF__NR_VERDICTS; v++)
			kd_json_kuint(&w, diff_verdict_name(by_severity[v]),
				      count(m->result[i], by_severity[v]));
		kd_json_kuint(&w, "suppressed",
			      diff_result__count_suppressed(m->result[i], DIFF__NR_CATEGORIES));
		kd_json_end(&w);
		kd_json_kint(&w, "exit", diff_result__exit_bits(m->result[i]));
		kd_json_key(&w, "breaking");
		kd_json_array(&w, true);
		for_each_breaking(m->result[i], json_change, &w);
		kd_json_end(&w);
		kd_json_end(&w);
	}
	kd_json_end(&w);
	kd_json_kint(&w, "exit", m->status);
	kd_json_end(&w);
	return ferror(f) ? -1 : 0;
}

static void matrix_run_free(struct matrix_run *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		free(m->release[i]);
		free(m->arch[i]);
	}
	for (i = 0; m->result && i < m->nr_pairs; i++)
		diff_result__free(m->result[i]);
	free(m->release);
	free(m->arch);
	free(m->pairs);
	free(m->result);
}

static int plan(struct matrix_run *m)
{
	struct matrix_kernel *k = kd_calloc(m->n, sizeof(*k));
	size_t i;
	int err;

	if (!k)
		return -1;
	for (i = 0; i < m->n; i++)
		k[i] = (struct matrix_kernel){ .release = m->release[i], .arch = m->arch[i] };
	err = matrix_plan(k, m->n, &m->pairs, &m->nr_pairs);
	free(k);
	if (!err && !(m->result = kd_calloc(m->nr_pairs ? m->nr_pairs : 1, sizeof(*m->result))))
		err = -1;
	if (err)
		kd_err("out of memory");
	return err;
}

int cmd_matrix(int argc, char **argv)
{
	static const char *const formats[] = { "text", "json", "md", NULL };
	static const cli_print_fn printers[] = { print_text, print_json, print_md };
	const char *output = NULL, *sup_path = NULL, *spec_dir = NULL;
	bool quiet = false, no_spec = false;
	int format = 0;
	const struct cli_option opts[] = {
		{ CLI_CHOICE('f', "format", &format, "FMT", formats, "matrix: unknown format '%s'"
			     " (text, json or md)", "text (default), json or md") },
		{ CLI_STRING('o', "output", &output, "FILE", "write the page to FILE (atomically;"
			     " '-': stdout)") },
		{ CLI_STRING('s', "suppressions", &sup_path, "FILE", "accept reviewed changes (as for"
			     " diff), in every pair") },
		{ CLI_STRING(0, "spec", &spec_dir, "DIR", "the contract for verdicts (default: the one"
			     " stored in\neach pair's new kernel, else as for diff)") },
		{ CLI_FLAG(0, "no-spec", &no_spec, "no contract: verdicts from layout alone") },
		{ CLI_FLAG('q', "quiet", &quiet, "no progress messages") },
		{ CLI_HELP() },
		{ CLI_END },
	};
	struct diff_suppressions *sup = NULL;
	struct matrix_run m = { 0 };
	struct kdb **db = NULL;
	int argi, status;
	size_t i;

	status = cli_parse(&matrix_cmd, opts, argc, argv, &argi);
	if (status != CLI_PARSED)
		return status;
	status = KD_EXIT_ERROR;
	if (output && !strcmp(output, "-"))
		output = NULL;	/* standard output */
	if (argc - argi < 2)
		return cli_usage_error("matrix", "matrix: expected at least two kernels,"
				       " got %d", argc - argi);
	m.n = (size_t)(argc - argi);
	m.input = (const char **)argv + argi;
	if (quiet)
		kd_log_set_level(KD_LOG_ERR);
	if (output) {
		const char **inputs = kd_calloc(m.n + 2, sizeof(*inputs));
		int err = !inputs;

		for (i = 0; inputs && i < m.n; i++)
			inputs[i] = m.input[i];
		if (inputs) {
			inputs[m.n] = sup_path;
			inputs[m.n + 1] = spec_dir;
		}
		if (!err)
			err = cli_output_check(output, inputs, m.n + 2);
		else
			kd_err("out of memory");
		free(inputs);
		if (err)
			return KD_EXIT_ERROR;
	}
	if (sup_path && diff_suppressions__load(sup_path, &sup))
		return KD_EXIT_ERROR;
	db = kd_calloc(m.n, sizeof(*db));
	m.release = kd_calloc(m.n, sizeof(*m.release));
	m.arch = kd_calloc(m.n, sizeof(*m.arch));
	if (!db || !m.release || !m.arch) {
		kd_err("out of memory");
		goto out;
	}
	if (open_kernels(&m, db, quiet) || plan(&m) ||
	    compare_pairs(&m, db, spec_dir, no_spec, sup) || cli_write_output(output, printers[format], &m))
		goto out;
	status = m.status;
out:
	for (i = 0; db && i < m.n; i++)
		kdb__free(db[i]);
	free(db);
	matrix_run_free(&m);
	diff_suppressions__free(sup);
	return status;
}
