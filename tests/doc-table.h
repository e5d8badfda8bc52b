/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rule tables of the documentation (diff/RULES.md, spec/check/CHECK.md)
 * as the unit tests compare them with the code's tables: the rows whose
 * first cell is a rule id in backticks (`member-moved`: lower case, digits
 * and dashes; the change kinds' table has dots and is left out).
 */
#ifndef KD_TESTS_DOC_TABLE_H
#define KD_TESTS_DOC_TABLE_H

#include <stddef.h>

#include "lib/buf.h"

/* Write the code's row @i ("| `id` | ... |") into @want (empty on entry). */
typedef void (*doc_row_fn)(size_t i, struct kd_buf *want, const void *ctx);

/*
 * The rule rows of @relpath (relative to the source tree's root, found
 * from tap_srcdir()) against the code's @n rules, row by row and in order:
 * two TAP tests, the count and the rows, and a "# " line for each row that
 * differs, naming the file's row and the code's.
 */
void doc_rules_match(const char *relpath, size_t n, doc_row_fn row, const void *ctx);

#endif
