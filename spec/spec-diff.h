/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Two versions of the contract compared (`kabi-diff diff --old-spec DIR
 * --new-spec DIR`): errnos added to or removed from the syscalls and ioctls
 * both versions declare, and values added to or removed from the flag sets
 * and enums both declare. The diff engine judges them (diff/RULES.md).
 */
#ifndef KD_SPEC_DIFF_H
#define KD_SPEC_DIFF_H

#include <stddef.h>

#include "lib/model.h"

struct spec;

/*
 * Compare @old with @new. Errnos are matched by name and canonical `when`
 * condition (a pair listed twice is paired in order); set values by name,
 * own values only (inherited ones are reported on their base set). *out:
 * array of *n changes in @new's order, free with spec_changes__free().
 */
int spec__diff(const struct spec *old, const struct spec *new, struct kd_contract_change **out,
	       size_t *n);
void spec_changes__free(struct kd_contract_change *c, size_t n);

#endif
