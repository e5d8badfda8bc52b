/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to extract/: the types the UAPI headers name (ioctl arguments,
 * sizeof() operands), found in vmlinux first and then in modules, and
 * answered back to the UAPI reader as sizes and type ids.
 */
#ifndef KD_EXTRACT_IOCTL_TYPES_H
#define KD_EXTRACT_IOCTL_TYPES_H

#include "extract/modules_internal.h"
#include "extract/uapi/uapi.h"

struct ioctl_types {
	struct name_set *wanted;
	struct named_type *where;	/* per wanted name */
	int64_t *vm_found;		/* per wanted name: id in the vmlinux table */
};

/* First pass over the header tree (as @arch sees it): which type names do the headers size? */
int ioctl_types__collect(struct ioctl_types *it, const char *uapi_dir, const struct kd_arch *arch);
/* Queue their definitions in vmlinux (before the table is drained). */
int ioctl_types__find_vmlinux(struct ioctl_types *it, struct xtable *xt);
/* After the vmlinux table is written: record where each one is. */
void ioctl_types__resolve_vmlinux(struct ioctl_types *it, struct xtable *xt);
/* Look for the rest in the modules under @dir, or those @feed streams (@dir NULL). */
int ioctl_types__find_modules(struct ioctl_types *it, struct kdb *db, struct type_sink *sink,
			      const char *dir, const struct extract_modules_feed *feed, int jobs, bool progress, struct modules_stats *stats);
/* uapi_sizeof_fn over the names found (ctx = the struct ioctl_types). */
int ioctl_types__sizeof(const char *type_text, struct uapi_type_info *info, void *ctx);
void ioctl_types__release(struct ioctl_types *it);

#endif
