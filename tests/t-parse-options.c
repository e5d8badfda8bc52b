// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli/parse-options.h: one table parses flags, numbers, strings, repeated
 * and optional arguments, choices and callbacks into the variables it
 * points at, leaves the operands (permuted) at the end, says a usage
 * error in its exact two lines with exit status 2, and lays the same
 * table out as --help. Linked with build/cli/parse-options.o (the
 * Makefile), which no other unit test needs.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/builtin.h"
#include "cli/parse-options.h"
#include "lib/buf.h"
#include "lib/mem.h"
#include "tests/tap.h"

struct conf {
	bool quiet, all;
	int jobs, level, color, only;
	const char *output;
	struct cli_list old;
	const char *cb_arg;
	int cb_calls;
};

static const char *const colors[] = { "auto", "always", "never", NULL };
static const char *const onlies[] = { "breaking", NULL };

/* Refuses "no", as a command's callback refuses a value after saying why. */
static int remember(const struct cli_command *cmd, const struct cli_option *opt, const char *arg)
{
	struct conf *c = opt->value;

	c->cb_calls++;
	c->cb_arg = arg;
	if (arg && !strcmp(arg, "no"))
		return cli_usage_error(cmd->name, "%s: --hook refuses '%s'", cmd->name, arg);
	return 0;
}

static const struct cli_command cmd = {
	.name = "t",
	.head = "usage: kabi-diff t [options] ARGS\n\n",
	.tail = "\nThe end.\n",
	.help_col = 20,
};

/* What a parse of the table below wrote to stdout and stderr, and returned. */
struct result {
	int status, argi;
	char out[4096], err[4096];
};

static void slurp(int fd, char *b, size_t n)
{
	ssize_t got;

	lseek(fd, 0, SEEK_SET);
	got = read(fd, b, n - 1);
	b[got > 0 ? got : 0] = '\0';
	close(fd);
}

/* A scratch file (unlinked) that replaces @fd until restore(). */
static int capture(int fd, int *saved, const char *name)
{
	char *p = tap_tmp_path("%s", name);
	int f = p ? open(p, O_RDWR | O_CREAT | O_TRUNC, 0600) : -1;

	if (p)
		unlink(p);
	free(p);
	*saved = dup(fd);
	if (f < 0 || *saved < 0 || dup2(f, fd) < 0)
		ok(0, "capture fd %d", fd);
	return f;
}

static void restore(int fd, int saved)
{
	dup2(saved, fd);
	close(saved);
}

/* test_nomem(): the allocations cli_parse() may make before one fails. */
static long fail_after = -1;

static struct result parse(struct conf *c, int argc, char **argv)
{
	const struct cli_option opts[] = {
		{ CLI_TEXT("list", "every entry") },
		{ CLI_TEXT(NULL, "\n") },
		{ CLI_FLAG('q', "quiet", &c->quiet, "no progress") },
		{ CLI_FLAG(0, "all", &c->all, "every entry, and this help is long enough\nto wrap") },
		{ CLI_INT('j', "jobs", &c->jobs, "N", 1, 64, "t: --jobs needs a positive number",
			  "worker threads") },
		{ CLI_INT(0, "level", &c->level, "L", 1, 9, NULL, "how much") },
		{ CLI_STRING('o', "output", &c->output, "FILE", "the output") },
		{ CLI_LIST(0, "old", &c->old, "PKG", "a package (repeated)"), .left = "--old PKG, ..." },
		{ CLI_CHOICE(0, "color", &c->color, "WHEN", colors, NULL, "auto, always or never"),
		  .flags = CLI_OPTARG, .def = "always" },
		{ CLI_CHOICE(0, "colour", &c->color, "WHEN", colors, NULL, NULL),
		  .flags = CLI_OPTARG | CLI_HIDDEN, .def = "always" },
		{ CLI_CHOICE(0, "only", &c->only, "breaking", onlies, NULL, "\nbelow its option") },
		{ CLI_CALLBACK(0, "hook", c, "X", remember, NULL) },
		{ CLI_CALLBACK(0, "secret", c, NULL, remember, "not listed"), .flags = CLI_HIDDEN },
		{ CLI_HELP() },
		{ CLI_END },
	};
	struct result r;
	int so, se, fo = capture(1, &so, "out"), fe = capture(2, &se, "err");

	r.argi = -1;
	kd_mem_fail_after(fail_after);
	r.status = cli_parse(&cmd, opts, argc, argv, &r.argi);
	kd_mem_fail_after(-1);
	fflush(stdout);
	fflush(stderr);
	restore(1, so);
	restore(2, se);
	slurp(fo, r.out, sizeof(r.out));
	slurp(fe, r.err, sizeof(r.err));
	return r;
}

#define PARSE(c, ...) parse((c), sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *), \
			    (char *[]){ __VA_ARGS__, NULL })

static void test_values(void)
{
	struct conf c = { .jobs = 0, .color = -1, .only = -1 };
	struct result r = PARSE(&c, "t", "-q", "a", "--output", "x", "-j4", "--old", "p1",
				"--old=p2", "b", "--color", "--lev=3");

	is_int(r.status, CLI_PARSED, "flags and values: parsed");
	is_str(r.err, "", "  nothing said");
	ok(c.quiet && !c.all, "  -q set, --all not");
	is_int(c.jobs, 4, "  -j4: an int glued to its letter");
	is_str(c.output, "x", "  --output x");
	is_int(c.old.n, 2, "  --old twice: both kept");
	is_str(c.old.n == 2 ? c.old.v[1] : "", "p2", "  in order, --old=p2 too");
	is_int(c.color, 1, "  bare --color: its default, always (index 1)");
	is_int(c.level, 3, "  --lev: an abbreviation");
	is_int(r.argi, 10, "  the operands permuted to the end");
	cli_list_release(&c.old);
	ok(!c.old.v && !c.old.n, "cli_list_release: empty again");

	c = (struct conf){ .color = -1 };
	r = PARSE(&c, "t", "-qj", "7", "--colo=never", "--only", "breaking", "--hook", "yes", "--", "-q");
	is_int(r.status, CLI_PARSED, "a cluster, an alias's abbreviation, a callback, --");
	ok(c.quiet && c.jobs == 7, "  -qj 7: the flag and the int");
	is_int(c.color, 2, "  --colo=never: --color and --colour are one option, no ambiguity");
	is_int(c.only, 0, "  --only breaking: index 0");
	ok(c.cb_calls == 1 && c.cb_arg && !strcmp(c.cb_arg, "yes"), "  the callback saw its argument");
	is_int(r.argi, 9, "  the operand after --, which is not an option");
}

/* Each bad invocation: its status and stderr, exactly. */
static void test_errors(void)
{
	static const char see[] = "kabi-diff: see 'kabi-diff t --help'\n";
	const struct {
		char *argv[4];
		int status;
		const char *err;
	} cases[] = {
		{ { "t", "--output" }, KD_EXIT_USAGE, "kabi-diff: t: option '--output' needs an argument\n" },
		{ { "t", "-o" }, KD_EXIT_USAGE, "kabi-diff: t: option '-o' needs an argument\n" },
		{ { "t", "a", "--bogus=1" }, KD_EXIT_USAGE, "kabi-diff: t: unknown option '--bogus'\n" },
		{ { "t", "-qz" }, KD_EXIT_USAGE, "kabi-diff: t: unknown option '-z'\n" },
		{ { "t", "--quiet=1" }, KD_EXIT_USAGE, "kabi-diff: t: option '--quiet' takes no argument\n" },
		{ { "t", "--o", "x" }, KD_EXIT_USAGE, "kabi-diff: t: option '--o' is ambiguous\n" },
		{ { "t", "-j", "0" }, KD_EXIT_USAGE, "kabi-diff: t: --jobs needs a positive number\n" },
		{ { "t", "-j", "65" }, KD_EXIT_USAGE, "kabi-diff: t: --jobs needs a positive number\n" },
		{ { "t", "-j", "4x" }, KD_EXIT_USAGE, "kabi-diff: t: --jobs needs a positive number\n" },
		{ { "t", "--level=10" }, KD_EXIT_USAGE,
		  "kabi-diff: t: --level takes a number from 1 to 9, not '10'\n" },
		{ { "t", "--level", "" }, KD_EXIT_USAGE,
		  "kabi-diff: t: --level takes a number from 1 to 9, not ''\n" },
		{ { "t", "--level", "99999999999999999999" }, KD_EXIT_USAGE,
		  "kabi-diff: t: --level takes a number from 1 to 9, not '99999999999999999999'\n" },
		{ { "t", "--color=pink" }, KD_EXIT_USAGE,
		  "kabi-diff: t: --color takes auto, always or never, not 'pink'\n" },
		{ { "t", "--only", "x" }, KD_EXIT_USAGE, "kabi-diff: t: --only takes breaking, not 'x'\n" },
		{ { "t", "--hook", "no" }, KD_EXIT_USAGE, "kabi-diff: t: --hook refuses 'no'\n" },
	};
	struct kd_buf want = KD_BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct conf c = { 0 };
		int argc = 0;
		struct result r;

		while (argc < 4 && cases[i].argv[argc])
			argc++;
		r = parse(&c, argc, (char **)cases[i].argv);
		kd_buf_reset(&want);
		if (kd_buf_addf(&want, "%s%s", cases[i].err, see))
			ok(0, "out of memory");
		is_int(r.status, cases[i].status, cases[i].argv[1]);
		is_str(r.err, want.s, "  its two lines");
		is_str(r.out, "", "  nothing on stdout");
		cli_list_release(&c.old);
	}
	kd_buf_release(&want);
}

static void test_help(void)
{
	struct conf c = { 0 };
	struct result r = PARSE(&c, "t", "-q", "--help", "--bogus");

	is_int(r.status, KD_EXIT_OK, "--help: exit 0, the options after it not parsed");
	is_str(r.out,
	       "usage: kabi-diff t [options] ARGS\n"
	       "\n"
	       "  list              every entry\n"
	       "\n"
	       "  -q, --quiet       no progress\n"
	       "      --all         every entry, and this help is long enough\n"
	       "                    to wrap\n"
	       "  -j, --jobs N      worker threads\n"
	       "      --level L     how much\n"
	       "  -o, --output FILE the output\n"
	       "      --old PKG, ...  a package (repeated)\n"
	       "      --color[=WHEN]  auto, always or never\n"
	       "      --only breaking\n"
	       "                    below its option\n"
	       "      --hook X\n"
	       "  -h, --help        this text\n"
	       "\n"
	       "The end.\n",
	       "  the table laid out: padded to the column, two spaces past it, below it, wrapped,"
	       " hidden entries left out");
	is_str(r.err, "", "  nothing on stderr");

	r = PARSE(&c, "t", "-h");
	is_int(r.status, KD_EXIT_OK, "-h: the same");
	ok(!strncmp(r.out, "usage: kabi-diff t", 18), "  the usage");
}

/*
 * A parse that stopped inside a cluster (-qz) and a second parse in the
 * same process: the second starts afresh, not in the old cluster.
 */
static void test_reparse(void)
{
	struct conf c = { 0 };
	struct result r = PARSE(&c, "t", "-zq");

	is_int(r.status, KD_EXIT_USAGE, "-zq: stopped at z");
	c = (struct conf){ 0 };
	r = PARSE(&c, "t", "-j", "2", "op");
	ok(r.status == CLI_PARSED && c.jobs == 2 && !c.quiet && r.argi == 3,
	   "  the next parse starts afresh (no q of the old cluster)");
}

static void test_nomem(void)
{
	struct conf c = { 0 };
	struct result r;
	long n;

	for (n = 0; n < 20; n++) {
		fail_after = n;
		r = PARSE(&c, "t", "--old", "a", "--old", "b");
		fail_after = -1;
		if (r.status == CLI_PARSED)
			break;
		is_int(r.status, KD_EXIT_ERROR, "out of memory: exit 1");
		ok(strstr(r.err, "out of memory") != NULL, "  said");
		cli_list_release(&c.old);
		c = (struct conf){ 0 };
	}
	ok(n > 0 && r.status == CLI_PARSED && c.old.n == 2, "enough memory: parsed");
	cli_list_release(&c.old);
}

int main(void)
{
	test_values();
	test_errors();
	test_help();
	test_reparse();
	test_nomem();
	return tap_done();
}
