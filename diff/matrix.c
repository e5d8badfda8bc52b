// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pairs of a release matrix (diff/matrix.h). Within a stable series
 * and between the flavours of one release a break is rare, so each of
 * those pairs is worth a look of its own; comparing every kernel with
 * every other would bury them under the differences of unrelated builds.
 */
#include "diff/matrix.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mem.h"

/* A kernel's release read as a version and a flavour. */
struct kernel_key {
	char *version, *flavour;
	const char *arch;
	size_t index;		/* in the order given */
};

int matrix_split_release(const char *release, char **version, char **flavour)
{
	const char *p = release ? release : "", *word = p;

	/* Leading words that start with a digit are the version. */
	while (*word >= '0' && *word <= '9') {
		const char *dash = strchr(word, '-');

		if (!dash) {
			word += strlen(word);
			break;
		}
		word = dash + 1;
	}
	*version = kd_strndup(p, word > p && word[-1] == '-' && *word ? (size_t)(word - 1 - p)
						   : (size_t)(word - p));
	*flavour = kd_strdup(word);
	if (!*version || !*flavour) {
		free(*version);
		free(*flavour);
		*version = *flavour = NULL;
		return -ENOMEM;
	}
	return 0;
}

const char *matrix_pair_kind_name(enum matrix_pair_kind kind)
{
	return kind == MATRIX_UPDATE ? "update" : "flavour";
}

struct plan {
	struct matrix_pair *v;
	size_t n, cap;
};

static int add_pair(struct plan *p, enum matrix_pair_kind kind, size_t old, size_t new)
{
	if (KD_GROW(p->v, p->cap, p->n + 1))
		return -ENOMEM;
	p->v[p->n++] = (struct matrix_pair){ .kind = kind, .old = old, .new = new };
	return 0;
}

static bool same_series(const struct kernel_key *a, const struct kernel_key *b)
{
	return !strcmp(a->arch, b->arch) && !strcmp(a->flavour, b->flavour);
}

static bool same_release(const struct kernel_key *a, const struct kernel_key *b)
{
	return !strcmp(a->arch, b->arch) && !strcmp(a->version, b->version);
}

/* Versions in increasing order; equal ones in the order given (stable). */
static int by_version(const void *a, const void *b)
{
	const struct kernel_key *x = *(const struct kernel_key *const *)a;
	const struct kernel_key *y = *(const struct kernel_key *const *)b;
	int c = strverscmp(x->version, y->version);

	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Every update of the series that starts at @keys[first]. */
static int plan_series(struct kernel_key *keys, size_t n, size_t first, bool *done,
		       struct kernel_key **series, struct plan *p)
{
	size_t i, m = 0;

	for (i = first; i < n; i++)
		if (!done[i] && same_series(&keys[first], &keys[i])) {
			done[i] = true;
			series[m++] = &keys[i];
		}
	qsort(series, m, sizeof(*series), by_version);
	for (i = 1; i < m; i++)
		if (strcmp(series[i - 1]->version, series[i]->version) &&
		    add_pair(p, MATRIX_UPDATE, series[i - 1]->index, series[i]->index))
			return -ENOMEM;
	return 0;
}

/* Every flavour of the release of @keys[first] against its base. */
static int plan_release(struct kernel_key *keys, size_t n, size_t first, bool *done,
			struct plan *p)
{
	const char *base_flavour = NULL;
	size_t i, base = first;

	for (i = 0; i < n && !base_flavour; i++)
		if (!strcmp(keys[i].arch, keys[first].arch))
			base_flavour = keys[i].flavour;
	for (i = first; i < n; i++)
		if (same_release(&keys[first], &keys[i]) && !strcmp(keys[i].flavour, base_flavour)) {
			base = i;
			break;
		}
	for (i = first; i < n; i++) {
		if (!same_release(&keys[first], &keys[i]))
			continue;
		done[i] = true;
		if (strcmp(keys[i].flavour, keys[base].flavour) &&
		    add_pair(p, MATRIX_FLAVOUR, base, i))
			return -ENOMEM;
	}
	return 0;
}

int matrix_plan(const struct matrix_kernel *k, size_t n, struct matrix_pair **pairs,
		size_t *nr_pairs)
{
	struct kernel_key *keys = kd_calloc(n ? n : 1, sizeof(*keys));
	struct kernel_key **series = kd_calloc(n ? n : 1, sizeof(*series));
	bool *done = kd_calloc(n ? n : 1, sizeof(*done));
	struct plan p = { 0 };
	size_t i;
	int err = keys && series && done ? 0 : -ENOMEM;

	for (i = 0; !err && i < n; i++) {
		keys[i].arch = k[i].arch ? k[i].arch : "";
		keys[i].index = i;
		err = matrix_split_release(k[i].release, &keys[i].version, &keys[i].flavour);
	}
	for (i = 0; !err && i < n; i++)
		if (!done[i])
			err = plan_series(keys, n, i, done, series, &p);
	if (!err)
		memset(done, 0, n * sizeof(*done));
	for (i = 0; !err && i < n; i++)
		if (!done[i])
			err = plan_release(keys, n, i, done, &p);
	for (i = 0; keys && i < n; i++) {
		free(keys[i].version);
		free(keys[i].flavour);
	}
	free(keys);
	free(series);
	free(done);
	if (err) {
		free(p.v);
		return err;
	}
	*pairs = p.v;
	*nr_pairs = p.n;
	return 0;
}
