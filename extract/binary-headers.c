// SPDX-License-Identifier: GPL-2.0-only
/*
 * The UAPI headers a binary's code was compiled with: the files of each
 * compilation unit's line table that sit below include/uapi/ (or
 * arch/ARCH/include/uapi/, or a generated/uapi/ directory), named as user
 * space includes them ("linux/tc_act/tc_ipt.h"). A header whose every
 * includer is a module the new kernel lacks lost the code that served it
 * (diff/diff-modules.c). The line table lists a header once the CU has a
 * line or a declaration from it; a header the code uses only for #define
 * values leaves no trace, which the diff's rule has to live with (it only
 * concludes from a header nobody lists).
 */
#include "extract/binary_headers_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hash.h"
#include "lib/mem.h"
#include "lib/str.h"

/*
 * Where user space's name of @path starts: after the last "include/uapi/"
 * or "include/generated/uapi/" that begins @path or follows a '/'. NULL
 * when @path is no UAPI header (not below such a directory, not a .h).
 */
static const char *binary_headers__uapi_name(const char *path)
{
	static const char *const dirs[] = { "include/uapi/", "include/generated/uapi/", NULL };
	const char *best = NULL, *p;
	size_t i, len = strlen(path);

	if (len < 3 || strcmp(path + len - 2, ".h"))
		return NULL;
	for (i = 0; dirs[i]; i++) {
		size_t dl = strlen(dirs[i]);

		for (p = strstr(path, dirs[i]); p; p = strstr(p + 1, dirs[i]))
			if ((p == path || p[-1] == '/') && (!best || p + dl > best))
				best = p + dl;
	}
	return best && *best && *best != '/' ? best : NULL;
}

void binary_headers__release(struct binary_headers *h)
{
	size_t i;

	if (!h)
		return;
	for (i = 0; i < h->n; i++)
		free(h->names[i]);
	free(h->names);
	kd_hashmap_release(&h->seen);
	memset(h, 0, sizeof(*h));
}

static int add_name(struct binary_headers *h, const char *name)
{
	uint64_t hash = kd_hash_str(0, name), idx;
	size_t pos = KD_HASHMAP_FIRST;
	int err = kd_hashmap_reserve(&h->seen, 1);

	if (err)
		return err;
	while ((idx = kd_hashmap_next(&h->seen, hash, &pos)))
		if (!strcmp(h->names[idx - 1], name))
			return 0;
	err = KD_GROW(h->names, h->cap, h->n + 1);
	if (err)
		return err;
	if (!(h->names[h->n] = kd_strdup(name)))
		return -ENOMEM;
	h->n++;
	kd_hashmap_insert_at(&h->seen, pos, hash, h->n);
	return 0;
}

static int add_file(const char *path, void *ctx)
{
	const char *name = binary_headers__uapi_name(path);

	return name ? add_name(ctx, name) : 0;
}

struct binary_headers_walk {
	struct kdwarf *dwarf;
	struct binary_headers *out;
};

static int add_cu(Dwarf_Die cu, void *ctx)
{
	struct binary_headers_walk *w = ctx;

	return srcfiles_for_each(w->dwarf, cu, add_file, w->out);
}

int binary_headers__read(struct kdwarf *d, struct binary_headers *out)
{
	struct binary_headers_walk w = { .dwarf = d, .out = out };
	int err = kdwarf_for_each_cu(d, add_cu, &w);

	/* Sorted, so rows are written in an order independent of the CUs'. */
	if (!err && out->n)
		qsort(out->names, out->n, sizeof(*out->names), kd_strcmp_ptr);
	kd_hashmap_release(&out->seen);
	return err;
}
