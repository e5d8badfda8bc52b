/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where -o may write: never over a part of an input, under any name. An
 * input is a file (a vmlinux, a .kabi, a suppressions file), a list of
 * packages, or a directory (a kernel directory, --uapi, --modules,
 * --spec): an output may be none of the files, none of the listed
 * packages, and not a file of an input directory that the readers take
 * from it (a kernel image, module, header, Kbuild list or contract file).
 * Other files may be written in an input directory: a CI gate writes its
 * baseline and reports in the build tree it reads (contrib/ci/kabi-gate).
 */
#ifndef KD_CLI_OUTPUT_CHECK_H
#define KD_CLI_OUTPUT_CHECK_H

#include <stddef.h>

/*
 * May @dest be written as the output of a command reading @inputs (@n of
 * them; NULL entries are skipped)? kd_output_check()'s rules (a regular
 * file, not an input), each package of a list compared on its own, and an
 * output inside an input directory (by device and inode, whatever path
 * leads there) refused when it has the name of a file read from there.
 * Returns 0, or a negative code reported in one line naming @dest.
 */
int cli_output_check(const char *dest, const char *const *inputs, size_t n);

#endif
