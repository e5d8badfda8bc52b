/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to extract/: the UAPI headers compiled as user space does,
 * started early (the compilers run while the kernel's DWARF is read) and
 * joined into the header view (header_types_internal.h) and the 32-bit
 * compat view (uapi/compat_internal.h), which then answer the UAPI
 * reader's sizeof and enumerator questions.
 */
#ifndef KD_HEADER_JOB_H
#define KD_HEADER_JOB_H

#include <stdbool.h>

#include "extract/extract.h"
#include "extract/uapi/compile_internal.h"
#include "extract/uapi/uapi.h"
#include "extract/uapi/uapi_internal.h"

struct compat_view;
struct header_view;
struct ioctl_types;
struct type_sink;

/* The UAPI headers compiled as user space does (started early, in a thread). */
struct header_job {
	struct utree tree;
	bool have_tree;
	struct uapi_cc_arch arch;
	struct uapi_cc_conf conf;
	struct uapi_cc_job *job;
	struct header_view *view;
	struct ioctl_types *it;
	struct compat_view *compat;	/* the 32-bit programs' view (compat.c) */
};

/* Open the tree of @conf->uapi_dir and start both compiles. Returns 0 or a negative code. */
int header_job__start(struct header_job *hj, const struct extract_conf *conf,
		      const struct kd_arch *arch);
/* Join the compilers; write the header view and the headers that did not compile. */
int header_job__finish(struct header_job *hj, struct kdb *db, struct type_sink *sink,
		       struct extract_stats *stats);
/* The compat view, last of all the types (its new rows are its own). */
int header_job__compat(struct header_job *hj, struct kdb *db, struct type_sink *sink,
		       struct extract_stats *stats);
/*
 * @lk for uapi__extract(): sizeof from the header view, then the kernel's
 * DWARF (@it); enumerators from the header view, if there is one.
 */
void header_job__lookup(struct header_job *hj, struct ioctl_types *it, struct uapi_lookup *lk);
/* Join what still runs and free it all; @hj is zeroed. */
void header_job__release(struct header_job *hj);

#endif
