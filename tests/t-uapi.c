// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the UAPI header reader (extract/uapi*.c): the expression
 * evaluator's C semantics, the fixture trees in tests/fixtures/uapi (both
 * layouts) with exact values and command numbers, and the .kabi round
 * trip. The compiled-probe comparison lives in tests/uapi-probe.sh, which
 * uses this program's dump mode:
 *
 *   t-uapi --dump DIR [--sizes FILE]
 *
 * prints one tab-separated line per constant, ioctl and problem; FILE
 * holds "TYPE<TAB>SIZE" lines and stands in for DWARF as the sizeof source.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "extract/uapi.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "tests/tap.h"

/* --- dump mode ------------------------------------------------------------ */
struct sizes {
	char **names;
	int64_t *sizes;
	size_t n;
};

static int sizes_cb(const char *type, struct uapi_type_info *info, void *ctx)
{
	const struct sizes *sz = ctx;
	size_t i;

	for (i = 0; i < sz->n; i++)
		if (!strcmp(sz->names[i], type)) {
			info->size = sz->sizes[i];
			return 1;
		}
	return 0;
}

static int load_sizes(const char *path, struct sizes *sz)
{
	char line[4096];
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t');
		void *p;

		if (!tab)
			continue;
		*tab = 0;
		p = realloc(sz->names, (sz->n + 1) * sizeof(*sz->names));
		if (!p)
			break;
		sz->names = p;
		p = realloc(sz->sizes, (sz->n + 1) * sizeof(*sz->sizes));
		if (!p)
			break;
		sz->sizes = p;
		sz->names[sz->n] = strdup(line);
		sz->sizes[sz->n++] = strtoll(tab + 1, NULL, 10);
	}
	fclose(f);
	return 0;
}

static bool ctype_unsigned(const char *ctype)
{
	return !strncmp(ctype, "unsigned", 8);
}

static int dump(const char *dir, const char *sizes_path)
{
	struct sizes sz = { 0 };
	struct uapi_result *r = NULL;
	size_t i;
	int err;

	if (sizes_path && load_sizes(sizes_path, &sz)) {
		fprintf(stderr, "%s: cannot read\n", sizes_path);
		return 2;
	}
	err = uapi__scan(dir, sizes_cb, &sz, &r);
	if (err) {
		fprintf(stderr, "%s: %s\n", dir, kd_strerror(err));
		return 1;
	}
	for (i = 0; i < r->nr_consts; i++) {
		const struct kd_constant *c = &r->consts[i];

		if (ctype_unsigned(c->ctype))
			printf("const\t%s\t%" PRIu64, c->name, (uint64_t)c->value);
		else
			printf("const\t%s\t%" PRId64, c->name, c->value);
		printf("\t%s\t%s\t%s:%d\n", c->ctype, r->const_roots[i], c->file, c->line);
	}
	for (i = 0; i < r->nr_ioctls; i++) {
		const struct kd_ioctl *io = &r->ioctls[i];

		printf("ioctl\t%s\t", io->name);
		if (io->has_cmd)
			printf("%" PRIu32, io->cmd);
		else
			printf("-");
		printf("\t%s\t%d\t%d\t", io->dir, io->type_char, io->nr);
		if (io->has_size)
			printf("%" PRId64, io->size);
		else
			printf("-");
		printf("\t%d\t%s\t%s\t%s:%d\n", io->size_trusted, io->arg_type_text ? io->arg_type_text : "",
		       r->ioctl_roots[i], io->file, io->line);
	}
	for (i = 0; i < r->nr_problems; i++)
		printf("problem\t%s\t%s\n", r->problems[i].location ? r->problems[i].location : "",
		       r->problems[i].message);
	printf("stats\theaders=%" PRId64 " constants=%" PRId64 " ioctls=%" PRId64 " unsized=%" PRId64
	       " skipped=%" PRId64 " problems=%" PRId64 "\n", r->stats.headers, r->stats.constants,
	       r->stats.ioctls, r->stats.ioctls_unsized, r->stats.skipped, r->stats.problems);
	uapi_result__free(r);
	for (i = 0; i < sz.n; i++)
		free(sz.names[i]);
	free(sz.names);
	free(sz.sizes);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--dump"))
		return dump(argv[2], argc >= 5 && !strcmp(argv[3], "--sizes") ? argv[4] : NULL);
	return tap_done();
}
