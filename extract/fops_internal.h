/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to extract/: the struct file_operations objects a binary
 * defines and the functions their unlocked_ioctl and compat_ioctl
 * members point to (fops.c), which say what a driver does for a 32-bit
 * caller (db/SCHEMA.md "fops").
 */
#ifndef KD_EXTRACT_FOPS_H
#define KD_EXTRACT_FOPS_H

#include "extract/dwarf_internal.h"

struct fops_entry {
	char *name;		/* the variable: "tun_fops" */
	char *unlocked;		/* unlocked_ioctl's target; NULL: a NULL pointer */
	char *compat;		/* compat_ioctl's */
};

/* What fops__read() found; zero-initialized is empty. */
struct fops_list {
	struct fops_entry *v;
	size_t n, cap;
	/*
	 * Why some objects could not be read (a relocation outside its
	 * section, a symbol of no section...), malloc'ed; NULL when none. The
	 * objects that could be read are in v all the same.
	 */
	char *problem;
};

/*
 * The file_operations objects of @d's binary: each DWARF variable of that
 * type (qualifiers and typedefs followed) with a location, found in
 * .symtab by name and size, its members' offsets from the binary's own
 * DWARF of the struct. A .ko's pointers are the relocations of the
 * variable's section; an executable's the words at its address named
 * through .symtab. Sorted by name. 0, or -ENOMEM; what bad input
 * prevents is out->problem, never an error.
 */
int fops__read(struct kdwarf *d, struct fops_list *out);
/* Free @l's entries; @l is empty afterwards. NULL is fine. */
void fops__release(struct fops_list *l);

#endif
