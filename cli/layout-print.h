/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pahole-like layout of a type from a .kabi: members with byte offset and
 * size (bitfields as offset:bit width), anonymous structs/unions expanded
 * in place with absolute offsets, holes and tail padding called out.
 */
#ifndef KD_LAYOUT_PRINT_H
#define KD_LAYOUT_PRINT_H

#include <stdio.h>

#include "db/type-cache.h"

int layout__fprintf(struct type_cache *tc, const struct kd_type *t, FILE *f);

#endif
