/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to extract/uapi/: the file names the tree's own line directives
 * give (#line 1 "/usr/include/stdio.h", or GNU's # 1 "x"). gcc's DWARF
 * says a declaration is in the file its line map names, and a line
 * directive sets that to any text: a struct of linux/x.h behind
 * #line 1 "/usr/include/stdio.h" reads as the C library's. The header
 * view asks here whether a file name its DWARF gives is one the tree
 * made up, and which of the tree's files wrote it.
 */
#ifndef KD_UAPI_LINE_NAMES_H
#define KD_UAPI_LINE_NAMES_H

#include <stddef.h>

#include "extract/uapi/uapi_internal.h"

/* A file of the tree larger than this is not scanned (a problem row says so). */
#define ULINE_MAX_FILE_MB 16

struct uline_names;

/*
 * Scan every regular file below the directories of @tree (any file can
 * be included; each directory once, at most UTREE_MAX_DEPTH deep) for
 * line directives, under a false #if too. Files that could not be
 * scanned are listed for the caller's problem rows
 * (uline_names__nr_problems()). *out: uline_names__free(). Returns 0 or
 * -ENOMEM.
 */
int uline_names__scan(const struct utree *tree, struct uline_names **out);
void uline_names__free(struct uline_names *ln);

/* "linux/x.h: larger than 16 MiB; ..." for each file not scanned. */
size_t uline_names__nr_problems(const struct uline_names *ln);
const char *uline_names__problem(const struct uline_names *ln, size_t i);

/*
 * Did a line directive of the tree name @file (as DWARF spells it)? 1,
 * with *header the file of the tree that wrote it (include-relative,
 * owned by @ln) and *line the physical line there of what DWARF places at
 * @presumed_line (the directive's own line when that cannot be known);
 * 0 when no directive names it. A directive whose file name a macro
 * gives (#line N NAME) names any file: it answers for every name no
 * directive spells out.
 */
int uline_names__find(const struct uline_names *ln, const char *file, int presumed_line,
		      const char **header, int *line);

#endif
