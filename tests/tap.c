// SPDX-License-Identifier: GPL-2.0-only
/* TAP output for the unit tests; see tap.h. */
#include "tap.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/buf.h"

static int tests_run, tests_failed;

void tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	tests_run++;
	if (!cond)
		tests_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tests_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		printf("#   at %s:%d\n", file, line);
	fflush(stdout);
}

void tap_eq_int(int64_t got, int64_t want, const char *file, int line, const char *what)
{
	tap_ok(got == want, file, line, "%s", what);
	if (got != want)
		printf("#   got %" PRId64 ", want %" PRId64 "\n", got, want);
}

void tap_eq_str(const char *got, const char *want, const char *file, int line, const char *what)
{
	int same = (got && want) ? !strcmp(got, want) : got == want;

	tap_ok(same, file, line, "%s", what);
	if (!same)
		printf("#   got '%s', want '%s'\n", got ? got : "(null)", want ? want : "(null)");
}

void tap_skip(const char *why)
{
	printf("ok %d # SKIP %s\n", ++tests_run, why);
}

int tap_done(void)
{
	printf("1..%d\n", tests_run);
	/* Now, not at exit: LeakSanitizer's report ends the process before stdio is flushed. */
	fflush(stdout);
	return tests_failed ? 1 : 0;
}

const char *tap_srcdir(void)
{
	const char *d = getenv("KD_SRCDIR");

	return d ? d : ".";
}

const char *tap_tmpdir(void)
{
	const char *d = getenv("KD_TMPDIR");

	return d ? d : "/tmp";
}

/* @dir + "/" + the formatted name. */
static char *vpath(const char *dir, const char *fmt, va_list ap)
{
	struct kd_buf b = KD_BUF_INIT;

	if (kd_buf_addf(&b, "%s/", dir) || kd_buf_vaddf(&b, fmt, ap)) {
		kd_buf_release(&b);
		tap_ok(0, __FILE__, __LINE__, "a path in %s: out of memory", dir);
		return NULL;
	}
	return kd_buf_detach(&b);
}

char *tap_path(const char *dir, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = vpath(dir, fmt, ap);
	va_end(ap);
	return p;
}

char *tap_write_tmp(const char *name, const char *text)
{
	char *path = tap_tmp_path("%s", name);
	FILE *f = path ? fopen(path, "w") : NULL;

	if (!f || fputs(text, f) == EOF || fclose(f)) {
		tap_ok(0, __FILE__, __LINE__, "write %s", path ? path : name);
		free(path);
		return NULL;
	}
	return path;
}

char *tap_output(const char *fmt, ...)
{
	struct kd_buf cmd = KD_BUF_INIT, out = KD_BUF_INIT;
	char chunk[4096];
	size_t n;
	va_list ap;
	FILE *p;
	int err;

	va_start(ap, fmt);
	err = kd_buf_vaddf(&cmd, fmt, ap);
	va_end(ap);
	p = err ? NULL : popen(cmd.s, "r");
	if (!p) {
		tap_ok(0, __FILE__, __LINE__, "run %s", cmd.s ? cmd.s : fmt);
		kd_buf_release(&cmd);
		return NULL;
	}
	kd_buf_adds(&out, "");
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		kd_buf_add(&out, chunk, n);
	pclose(p);
	kd_buf_release(&cmd);
	return kd_buf_detach(&out);
}

char *tap_link_dir(const char *name, const char *from, const char *const *files)
{
	char *dir = tap_tmp_path("%s", name);
	size_t i;

	if (!dir)
		return NULL;
	mkdir(dir, 0755);
	for (i = 0; files[i]; i++) {
		char *src = tap_src_path("%s/%s", from, files[i]);
		char *dst = tap_tmp_path("%s/%s", name, files[i]);

		if (dst)
			unlink(dst);
		if (!src || !dst || symlink(src, dst))
			tap_ok(0, __FILE__, __LINE__, "link %s to %s", dst ? dst : files[i],
			       src ? src : files[i]);
		free(src);
		free(dst);
	}
	return dir;
}
