// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-diff check: hold one extracted kernel against the contract and list
 * the drift (spec/check/CHECK.md) with rule ids, then the coverage line. The
 * contract is the one of --spec DIR, else the one stored in the .kabi
 * (extract --spec, spec load), else the installed one (cli/contract.h).
 * Exit status 0 when nothing is found, 4 with findings, 1 on error.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "cli/builtin.h"
#include "cli/contract.h"
#include "db/kdb.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/json.h"
#include "probe/probe.h"
#include "spec/check/check.h"
#include "spec/spec.h"

static const char check_usage[] =
	"usage: kabi-diff check KERNEL.kabi [--spec DIR] [--format text|json]\n"
	"\n"
	"Hold an extracted kernel against the contract: spec'd syscalls, structs,\n"
	"flag sets and ioctls the kernel disagrees with, and syscalls the spec does\n"
	"not cover. Rules: spec/check/CHECK.md. The contract is DIR, else the one\n"
	"stored in KERNEL.kabi, else the installed one ($KABI_DIFF_SPEC overrides it).\n"
	"\n"
	"  -s, --spec DIR      the contract: every DIR/*.kabispec\n"
	"  -f, --format FMT    text (default) or json\n"
	"  -h, --help          this text\n"
	"\n"
	"Exit status: 0 no finding, 1 error, 2 usage error, 4 findings.\n";

static void print_text(const struct spec_check *r, const char *kabi, const char *source,
		       const struct spec *s, FILE *f)
{
	size_t i, n = spec_check__nr_findings(r), specified, total;

	fprintf(f, "check: %s (%s) against %s (%zu files, spec hash %s)\n",
		spec_check__release(r), kabi, source, spec__nr_files(s), spec__hash_hex(s));
	if (!spec_check__has_uapi(r))
		fprintf(f, "note: %s holds no UAPI constants (extract --uapi DIR):"
			" flag sets, size constants and ioctls not checked\n", kabi);
	for (i = 0; i < n; i++) {
		const struct spec_finding *x = spec_check__finding(r, i);

		if (x->file)
			fprintf(f, "%s:%d: ", x->file, x->line);
		else
			fprintf(f, "%s: ", spec_check__release(r));
		fprintf(f, "%s: %s: %s\n", x->rule, x->subject, x->message);
	}
	spec_check__coverage(r, &specified, &total);
	fprintf(f, "coverage: %zu/%zu syscalls specified\n", specified, total);
	if (n)
		fprintf(f, "%zu finding%s\n", n, n == 1 ? "" : "s");
	else
		fprintf(f, "no findings\n");
}

static void print_json(const struct spec_check *r, const char *kabi, const char *source,
		       const struct spec *s, FILE *f)
{
	size_t i, n = spec_check__nr_findings(r), specified, total;

	spec_check__coverage(r, &specified, &total);
	fputs("{\n  \"kernel\": {\"release\": ", f);
	kd_json_str(f, spec_check__release(r));
	fputs(", \"path\": ", f);
	kd_json_str(f, kabi);
	fputs("},\n  \"contract\": {\"source\": ", f);
	kd_json_str(f, source);
	fprintf(f, ", \"files\": %zu, \"hash\": ", spec__nr_files(s));
	kd_json_str(f, spec__hash_hex(s));
	fprintf(f, "},\n  \"uapi\": %s,\n  \"coverage\": {\"specified\": %zu, \"total\": %zu},\n"
		"  \"findings\": [", spec_check__has_uapi(r) ? "true" : "false", specified, total);
	for (i = 0; i < n; i++) {
		const struct spec_finding *x = spec_check__finding(r, i);

		fputs(i ? ",\n    {\"rule\": " : "\n    {\"rule\": ", f);
		kd_json_str(f, x->rule);
		fputs(", \"file\": ", f);
		kd_json_str(f, x->file);
		if (x->file)
			fprintf(f, ", \"line\": %d", x->line);
		else
			fputs(", \"line\": null", f);
		fputs(", \"subject\": ", f);
		kd_json_str(f, x->subject);
		fputs(", \"message\": ", f);
		kd_json_str(f, x->message);
		fputc('}', f);
	}
	fprintf(f, "%s]", n ? "\n  " : "");
}

struct json_probe {
	FILE *f;
	long n;
};

static int print_json_mismatch(const struct probe_mismatch *m, void *ctx)
{
	struct json_probe *jp = ctx;
	FILE *f = jp->f;

	fputs(jp->n++ ? ",\n    {\"rule\": " : "\n    {\"rule\": ", f);
	kd_json_str(f, m->rule);
	fputs(", \"case\": ", f);
	kd_json_str(f, m->case_id);
	fputs(", \"call\": ", f);
	kd_json_str(f, m->call);
	fputs(", \"args\": ", f);
	kd_json_str(f, m->args);
	fputs(", \"expected\": ", f);
	kd_json_str(f, m->expected);
	fputs(", \"observed\": ", f);
	kd_json_str(f, m->observed);
	fputs(", \"origin\": ", f);
	kd_json_str(f, m->origin);
	if (m->deviation_why) {
		fputs(", \"deviation\": ", f);
		kd_json_str(f, m->deviation_why);
	}
	fputc('}', f);
	return 0;
}

/* The probe's mismatches as a JSON array member, then the closing brace. */
static long print_json_probe(struct kdb *db, FILE *f)
{
	struct json_probe jp = { f, 0 };
	long n;

	fputs(",\n  \"probe_mismatches\": [", f);
	n = probe__mismatches(db, print_json_mismatch, &jp);
	fprintf(f, "%s]\n}\n", jp.n ? "\n  " : "");
	return n;
}

/* The contract by the policy of cli/contract.h; check needs one. */
static int load_contract(struct kdb *db, const char *kabi, const char *dir, struct spec **s,
			 char **source)
{
	struct kd_buf b = KD_BUF_INIT;
	bool installed;
	char *where = NULL;
	int err = cli_contract_resolve(dir, false, db, kabi, s, &where, &installed);

	if (!err && !*s) {
		kd_err("%s holds no contract and none is installed: give --spec DIR", kabi);
		return -ENOENT;
	}
	if (!err && (kd_buf_addf(&b, "%s%s", where, installed ? " (installed)" : "") ||
		     !(*source = kd_buf_detach(&b))))
		err = -ENOMEM;
	kd_buf_release(&b);
	free(where);
	return err;
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "spec", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *source = NULL;
	struct spec_check *r = NULL;
	struct spec *s = NULL;
	struct kdb *db = NULL;
	const char *dir = NULL, *kabi;
	bool json = false;
	long probe_n = 0;
	int c, status = KD_EXIT_ERROR, err;

	optind = 1;
	while ((c = getopt_long(argc, argv, "s:f:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': dir = optarg; break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return cli_usage_error(check_usage, "check: unknown format '%s'", optarg);
			json = !strcmp(optarg, "json");
			break;
		case 'h': fputs(check_usage, stdout); return KD_EXIT_OK;
		default: return cli_usage_error(check_usage, "check: bad option");
		}
	}
	if (optind + 1 != argc)
		return cli_usage_error(check_usage, "check: expected one KERNEL.kabi, got %d arguments",
				       argc - optind);
	kabi = argv[optind];
	err = kdb__open(kabi, &db);
	if (err) {
		if (err == -ENOMEM)	/* every other cause is reported by kdb__open() */
			kd_err("%s: %s", kabi, kd_strerror(err));
		goto out;
	}
	if (load_contract(db, kabi, dir, &s, &source))
		goto out;
	if (spec__check(s, db, &r))
		goto out;
	if (json)
		print_json(r, kabi, source, s, stdout);
	else
		print_text(r, kabi, source, s, stdout);
	/* What the running kernel answered (kabi-diff probe) against the expectations. */
	probe_n = json ? print_json_probe(db, stdout) : probe__mismatches_fprintf(db, stdout);
	if (probe_n < 0)
		goto out;
	if (fflush(stdout)) {
		kd_err("write error: %s", kd_strerror(-errno));
		goto out;
	}
	status = spec_check__nr_findings(r) || probe_n ? KD_EXIT_CHANGES : KD_EXIT_OK;
out:
	spec_check__free(r);
	spec__free(s);
	kdb__free(db);
	free(source);
	return status;
}
