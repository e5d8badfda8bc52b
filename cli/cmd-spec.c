// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-diff spec: work with the contract (spec/FORMAT.md). "lint DIR"
 * parses a spec directory and reports every error; "load K.kabi DIR"
 * stores the parsed contract into an extracted kernel's DB, replacing the
 * one it held, atomically (the file is rewritten beside itself and renamed).
 */
#include <stdio.h>
#include <string.h>

#include "cli/builtin.h"
#include "db/kdb.h"
#include "lib/err.h"
#include "spec/spec.h"

static const char spec_usage[] =
	"usage: kabi-diff spec lint DIR\n"
	"       kabi-diff spec load KERNEL.kabi DIR\n"
	"\n"
	"  lint DIR             parse every DIR/*.kabispec, report all errors, print a summary\n"
	"  load KERNEL.kabi DIR store the contract of DIR in KERNEL.kabi (replacing its spec)\n";

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
		" %zu fd kinds; spec hash %s\n", spec__nr_files(s), syscalls, ioctls,
		spec__nr_sets(s), spec__nr_structs(s), spec__nr_fdkinds(s), spec__hash_hex(s));
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
		kd_err("%s: cannot store the spec: %s", kabi, kd_strerror(err));
		goto out;
	}
	summary(s, stdout);
out:
	kdb__free(db);
	spec__free(s);
	return err ? KD_EXIT_ERROR : KD_EXIT_OK;
}

int cmd_spec(int argc, char **argv)
{
	if (argc < 2 || cli_is_help(argv[1])) {
		if (argc >= 2) {
			fputs(spec_usage, stdout);
			return KD_EXIT_OK;
		}
		return cli_usage_error(spec_usage, "missing subcommand");
	}
	if (!strcmp(argv[1], "lint")) {
		if (argc != 3)
			return cli_usage_error(spec_usage, "spec lint takes one directory");
		return spec_lint(argv[2]);
	}
	if (!strcmp(argv[1], "load")) {
		if (argc != 4)
			return cli_usage_error(spec_usage, "spec load takes KERNEL.kabi and DIR");
		return spec_load(argv[2], argv[3]);
	}
	return cli_usage_error(spec_usage, "unknown subcommand '%s'", argv[1]);
}
