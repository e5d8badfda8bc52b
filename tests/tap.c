// SPDX-License-Identifier: GPL-2.0-only
/* TAP output for the unit tests; see tap.h. */
#include "tap.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
