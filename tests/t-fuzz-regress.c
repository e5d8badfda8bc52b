// SPDX-License-Identifier: GPL-2.0-only
/*
 * Replays every input of tests/fuzz/regress/<harness>/ through the fuzz
 * harnesses' entry points, built without libFuzzer (the Makefile links their
 * FUZZ_REPLAY objects; make check runs it, `make asan check` with the
 * sanitizers that found them). Each input runs in a child process, so a
 * crash fails that input by name instead of the test.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/buf.h"
#include "lib/mem.h"
#include "tests/fuzz/harness.h"
#include "tests/tap.h"

struct harness {
	const char *name;
	int (*one)(const uint8_t *data, size_t size);
};

static const struct harness harnesses[] = {
	{ "db", fuzz_db_one },
	{ "elf", fuzz_elf_one },
	{ "package", fuzz_package_one },
	{ "spec", fuzz_spec_one },
	{ "suppress", fuzz_suppress_one },
	{ "uapi", fuzz_uapi_one },
	{ "uapi-cache", fuzz_uapi_cache_one },
	{ "usage", fuzz_usage_one },
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Read @path whole into *data (malloc'ed). */
static int slurp(const char *path, uint8_t **data, size_t *size)
{
	struct kd_buf b = KD_BUF_INIT;
	int err = kd_buf_read_file(&b, path);

	if (err) {
		kd_buf_release(&b);
		return err;
	}
	*size = b.len;
	*data = (uint8_t *)kd_buf_detach(&b);
	return *data ? 0 : -ENOMEM;
}

static void replay(const struct harness *h, const char *path, const char *name)
{
	uint8_t *data = NULL;
	size_t size = 0;
	int status = 0;
	pid_t pid;

	if (slurp(path, &data, &size)) {
		ok(0, "%s/%s: cannot read", h->name, name);
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		alarm(120);	/* a hang (an input that once looped) fails instead of blocking make check */
		h->one(data, size);
		exit(0);	/* atexit: the harness removes its scratch directory */
	}
	free(data);
	ok(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	   WEXITSTATUS(status) == 0, "%s/%s replays cleanly (status 0x%x)", h->name, name, status);
}

int main(void)
{
	struct kd_buf dir = KD_BUF_INIT, path = KD_BUF_INIT, scratch = KD_BUF_INIT;
	size_t i, j;

	kd_buf_addf(&scratch, "%s/fuzz-regress", tap_tmpdir());
	mkdir(scratch.s, 0755);
	setenv("KD_FUZZ_TMPDIR", scratch.s, 1);
	for (i = 0; i < sizeof(harnesses) / sizeof(harnesses[0]); i++) {
		char **names = NULL;
		size_t n = 0, cap = 0;
		struct dirent *de;
		DIR *d;

		kd_buf_reset(&dir);
		kd_buf_addf(&dir, "%s/fuzz/regress/%s", tap_srcdir(), harnesses[i].name);
		d = opendir(dir.s);
		if (!d) {
			tap_skip(dir.s);
			continue;
		}
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.' || KD_GROW(names, cap, n + 1))
				continue;
			names[n++] = kd_strdup(de->d_name);
		}
		closedir(d);
		if (n)
			qsort(names, n, sizeof(*names), cmp_name);
		for (j = 0; j < n; j++) {
			kd_buf_reset(&path);
			kd_buf_addf(&path, "%s/%s", dir.s, names[j]);
			replay(&harnesses[i], path.s, names[j]);
			free(names[j]);
		}
		free(names);
	}
	kd_buf_release(&dir);
	kd_buf_release(&path);
	kd_buf_release(&scratch);
	return tap_done();
}
