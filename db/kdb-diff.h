/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kdb: the diff's queries over two DBs, the new one attached to the old
 * (kdb__attach_other()): syscalls, constants and ioctls of either kernel
 * paired by name.
 */
#ifndef KD_KDB_DIFF_H
#define KD_KDB_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/kdb.h"
#include "db/kdb-uapi.h"

/* One (abi, name) of the implemented syscalls of either kernel. */
struct kdb_syscall_pair {
	const char *abi;
	const char *name;
	const char *old_nrs;	/* "257" ("19,515" when several; "-" without a table); NULL: absent */
	const char *new_nrs;
	int64_t old_func;	/* functions.id on each side; 0: no signature */
	int64_t new_func;
};
typedef int (*kdb_syscall_pair_fn)(const struct kdb_syscall_pair *p, void *ctx);
/* After kdb__attach_other(): every pair, in (name, x64 first, abi) order. */
int kdb__diff_syscalls(struct kdb *db, const char *abi, kdb_syscall_pair_fn cb, void *ctx);

/* A constant or ioctl of either kernel; NULL on the side where it is absent. */
struct kdb_constant_pair {
	const struct kd_constant *old, *new;
	/*
	 * Each side's named enum when its constant is an enumerator of one
	 * (NULL: a #define, an anonymous enum's), and whether the other side's
	 * header view declares a named enum of that name too: then the two
	 * enums are compared as types (diff-enum.c) as well.
	 */
	const char *old_enum, *new_enum;
	bool old_enum_in_new, new_enum_in_old;
};
struct kdb_ioctl_pair {
	const struct kd_ioctl *old, *new;
};
typedef int (*kdb_constant_pair_fn)(const struct kdb_constant_pair *p, void *ctx);
typedef int (*kdb_ioctl_pair_fn)(const struct kdb_ioctl_pair *p, void *ctx);
/* Ioctl families: the old and the new row of one name (NULL where a side lacks it). */
struct kdb_ioctl_family_pair {
	const struct kd_ioctl_family *old, *new;
};
typedef int (*kdb_ioctl_family_pair_fn)(const struct kdb_ioctl_family_pair *p, void *ctx);
/*
 * After kdb__attach_other(): ioctl families added, removed, or with
 * another parameter list, direction, type, nr or size, by name.
 */
int kdb__diff_ioctl_families(struct kdb *db, kdb_ioctl_family_pair_fn cb, void *ctx);
/*
 * After kdb__attach_other(): constants added, removed, of another value, or
 * defined otherwise (a #define on one side, an enumerator on the other,
 * or enumerators of enums of other names), by name. An enumerator one side has is not compared when the other side
 * has no header view of its header (no compiler, or the header does not
 * compile there): its absence says nothing.
 */
int kdb__diff_constants(struct kdb *db, kdb_constant_pair_fn cb, void *ctx);
/*
 * The enumerator that took @value in the enum continuing the old side's
 * enum @old_enum (types.id) in the new side's header view: the enum of the
 * new header view sharing the most enumerator names with it, and of its
 * enumerators the one the old enum did not have. *name malloc'ed, NULL
 * when none. After kdb__attach_other().
 */
int kdb__enumerator_successor(struct kdb *db, int64_t old_enum, int64_t value, char **name);
/*
 * The types.id of the named enum @name that the other side's header view
 * declares (the first, by id), 0 when none. After kdb__attach_other().
 */
int kdb__other_header_enum(struct kdb *db, const char *name, int64_t *id);
/* After kdb__attach_other(): every ioctl of either side, by name. */
int kdb__diff_ioctls(struct kdb *db, kdb_ioctl_pair_fn cb, void *ctx);

/* A named struct, union or enum both sides' header views declare. */
struct kdb_uapi_type_pair {
	const char *kind;	/* "struct", "union", "enum" */
	const char *name;
	const char *file;	/* the old side's declaring header (include-relative) */
	int64_t old_id, new_id;
	int line;		/* where @file declares the old side's row (0: unknown) */
	const char *new_file;	/* the new side's row's header and line */
	int new_line;
};
typedef int (*kdb_uapi_type_pair_fn)(const struct kdb_uapi_type_pair *p, void *ctx);
/*
 * After kdb__attach_other(): every named struct, union and enum of the old
 * side's header view (uapi_types) that the new side's declares too, by
 * kind and name, sorted (the lowest id of each, when headers clash).
 */
int kdb__diff_uapi_types(struct kdb *db, kdb_uapi_type_pair_fn cb, void *ctx);

/*
 * A named struct, union or enum of the old side's header view that the
 * new side's does not declare under any header (by kind and name): one
 * row per header of the old side that declares it, sorted by kind, name
 * and header.
 */
struct kdb_uapi_type_gone {
	const char *kind;	/* "struct", "union", "enum" */
	const char *name;
	const char *file;	/* an old header that declares it (include-relative) */
	int line;		/* where (0: unknown) */
	int64_t old_id;
};
typedef int (*kdb_uapi_type_gone_fn)(const struct kdb_uapi_type_gone *g, void *ctx);
/* Has @db's header tree header @file (types, constants or ioctls it declares)? */
int kdb__uapi_header_known(struct kdb *db, const char *file, bool *known);
/* After kdb__attach_other(): see struct kdb_uapi_type_gone. */
int kdb__diff_uapi_types_gone(struct kdb *db, kdb_uapi_type_gone_fn cb, void *ctx);

/*
 * A named struct or union of one kernel that both its compiled header
 * view and its own DWARF have, with two layouts: the header's row
 * (uapi_types) and a row in no header view whose DW_AT_decl_file is that
 * same header in the kernel tree (include/uapi/FILE, arch/ARCH/include/uapi/FILE).
 * A kernel-internal type of the same name (include/linux/...) is no pair.
 */
struct kdb_header_kernel_pair {
	const char *kind;	/* "struct", "union" */
	const char *name;
	const char *file;	/* the header, include-relative: linux/foo.h */
	const char *decl_file;	/* the kernel's: include/uapi/linux/foo.h */
	int decl_line;
	int64_t header_id, kernel_id;
	bool reached;		/* a syscall or ioctl of this kernel reaches the name */
};
typedef int (*kdb_header_kernel_fn)(const struct kdb_header_kernel_pair *p, void *ctx);
/* Every such pair of @db (its main schema), by kind, name and ids. */
int kdb__header_kernel_pairs(struct kdb *db, kdb_header_kernel_fn cb, void *ctx);

/* --- what a kernel's binary shows (evidence for the diff's verdicts) --- */
/* The names of @db's modules, sorted. *names: free each and the array. */
int kdb__module_names(struct kdb *db, char ***names, size_t *n);
/* One row of the modules table; strings valid during the callback only. */
struct kdb_module {
	int64_t id;
	const char *name, *path;
	const char *description, *depends;	/* .modinfo's; NULL: none */
};
typedef int (*kdb_module_fn)(const struct kdb_module *m, void *ctx);
/* Every module of @db, by id. */
int kdb__foreach_module(struct kdb *db, kdb_module_fn cb, void *ctx);
/* A binary compiled with a UAPI header; strings valid during the callback only. */
struct kdb_binary_header {
	int64_t module_id;	/* 0: vmlinux */
	const char *header;	/* "linux/tc_act/tc_ipt.h" */
};
typedef int (*kdb_binary_header_fn)(const struct kdb_binary_header *h, void *ctx);
/* Every binary_headers row of @db, by header, then module id. */
int kdb__foreach_binary_header(struct kdb *db, kdb_binary_header_fn cb, void *ctx);
/*
 * How many constants and ioctls @db's headers define in @file: 0, or 1
 * when it defines neither but declares types (the header is there), or
 * a negative code.
 */
int kdb__header_defines(struct kdb *db, const char *file, int64_t *constants, int64_t *ioctls);
/*
 * The ids of @db's types that a kernel binary defines (type_origins: the
 * DWARF of vmlinux or of a module read with --modules), sorted. *ids:
 * free().
 */
int kdb__built_type_ids(struct kdb *db, int64_t **ids, size_t *n);
/*
 * The id of the type UAPI header @file declares under @name: a struct,
 * union or enum tag when @tag, else a typedef. -ENOENT when it declares
 * none.
 */
int kdb__uapi_type_named(struct kdb *db, const char *file, const char *name, bool tag, int64_t *id);

#endif
