// SPDX-License-Identifier: GPL-2.0-only
/* The rule rows of a documentation table; see doc-table.h. */
#include "tests/doc-table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/mem.h"
#include "tests/tap.h"

/* "| `rule-id` |" at the start of @line? */
static int is_rule_row(const char *line)
{
	const char *p = line + 3;

	if (strncmp(line, "| `", 3))
		return 0;
	while ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-')
		p++;
	return p > line + 3 && !strncmp(p, "` |", 3);
}

static void rows_free(char **rows, long n)
{
	long i;

	for (i = 0; i < n; i++)
		free(rows[i]);
	free(rows);
}

/* The rule rows of @relpath, in file order, without newlines: the count, or -1. */
static long rule_rows(const char *relpath, char ***rows)
{
	struct kd_buf path = KD_BUF_INIT;
	char *line = NULL, **v = NULL;
	size_t cap = 0, len = 0;
	long n = 0;
	ssize_t got;
	FILE *f;

	*rows = NULL;
	if (kd_buf_addf(&path, "%s/../%s", tap_srcdir(), relpath))
		return -1;
	f = fopen(path.s, "r");
	kd_buf_release(&path);
	if (!f)
		return -1;
	while ((got = getline(&line, &len, f)) >= 0) {
		if (got && line[got - 1] == '\n')
			line[got - 1] = '\0';
		if (!is_rule_row(line))
			continue;
		if (KD_GROW(v, cap, (size_t)n + 1) || !(v[n] = kd_strdup(line))) {
			rows_free(v, n);
			n = -1;
			v = NULL;
			break;
		}
		n++;
	}
	free(line);
	fclose(f);
	*rows = v;
	return n;
}

void doc_rules_match(const char *relpath, size_t n, doc_row_fn row, const void *ctx)
{
	struct kd_buf want = KD_BUF_INIT;
	char **rows;
	long nr_rows = rule_rows(relpath, &rows);
	size_t i, bad = 0;

	ok(nr_rows == (long)n, "%s has as many rules as the code (%ld rows, %zu rules)",
	   relpath, nr_rows, n);
	for (i = 0; i < n; i++) {
		kd_buf_reset(&want);
		row(i, &want, ctx);
		if (nr_rows < 0 || i >= (size_t)nr_rows || strcmp(rows[i], want.s)) {
			printf("# %s row %zu: %s\n#      the code's: %s\n", relpath, i + 1,
			       nr_rows > 0 && i < (size_t)nr_rows ? rows[i] : "(none)", want.s);
			bad++;
		}
	}
	ok(nr_rows >= 0 && !bad, "every rule of the code is %s's row, in order (%zu rules)",
	   relpath, n);
	if (nr_rows > 0)
		rows_free(rows, nr_rows);
	kd_buf_release(&want);
}
