// SPDX-License-Identifier: GPL-2.0-only
/*
 * The text of a compile cache index (KEY.idx, compile-cache.c), parsed and
 * written. The cache directory is shared (a CI cache, another user's
 * home), so an index is hostile input: any line this parser would not
 * write, a count out of range or a NUL byte makes the whole index invalid,
 * which the cache treats as a miss. Parsing checks no file; verifying the
 * dependencies and the object is the cache's job.
 *
 *   kabi-diff uapi-cc 2
 *   headers N
 *   compiled N                  (at most headers)
 *   object HASH SIZE | object no
 *   dep HASH SIZE /abs/path     a file outside the tree (glibc's headers)
 *   tdep HASH SIZE I rel/path   a file the compiler reached through the
 *                               tree's directory I, verified against the
 *                               tree being looked up, not the one that
 *                               filled the entry
 *   fail HEADER<TAB>MESSAGE
 */
#include "extract/uapi/compile_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/mem.h"
#include "lib/str.h"

#define INDEX_FORMAT "kabi-diff uapi-cc 2"
/* More directories than any tree has (struct utree holds a handful). */
#define INDEX_MAX_DIR 64

/* Strictly decimal, no sign, no overflow; @end is where it stopped. */
static bool parse_u64(const char *p, const char **end, uint64_t *out)
{
	uint64_t v = 0;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*end = p;
	*out = v;
	return true;
}

/* Exactly 16 lower-case hex digits, as uapi_cc_index__format() writes a hash. */
static bool parse_hash(const char *p, const char **end, uint64_t *out)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 16; i++, p++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;

		if (d < 0)
			return false;
		v = v << 4 | (uint64_t)d;
	}
	*end = p;
	*out = v;
	return true;
}

/* "HASH SIZE " at @p; @p is left after the space. */
static bool parse_hash_size(const char **p, uint64_t *hash, uint64_t *size)
{
	const char *q;

	if (!parse_hash(*p, &q, hash) || *q != ' ' || !parse_u64(q + 1, &q, size) || *q != ' ')
		return false;
	*p = q + 1;
	return true;
}

int uapi_cc_index__add_dep(struct uapi_cc_index *ix, uint64_t hash, uint64_t size, int dir,
			   const char *path)
{
	struct uapi_cc_dep *d;

	if (KD_GROW(ix->deps, ix->cap_deps, ix->nr_deps + 1))
		return -ENOMEM;
	d = &ix->deps[ix->nr_deps];
	d->path = kd_strdup(path);
	if (!d->path)
		return -ENOMEM;
	d->hash = hash;
	d->size = size;
	d->dir = dir;
	ix->nr_deps++;
	return 0;
}

static int add_failure(struct uapi_cc_index *ix, const char *header, size_t hlen, const char *message)
{
	struct uapi_cc_failure *f;

	if (KD_GROW(ix->failures, ix->cap_failures, ix->nr_failures + 1))
		return -ENOMEM;
	f = &ix->failures[ix->nr_failures];
	f->header = kd_strndup(header, hlen);
	f->message = kd_strdup(message);
	if (!f->header || !f->message) {
		free(f->header);
		free(f->message);
		return -ENOMEM;
	}
	ix->nr_failures++;
	return 0;
}

/* One line (NUL-terminated, without its newline): 1 taken, 0 invalid, -ENOMEM. */
static int parse_line(struct uapi_cc_index *ix, const char *line, bool *seen_object)
{
	const char *p, *end;
	uint64_t hash, size, v;

	if (kd_starts_with(line, "headers ") || kd_starts_with(line, "compiled ")) {
		bool headers = line[0] == 'h';

		p = line + (headers ? 8 : 9);
		if (!parse_u64(p, &end, &v) || *end || v > SIZE_MAX)
			return 0;
		*(headers ? &ix->nr_headers : &ix->nr_compiled) = (size_t)v;
		return 1;
	}
	if (kd_starts_with(line, "object ")) {
		if (*seen_object)
			return 0;
		*seen_object = true;
		if (!strcmp(line + 7, "no"))
			return 1;
		p = line + 7;
		if (!parse_hash(p, &end, &hash) || *end != ' ' || !parse_u64(end + 1, &end, &size) || *end)
			return 0;
		ix->has_object = true;
		ix->object_hash = hash;
		ix->object_size = size;
		return 1;
	}
	if (kd_starts_with(line, "dep ")) {
		p = line + 4;
		if (!parse_hash_size(&p, &hash, &size) || *p != '/')
			return 0;
		return uapi_cc_index__add_dep(ix, hash, size, -1, p) ? -ENOMEM : 1;
	}
	if (kd_starts_with(line, "tdep ")) {
		p = line + 5;
		if (!parse_hash_size(&p, &hash, &size) || !parse_u64(p, &end, &v) || v >= INDEX_MAX_DIR ||
		    *end != ' ' || !end[1] || end[1] == '/')
			return 0;
		return uapi_cc_index__add_dep(ix, hash, size, (int)v, end + 1) ? -ENOMEM : 1;
	}
	if (kd_starts_with(line, "fail ")) {
		const char *tab = strchr(line + 5, '\t');

		if (!tab || tab == line + 5 || strchr(tab + 1, '\t'))
			return 0;
		return add_failure(ix, line + 5, (size_t)(tab - line - 5), tab + 1) ? -ENOMEM : 1;
	}
	return 0;
}

int uapi_cc_index__parse(const char *text, size_t len, struct uapi_cc_index *ix)
{
	size_t head = strlen(INDEX_FORMAT);
	bool seen_object = false;
	const char *p = text, *end = text + len;
	char *line = NULL;
	int rc = 1;

	memset(ix, 0, sizeof(*ix));
	if (memchr(text, '\0', len) || len <= head || memcmp(text, INDEX_FORMAT, head) ||
	    text[head] != '\n' || text[len - 1] != '\n')
		return 0;
	for (p += head + 1; rc > 0 && p < end; ) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		line = kd_strndup(p, (size_t)(nl - p));
		if (!line) {
			rc = -ENOMEM;
			break;
		}
		rc = parse_line(ix, line, &seen_object);
		free(line);
		p = nl + 1;
	}
	if (rc > 0 && (!seen_object || ix->nr_compiled > ix->nr_headers))
		rc = 0;
	if (rc <= 0)
		uapi_cc_index__release(ix);
	return rc;
}

int uapi_cc_index__format(const struct uapi_cc_index *ix, struct kd_buf *out)
{
	size_t i;
	int err = kd_buf_addf(out, "%s\nheaders %zu\ncompiled %zu\n", INDEX_FORMAT, ix->nr_headers,
			      ix->nr_compiled);

	if (!err && ix->has_object)
		err = kd_buf_addf(out, "object %016" PRIx64 " %" PRIu64 "\n", ix->object_hash,
				  ix->object_size);
	else if (!err)
		err = kd_buf_adds(out, "object no\n");
	for (i = 0; !err && i < ix->nr_deps; i++) {
		const struct uapi_cc_dep *d = &ix->deps[i];

		if (d->dir < 0)
			err = kd_buf_addf(out, "dep %016" PRIx64 " %" PRIu64 " %s\n", d->hash, d->size,
					  d->path);
		else
			err = kd_buf_addf(out, "tdep %016" PRIx64 " %" PRIu64 " %d %s\n", d->hash,
					  d->size, d->dir, d->path);
	}
	for (i = 0; !err && i < ix->nr_failures; i++)
		err = kd_buf_addf(out, "fail %s\t%s\n", ix->failures[i].header, ix->failures[i].message);
	return err;
}

bool uapi_cc_index__storable(const char *s)
{
	return !strpbrk(s, "\t\n\r");
}

void uapi_cc_index__release(struct uapi_cc_index *ix)
{
	size_t i;

	for (i = 0; i < ix->nr_deps; i++)
		free(ix->deps[i].path);
	free(ix->deps);
	for (i = 0; i < ix->nr_failures; i++) {
		free(ix->failures[i].header);
		free(ix->failures[i].message);
	}
	free(ix->failures);
	memset(ix, 0, sizeof(*ix));
}
