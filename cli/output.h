/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A command's printed result, to standard output or to a file written
 * atomically (a temporary beside it, renamed into place once complete), so
 * that a failed run never leaves a partial report where the last one was.
 */
#ifndef KD_CLI_OUTPUT_H
#define KD_CLI_OUTPUT_H

#include <stdio.h>

/* Print to @f; return 0 or a negative code. */
typedef int (*cli_print_fn)(FILE *f, void *ctx);

/*
 * Run @print on stdout (@dest NULL) or on a new file @dest. Errors are
 * reported ("DEST: write error: ..."). Returns 0 or a negative code; on
 * failure @dest is as it was.
 */
int cli_write_output(const char *dest, cli_print_fn print, void *ctx);

#endif
