/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared plumbing of the fuzz harnesses (tests/fuzz/fuzz-*.c): a private
 * scratch directory (under $KD_FUZZ_TMPDIR, else on /dev/shm when it exists,
 * so the SQLite writes of every run cost no disk syncs), writing an input to a file there, and a
 * silent log. Each harness defines fuzz_<name>_one(); libFuzzer calls it
 * through LLVMFuzzerTestOneInput unless FUZZ_REPLAY is defined, in which
 * case tests/t-fuzz-regress.c includes the harnesses and replays the saved
 * inputs of tests/fuzz/regress/<name>/ without libFuzzer.
 */
#ifndef KD_FUZZ_COMMON_H
#define KD_FUZZ_COMMON_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/buf.h"
#include "lib/err.h"

static char fuzz_dir[4096];

static inline int fuzz_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static inline void fuzz_rm_tmpdir(void)
{
	if (fuzz_dir[0])
		nftw(fuzz_dir, fuzz_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The scratch directory, created on first use and removed at exit. */
static inline const char *fuzz_tmpdir(void)
{
	char *dir = fuzz_dir;
	const char *base;

	if (dir[0])
		return dir;
	base = getenv("KD_FUZZ_TMPDIR");
	if (!base)
		base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(dir, sizeof(fuzz_dir), "%s/kabi-fuzz.XXXXXX", base);
	if (!mkdtemp(dir)) {
		perror("kabi-fuzz: mkdtemp");
		abort();
	}
	atexit(fuzz_rm_tmpdir);
	kd_log_set_level(KD_LOG_QUIET);
	return dir;
}

/* "@tmpdir/@name" in @b (reset first). */
static inline const char *fuzz_path(struct kd_buf *b, const char *name)
{
	kd_buf_reset(b);
	if (kd_buf_addf(b, "%s/%s", fuzz_tmpdir(), name))
		abort();
	return b->s;
}

/* Write @size bytes to @path (replacing it); aborts on I/O errors, which are the harness's. */
static inline void fuzz_write(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f)) {
		perror(path);
		abort();
	}
}

/* A file the library code must never leave behind: DEST.tmp.* or DEST itself. */
static inline void fuzz_remove(const char *path)
{
	if (unlink(path) && errno != ENOENT) {
		perror(path);
		abort();
	}
}

/*
 * Abort (a finding) when an entry of the scratch directory starts with
 * @prefix: a failed writer must leave neither its output nor a temporary.
 */
static inline void fuzz_assert_no_file(const char *prefix)
{
	size_t n = strlen(prefix);
	struct dirent *de;
	DIR *d = opendir(fuzz_tmpdir());

	if (!d)
		abort();
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, prefix, n)) {
			fprintf(stderr, "kabi-fuzz: %s/%s left behind by a failed run\n",
				fuzz_tmpdir(), de->d_name);
			abort();
		}
	}
	closedir(d);
}

/* libFuzzer's entry point, calling the harness's @one (none when replayed). */
#ifdef FUZZ_REPLAY
#define FUZZ_ENTRY(one)
#else
#define FUZZ_ENTRY(one)								\
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);		\
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)		\
	{									\
		return one(data, size);						\
	}
#endif

#endif
