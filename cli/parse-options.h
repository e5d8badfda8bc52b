/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Options as data: one table per command says each option once -- its
 * names, its argument, its help line, what it sets -- and is both the
 * parser (getopt_long() underneath, so abbreviations, clusters and
 * permutation behave as they always did) and the --help text. Before it,
 * each command had a getopt switch and a usage string that repeated the
 * option list by hand (issue 28, item 6).
 *
 * A table is an array of struct cli_option ending in { CLI_END }, built on
 * the command's stack so that the value pointers point into its conf
 * struct:
 *
 *	struct cli_option opts[] = {
 *		{ CLI_STRING('o', "output", &o.output, "FILE", "write it to FILE") },
 *		{ CLI_FLAG('q', "quiet", &o.quiet, "no progress messages") },
 *		{ CLI_HELP() },
 *		{ CLI_END },
 *	};
 *
 * The macros give designators, not braces, so that an entry adds fields
 * of its own: { CLI_STRING(0, "new", &o.new, "PKG", NULL), .flags = CLI_HIDDEN }.
 */
#ifndef KD_CLI_PARSE_OPTIONS_H
#define KD_CLI_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cli_command;

enum cli_opt_kind {
	CLI_OPT_END = 0,
	CLI_OPT_TEXT,		/* a --help line that is no option (an item, a subcommand) */
	CLI_OPT_HELP,		/* prints the usage; the parse returns KD_EXIT_OK */
	CLI_OPT_FLAG,		/* bool *: set true */
	CLI_OPT_INT,		/* int *: a decimal number in [min, max] */
	CLI_OPT_STRING,		/* const char **: the argument (the last one given wins) */
	CLI_OPT_LIST,		/* struct cli_list *: every argument given, in order */
	CLI_OPT_CHOICE,		/* int *: the index of the argument in choices[] */
	CLI_OPT_CALLBACK,	/* cb(opt, arg) decides */
};

/* Entry flags. */
#define CLI_HIDDEN	(1u << 0)	/* parsed, not listed in --help */
#define CLI_OPTARG	(1u << 1)	/* the argument is optional (--color[=WHEN]): bare, it is def */

struct cli_option {
	enum cli_opt_kind kind;
	const char *long_name;	/* without "--"; TEXT: the left column (NULL: help verbatim) */
	int short_name;		/* a letter, or 0 */
	const char *argh;	/* the argument's name in --help ("FILE"); NULL: none */
	/*
	 * The help text: its lines after the first start at the command's
	 * help column; a leading '\n' puts all of it below the option. NULL:
	 * the option's line alone.
	 */
	const char *help;
	void *value;		/* what the kind sets (see enum cli_opt_kind) */
	unsigned flags;
	const char *left;	/* --help's text for "--NAME ARGH" when it is not that */
	long min, max;		/* INT */
	const char *const *choices;	/* CHOICE: NULL-terminated */
	/*
	 * INT, CHOICE: the usage error of a refused argument, a printf format
	 * whose one %s (if any) is the argument; NULL: a generic one.
	 */
	const char *bad;
	const char *def;	/* CLI_OPTARG: the argument of the bare option */
	/* CALLBACK: 0 to go on, else the exit status (it said why). */
	int (*cb)(const struct cli_command *cmd, const struct cli_option *opt, const char *arg);
};

#define CLI_END .kind = CLI_OPT_END
#define CLI_TEXT(l, h) .kind = CLI_OPT_TEXT, .long_name = (l), .help = (h)
#define CLI_HELP() .kind = CLI_OPT_HELP, .short_name = 'h', .long_name = "help", .help = "this text"
#define CLI_FLAG(s, l, v, h) .kind = CLI_OPT_FLAG, .short_name = (s), .long_name = (l), \
	.value = (bool *){ v }, .help = (h)
#define CLI_INT(s, l, v, a, lo, hi, b, h) .kind = CLI_OPT_INT, .short_name = (s), .long_name = (l), \
	.value = (int *){ v }, .argh = (a), .min = (lo), .max = (hi), .bad = (b), .help = (h)
#define CLI_STRING(s, l, v, a, h) .kind = CLI_OPT_STRING, .short_name = (s), .long_name = (l), \
	.value = (const char **){ v }, .argh = (a), .help = (h)
#define CLI_LIST(s, l, v, a, h) .kind = CLI_OPT_LIST, .short_name = (s), .long_name = (l), \
	.value = (struct cli_list *){ v }, .argh = (a), .help = (h)
#define CLI_CHOICE(s, l, v, a, c, b, h) .kind = CLI_OPT_CHOICE, .short_name = (s), .long_name = (l), \
	.value = (int *){ v }, .argh = (a), .choices = (c), .bad = (b), .help = (h)
#define CLI_CALLBACK(s, l, v, a, f, h) .kind = CLI_OPT_CALLBACK, .short_name = (s), .long_name = (l), \
	.value = (v), .argh = (a), .cb = (f), .help = (h)

/* The arguments of a repeated option (CLI_LIST); zero-initialized is empty. */
struct cli_list {
	const char **v;		/* the argv strings themselves, not copies */
	size_t n, cap;
};

/* Frees the array (not the strings, which are argv's); the list is empty again. */
void cli_list_release(struct cli_list *l);

/* What a command's --help says around its table, and how it lays the table out. */
struct cli_command {
	const char *name;	/* "diff", as usage errors name it */
	const char *head;	/* the text before the table */
	const char *tail;	/* and after it (NULL: none) */
	int help_col;		/* the column the help texts start at */
};

/* cli_parse() parsed every option: the operands are argv[*argi...]. */
#define CLI_PARSED (-1)

/*
 * Parses the options of @argv (argv[0] is the command's name) by @opts,
 * setting what they point at, and leaves the operands, permuted to the
 * end as getopt_long() does, at argv[*argi] to argv[argc - 1]. Returns
 * CLI_PARSED, or the exit status the command is to return at once:
 * KD_EXIT_OK after --help printed the usage on stdout, KD_EXIT_USAGE after
 * a usage error (cli_usage_error(): an unknown, ambiguous or argument-less
 * option, a value to a flag, a refused argument), KD_EXIT_ERROR when
 * memory ran out or a callback failed.
 */
int cli_parse(const struct cli_command *cmd, const struct cli_option *opts, int argc,
	      char **argv, int *argi);

/*
 * A usage error: "kabi-diff: MESSAGE" and a line pointing at 'kabi-diff
 * CMD --help' (@cmd NULL: 'kabi-diff --help'), never the whole usage
 * text. Returns KD_EXIT_USAGE.
 */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Is @arg "-h" or "--help"? (For subcommand dispatch before any parse.) */
int cli_is_help(const char *arg);

/*
 * Callbacks the commands share. cli_opt_arch: --arch ARCH, a supported
 * architecture (lib/arch.h) into the const struct kd_arch * at opt->value.
 */
int cli_opt_arch(const struct cli_command *cmd, const struct cli_option *opt, const char *arg);

/* @cmd's --help text, its table laid out, to @f. Returns 0 or a negative errno (said). */
int cli_usage_fprintf(const struct cli_command *cmd, const struct cli_option *opts, FILE *f);

/* --help as a command answers it: the text on stdout; KD_EXIT_OK or KD_EXIT_ERROR. */
int cli_help(const struct cli_command *cmd, const struct cli_option *opts);

#endif
