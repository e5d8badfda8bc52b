/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to extract/: the syscall tables read from the binary and the
 * signatures of the functions behind them.
 */
#ifndef KD_EXTRACT_SYSCALLS_H
#define KD_EXTRACT_SYSCALLS_H

#include "extract/types_internal.h"

struct xslot {
	const char *abi;	/* static string: x64, ia32, x32 */
	int64_t nr;		/* -1 when the ABI has no table in the binary */
	char *name;		/* syscall name; NULL for a not-implemented slot */
	const struct kelf_symbol *entry;	/* NULL when the slot is empty */
	char *func;		/* do-function: sys_openat, compat_sys_ioctl */
	bool implemented;
};

struct xparam {
	char *name;
	int64_t type;		/* table id; 0 with type_text set: metadata only */
	char *type_text;	/* set only for metadata-sourced parameters */
};

struct xfunc {
	char *name;		/* sys_openat */
	const char *source;	/* "dwarf" | "metadata" */
	int64_t ret;
	char *decl_file;
	int decl_line;
	size_t nr_params;
	struct xparam *params;
	bool found;
	uint64_t entry_addr;	/* of one entry point, to find its CU */
	const char *entry_name;
};

struct xsyscalls {
	size_t nr_slots, slots_cap;
	struct xslot *slots;
	size_t nr_funcs, funcs_cap;
	struct xfunc *funcs;	/* sorted by name after xsyscalls_read_tables() */
	/*
	 * How the ABIs without a table got their entry points, for meta
	 * syscall_dispatch ("ia32: 429 call sites of ia32_sys_call; ..."):
	 * NULL when every ABI has a table.
	 */
	char *dispatch;
};

/* Read sys_call_table and the compat tables from @k. */
int xsyscalls_read_tables(struct xsyscalls *s, struct kelf *k);
/*
 * The ABIs an x86_64 kernel dispatches through a switch instead of a table
 * (after xsyscalls_read_tables()): the entry points the dispatcher calls,
 * from its DWARF call sites; without @d (NULL: no DWARF) or call sites,
 * every entry point by its name.
 */
int xsyscalls_read_dispatchers(struct xsyscalls *s, struct kelf *k, struct kdwarf *d);

/*
 * Call @fn with the name of each function the function @dispatcher, whose
 * code is at @addr, calls or inlines, as its DWARF call sites say
 * (syscall-dispatch.c). Returns how many calls it records (0: none, as
 * without -O2 -g), -ENOENT when @d has no definition of @dispatcher, or a
 * negative error (also @fn's).
 */
typedef int (*xdispatch_fn)(const char *callee, void *ctx);
long xdispatch_read(struct kdwarf *d, uint64_t addr, const char *dispatcher, xdispatch_fn fn,
		    void *ctx);
/* Find each function's DWARF signature, reading only the CUs that define them. */
int xsyscalls_read_signatures(struct xsyscalls *s, struct xtable *xt, struct kelf *k);
/* Write functions, params and syscalls rows (after xt_write()). */
int xsyscalls_write(struct xsyscalls *s, struct xtable *xt, struct kdb *db);
void xsyscalls_release(struct xsyscalls *s);
struct xfunc *xsyscalls_func(struct xsyscalls *s, const char *name);

/* The syscall table's name for an entry point's function (x64: sys_newstat -> stat). */
const char *syscall_name_of_func(const char *abi, const char *func);

#endif
