/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The two inputs of `kabi-diff diff`, opened as databases: a .kabi as it
 * is, a vmlinux or a kernel directory through the extraction cache.
 */
#ifndef KD_DIFF_INPUTS_H
#define KD_DIFF_INPUTS_H

#include <stdbool.h>

struct kdb;

/*
 * Open @args[0] and @args[1] into @db[0] and @db[1] (each freed with
 * kdb__free() by the caller, also after a failure). Inputs not in the
 * cache are extracted in child processes, side by side when neither reads
 * modules. @labels (NULL, or NULL entries: the arguments) name header
 * trees in the report (meta.release: a git revision rather than the
 * directory it was exported to). @quiet: no progress messages.
 * @names (may be NULL): set to the label of each side that is a header
 * tree (@labels[i] or @args[i]), NULL for other sides. A header tree's
 * cache entry is keyed by content, so its meta.release is the label of
 * the run that first extracted it; this run's report names it by
 * @names instead (struct diff_conf's release). Returns 0 or a negative
 * code (reported).
 */
int diff_inputs__open(const char *const args[2], const char *const labels[2], bool quiet,
		      struct kdb *db[2], const char *names[2]);

#endif
