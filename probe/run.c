// SPDX-License-Identifier: GPL-2.0-only
/*
 * One probe run from a case set to parsed results: generate the C program,
 * build it static, pack the initramfs, boot, parse, and turn every way a
 * boot can fail into one clear error with the console's last lines. The
 * work directory is private (kd_tmpdir_create) and removed at the end, so
 * parallel runs never share files.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/tmpfile.h"
#include "probe/probe_internal.h"

#define STR_(x) #x
#define STR(x) STR_(x)

#define TAIL_LINES 15

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return -errno;
	if (fwrite(data, 1, len, f) != len)
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	if (err)
		kd_err("%s: cannot write: %s", path, kd_strerror(err));
	return err;
}

/* Why the boot gave no usable results, with the console's tail. */
static int boot_failure(const char *kernel, const char *why, const char *console, int err)
{
	struct kd_buf tail = KD_BUF_INIT;

	probe__tail(console, TAIL_LINES, &tail);
	kd_err("%s: probe failed: %s%s%s", kernel, why,
	       tail.len ? "; last console lines:\n" : " (no console output)",
	       tail.len ? tail.s : "");
	kd_buf_release(&tail);
	return err;
}

static int check_run(const char *kernel, const struct probe_run *run, const char *console,
		     unsigned timeout)
{
	struct kd_buf why = KD_BUF_INIT;
	int err = 0;

	if (run->panic)
		err = kd_buf_addf(&why, "kernel panic after %zu of %zu results", run->nr_results,
				  run->nr_cases);
	else if (!run->complete)
		err = kd_buf_addf(&why, "output ended after %zu of %zu results (timeout %u s?)",
				  run->nr_results, run->nr_cases, timeout);
	else if (run->nr_results < run->nr_cases)
		err = kd_buf_addf(&why, "%zu of %zu results lost (%zu damaged lines)",
				  run->nr_cases - run->nr_results, run->nr_cases, run->nr_bad_lines);
	if (!err && why.len)
		err = boot_failure(kernel, why.s, console, -EIO);
	kd_buf_release(&why);
	return err;
}

int probe__run(const struct probe_set *set, const struct probe_boot_conf *conf,
	       const char *cc, bool gzip, const char *kernel, struct probe_run *run,
	       struct probe_timing *timing)
{
	struct kd_buf src = KD_BUF_INIT, console = KD_BUF_INIT;
	struct kd_buf c_path = KD_BUF_INIT, bin = KD_BUF_INIT, cpio = KD_BUF_INIT;
	unsigned timeout = conf && conf->timeout_s ? conf->timeout_s : 60;
	const char *keep = getenv("KD_PROBE_KEEP");
	struct probe_timing t = { 0 };
	struct probe_fs fs = { 0 };
	char *dir = NULL;
	double t0;
	int err;

	memset(run, 0, sizeof(*run));
	if (access(kernel, R_OK) < 0) {
		err = -errno;
		kd_err("%s: %s", kernel, kd_strerror(err));
		return err;
	}
	err = kd_tmpdir_create(NULL, "kabi-probe.", &dir);
	if (err) {
		kd_err("%s/kabi-probe.XXXXXX: cannot create a work directory: %s",
		       kd_tmpdir_parent(), kd_strerror(err));
		return err;
	}
	err = kd_buf_addf(&c_path, "%s/probe.c", dir);
	if (!err)
		err = kd_buf_addf(&bin, "%s/probe", dir);
	if (!err)
		err = kd_buf_addf(&cpio, "%s/probe.cpio", dir);
	if (err)
		goto out;

	t0 = now_s();
	err = probe__gen_c(set, &src);
	if (!err)
		err = write_file(c_path.s, src.s, src.len);
	if (!err)
		err = probe__build(cc, conf ? conf->arch : NULL, c_path.s, bin.s);
	if (err)
		goto out;
	t.gen_build_s = now_s() - t0;

	t0 = now_s();
	if (conf && conf->fs && !strcmp(conf->fs, "ext4"))
		err = probe__fs_prepare(dir, conf->arch, conf->modules_dir, &fs);
	if (!err)
		err = probe__pack(bin.s, cpio.s, gzip, fs.image ? &fs : NULL);
	probe_fs__release(&fs);	/* the image is in the initramfs now */
	if (err)
		goto out;
	t.pack_s = now_s() - t0;

	t0 = now_s();
	err = probe__boot(conf, kernel, cpio.s, &console);
	t.boot_s = now_s() - t0;
	if (keep && *keep == '1') {
		kd_buf_reset(&src);
		if (!kd_buf_addf(&src, "%s/console.log", dir))
			write_file(src.s, console.s, console.len);
	}
	if (err == -ENOENT)
		goto out;	/* QEMU missing, already said */
	if (err == -ETIMEDOUT) {
		err = boot_failure(kernel, "timeout (--timeout)", console.s, err);
		goto out;
	}
	if (err == -KD_ELIMIT) {
		err = boot_failure(kernel, "more than " STR(PROBE_MAX_CONSOLE_MB) " MiB of console"
				   " output, the limit; QEMU stopped", console.s, err);
		goto out;
	}
	if (err == -KD_EUNSUPPORTED)
		goto out;	/* no machine for the arch, already said */
	if (err) {
		kd_buf_reset(&src);
		err = kd_buf_addf(&src, "QEMU failed (not a bootable %s kernel?)",
				  conf && conf->arch ? conf->arch : "x86_64");
		if (!err)
			err = boot_failure(kernel, src.s, console.s, -EIO);
		goto out;
	}
	err = probe__parse(set, console.s, run);
	if (err == -KD_EFORMAT) {
		err = boot_failure(kernel, strstr(console.s, "Kernel panic")
				   ? "kernel panic before the probe ran"
				   : "the probe never started (no start line on the console)",
				   console.s, -EIO);
		goto out;
	}
	if (err)
		goto out;
	err = check_run(kernel, run, console.s, timeout);
	if (!err && conf && conf->fs && strcmp(conf->fs, run->fs ? run->fs : "unknown"))
		err = boot_failure(kernel, conf && !strcmp(conf->fs, "ext4") ?
				   "the probe could not put its files on ext4 (--fs ext4)" :
				   "the probe's files are not on the file system asked for",
				   console.s, -EIO);
	if (err) {
		probe_run__release(run);
		goto out;
	}
	t.cases_s = run->elapsed_s;
	if (timing)
		*timing = t;
out:
	if (keep && *keep == '1') {
		kd_info("probe: work files kept in %s", dir);
		kd_tmpdir_forget(dir);
		free(dir);
	} else {
		kd_tmpdir_remove(dir);
	}
	kd_buf_release(&src);
	kd_buf_release(&console);
	kd_buf_release(&c_path);
	kd_buf_release(&bin);
	kd_buf_release(&cpio);
	return err;
}
