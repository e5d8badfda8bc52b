/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kdb: the compat user ABIs' header view. An x86_64 kernel runs i386
 * programs too (CONFIG_IA32_EMULATION), for which long and pointers are 4
 * bytes and __u64 is 4-aligned in a struct: the same UAPI headers give
 * other layouts and other ioctl numbers. extract compiles the headers a
 * second time as that ABI's user space (gcc -m32) and stores, beside the
 * native view: the types each header declares in that ABI (a layout both
 * ABIs share is one types row), the types rows only that view has (which
 * every native reader skips), and the ioctls with that ABI's sizes and
 * numbers. @abi is the ABI's name ("ia32", lib/arch.h
 * kd_arch__compat_user()).
 */
#ifndef KD_KDB_COMPAT_H
#define KD_KDB_COMPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/kdb.h"
#include "db/kdb-uapi.h"

/* Type @type_id is declared by header @file (include-relative) at @line (0: unknown) in @abi. */
int kdb__put_compat_type(struct kdb *db, const char *abi, int64_t type_id, const char *file,
			 int line);
/* Type @type_id is a row of @abi's view alone: native readers never see it. */
int kdb__put_compat_only(struct kdb *db, const char *abi, int64_t type_id);
/* @abi's ioctls (module_id is not stored: their types are the headers'). */
int kdb__put_compat_ioctls(struct kdb *db, const char *abi, const struct kd_ioctl *io, size_t n);

/* Does @db hold a header view of @abi (any declared type or ioctl)? 1, 0, or a negative code. */
int kdb__has_compat_view(struct kdb *db, const char *abi);
/*
 * The types.id of the layouts named @name (@kind "struct", "union",
 * "enum", "typedef" or NULL: any) that @abi's header view declares, in id
 * order; *ids malloc'ed. Returns the count or a negative code.
 */
int kdb__find_compat_types(struct kdb *db, const char *abi, const char *kind, const char *name,
			   int64_t **ids);
/* @abi's ioctls in name order (@name: only that one, -ENOENT when absent). */
int kdb__foreach_compat_ioctl(struct kdb *db, const char *abi, const char *name,
			      kdb_ioctl_fn cb, void *ctx);

/*
 * After kdb__attach_other(): every ioctl both kernels' @abi views and both
 * native views have, by name, with its four rows; strings live until @cb
 * returns, a non-zero return stops the walk and is returned.
 */
struct kdb_compat_ioctl_pair {
	const struct kd_ioctl *old, *new;		/* @abi's */
	const struct kd_ioctl *old_native, *new_native;
};
typedef int (*kdb_compat_ioctl_pair_fn)(const struct kdb_compat_ioctl_pair *p, void *ctx);
int kdb__diff_compat_ioctls(struct kdb *db, const char *abi, kdb_compat_ioctl_pair_fn cb,
			    void *ctx);

/*
 * Within one kernel (issue 27): every ioctl whose @abi command number
 * differs from the native one (the argument's size differs, hence its
 * layout), each with one binary that may serve it: a binary whose code
 * includes the ioctl's header (binary_headers) and that defines a
 * file_operations with an unlocked_ioctl (fops), and whose DWARF defines
 * the argument's struct or union when it is one. One walk row per such
 * binary (its file_operations named when it has one, counted when
 * several); an ioctl no binary is known to serve comes once with binary
 * NULL. Strings live until @cb returns; a non-zero return of @cb
 * stops the walk and is returned. By ioctl name, vmlinux first, then
 * module name and file_operations name.
 */
struct kdb_compat_serving {
	const char *ioctl, *file;	/* FXF_IOC_LONG, linux/fxfops.h */
	int64_t native_size, compat_size;	/* bytes */
	uint32_t native_cmd, compat_cmd;
	const char *binary;	/* "vmlinux" or the module's name; NULL: none known */
	const char *fops;	/* the file_operations variable; NULL unless nr_fops is 1 */
	const char *compat_ioctl;	/* its compat_ioctl: NULL, compat_ptr_ioctl, a function */
	int nr_fops;		/* file_operations with an unlocked_ioctl in that binary */
	int nr_null, nr_ptr;	/* of which compat_ioctl is NULL, compat_ptr_ioctl */
	/* Both layouts have every member at the same offset with the same size: only the tail differs. */
	bool same_members;
	/* The binary's code holds the @abi command number as an immediate (binary_ioctl_cmds). */
	bool compat_cmd_in_code;
	bool native_cmd_in_code;	/* the native one */
};
typedef int (*kdb_compat_serving_fn)(const struct kdb_compat_serving *s, void *ctx);
int kdb__foreach_compat_serving(struct kdb *db, const char *abi, kdb_compat_serving_fn cb,
				void *ctx);
/* What a 32-bit caller of the ioctl gets from @s's binary (diff/RULES.md "32-bit callers"). */
enum kdb_compat_handling {
	KDB_COMPAT_UNSERVED,	/* no binary read includes the header with a file_operations */
	KDB_COMPAT_AMBIGUOUS,	/* several file_operations: which serves it is not known */
	KDB_COMPAT_ENOTTY,	/* compat_ioctl NULL: ENOTTY */
	KDB_COMPAT_PTR,		/* compat_ptr_ioctl, the native number in its code: broken */
	KDB_COMPAT_PADDING,	/* compat_ptr_ioctl, the members alike: only the size differs */
	KDB_COMPAT_NATIVE_TRANSLATED,	/* compat_ptr_ioctl, the native handler knows the number */
	KDB_COMPAT_UNSEEN,	/* compat_ptr_ioctl, neither number in its code: may not serve it */
	KDB_COMPAT_TRANSLATED,	/* a handler of its own */
};
enum kdb_compat_handling kdb__compat_handling(const struct kdb_compat_serving *s);
/* Were any modules read (extract --modules: binary_headers and fops written)? 1, 0, or negative. */
int kdb__has_modules(struct kdb *db);

#endif
