/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared state of the `show` subcommand's printers (cli/cmd-show.c, cli/show-uapi.c). */
#ifndef KD_SHOW_H
#define KD_SHOW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/layout-print.h"
#include "db/type-cache.h"
#include "db/kdb.h"

struct show_ctx {
	struct kdb *db;
	struct type_cache *tc;
	FILE *f;
	int count;		/* items printed, to tell "absent" from "empty" */
	int64_t func_id;	/* syscall: the signature to show */
	int abi_width;		/* columns of the kernel's ABI names */
	struct kd_json *json;	/* --format json: the writer; NULL: text */
	/* show syscalls --abi A: which slots print (text). */
	enum { SLOTS_ALL = 0, SLOTS_NUMBERED, SLOTS_IMPLEMENTED } slots;
};

struct kd_buf;
struct kd_json;
/* The identity keys and the counted tables `show info` prints. */
extern const char *const show_info_keys[], *const show_info_tables[];
/* "long int sys_openat2(int dfd, ...)" of function @func_id into @b; 0 or a negative code. */
int show_signature(struct show_ctx *s, int64_t func_id, struct kd_buf *b);
/*
 * show --format json (cli/show-json.c): item @what as JSON values into
 * s->json, counted in s->count (info: an object; the others: elements of
 * the array the caller opened). 0 or a negative code.
 */
int show_json_item(struct show_ctx *s, const char *what, const char *name, const char *module,
		   const char *abi);

/* Each prints what it finds and counts it in s->count; 0 or a negative code. */
int show_ioctl(struct show_ctx *s, const char *name);
/*
 * The ioctl family @name (its formula), or @name a call with numbers,
 * 'EVIOCGNAME(64)' (the command it gives); *@shown when there was one.
 */
int show_family(struct show_ctx *s, const char *name, bool *shown);
struct kd_ioctl_family;
int show_family_row(const struct kd_ioctl_family *f, void *ctx);
int show_ioctls(struct show_ctx *s, const char *module);
int show_constant(struct show_ctx *s, const char *name);
/* The vDSO images of ABI @abi (NULL: all), their versions and entry points. */
int show_vdso(struct show_ctx *s, const char *abi);
/* The entry point @name of each image (of ABI @abi): its version, signature and layouts. */
int show_vdso_entry(struct show_ctx *s, const char *abi, const char *name);
/* --format json: each entry point (named @name; NULL: all) of ABI @abi, an object per symbol. */
int show_vdso_json(struct show_ctx *s, const char *abi, const char *name);
/* The signature of function s->func_id and the layout of every struct it takes. */
int show_function_detail(struct show_ctx *s);
/*
 * Which view a layout is from, as a comment line: the header that declares
 * it (the compiled UAPI headers), the kernel's DWARF, or both.
 */
int show_views(struct show_ctx *s, int64_t type_id);
/* One line of `show ioctls` for @io (a kdb_ioctl_fn; @ctx the show_ctx). */
struct kd_ioctl;
int show_ioctl_row(const struct kd_ioctl *io, void *ctx);

/* --- --abi A of a compat user ABI (cli/show-compat.c) ----------------------- */
/*
 * May `show` read @abi's header view? 0 (*native true when @abi is the
 * kernel's own: the native view), or a negative code after an error
 * naming @path and what the file says of its compat view.
 */
int show_compat_check(struct show_ctx *s, const char *path, const char *abi, bool *native);
/* The ioctl @name, or every ioctl (show ioctls' columns), with @abi's numbers. */
int show_compat_ioctl(struct show_ctx *s, const char *abi, const char *name);
int show_compat_ioctls(struct show_ctx *s, const char *abi);
/*
 * show compat-ioctls: every ioctl whose @abi command number differs from
 * the native one, with each binary that may serve it and what its
 * file_operations do for @abi's callers (text, or JSON objects).
 */
int show_compat_serving(struct show_ctx *s, const char *path, const char *abi);

#endif
