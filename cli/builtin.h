/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Subcommands of kabi-diff, one file each (cli/cmd-NAME.c). Each returns
 * the process exit status; only main() calls exit().
 *
 * Exit status convention (abidiff's): 0 nothing to report, 1 error,
 * 2 usage error, 4 changes/findings, 8 breaking changes (with 4).
 */
#ifndef KD_BUILTIN_H
#define KD_BUILTIN_H

#define KD_EXIT_OK		0
#define KD_EXIT_ERROR		1
#define KD_EXIT_USAGE		2
#define KD_EXIT_CHANGES		4
#define KD_EXIT_BREAKING	8

struct kd_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

int cmd_extract(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_spec(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_matrix(int argc, char **argv);
int cmd_cache(int argc, char **argv);

/* The helpers of their options and usage errors: cli/parse-options.h. */

#endif
