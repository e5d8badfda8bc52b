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

/*
 * The rule rows of @relpath (relative to the source tree's root, found
 * from tap_srcdir()), in file order, each a line without its newline.
 * *rows: free with doc_rows_free(). Returns the count, or -1 when the
 * file cannot be read.
 */
long doc_rule_rows(const char *relpath, char ***rows);
void doc_rows_free(char **rows, long n);

#endif
