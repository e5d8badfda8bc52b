/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to diff/: one kernel's types in memory (tgraph.c), as the
 * comparisons read them. Knows nothing of changes or of the comparison.
 */
#ifndef KD_DIFF_TGRAPH_H
#define KD_DIFF_TGRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "lib/model.h"

struct kd_buf;

/* All types of one kernel, sorted by id. */
struct tgraph {
	struct kd_type *types;
	size_t nr;
};
/* Type @id, NULL for void or a dangling id. */
const struct kd_type *tgraph_get(const struct tgraph *g, int64_t id);
/* Skip typedefs and qualifiers. */
const struct kd_type *tgraph_strip(const struct tgraph *g, int64_t id);
/* Byte size of @id (arrays: count * element; flexible: 0); -1 unknown. */
int64_t tgraph_size(const struct tgraph *g, int64_t id);
/* C spelling of @id into @b (reset first). */
int tgraph_spell(const struct tgraph *g, int64_t id, struct kd_buf *b);
/* C declaration of @name with type @id into @b (reset first): "__u8 data[]". */
int tgraph_declare(const struct tgraph *g, int64_t id, const char *name, struct kd_buf *b);

#endif
