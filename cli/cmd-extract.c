// SPDX-License-Identifier: GPL-2.0-only
/* kabi-diff extract: a kernel build into a .kabi database. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/builtin.h"
#include "cli/output-check.h"
#include "cli/parse-options.h"
#include "extract/extract.h"
#include "extract/input/kernel-input.h"
#include "extract/input/package.h"
#include "lib/arch.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/tmpfile.h"
#include "spec/spec.h"

static const struct cli_command extract_cmd = {
	.name = "extract",
	.head = "usage: kabi-diff extract VMLINUX [-o OUT.kabi] [options]\n"
		"       kabi-diff extract PACKAGE[,PACKAGE...] [-o OUT.kabi] [options]\n"
		"       kabi-diff extract --uapi DIR -o OUT.kabi   (headers alone)\n"
		"\n"
		"Read a kernel image with DWARF (the debug vmlinux) and write its user-space\n"
		"ABI -- syscall table, signatures, every reachable type layout -- into one\n"
		"SQLite file. The output is replaced atomically; on error nothing is written.\n"
		"Distribution packages (.deb: linux-image-*-dbg, linux-headers-*-common;\n"
		".rpm: kernel-debuginfo, kernel-headers) are read as streams: only the\n"
		"vmlinux and the UAPI headers are unpacked, next to OUT.kabi ($TMPDIR for\n"
		"-o -), and removed afterwards; the modules (with headers) pass through a\n"
		"spool of ~128 MB.\n"
		"A bootable x86 image (vmlinuz, bzImage) needs no debug package: its types\n"
		"come from its BTF, its symbols from the System.map beside it (what BTF\n"
		"cannot say is listed as coverage_gaps by show info).\n"
		"With --uapi and no VMLINUX, the header tree alone is read: its types as\n"
		"user space compiles them, its constants and ioctls; no syscall table.\n"
		"\n",
	.help_col = 22,
};

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

/*
 * @conf->vmlinux names packages: their vmlinux and headers are written
 * next to the output (kpkg__dir(), removed by kpkg__close()), or with
 * @to_stdout where the .kabi is built (the current directory is no
 * place for gigabytes), and read as a kernel directory, their modules
 * streamed; --uapi and --modules given on the command line win.
 */
static int from_packages(struct extract_conf *conf, bool to_stdout, struct kpkg **pkg,
			 struct kernel_input *ki, bool quiet)
{
	char *copy = kd_strdup(to_stdout ? kd_tmpdir_parent() : conf->output ? conf->output : "./x");
	int err;

	if (!copy) {
		kd_err("out of memory");
		return -ENOMEM;
	}
	err = kpkg__open(conf->vmlinux, to_stdout ? copy : dirname(copy), !quiet, pkg);
	free(copy);
	if (err)
		return err;
	err = kernel_input__probe(kpkg__dir(*pkg), ki);
	if (err)
		return err;
	conf->vmlinux = ki->vmlinux;
	if (!conf->uapi_dir)
		conf->uapi_dir = ki->uapi_dir;
	if (!conf->modules_dir)
		conf->modules_feed = kpkg__modules_feed(*pkg);
	return 0;
}

/* The output against every input: the kernel (or its packages), --uapi, --modules, --spec. */
static int check_output(const struct extract_conf *conf)
{
	const char *inputs[] = { conf->vmlinux, conf->uapi_dir, conf->modules_dir, conf->spec_dir };

	return cli_output_check(conf->output, inputs, sizeof(inputs) / sizeof(inputs[0]));
}

/*
 * -o -: SQLite writes a file, so the .kabi is built in a private directory
 * under $TMPDIR, copied to standard output, and removed.
 */
static int to_stdout_begin(char **dir, struct kd_buf *path)
{
	/* Registered for removal on a signal (best effort). */
	int err = kd_tmpdir_create(NULL, "kabi-diff.", dir);

	if (err == -ENOMEM)
		return err;
	if (err) {
		kd_err("%s/kabi-diff.XXXXXX: cannot create a temporary directory: %s",
		       kd_tmpdir_parent(), kd_strerror(err));
		return err;
	}
	return kd_buf_addf(path, "%s/out.kabi", *dir);
}

/* Copy the .kabi to standard output (with @copy), then remove @dir, which holds it. */
static int to_stdout_end(char *dir, struct kd_buf *path, bool copy)
{
	struct kd_buf data = KD_BUF_INIT;
	int err = 0;

	if (copy) {
		err = kd_buf_read_file(&data, path->s);
		if (!err && (fwrite(data.s, 1, data.len, stdout) != data.len || fflush(stdout))) {
			kd_err("standard output: write error: %s", strerror(errno));
			err = -EIO;
		} else if (err) {
			kd_err("%s: %s", path->s, kd_strerror(err));
		}
	}
	kd_tmpdir_remove(dir);
	kd_buf_release(&data);
	return err;
}

/* extract with the options parsed into @conf, @args its @nr operands. */
static int run_extract(struct extract_conf *conf, bool quiet, int nr, char **args)
{
	struct extract_stats stats;
	struct kd_buf out = KD_BUF_INIT;
	char *tmpdir = NULL;
	struct timespec t0, t1;
	const char *bench;
	struct spec *spec = NULL;
	struct kernel_input ki = { 0 };
	struct kpkg *pkg = NULL;
	bool to_stdout = false;
	int err, status = KD_EXIT_ERROR;

	if (!nr && conf->uapi_dir) {
		if (!conf->output)
			return cli_usage_error("extract", "extract: headers alone need -o OUT.kabi");
		if (conf->modules_dir)
			return cli_usage_error("extract", "extract: --modules needs a VMLINUX");
	} else if (conf->uapi_arch) {
		return cli_usage_error("extract", "extract: --arch is for headers alone (a"
				       " VMLINUX says its architecture)");
	} else if (nr != 1) {
		return cli_usage_error("extract", "extract: expected one VMLINUX, got %d arguments",
				       nr);
	} else {
		conf->vmlinux = args[0];
	}
	if (conf->output && !strcmp(conf->output, "-")) {
		if (isatty(STDOUT_FILENO))
			return cli_usage_error("extract", "extract: -o - writes a binary .kabi;"
					       " redirect standard output to a file or a pipe");
		to_stdout = true;
	} else if (conf->output && check_output(conf)) {
		return KD_EXIT_ERROR;
	}
	if (conf->vmlinux && kpkg__is_package_list(conf->vmlinux) &&
	    from_packages(conf, to_stdout, &pkg, &ki, quiet))
		goto out;
	if (!conf->output && !conf->vmlinux) {
		cli_usage_error("extract", "extract: headers alone need -o OUT.kabi");
		status = KD_EXIT_USAGE;
		goto out;
	}
	if (!conf->output) {
		char *copy = kd_strdup(conf->vmlinux);

		if (!copy || kd_buf_addf(&out, "%s.kabi", basename(copy))) {
			free(copy);
			kd_err("out of memory");
			goto out;
		}
		free(copy);
		conf->output = out.s;
		if (check_output(conf))
			goto out;
	}
	conf->progress = !quiet && isatty(STDERR_FILENO);
	/*
	 * No phase lines off a terminal: extract's errors are one line on
	 * stderr (tests and scripts read them so); diff has them for CI.
	 */
	conf->phases = false;
	if (quiet)
		kd_log_set_level(KD_LOG_ERR);
	/* Parse the contract first: a typo should not cost an extraction. */
	if (conf->spec_dir && spec__load_dir(conf->spec_dir, &spec))
		goto out;
	conf->before_commit = before_commit;
	conf->before_commit_ctx = spec;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = to_stdout ? to_stdout_begin(&tmpdir, &out) : 0;
	if (to_stdout)
		conf->output = out.s;
	if (!err)
		err = extract__run(conf, &stats);
	if (tmpdir) {
		int e = to_stdout_end(tmpdir, &out, !err);	/* removes and frees it */

		if (!err)
			err = e;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!err && !quiet)
		fprintf(stderr, "kabi-diff: %s: %lld syscall slots, %lld signatures, %lld types,"
			" %lld constants, %lld ioctls, %lld modules, %lld problems in %.2f s\n",
			to_stdout ? "standard output" : conf->output, (long long)stats.syscalls,
			(long long)stats.functions,
			(long long)stats.types, (long long)stats.constants, (long long)stats.ioctls,
			(long long)stats.modules, (long long)stats.problems,
			(double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	/* bench/run sets the vDSO pass against the whole (issue 31: within 2%). */
	if (!err && (bench = getenv("KABI_DIFF_BENCH_VDSO")) && !strcmp(bench, "time"))
		fprintf(stderr, "kabi-diff: vDSO pass %.1f ms of %.1f ms\n", stats.vdso_seconds * 1e3,
			((double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9) * 1e3);
	status = err ? KD_EXIT_ERROR : KD_EXIT_OK;
out:
	spec__free(spec);
	kd_buf_release(&out);
	kernel_input__release(&ki);
	kpkg__close(pkg);
	return status;
}

int cmd_extract(int argc, char **argv)
{
	struct extract_conf conf = { 0 };
	bool quiet = false;
	const struct cli_option opts[] = {
		{ CLI_STRING('o', "output", &conf.output, "FILE", "the .kabi to write (default: VMLINUX's"
			     " name + .kabi;\n'-': standard output, not a terminal)") },
		{ CLI_STRING(0, "uapi", &conf.uapi_dir, "DIR", "also read the UAPI header tree"
			     " (constants, ioctls)") },
		{ CLI_CALLBACK(0, "arch", &conf.uapi_arch, "ARCH", cli_opt_arch,
			       "headers alone: x86_64 or arm64 (default: x86_64 when the\n"
			       "tree has arch/x86, else the architecture it has)") },
		{ CLI_STRING(0, "modules", &conf.modules_dir, "DIR", "also read the .ko modules under"
			     " DIR (ioctl structs)") },
		{ CLI_STRING(0, "spec", &conf.spec_dir, "DIR", "also load the contract (spec files)"
			     " from DIR") },
		{ CLI_STRING(0, "system-map", &conf.system_map, "FILE", "a vmlinuz's symbols (default:"
			     " System.map-RELEASE\nor System.map beside it)") },
		{ CLI_STRING(0, "vdso", &conf.vdso_dir, "DIR", "the vDSO's debug images (vdso64.so;"
			     " arm64: vdso.so), for\nits signatures (default: VMLINUX's sibling vdso/,"
			     " if any)") },
		{ CLI_INT('j', "jobs", &conf.jobs, "N", 1, INT_MAX, "extract: --jobs needs a positive"
			  " number", "worker threads for modules (default: all CPUs)") },
		{ CLI_FLAG('q', "quiet", &quiet, "no progress or summary on stderr") },
		{ CLI_HELP() },
		{ CLI_END },
	};
	int argi, status = cli_parse(&extract_cmd, opts, argc, argv, &argi);

	if (status == CLI_PARSED)
		status = run_extract(&conf, quiet, argc - argi, argv + argi);
	return status;
}
