/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to extract/: finding types by name ("struct drm_mode_create_dumb",
 * "__u32") in a whole vmlinux or module, for the argument types of ioctls.
 * Syscall types are reached from signatures; ioctl types are named only in
 * headers, so their definitions must be looked up.
 */
#ifndef KD_EXTRACT_NAMED_H
#define KD_EXTRACT_NAMED_H

#include "extract/types_internal.h"

/* A set of type names as C spells them: "struct x", "union y", "enum z", "t". */
struct name_set;

int name_set_new(struct name_set **out);
void name_set_free(struct name_set *set);
/* Add @spelling; duplicates are ignored. */
int name_set_add(struct name_set *set, const char *spelling);
size_t name_set_count(const struct name_set *set);
/* The @i-th spelling (insertion order). */
const char *name_set_at(const struct name_set *set, size_t i);
/* Index of @spelling ("struct foo"), or -1. */
long name_set_index(const struct name_set *set, const char *spelling);

/*
 * Walk the top-level DIEs of every CU of @xt's DWARF and queue each
 * definition in @set. found[i] receives the table id of entry i (0 when
 * not found; an entry already found is kept). Stops early once every
 * entry is found. Returns the number found or a negative code.
 */
int xt_find_named(struct xtable *xt, const struct name_set *set, int64_t *found);

/*
 * Cheap prefilter for a module: does .debug_str (or, failing that, the raw
 * .debug_info) mention any identifier of @set? A module that cannot define
 * any of them is not parsed at all.
 */
bool kelf_mentions_any(struct kelf *k, const struct name_set *set);

#endif
