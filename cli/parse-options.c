// SPDX-License-Identifier: GPL-2.0-only
/*
 * The option table of a command (cli/parse-options.h) as getopt_long()'s
 * struct option[] and short-option string, the walk over argv that sets
 * what each entry points at, and the --help layout of the same table.
 *
 * Usage errors are said as git and coreutils say them: one line naming
 * what was wrong and one pointing at the command's --help. The whole
 * usage text after an error (up to 45 lines) scrolled the error itself
 * off the screen (issue 29, item 8); --help prints it on request.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/builtin.h"
#include "cli/parse-options.h"
#include "lib/arch.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/str.h"

/* getopt_long()'s value of an entry without a letter: past every char. */
#define LONG_ONLY_BASE 256

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
 * What getopt_long() (an optstring opening with ':') returned as @c, '?'
 * or ':', said as a usage error of @cmd: the unknown, ambiguous or
 * argument-less option named. getopt_long() leaves what went wrong in
 * optopt (0 for an unknown long option, the option's value otherwise)
 * and, past the bad word, optind; an unknown letter inside a cluster
 * (-qz) leaves optind on the cluster, so a letter is named from optopt,
 * a long option from argv[optind - 1].
 */
static int bad_option(const char *cmd, int c, char *const *argv, const struct option *opts)
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

void cli_list_release(struct cli_list *l)
{
	free(l->v);
	*l = (struct cli_list){ 0 };
}

static bool is_option(const struct cli_option *o)
{
	return o->kind != CLI_OPT_TEXT;
}

/* A callback without argh is a flag; INT, STRING, LIST and CHOICE always take one. */
static int has_arg(const struct cli_option *o)
{
	if (o->kind == CLI_OPT_FLAG || o->kind == CLI_OPT_HELP ||
	    (o->kind == CLI_OPT_CALLBACK && !o->argh))
		return no_argument;
	return o->flags & CLI_OPTARG ? optional_argument : required_argument;
}

/*
 * Two entries that set the same thing the same way are one option under
 * two names (--color, --colour): one getopt value, so that an abbreviation
 * of both (--colo) is no ambiguity, as getopt_long() judges it.
 */
static bool same_target(const struct cli_option *a, const struct cli_option *b)
{
	return a->kind == b->kind && a->value == b->value && a->cb == b->cb && a->value &&
	       has_arg(a) == has_arg(b);
}

static int getopt_value(const struct cli_option *opts, size_t i)
{
	size_t j;

	if (opts[i].short_name)
		return opts[i].short_name;
	for (j = 0; j < i; j++)
		if (is_option(&opts[j]) && !opts[j].short_name && same_target(&opts[j], &opts[i]))
			return LONG_ONLY_BASE + (int)j;
	return LONG_ONLY_BASE + (int)i;
}

/* The entry getopt_long() returned @c for. */
static const struct cli_option *entry_of(const struct cli_option *opts, int c)
{
	size_t i;

	if (c >= LONG_ONLY_BASE)
		return &opts[c - LONG_ONLY_BASE];
	for (i = 0; opts[i].kind != CLI_OPT_END; i++)
		if (is_option(&opts[i]) && opts[i].short_name == c)
			return &opts[i];
	return NULL;
}

/* @opts as getopt_long() takes them; *longopts is the caller's to free. */
static int build_getopt(const struct cli_option *opts, struct option **longopts, struct kd_buf *shorts)
{
	size_t i, n = 0, nr = 0;
	int err;

	for (i = 0; opts[i].kind != CLI_OPT_END; i++)
		nr++;
	*longopts = kd_calloc(nr + 1, sizeof(**longopts));
	/* ':' first: a missing argument is ':', not '?', and getopt prints nothing. */
	err = *longopts ? kd_buf_addc(shorts, ':') : -ENOMEM;
	for (i = 0; !err && i < nr; i++) {
		const struct cli_option *o = &opts[i];

		if (!is_option(o))
			continue;
		if (o->long_name)
			(*longopts)[n++] = (struct option){ o->long_name, has_arg(o), NULL,
							    getopt_value(opts, i) };
		if (o->short_name)
			err = kd_buf_addf(shorts, "%c%s", o->short_name,
					  has_arg(o) == required_argument ? ":" :
					  has_arg(o) == optional_argument ? "::" : "");
	}
	return err;
}

static int bad_value(const struct cli_command *cmd, const struct cli_option *o, const char *arg)
{
	struct kd_buf b = KD_BUF_INIT;
	int i, status;

	if (o->bad)	/* the table's own words, a format of the argument (parse-options.h) */
		return cli_usage_error(cmd->name, o->bad, arg);
	if (o->kind == CLI_OPT_INT)
		return cli_usage_error(cmd->name, "%s: --%s takes a number from %ld to %ld, not '%s'",
				       cmd->name, o->long_name, o->min, o->max, arg);
	for (i = 0; o->choices[i]; i++)
		if (kd_buf_addf(&b, "%s%s", i == 0 ? "" : o->choices[i + 1] ? ", " : " or ",
				o->choices[i])) {
			kd_buf_release(&b);
			kd_err("out of memory");
			return KD_EXIT_ERROR;
		}
	status = cli_usage_error(cmd->name, "%s: --%s takes %s, not '%s'", cmd->name, o->long_name,
				 b.s, arg);
	kd_buf_release(&b);
	return status;
}

/* Sets what @o points at from @arg (NULL: a flag's, or a bare CLI_OPTARG). */
static int take(const struct cli_command *cmd, const struct cli_option *o, const char *arg)
{
	struct cli_list *l;
	char *end;
	long v;
	int i;

	if (!arg && (o->flags & CLI_OPTARG))
		arg = o->def;
	switch (o->kind) {
	case CLI_OPT_FLAG:
		*(bool *)o->value = true;
		return 0;
	case CLI_OPT_INT:
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || end == arg || *end || v < o->min || v > o->max)
			return bad_value(cmd, o, arg);
		*(int *)o->value = (int)v;
		return 0;
	case CLI_OPT_STRING:
		*(const char **)o->value = arg;
		return 0;
	case CLI_OPT_LIST:
		l = o->value;
		if (KD_GROW(l->v, l->cap, l->n + 1)) {
			kd_err("out of memory");
			return KD_EXIT_ERROR;
		}
		l->v[l->n++] = arg;
		return 0;
	case CLI_OPT_CHOICE:
		for (i = 0; o->choices[i]; i++)
			if (!strcmp(arg, o->choices[i])) {
				*(int *)o->value = i;
				return 0;
			}
		return bad_value(cmd, o, arg);
	case CLI_OPT_CALLBACK:
		return o->cb(cmd, o, arg);
	default:
		return 0;
	}
}

int cli_parse(const struct cli_command *cmd, const struct cli_option *opts, int argc,
	      char **argv, int *argi)
{
	struct kd_buf shorts = KD_BUF_INIT;
	struct option *longopts = NULL;
	const struct cli_option *o;
	int c, status = CLI_PARSED;

	if (build_getopt(opts, &longopts, &shorts)) {
		kd_err("out of memory");
		status = KD_EXIT_ERROR;
		goto out;
	}
	/*
	 * 0, not 1: glibc and musl then forget a cluster a previous parse
	 * stopped inside (-qz), which 1 would resume.
	 */
	optind = 0;
	while (status == CLI_PARSED &&
	       (c = getopt_long(argc, argv, shorts.s, longopts, NULL)) != -1) {
		o = c == '?' || c == ':' ? NULL : entry_of(opts, c);
		if (!o)
			status = bad_option(cmd->name, c, argv, longopts);
		else if (o->kind == CLI_OPT_HELP)
			status = cli_help(cmd, opts);
		else if ((c = take(cmd, o, optarg)) != 0)
			status = c;
	}
	*argi = optind;
out:
	free(longopts);
	kd_buf_release(&shorts);
	return status;
}

int cli_opt_arch(const struct cli_command *cmd, const struct cli_option *opt, const char *arg)
{
	const struct kd_arch *arch = kd_arch__by_name(arg);

	if (!arch)
		return cli_usage_error(cmd->name, "%s: --arch %s: not a supported architecture (%s)",
				       cmd->name, arg, kd_arch__supported());
	*(const struct kd_arch **)opt->value = arch;
	return 0;
}

/* "-o, --output FILE", the left column of an option's line. */
static int left_column(struct kd_buf *b, const struct cli_option *o)
{
	int err;

	if (!is_option(o))
		return kd_buf_addf(b, "  %s", o->long_name);
	err = o->short_name ? kd_buf_addf(b, "  -%c%s", o->short_name, o->long_name ? ", " : "")
			    : kd_buf_adds(b, "      ");
	if (!err && o->left)
		return kd_buf_adds(b, o->left);
	if (!err && o->long_name)
		err = kd_buf_addf(b, "--%s", o->long_name);
	if (!err && o->argh)
		err = kd_buf_addf(b, has_arg(o) == optional_argument ? "[=%s]" : " %s", o->argh);
	return err;
}

/*
 * The help beside the left column when it leaves room (at least one
 * space, else two), below it when it opens with '\n'; every line after
 * the first at the help column.
 */
static int option_line(struct kd_buf *b, const struct cli_option *o, int col)
{
	const char *h = o->help, *nl;
	size_t start = b->len;
	int err;

	if (!o->long_name && !is_option(o))
		return kd_buf_adds(b, o->help);
	err = left_column(b, o);
	if (!err && h && *h == '\n') {
		h++;
		err = kd_buf_addf(b, "\n%*s", col, "");
	} else if (!err && h) {
		size_t len = b->len - start;

		err = kd_buf_addf(b, "%*s", len < (size_t)col ? col - (int)len : 2, "");
	}
	while (!err && h && (nl = strchr(h, '\n'))) {
		err = kd_buf_addf(b, "%.*s\n%*s", (int)(nl - h), h, col, "");
		h = nl + 1;
	}
	if (!err && h)
		err = kd_buf_adds(b, h);
	return err ? err : kd_buf_addc(b, '\n');
}

int cli_usage_fprintf(const struct cli_command *cmd, const struct cli_option *opts, FILE *f)
{
	struct kd_buf b = KD_BUF_INIT;
	int err = kd_buf_adds(&b, cmd->head);
	size_t i;

	for (i = 0; !err && opts[i].kind != CLI_OPT_END; i++) {
		if (!(opts[i].flags & CLI_HIDDEN))
			err = option_line(&b, &opts[i], cmd->help_col);
	}
	if (!err && cmd->tail)
		err = kd_buf_adds(&b, cmd->tail);
	if (err) {
		kd_err("out of memory");
	} else if (fwrite(b.s, 1, b.len, f) != b.len || fflush(f)) {
		kd_err("write error: %s", kd_strerror(-errno));
		err = -EIO;
	}
	kd_buf_release(&b);
	return err;
}

int cli_help(const struct cli_command *cmd, const struct cli_option *opts)
{
	return cli_usage_fprintf(cmd, opts, stdout) ? KD_EXIT_ERROR : KD_EXIT_OK;
}
