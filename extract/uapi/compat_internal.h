/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to extract/: the header view of the compat user ABI (ia32 on
 * an x86_64 kernel; lib/arch.h kd_arch__compat_user()). The same UAPI
 * tree compiled a second time as that ABI's user space (gcc -m32, in a
 * thread of its own beside the native compile), read into the DB as the
 * native view is (compat_types, compat_only_types), and scanned a second
 * time for the ioctl numbers with that ABI's sizes (compat_ioctls): the
 * macros with __i386__ defined, every sizeof answered by the compat view
 * (never by the kernel's DWARF, which is 64-bit) or by the ILP32 sizes of
 * plain C types. Meta "uapi_compat" says what was built, or why not.
 */
#ifndef KD_UAPI_COMPAT_H
#define KD_UAPI_COMPAT_H

#include <stdbool.h>
#include <stdint.h>

struct kd_arch;
struct kdb;
struct type_sink;
struct compat_view;

/*
 * Start compiling the tree @dir for the compat user ABI of @arch, @jobs
 * compilers at once (0: the CPUs). *out is always set (free with
 * compat_view__free()); an arch without a compat view gets one that only
 * writes its note. 0 or a negative code.
 */
int compat_view__start(const char *dir, const struct kd_arch *arch, int jobs, bool progress,
		       struct compat_view **out);
/*
 * Join the compilers and write the view, its ioctls and meta
 * "uapi_compat" into @db. The compat view's types must be the last
 * written through @sink (its new rows are the compat-only ones). Adds
 * its problem rows to *@problems. 0 or a negative code.
 */
int compat_view__finish(struct compat_view *cv, struct kdb *db, struct type_sink *sink,
			int64_t *problems);
void compat_view__free(struct compat_view *cv);

#endif
