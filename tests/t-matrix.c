// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which pairs a release matrix compares (diff/matrix.h): releases split
 * into version and flavour as Debian, Fedora and a bare build name them,
 * updates in version order whatever order they were given in, flavours
 * against the base flavour, and no pair across architectures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff/matrix.h"
#include "tests/tap.h"

static void split_is(const char *release, const char *version, const char *flavour)
{
	char *v = NULL, *f = NULL, what[128];

	ok(!matrix_split_release(release, &v, &f), "split %s", release);
	snprintf(what, sizeof(what), "%s: version", release);
	is_str(v, version, what);
	snprintf(what, sizeof(what), "%s: flavour", release);
	is_str(f, flavour, what);
	free(v);
	free(f);
}

/* The plan of @k as "u0-1 f0-2 ...", one word a pair. */
static void plan_is(const struct matrix_kernel *k, size_t n, const char *want, const char *what)
{
	struct matrix_pair *p = NULL;
	size_t nr = 0, i, len = 0;
	char got[256] = "";

	ok(!matrix_plan(k, n, &p, &nr), "%s: planned", what);
	for (i = 0; i < nr && len < sizeof(got) - 32; i++)
		len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%c%zu-%zu", i ? " " : "",
					p[i].kind == MATRIX_UPDATE ? 'u' : 'f', p[i].old, p[i].new);
	is_str(got, want, what);
	free(p);
}

int main(void)
{
	split_is("6.1.0-47-amd64", "6.1.0-47", "amd64");
	split_is("6.1.0-47-cloud-amd64", "6.1.0-47", "cloud-amd64");
	split_is("6.12.107+deb12-arm64-16k", "6.12.107+deb12", "arm64-16k");
	split_is("6.5.6-300.fc39.x86_64", "6.5.6-300.fc39.x86_64", "");
	split_is("6.99.1-fixture", "6.99.1", "fixture");
	split_is("HEAD~1", "", "HEAD~1");
	split_is(NULL, "", "");

	{
		/* Debian's matrix, given out of order: updates sorted by version
		 * (6.12.111 after 6.12.107 although named first; -50 before -57,
		 * not as strcmp() would have 6.1.0-5x), flavours against amd64. */
		const struct matrix_kernel k[] = {
			{ "6.12.111+deb12-amd64", "x86_64" },		/* 0 */
			{ "6.12.107+deb12-amd64", "x86_64" },		/* 1 */
			{ "6.12.107+deb12-cloud-amd64", "x86_64" },	/* 2 */
			{ "6.12.107+deb12-arm64", "arm64" },		/* 3 */
			{ "6.12.107+deb12-arm64-16k", "arm64" },	/* 4 */
			{ "6.12.107+deb12-rt-amd64", "x86_64" },	/* 5 */
		};

		plan_is(k, 6, "u1-0 f1-2 f1-5 f3-4", "one update, two amd64 flavours, arm64-16k on arm64");
	}
	{
		const struct matrix_kernel k[] = {
			{ "6.1.0-57-amd64", "x86_64" },
			{ "6.1.0-9-amd64", "x86_64" },
			{ "6.1.0-50-amd64", "x86_64" },
		};

		plan_is(k, 3, "u1-2 u2-0", "versions ordered as sort -V: -9, -50, -57");
	}
	{
		/* The base flavour is missing at 6.1.0-50: its first kernel is the base. */
		const struct matrix_kernel k[] = {
			{ "6.1.0-47-amd64", "x86_64" },
			{ "6.1.0-50-cloud-amd64", "x86_64" },
			{ "6.1.0-50-rt-amd64", "x86_64" },
			{ "6.1.0-47-cloud-amd64", "x86_64" },
		};

		plan_is(k, 4, "u3-1 f0-3 f1-2", "a version without the base flavour");
	}
	{
		const struct matrix_kernel k[] = {
			{ "6.1.0-47-amd64", "x86_64" },
			{ "6.1.0-47-amd64", "x86_64" },
			{ "6.1.0-47-amd64", "arm64" },
		};

		plan_is(k, 3, "", "the same release twice, and across architectures: no pair");
	}
	return tap_done();
}
