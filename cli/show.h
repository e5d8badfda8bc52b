/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared state of the `show` subcommand's printers (cli/cmd-show.c, cli/show-uapi.c). */
#ifndef KD_SHOW_H
#define KD_SHOW_H

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
};

/* Each prints what it finds and counts it in s->count; 0 or a negative code. */
int show_ioctl(struct show_ctx *s, const char *name);
int show_ioctls(struct show_ctx *s, const char *module);
int show_constant(struct show_ctx *s, const char *name);
/* The vDSO images of ABI @abi (NULL: all), their versions and entry points. */
int show_vdso(struct show_ctx *s, const char *abi);
/* The entry point @name of each image (of ABI @abi): its version, signature and layouts. */
int show_vdso_entry(struct show_ctx *s, const char *abi, const char *name);
/* The signature of function s->func_id and the layout of every struct it takes. */
int show_function_detail(struct show_ctx *s);
/*
 * Which view a layout is from, as a comment line: the header that declares
 * it (the compiled UAPI headers), the kernel's DWARF, or both.
 */
int show_views(struct show_ctx *s, int64_t type_id);

#endif
