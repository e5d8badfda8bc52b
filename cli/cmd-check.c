// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-diff check: hold one extracted kernel against the contract and list
 * the drift (spec/check/CHECK.md) with rule ids, then the coverage line and
 * the probe's mismatches; the printers are the check's and the probe's own
 * (spec/check/report-*.c, probe/report.c). The contract is the one of
 * --spec DIR, else the one stored in the .kabi (extract --spec, spec
 * load), else the installed one (cli/contract.h). Exit status 0 when
 * nothing is found, 4 with findings, 1 on error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/builtin.h"
#include "cli/contract.h"
#include "cli/parse-options.h"
#include "db/kdb.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/json.h"
#include "probe/probe.h"
#include "spec/check/check.h"
#include "spec/spec.h"

static const struct cli_command check_cmd = {
	.name = "check",
	.head = "usage: kabi-diff check KERNEL.kabi [--spec DIR] [--format text|json]\n"
		"\n"
		"Hold an extracted kernel against the contract: spec'd syscalls, structs,\n"
		"flag sets and ioctls the kernel disagrees with, and syscalls the spec does\n"
		"not cover. Rules: spec/check/CHECK.md. The contract is DIR, else the one\n"
		"stored in KERNEL.kabi, else the installed one ($KABI_DIFF_SPEC overrides it).\n"
		"\n",
	.help_col = 22,
	.tail = "\n"
		"Exit status: 0 no finding, 1 error, 2 usage error, 4 findings.\n",
};

/*
 * check holds a kernel against a contract, and has no --no-spec: named,
 * so that a script passing the --no-spec of diff and probe to check too
 * learns why (issue 29).
 */
static int no_spec_option(const struct cli_command *cmd, const struct cli_option *opt,
			  const char *arg)
{
	(void)opt;
	(void)arg;
	return cli_usage_error(cmd->name, "check: no --no-spec: check holds the kernel against a"
			       " contract (--spec DIR)");
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
	static const char *const formats[] = { "text", "json", NULL };
	const char *dir = NULL, *kabi;
	int format = 0;
	const struct cli_option opts[] = {
		{ CLI_STRING('s', "spec", &dir, "DIR", "the contract: every DIR/*.kabispec") },
		{ CLI_CHOICE('f', "format", &format, "FMT", formats, "check: unknown format '%s'",
			     "text (default) or json") },
		{ CLI_CALLBACK(0, "no-spec", NULL, NULL, no_spec_option, NULL), .flags = CLI_HIDDEN },
		{ CLI_HELP() },
		{ CLI_END },
	};
	struct spec_check_report rep;
	char *source = NULL;
	struct spec_check *r = NULL;
	struct kd_json w;
	struct spec *s = NULL;
	struct kdb *db = NULL;
	bool json;
	long probe_n = 0;
	int argi, status, err;

	status = cli_parse(&check_cmd, opts, argc, argv, &argi);
	if (status != CLI_PARSED)
		return status;
	status = KD_EXIT_ERROR;
	if (argi + 1 != argc)
		return cli_usage_error("check", "check: expected one KERNEL.kabi, got %d arguments",
				       argc - argi);
	json = format == 1;
	kabi = argv[argi];
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
	rep = (struct spec_check_report){ kabi, source, spec__nr_files(s), spec__hash_hex(s) };
	/* Then what the running kernel answered (kabi-diff probe) against the expectations. */
	if (json) {
		kd_json_init(&w, stdout);
		kd_json_object(&w, true);
		spec_check__json(r, &rep, &w);
		kd_json_key(&w, "probe_mismatches");
		probe_n = probe__mismatches_json(db, &w);
		kd_json_end(&w);
	} else {
		spec_check__fprintf(r, &rep, stdout);
		probe_n = probe__mismatches_fprintf(db, stdout);
	}
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
