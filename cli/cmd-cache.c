// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-diff cache: the extraction cache diff fills (extract/input/cache.h).
 * "list" shows every entry with its size, when it was last used and what
 * it holds; "prune" removes what no diff can use again (another
 * version's extractions, dangling package references, leftovers of an
 * interrupted extraction), with --older-than DAYS what was not used for
 * that long, with --all everything kabi-diff put there. An entry that is
 * not kabi-diff's is listed and never removed.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/builtin.h"
#include "cli/parse-options.h"
#include "extract/input/cache.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/plain.h"

static const struct cli_command cache_cmd = {
	.name = "cache",
	.head = "usage: kabi-diff cache list\n"
		"       kabi-diff cache prune [--older-than DAYS] [--all] [-n]\n"
		"\n"
		"The extraction cache of diff: $XDG_CACHE_HOME/kabi-diff (default\n"
		"~/.cache/kabi-diff): extracted kernels and header trees (.kabi), package\n"
		"references (pkg-*.ref), compiled header trees (uapi/).\n"
		"\n",
	.help_col = 23,
};

/* What prune's options say. */
struct prune_opts {
	int days;		/* --older-than; -1: none */
	bool all, dry_run;
};

/* "8.4 MB" */
static const char *size_text(char *b, size_t n, uint64_t bytes)
{
	if (bytes >= 1000000)
		snprintf(b, n, "%.1f MB", (double)bytes / 1e6);
	else
		snprintf(b, n, "%.1f kB", (double)bytes / 1e3);
	return b;
}

static long days_since(time_t now, time_t t)
{
	return t >= now ? 0 : (long)((now - t) / 86400);
}

static int open_cache(struct kd_buf *dir, time_t now, struct kcache_entry **v, size_t *n)
{
	if (kcache__dir(dir, false)) {
		kd_err("out of memory");
		return -ENOMEM;
	}
	return kcache__list(dir->s, now, v, n);
}

static int cache_list(void)
{
	struct kd_buf dir = KD_BUF_INIT, p[2] = { KD_BUF_INIT, KD_BUF_INIT };
	struct kcache_entry *v = NULL;
	time_t now = time(NULL);
	uint64_t total = 0;
	size_t n = 0, i;
	char size[32];
	int status = KD_EXIT_ERROR;

	if (open_cache(&dir, now, &v, &n))
		goto out;
	for (i = 0; i < n; i++)
		total += v[i].bytes;
	printf("cache: %s (%zu entr%s, %s)\n", kd_plain(&p[0], dir.s), n, n == 1 ? "y" : "ies",
	       size_text(size, sizeof(size), total));
	for (i = 0; i < n; i++) {
		const struct kcache_entry *e = &v[i];

		printf("%10s %4ldd  %-16s %s", size_text(size, sizeof(size), e->bytes),
		       days_since(now, e->used), kcache_kind_name(e->kind), kd_plain(&p[0], e->name));
		if (e->release || e->what)
			printf(": %s%s%s%s", e->kind == KCACHE_PACKAGES ? "-> " : "",
			       e->release ? kd_plain(&p[1], e->release) : "?",
			       e->what ? " " : "", e->what ? "(" : "");
		if (e->what)
			printf("%s)", e->what);
		if (e->stale)
			printf(" [stale: %s]", e->stale);
		putchar('\n');
	}
	status = fflush(stdout) || ferror(stdout) ? KD_EXIT_ERROR : KD_EXIT_OK;
out:
	kcache__entries_free(v, n);
	kd_buf_release(&dir);
	kd_buf_release(&p[0]);
	kd_buf_release(&p[1]);
	return status;
}

/* Why @e goes, or NULL: it stays. */
static const char *prune_reason(const struct kcache_entry *e, time_t now, long days, bool all)
{
	if (e->kind == KCACHE_OTHER)
		return NULL;
	if (e->stale)
		return e->stale;
	if (e->kind == KCACHE_PARTIAL)
		return NULL;	/* an extraction may be writing it */
	if (all)
		return "--all";
	if (days >= 0 && days_since(now, e->used) >= days)
		return "--older-than";
	return NULL;
}

static int cache_prune(const struct prune_opts *o)
{
	struct kd_buf dir = KD_BUF_INIT, p = KD_BUF_INIT;
	struct kcache_entry *v = NULL;
	time_t now = time(NULL);
	uint64_t freed = 0, kept = 0;
	size_t n = 0, i, removed = 0;
	bool dry = o->dry_run;
	char size[32];
	int status = KD_EXIT_ERROR;

	if (open_cache(&dir, now, &v, &n))
		goto out;
	status = KD_EXIT_OK;
	for (i = 0; i < n; i++) {
		const char *why = prune_reason(&v[i], now, o->days, o->all);

		if (!why) {
			kept += v[i].bytes;
			continue;
		}
		if (!dry && kcache__remove(dir.s, &v[i])) {
			status = KD_EXIT_ERROR;
			continue;
		}
		printf("%s %s (%s): %s\n", dry ? "would remove" : "removed", kd_plain(&p, v[i].name),
		       size_text(size, sizeof(size), v[i].bytes), why);
		freed += v[i].bytes;
		removed++;
	}
	printf("%s %zu entr%s, %s", dry ? "would prune" : "pruned", removed, removed == 1 ? "y" : "ies",
	       size_text(size, sizeof(size), freed));
	printf("; kept %zu, %s\n", n - removed, size_text(size, sizeof(size), kept));
	if (fflush(stdout) || ferror(stdout))
		status = KD_EXIT_ERROR;
out:
	kcache__entries_free(v, n);
	kd_buf_release(&dir);
	kd_buf_release(&p);
	return status;
}

int cmd_cache(int argc, char **argv)
{
	struct prune_opts o = { .days = -1 };
	const struct cli_option opts[] = {
		{ CLI_TEXT("list", "every entry: size, days since it was last used, what it holds,\n"
			   "and why it is stale (no diff can use it again)") },
		{ CLI_TEXT("prune", "remove the stale entries: extractions of another kabi-diff\n"
			   "version, package references whose .kabi is gone, what an\n"
			   "interrupted extraction left more than a day ago") },
		{ CLI_INT(0, "older-than", &o.days, "DAYS", 0, INT_MAX, "cache prune: --older-than takes"
			  " a number of days, not '%s'", "also the entries not used for DAYS days") },
		{ CLI_FLAG(0, "all", &o.all, "every entry of kabi-diff (not a temporary younger than"
			   " a day:\nan extraction may be running)") },
		{ CLI_FLAG('n', "dry-run", &o.dry_run, "say what would be removed, remove nothing") },
		{ CLI_HELP() },
		{ CLI_END },
	};
	int argi, status;

	if (argc < 2 || cli_is_help(argv[1])) {
		if (argc >= 2)
			return cli_help(&cache_cmd, opts);
		return cli_usage_error("cache", "missing subcommand (list or prune)");
	}
	if (!strcmp(argv[1], "list")) {
		if (argc == 3 && cli_is_help(argv[2]))
			return cli_help(&cache_cmd, opts);
		if (argc != 2)
			return cli_usage_error("cache", "cache list takes no argument");
		return cache_list();
	}
	if (strcmp(argv[1], "prune"))
		return cli_usage_error("cache", "unknown subcommand '%s'", argv[1]);
	status = cli_parse(&cache_cmd, opts, argc - 1, argv + 1, &argi);
	if (status != CLI_PARSED)
		return status;
	if (argi != argc - 1)
		return cli_usage_error("cache", "cache prune takes no argument, got '%s'", argv[1 + argi]);
	return cache_prune(&o);
}
