// SPDX-License-Identifier: GPL-2.0-only
/*
 * Usage errors, said as git and coreutils say them: one line naming what
 * was wrong and one pointing at the command's --help. The whole usage text
 * after an error (up to 45 lines) scrolled the error itself off the
 * screen (issue 29, item 8); --help prints it on request.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/builtin.h"
#include "lib/str.h"

int cli_is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

static int pointer(const char *cmd)
{
	fprintf(stderr, "kabi-diff: see 'kabi-diff %s%s--help'\n", cmd ? cmd : "", cmd ? " " : "");
	return KD_EXIT_USAGE;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "kabi-diff: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return pointer(cmd);
}

/* The long options of @opts that @name (no "--", no "=VALUE") abbreviates. */
static int nr_prefixed(const struct option *opts, const char *name, size_t len)
{
	int n = 0;

	for (; opts->name; opts++)
		if (!strncmp(opts->name, name, len))
			n += 1;
	return n;
}

/*
 * getopt_long() leaves what went wrong in optopt (0 for an unknown long
 * option, the option's value otherwise) and, past the bad word, optind;
 * an unknown letter inside a cluster (-qz) leaves optind on the cluster,
 * so a letter is named from optopt, a long option from argv[optind - 1].
 */
int cli_bad_option(const char *cmd, int c, char *const *argv, const struct option *opts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	bool long_opt = kd_starts_with(arg, "--") && (c == ':' || !optopt || strchr(arg, '='));
	int len = long_opt ? (int)strcspn(arg, "=") : 0;

	if (!long_opt && c == ':')
		fprintf(stderr, "kabi-diff: %s: option '-%c' needs an argument\n", cmd, optopt);
	else if (!long_opt)
		fprintf(stderr, "kabi-diff: %s: unknown option '-%c'\n", cmd, optopt);
	else if (c == ':')
		fprintf(stderr, "kabi-diff: %s: option '%.*s' needs an argument\n", cmd, len, arg);
	else if (optopt)
		fprintf(stderr, "kabi-diff: %s: option '%.*s' takes no argument\n", cmd, len, arg);
	else if (nr_prefixed(opts, arg + 2, (size_t)len - 2) > 1)
		fprintf(stderr, "kabi-diff: %s: option '%.*s' is ambiguous\n", cmd, len, arg);
	else
		fprintf(stderr, "kabi-diff: %s: unknown option '%.*s'\n", cmd, len, arg);
	return pointer(cmd);
}
