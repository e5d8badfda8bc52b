/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Skeleton contract entries from an extracted kernel (`kabi-diff spec
 * init`): one `syscall` declaration per implemented x64 syscall, with the
 * kernel's parameter names and kinds guessed from the C types. What cannot
 * be guessed into valid spec syntax (a flag set nobody has written yet) is
 * left as `int` with a `note "TODO: ..."`, so the skeleton loads with zero
 * errors (spec/FORMAT.md).
 */
#ifndef KD_SPEC_SKELETON_H
#define KD_SPEC_SKELETON_H

#include <stddef.h>

struct kd_buf;
struct kdb;
struct spec;

/*
 * Append to @out a .kabispec text with a skeleton for every implemented
 * x64 syscall of @db in table order, skipping those @except declares
 * (@except may be NULL). *count (may be NULL) receives the number written.
 * Returns 0 or a negative code.
 */
int spec__skeleton(struct kdb *db, const struct spec *except, struct kd_buf *out,
		   size_t *count);

#endif
