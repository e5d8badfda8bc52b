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

/* One run's private work directory and the files in it. */
struct work {
	char *dir;
	bool keep;		/* $KD_PROBE_KEEP=1: the files stay, the console's log with them */
	struct kd_buf c_path, bin, cpio;
	struct kd_buf console, scratch;
};

static int work_open(struct work *w)
{
	const char *keep = getenv("KD_PROBE_KEEP");
	int err = kd_tmpdir_create(NULL, "kabi-probe.", &w->dir);

	w->keep = keep && *keep == '1';
	if (err) {
		kd_err("%s/kabi-probe.XXXXXX: cannot create a work directory: %s",
		       kd_tmpdir_parent(), kd_strerror(err));
		return err;
	}
	err = kd_buf_addf(&w->c_path, "%s/probe.c", w->dir);
	if (!err)
		err = kd_buf_addf(&w->bin, "%s/probe", w->dir);
	return err ? err : kd_buf_addf(&w->cpio, "%s/probe.cpio", w->dir);
}

static void work_close(struct work *w)
{
	if (w->dir && w->keep) {
		kd_info("probe: work files kept in %s", w->dir);
		kd_tmpdir_forget(w->dir);
		free(w->dir);
	} else if (w->dir) {
		kd_tmpdir_remove(w->dir);
	}
	kd_buf_release(&w->scratch);
	kd_buf_release(&w->console);
	kd_buf_release(&w->c_path);
	kd_buf_release(&w->bin);
	kd_buf_release(&w->cpio);
}

/* The probe program generated from @set and built static. */
static int gen_build(struct work *w, const struct probe_set *set, const char *cc,
		     const struct probe_boot_conf *conf)
{
	int err = probe__gen_c(set, &w->scratch);

	if (!err)
		err = write_file(w->c_path.s, w->scratch.s, w->scratch.len);
	return err ? err : probe__build(cc, conf ? conf->arch : NULL, w->c_path.s, w->bin.s);
}

/* The initramfs: the program, and an ext4 image when the files must be on ext4. */
static int pack(struct work *w, const struct probe_boot_conf *conf, bool gzip)
{
	struct probe_fs fs = { 0 };
	int err = 0;

	if (conf && conf->fs && !strcmp(conf->fs, "ext4"))
		err = probe__fs_prepare(w->dir, conf->arch, conf->modules_dir, &fs);
	if (!err)
		err = probe__pack(w->bin.s, w->cpio.s, gzip, fs.image ? &fs : NULL);
	probe_fs__release(&fs);	/* the image is in the initramfs now */
	return err;
}

/* probe__boot()'s error @err as what the user is told, with the console's tail. */
static int boot_error(struct work *w, const struct probe_boot_conf *conf, const char *kernel,
		      int err)
{
	const char *console = w->console.s;

	switch (err) {
	case 0:
	case -ENOENT:		/* QEMU missing, already said */
	case -KD_EUNSUPPORTED:	/* no machine for the arch, already said */
		return err;
	case -ETIMEDOUT:
		return boot_failure(kernel, "timeout (--timeout)", console, err);
	case -KD_ELIMIT:
		return boot_failure(kernel, "more than " STR(PROBE_MAX_CONSOLE_MB) " MiB of console"
				    " output, the limit; QEMU stopped", console, err);
	default:
		kd_buf_reset(&w->scratch);
		err = kd_buf_addf(&w->scratch, "QEMU failed (not a bootable %s kernel?)",
				  conf && conf->arch ? conf->arch : "x86_64");
		return err ? err : boot_failure(kernel, w->scratch.s, console, -EIO);
	}
}

/* The console parsed into @run, checked whole and on the file system asked for. */
static int results(struct work *w, const struct probe_set *set, const struct probe_boot_conf *conf,
		   const char *kernel, struct probe_run *run)
{
	unsigned timeout = conf && conf->timeout_s ? conf->timeout_s : 60;
	const char *console = w->console.s;
	int err = probe__parse(set, console, run);

	if (err == -KD_EFORMAT)
		return boot_failure(kernel, strstr(console, "Kernel panic")
				    ? "kernel panic before the probe ran"
				    : "the probe never started (no start line on the console)",
				    console, -EIO);
	if (err)
		return err;
	err = check_run(kernel, run, console, timeout);
	if (!err && conf && conf->fs && strcmp(conf->fs, run->fs ? run->fs : "unknown"))
		err = boot_failure(kernel, conf && !strcmp(conf->fs, "ext4") ?
				   "the probe could not put its files on ext4 (--fs ext4)" :
				   "the probe's files are not on the file system asked for",
				   console, -EIO);
	if (err)
		probe_run__release(run);
	return err;
}

int probe__run(const struct probe_set *set, const struct probe_boot_conf *conf,
	       const char *cc, bool gzip, const char *kernel, struct probe_run *run,
	       struct probe_timing *timing)
{
	struct work w = { .c_path = KD_BUF_INIT, .bin = KD_BUF_INIT, .cpio = KD_BUF_INIT,
			  .console = KD_BUF_INIT, .scratch = KD_BUF_INIT };
	struct probe_timing t = { 0 };
	double t0;
	int err;

	memset(run, 0, sizeof(*run));
	if (access(kernel, R_OK) < 0) {
		err = -errno;
		kd_err("%s: %s", kernel, kd_strerror(err));
		return err;
	}
	err = work_open(&w);
	if (err)
		goto out;
	t0 = now_s();
	err = gen_build(&w, set, cc, conf);
	if (err)
		goto out;
	t.gen_build_s = now_s() - t0;
	t0 = now_s();
	err = pack(&w, conf, gzip);
	if (err)
		goto out;
	t.pack_s = now_s() - t0;
	t0 = now_s();
	err = probe__boot(conf, kernel, w.cpio.s, &w.console);
	t.boot_s = now_s() - t0;
	if (w.keep) {
		kd_buf_reset(&w.scratch);
		if (!kd_buf_addf(&w.scratch, "%s/console.log", w.dir))
			write_file(w.scratch.s, w.console.s, w.console.len);
	}
	err = boot_error(&w, conf, kernel, err);
	if (!err)
		err = results(&w, set, conf, kernel, run);
	if (!err) {
		t.cases_s = run->elapsed_s;
		if (timing)
			*timing = t;
	}
out:
	work_close(&w);
	return err;
}
