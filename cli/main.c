// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-diff: entry point. Dispatches subcommands from a table; a first
 * argument that is not a subcommand is the headline form
 * `kabi-diff OLD NEW` (the diff command).
 */
#include <stdio.h>
#include <string.h>

#include "version.h"
#include "cli/builtin.h"
#include "cli/parse-options.h"
#include "lib/err.h"
#include "lib/tmpfile.h"

static const struct kd_command commands[] = {
	{ "extract", cmd_extract, "read a vmlinux (DWARF) into a .kabi database" },
	{ "show", cmd_show, "print syscalls, types, ioctls or constants of a .kabi" },
	{ "spec", cmd_spec, "check a contract (lint DIR) or store it in a .kabi (load K.kabi DIR)" },
	{ "check", cmd_check, "hold a .kabi against the contract: spec drift and coverage" },
	{ "diff", cmd_diff, "compare two kernels (.kabi or vmlinux); same as 'kabi-diff OLD NEW'" },
	{ "matrix", cmd_matrix, "compare a release matrix: each update and flavour against its base" },
	{ "probe", cmd_probe, "boot a kernel under QEMU and store the errnos its syscalls return" },
	{ "cache", cmd_cache, "list or prune the extraction cache of diff" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void print_usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: kabi-diff OLD NEW [options]     compare two kernels' user-space ABI\n"
		   "       kabi-diff --git [-C REPO] REV1..REV2 [options]   two revisions' UAPI headers\n"
		   "       kabi-diff COMMAND [args]\n\ncommands:\n");
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\noptions:\n"
		   "  -h, --help  this text\n"
		   "  --version   print the version\n"
		   "\n'kabi-diff COMMAND --help' shows a command's options; 'man kabi-diff' all of it.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	kd_tmpfile_install_signal_cleanup();
	if (argc < 2) {
		print_usage(stderr);
		return KD_EXIT_USAGE;
	}
	if (cli_is_help(argv[1]) || !strcmp(argv[1], "help")) {
		print_usage(stdout);
		return KD_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("kabi-diff %s\n", KD_VERSION);
		return KD_EXIT_OK;
	}
	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	/*
	 * The headline form: `kabi-diff OLD NEW [options]`, whose options may
	 * come first as well (`kabi-diff -q --git A..B`, `kabi-diff --old
	 * PKG ...`); an option diff does not know is its usage error.
	 */
	if ((argv[1][0] != '-' && argc >= 3) || (argv[1][0] == '-' && argv[1][1]))
		return cmd_diff(argc, argv);
	fprintf(stderr, "kabi-diff: '%s' is not a command; see 'kabi-diff --help'\n", argv[1]);
	return KD_EXIT_USAGE;
}
