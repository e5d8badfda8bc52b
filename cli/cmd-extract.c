// SPDX-License-Identifier: GPL-2.0-only
/* kabi-diff extract: a kernel build into a .kabi database. */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/builtin.h"
#include "extract/extract.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "spec/spec.h"

static const char extract_usage[] =
	"usage: kabi-diff extract VMLINUX [-o OUT.kabi] [options]\n"
	"\n"
	"Read a kernel image with DWARF (the debug vmlinux) and write its user-space\n"
	"ABI -- syscall table, signatures, every reachable type layout -- into one\n"
	"SQLite file. The output is replaced atomically; on error nothing is written.\n"
	"\n"
	"  -o, --output FILE   the .kabi to write (default: VMLINUX's name + .kabi)\n"
	"      --uapi DIR      also read the UAPI header tree (constants, ioctls)\n"
	"      --modules DIR   also read the .ko modules under DIR (ioctl structs)\n"
	"      --spec DIR      also load the contract (spec files) from DIR\n"
	"  -j, --jobs N        worker threads for modules (default: all CPUs)\n"
	"  -q, --quiet         no progress or summary on stderr\n"
	"  -h, --help          this text\n";

/*
 * Last step before the atomic commit: store the contract, if any. The
 * test suite sets KABI_DIFF_TEST_PAUSE=SECONDS to hold the process here,
 * with the temporary output complete on disk, and kill it (t0640).
 */
static int before_commit(struct kdb *db, void *ctx)
{
	const char *pause = getenv("KABI_DIFF_TEST_PAUSE");
	int err = ctx ? spec__store(ctx, db) : 0;

	if (!err && pause)
		sleep((unsigned)atoi(pause));
	return err;
}

int cmd_extract(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "uapi", required_argument, NULL, 'U' },
		{ "modules", required_argument, NULL, 'M' },
		{ "spec", required_argument, NULL, 'S' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct extract_conf conf = { 0 };
	struct extract_stats stats;
	struct kd_buf out = KD_BUF_INIT;
	struct timespec t0, t1;
	struct spec *spec = NULL;
	bool quiet = false;
	int c, err;

	while ((c = getopt_long(argc, argv, "o:j:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': conf.output = optarg; break;
		case 'U': conf.uapi_dir = optarg; break;
		case 'M': conf.modules_dir = optarg; break;
		case 'S': conf.spec_dir = optarg; break;
		case 'j':
			conf.jobs = atoi(optarg);
			if (conf.jobs <= 0)
				return cli_usage_error(extract_usage, "extract: --jobs needs a positive number");
			break;
		case 'q': quiet = true; break;
		case 'h': fputs(extract_usage, stdout); return KD_EXIT_OK;
		default: return cli_usage_error(extract_usage, "extract: bad option");
		}
	}
	if (optind + 1 != argc)
		return cli_usage_error(extract_usage, "extract: expected one VMLINUX, got %d arguments",
				       argc - optind);
	conf.vmlinux = argv[optind];
	if (!conf.output) {
		char *copy = strdup(conf.vmlinux);

		if (!copy || kd_buf_addf(&out, "%s.kabi", basename(copy))) {
			free(copy);
			kd_err("out of memory");
			return KD_EXIT_ERROR;
		}
		free(copy);
		conf.output = out.s;
	}
	conf.progress = !quiet && isatty(STDERR_FILENO);
	if (quiet)
		kd_log_set_level(KD_LOG_ERR);
	/* Parse the contract first: a typo should not cost an extraction. */
	if (conf.spec_dir) {
		if (spec__load_dir(conf.spec_dir, &spec)) {
			kd_buf_release(&out);
			return KD_EXIT_ERROR;
		}
	}
	conf.before_commit = before_commit;
	conf.before_commit_ctx = spec;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = extract__run(&conf, &stats);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!err && !quiet)
		fprintf(stderr, "kabi-diff: %s: %lld syscall slots, %lld signatures, %lld types,"
			" %lld constants, %lld ioctls, %lld modules, %lld problems in %.2f s\n",
			conf.output, (long long)stats.syscalls, (long long)stats.functions,
			(long long)stats.types, (long long)stats.constants, (long long)stats.ioctls,
			(long long)stats.modules, (long long)stats.problems,
			(double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	spec__free(spec);
	kd_buf_release(&out);
	return err ? KD_EXIT_ERROR : KD_EXIT_OK;
}
