/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kdb: one kernel's type model, syscall signatures and tables, and the
 * modules its types come from — the rows extract/ writes and show, diff,
 * check and probe read.
 *
 * Ids of types are chosen by the writer (kd_type.id); references between
 * types are by those ids, so a type graph with cycles can be stored in any
 * order.
 */
#ifndef KD_KDB_KERNEL_H
#define KD_KDB_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/kdb.h"
#include "lib/model.h"

/* --- writing ------------------------------------------------------------ */
/* @t->id must be set (> 0); member and ref ids must be ids of this DB. */
int kdb__put_type(struct kdb *db, const struct kd_type *t);
/* Adds a do-function (sys_openat) with its return type; *id receives its id. */
int kdb__put_function(struct kdb *db, const char *name, int64_t ret_type,
		      const char *source, const char *decl_file, int decl_line,
		      int64_t *id);
int kdb__put_param(struct kdb *db, int64_t func_id, int pos, const char *name,
		   int64_t type_id, const char *type_text);

struct kd_syscall {
	const char *abi;	/* x64, ia32, x32 */
	int64_t nr;		/* -1: entry point of an ABI without a table in the binary */
	const char *name;	/* NULL when unknown (not-implemented slot) */
	const char *entry;	/* entry symbol, NULL when none */
	int64_t func_id;	/* 0 when no signature is known */
	bool implemented;
};
int kdb__put_syscall(struct kdb *db, const struct kd_syscall *sc);
/* --- reading ------------------------------------------------------------ */
/* *out: caller frees with kd_type__free(). -ENOENT when absent. */
int kdb__get_type(struct kdb *db, int64_t id, struct kd_type **out);
/*
 * Ids of the types named @name of kind @kind (NULL: any kind), in id order,
 * of the native views (a compat ABI's own rows, db/kdb-compat.h, left out).
 * *ids is malloc'ed (caller frees). Returns the count.
 */
int kdb__find_types(struct kdb *db, const char *kind, const char *name, int64_t **ids);

struct kd_param {
	char *name;
	int64_t type_id;
	char *type_text;
};

struct kd_function {
	int64_t id;
	char *name;
	int64_t ret_type;
	char *source;
	char *decl_file;
	int decl_line;
	size_t nr_params;
	struct kd_param *params;
};
/* By do-function name (sys_openat). *out: kd_function__free(). -ENOENT when absent. */
int kdb__get_function(struct kdb *db, const char *name, struct kd_function **out);
int kdb__get_function_by_id(struct kdb *db, int64_t id, struct kd_function **out);
void kd_function__free(struct kd_function *f);

/* Calls @cb for each syscall slot of @abi (NULL: all ABIs) in (abi, nr)
 * order; a non-zero return of @cb stops the walk and is returned. */
typedef int (*kdb_syscall_fn)(const struct kd_syscall *sc, void *ctx);
int kdb__foreach_syscall(struct kdb *db, const char *abi, kdb_syscall_fn cb, void *ctx);
/* Syscall slots named @name (all ABIs). Same callback contract. */
int kdb__foreach_syscall_named(struct kdb *db, const char *name, kdb_syscall_fn cb, void *ctx);

/* --- modules ------------------------------------------------------------ */
/* @description, @depends (comma-separated): .modinfo's, NULL when it has none. */
int kdb__put_module(struct kdb *db, const char *name, const char *path, const char *description,
		    const char *depends, int64_t *id);
/* Module @module_id (0: vmlinux) was compiled with UAPI header @header. Repeats are ignored. */
int kdb__put_binary_header(struct kdb *db, int64_t module_id, const char *header);
/* *name: the module's name (malloc'ed, caller frees); -ENOENT when absent. */
int kdb__get_module_name(struct kdb *db, int64_t id, char **name);
/*
 * Binary @module_id (0: vmlinux) defines the struct file_operations @name
 * whose unlocked_ioctl and compat_ioctl point to @unlocked and @compat
 * (function names; NULL: a NULL pointer).
 */
int kdb__put_fops(struct kdb *db, int64_t module_id, const char *name, const char *unlocked,
		  const char *compat);
/* Module @module_id's code holds the ioctl number @cmd as an immediate. Repeats are ignored. */
int kdb__put_binary_ioctl_cmd(struct kdb *db, int64_t module_id, uint32_t cmd);
/* Type @type_id is defined in module @module_id (0: vmlinux). Repeats are ignored. */
int kdb__put_type_origin(struct kdb *db, int64_t type_id, int64_t module_id);


/*
 * Every type of @db with its members and enumerators (names only, no
 * declaration files), sorted by id, in one scan per table.
 * *types: free with kdb__free_types(*types, *n).
 */
int kdb__load_types(struct kdb *db, struct kd_type **types, size_t *n);
void kdb__free_types(struct kd_type *types, size_t n);

#endif
