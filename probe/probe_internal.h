/* SPDX-License-Identifier: GPL-2.0-only */
/* Private to probe/: the probe program's fixed text and shared helpers. */
#ifndef KD_PROBE_INTERNAL_H
#define KD_PROBE_INTERNAL_H

#include "probe/probe.h"

/* The probe program before and after the generated case table (runtime.c). */
extern const char probe_runtime_head[];
extern const char probe_runtime_tail[];

/*
 * Run @argv (argv[0] looked up in PATH) with stdin from /dev/null and
 * stdout+stderr appended to @out (may be NULL: discarded). Kills it after
 * @timeout_s seconds (0: never), or once it wrote more than @max_out
 * bytes (-KD_ELIMIT; @out then holds the first @max_out). Returns its exit
 * status (0..255), 128+sig when killed by a signal, -ETIMEDOUT, -ENOENT
 * when it cannot be run, or another negative errno when it could not be
 * started. Through lib/child.c: the helper leads a process group, killed
 * whole.
 */
int probe_run_cmd(char *const argv[], struct kd_buf *out, unsigned timeout_s, size_t max_out);

/*
 * The console kept of one boot: a guest that floods it (3.8 GB in 8 s
 * were kept whole) is stopped there. A run's results are far below:
 * one line per case.
 */
#define PROBE_MAX_CONSOLE_MB 64
/* A compiler's messages kept (only the first 600 bytes are shown). */
#define PROBE_MAX_CC_LOG (1u << 20)

struct kdb;
/* Is @word one of the space-separated words of @list (may be NULL)? */
bool probe__has_word(const char *list, const char *word);

/* "6.1.0-47-amd64" >= "5.6"? Missing components count as 0; NULL on either side: yes. */
bool probe_release_at_least(const char *release, const char *since);

#endif
