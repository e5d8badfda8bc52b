/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to extract/: the header view of the types. The DWARF of the
 * compiled UAPI headers (compile_internal.h) is read with the kernel's
 * own type reader; every struct, union, enum (anonymous ones too: their
 * enumerators are ioctl numbers and flags) and typedef a header of the
 * tree declares is written to the DB, deduplicated with the kernel's
 * types (a layout both views share is one row), and listed in
 * uapi_types with the header that declares it. The view then answers the
 * UAPI reader's sizeof questions as user space's compiler does.
 */
#ifndef KD_HEADER_TYPES_H
#define KD_HEADER_TYPES_H

#include <stdint.h>

#include "extract/types_internal.h"
#include "extract/uapi/uapi.h"

struct header_view;

struct header_view_stats {
	int64_t types;		/* types.rows written (new identities only) */
	int64_t declared;	/* uapi_types rows: types the headers declare */
	int64_t conflicts;	/* names with several layouts in the headers */
};

/*
 * Read @object (the linked headers of @tree) into @db through @sink.
 * *out: the name index, free with header_view__free(). Names declared
 * with different layouts by different headers become problem rows (the
 * first in header order answers sizeof). @abi NULL: the native view
 * (uapi_types); a compat user ABI (ia32, compiled for it): its rows go
 * to compat_types, and the rows it adds to compat_only_types, so it must
 * be the last view written through @sink. Returns 0 or a negative code.
 */
struct kd_arch;
struct utree;
int header_view__read(struct kdb *db, struct type_sink *sink, const char *object,
		      const struct utree *tree, const struct kd_arch *abi, struct header_view **out,
		      struct header_view_stats *stats);
void header_view__free(struct header_view *hv);

/*
 * The header view's answer for @type_text ("struct input_event", "union
 * x", "enum y", "__kernel_fd_set"): 1 with @info filled (size, the DB id;
 * module_id untouched), 0 when no header declares it.
 */
int header_view__sizeof(const struct header_view *hv, const char *type_text,
			struct uapi_type_info *info);

/*
 * The size of a struct, union or enum of the C library the headers use
 * (`struct sockaddr` of <sys/socket.h>), as the header view compiled it:
 * 1 with @info's size (type_id 0: no row of the DB), 0 when unknown. For
 * what neither the headers nor the kernel declare: user space's size.
 */
int header_view__libc_sizeof(const struct header_view *hv, const char *type_text,
			     struct uapi_type_info *info);

/*
 * The value of enumerator @name (@len bytes) of an enum the headers
 * declare and its C type (kdb__enumerator_ctype()): 1 with *value and
 * *ctype, 0 when none has it or two give it two values.
 */
int header_view__enumerator(const struct header_view *hv, const char *name, size_t len,
			    int64_t *value, const char **ctype);

/*
 * The DB rows of the view's types (members, alignments), for
 * header_view__offsetof(); NULL without a view or before it was read.
 */
struct type_cache;
struct type_cache *header_view__layouts(const struct header_view *hv);

/*
 * offsetof(@type_text, @designator) as the compiler of the header view
 * gives it (uapi_offsetof_fn): 1 with *offset, 0 when unknown (no view,
 * no such member, a bitfield, an index into no array), a negative code
 * when the DB could not be read. header-members.c.
 */
int header_view__offsetof(const struct header_view *hv, const char *type_text,
			  const char *designator, int64_t *offset);
/* The alignment of @type_text in the header view: 1 with *align, 0 when unknown. */
int header_view__alignof(const struct header_view *hv, const char *type_text, int64_t *align);

#endif
