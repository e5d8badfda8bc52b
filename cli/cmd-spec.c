// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-diff spec: work with the contract (spec/FORMAT.md). "lint DIR"
 * parses a spec directory and reports every error; "load K.kabi DIR"
 * stores the parsed contract into an extracted kernel's DB, replacing the
 * one it held, atomically (the file is rewritten beside itself and renamed);
 * "init K.kabi" writes skeleton entries for the kernel's syscalls
 * (spec/skeleton.h), optionally only those a spec directory lacks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/builtin.h"
#include "cli/parse-options.h"
#include "db/kdb.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/tmpfile.h"
#include "spec/skeleton.h"
#include "spec/spec.h"

static const struct cli_command spec_cmd = {
	.name = "spec",
	.head = "usage: kabi-diff spec lint DIR\n"
		"       kabi-diff spec load KERNEL.kabi DIR\n"
		"       kabi-diff spec init KERNEL.kabi [-o FILE] [--except DIR]\n"
		"\n",
	.help_col = 23,
};

/* What the options of spec init say. */
struct init_opts {
	const char *out, *except_dir;
};

static void summary(const struct spec *s, FILE *f)
{
	size_t i, syscalls = 0, ioctls = 0;

	for (i = 0; i < spec__nr_calls(s); i++) {
		if (spec__call(s, i)->kind == SPEC_SYSCALL)
			syscalls++;
		else
			ioctls++;
	}
	fprintf(f, "%zu files, %zu syscalls, %zu ioctls, %zu flag sets/enums, %zu structs,"
		" %zu fd kinds, %zu vDSO ABIs; spec hash %s\n", spec__nr_files(s), syscalls, ioctls,
		spec__nr_sets(s), spec__nr_structs(s), spec__nr_fdkinds(s), spec__nr_vdsos(s),
		spec__hash_hex(s));
}

static int spec_lint(const char *dir)
{
	struct spec *s = NULL;
	int err;

	err = spec__load_dir(dir, &s);
	if (err) {
		if (err == -KD_ESYNTAX)
			kd_err("%s: the spec has errors", dir);
		return KD_EXIT_ERROR;
	}
	summary(s, stdout);
	spec__free(s);
	return KD_EXIT_OK;
}

static int spec_load(const char *kabi, const char *dir)
{
	struct spec *s = NULL;
	struct kdb *db = NULL;
	int err;

	err = spec__load_dir(dir, &s);
	if (err) {
		if (err == -KD_ESYNTAX)
			kd_err("%s: the spec has errors; %s left unchanged", dir, kabi);
		goto out;
	}
	err = kdb__open_update(kabi, &db);
	if (!err)
		err = spec__store(s, db);
	if (!err)
		err = kdb__commit(db);
	if (err) {
		/* The DB layer reported every other cause, naming the file. */
		if (err == -ENOMEM)
			kd_err("%s: cannot store the spec: %s", kabi, kd_strerror(err));
		goto out;
	}
	summary(s, stdout);
out:
	kdb__free(db);
	spec__free(s);
	return err ? KD_EXIT_ERROR : KD_EXIT_OK;
}

/* Write @text to @dest atomically, or to stdout when @dest is NULL. */
static int write_text(const char *dest, const struct kd_buf *text)
{
	if (!dest)
		return fwrite(text->s, 1, text->len, stdout) == text->len && !fflush(stdout) ? 0 : -EIO;
	return kd_write_file_atomic(dest, text->s, text->len, 0);
}

/* spec init with its options parsed: @kabi the one operand. */
static int spec_init(const struct init_opts *o, const char *kabi)
{
	struct kd_buf text = KD_BUF_INIT, body = KD_BUF_INIT;
	const char *out = o->out, *except_dir = o->except_dir;
	struct spec *except = NULL;
	struct kdb *db = NULL;
	char *release = NULL;
	size_t count = 0;
	int err, status = KD_EXIT_ERROR;

	if (out && !strcmp(out, "-"))
		out = NULL;	/* standard output */
	if (out && kd_output_check(out, &kabi, 1))
		goto out;
	err = kdb__open(kabi, &db);
	if (err) {
		if (err == -ENOMEM)	/* kdb__open() reported every other cause */
			kd_err("%s: %s", kabi, kd_strerror(err));
		goto out;
	}
	if (except_dir && spec__load_dir(except_dir, &except))
		goto out;
	err = kdb__get_meta(db, "release", &release);
	if (!err)
		err = spec__skeleton(db, except, &body, &count);
	if (!err)
		err = kd_buf_addf(&text, "# SPDX-License-Identifier: GPL-2.0-only\n"
				  "# Skeleton contract of %s, written by `kabi-diff spec init`:\n"
				  "# %zu x86_64 syscall%s%s, parameter kinds guessed from the C types.\n"
				  "# They promise nothing about flags or errnos; TODO notes name the\n"
				  "# flag sets to write. Move each entry to its area file to annotate it.\n\n%s",
				  release ? release : "?", count, count == 1 ? "" : "s",
				  except_dir ? " not in the spec" : "", body.s);
	if (err) {
		kd_err("%s: %s", kabi, kd_strerror(err));
		goto out;
	}
	err = write_text(out, &text);
	if (err) {
		kd_err("%s: cannot write: %s", out ? out : "stdout", kd_strerror(err));
		goto out;
	}
	status = KD_EXIT_OK;
out:
	free(release);
	spec__free(except);
	kdb__free(db);
	kd_buf_release(&text);
	kd_buf_release(&body);
	return status;
}

int cmd_spec(int argc, char **argv)
{
	struct init_opts o = { 0 };
	/* init's options: said in its line, no line of their own (and no --help of init's). */
	const struct cli_option opts[] = {
		{ CLI_TEXT("lint DIR", "parse every DIR/*.kabispec, report all errors, print a summary") },
		{ CLI_TEXT("load KERNEL.kabi DIR", "store the contract of DIR in KERNEL.kabi (replacing"
			   " its spec)") },
		{ CLI_TEXT("init KERNEL.kabi", "skeleton entries for every syscall (x64, arm64) of"
			   " KERNEL.kabi, kinds\nguessed from the C types (TODO notes where a set is"
			   " needed),\nto stdout or -o FILE; --except DIR skips syscalls DIR declares") },
		{ CLI_STRING('o', "output", &o.out, "FILE", NULL), .flags = CLI_HIDDEN },
		{ CLI_STRING(0, "except", &o.except_dir, "DIR", NULL), .flags = CLI_HIDDEN },
		{ CLI_END },
	};
	int argi, status;

	if (argc < 2 || cli_is_help(argv[1])) {
		if (argc >= 2)
			return cli_help(&spec_cmd, opts);
		return cli_usage_error("spec", "missing subcommand");
	}
	if (!strcmp(argv[1], "lint")) {
		if (argc != 3)
			return cli_usage_error("spec", "spec lint takes one directory");
		return spec_lint(argv[2]);
	}
	if (!strcmp(argv[1], "load")) {
		if (argc != 4)
			return cli_usage_error("spec", "spec load takes KERNEL.kabi and DIR");
		return spec_load(argv[2], argv[3]);
	}
	if (strcmp(argv[1], "init"))
		return cli_usage_error("spec", "unknown subcommand '%s'", argv[1]);
	status = cli_parse(&spec_cmd, opts, argc - 1, argv + 1, &argi);
	if (status != CLI_PARSED)
		return status;
	if (argi + 1 != argc - 1)
		return cli_usage_error("spec", "spec init takes one KERNEL.kabi");
	return spec_init(&o, argv[1 + argi]);
}
