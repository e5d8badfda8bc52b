// SPDX-License-Identifier: GPL-2.0-only
/*
 * Types named by the UAPI headers. The header reader needs their sizes to
 * compute ioctl numbers, and the sizes live in DWARF -- of vmlinux or of
 * any module -- which must be searched by name. So the headers are read
 * twice: once to learn the names (the sizeof callback only records them),
 * then, once the types are found and written, for real.
 */
#include "extract/ioctl_types_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/mem.h"

static int collect_name(const char *type_text, struct uapi_type_info *info, void *ctx)
{
	struct ioctl_types *it = ctx;

	(void)info;
	return name_set_add(it->wanted, type_text) ? -ENOMEM : 0;
}

/*
 * The first reading only learns names, before any header is compiled: an
 * identifier it cannot evaluate may be an enumerator (dm-ioctl.h's
 * _IOWR(DM_IOCTL, DM_VERSION_CMD, struct dm_ioctl)), and giving up there
 * would never ask for the argument type, whose module then went unread
 * (every DM ioctl's code counted as unbuilt). Any value does for the
 * names; the second reading has the compiler's.
 */
static int any_enumerator(const char *name, size_t len, int64_t *value, const char **ctype,
			  void *ctx)
{
	(void)name;
	(void)len;
	(void)ctx;
	*value = 1;
	*ctype = "int";
	return 1;
}

int ioctl_types__collect(struct ioctl_types *it, const char *uapi_dir, const struct kd_arch *arch)
{
	struct uapi_result *r = NULL;
	size_t n;
	int err;

	memset(it, 0, sizeof(*it));
	err = name_set_new(&it->wanted);
	if (err)
		return err;
	err = uapi__scan(uapi_dir, arch, &(struct uapi_lookup){ .size = collect_name, .enumerator = any_enumerator,
						 .ctx = it }, &r);
	uapi_result__free(r);
	if (err)
		return err;
	n = name_set_count(it->wanted);
	it->where = kd_calloc(n ? n : 1, sizeof(*it->where));
	it->vm_found = kd_calloc(n ? n : 1, sizeof(*it->vm_found));
	if (!it->where || !it->vm_found)
		return -ENOMEM;
	return 0;
}

int ioctl_types__find_vmlinux(struct ioctl_types *it, struct xtable *xt)
{
	int n = xt_find_named(xt, it->wanted, it->vm_found);

	return n < 0 ? n : 0;
}

void ioctl_types__resolve_vmlinux(struct ioctl_types *it, struct xtable *xt)
{
	size_t i, n = name_set_count(it->wanted);

	for (i = 0; i < n; i++) {
		if (!it->vm_found[i])
			continue;
		it->where[i].type_id = xt_canon(xt, it->vm_found[i]);
		it->where[i].size = xt_get(xt, it->vm_found[i])->t.size;
		it->where[i].module_id = 0;
	}
}

int ioctl_types__find_modules(struct ioctl_types *it, struct kdb *db, struct type_sink *sink,
			      const char *dir, const struct extract_modules_feed *feed, int jobs, bool progress, struct modules_stats *stats)
{
	struct name_set *rest = NULL;
	struct named_type *found = NULL;
	size_t i, j, n = name_set_count(it->wanted);
	int err;

	/* Only what vmlinux does not define: a smaller set filters more modules out. */
	err = name_set_new(&rest);
	for (i = 0; !err && i < n; i++)
		if (!it->where[i].type_id)
			err = name_set_add(rest, name_set_at(it->wanted, i));
	if (!err) {
		found = kd_calloc(name_set_count(rest) + 1, sizeof(*found));
		if (!found)
			err = -ENOMEM;
	}
	if (!err)
		err = modules__extract(db, sink, dir, feed, rest, found, jobs, progress, stats);
	for (j = 0; !err && j < name_set_count(rest); j++) {
		long i = name_set_index(it->wanted, name_set_at(rest, j));

		if (i >= 0 && found[j].type_id)
			it->where[i] = found[j];
	}
	free(found);
	name_set_free(rest);
	return err;
}

int ioctl_types__sizeof(const char *type_text, struct uapi_type_info *info, void *ctx)
{
	struct ioctl_types *it = ctx;
	long i = name_set_index(it->wanted, type_text);

	if (i < 0 || !it->where[i].type_id || it->where[i].size < 0)
		return 0;
	info->size = it->where[i].size;
	info->type_id = it->where[i].type_id;
	info->module_id = it->where[i].module_id;
	return 1;
}

void ioctl_types__release(struct ioctl_types *it)
{
	name_set_free(it->wanted);
	free(it->where);
	free(it->vm_found);
	memset(it, 0, sizeof(*it));
}
