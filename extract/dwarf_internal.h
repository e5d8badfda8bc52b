/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to extract/: libdwarf over a struct kelf, and the type reader
 * that turns DIEs into the model (struct kd_type) in an in-memory table.
 *
 * A linked vmlinux (ET_EXEC) is opened through libdwarf's object access
 * interface with sections served straight from the mapping: Debian's
 * vmlinux carries .rela.debug_* sections (from --emit-relocs) whose effect
 * is already in the section bytes, so applying them again, as libdwarf's
 * own ELF loader does, costs ~1 s and ~800 MB for nothing. Relocatable
 * objects (.ko) do need their relocations: the same interface serves them
 * a relocated copy of each section that has any (dwarf-rel.c).
 */
#ifndef KD_EXTRACT_DWARF_H
#define KD_EXTRACT_DWARF_H

#include <dwarf.h>
#include <libdwarf.h>
#include <stdbool.h>
#include <stdint.h>

#include "extract/elf_internal.h"
#include "lib/model.h"

struct kdwarf {
	struct kelf *elf;
	Dwarf_Debug dbg;
	Dwarf_Obj_Access_Interface iface;
	int version;		/* DWARF version of the first CU read */
	const char *cause;	/* why the last call failed without a Dwarf_Error, or NULL */
	unsigned char **copies;	/* relocated sections of an ET_REL object (dwarf-rel.c) */
	size_t nr_copies, cap_copies;
};

/*
 * Section @idx of an ET_REL object for libdwarf: a relocated copy (owned
 * by @d) when a .rela section applies to it, else the mapping. 0 or a
 * negative code (d->cause says why when the relocations are bad).
 */
int kdwarf_rel_load(struct kdwarf *d, size_t idx, Dwarf_Small **data);
/* Free the copies of kdwarf_rel_load(). */
void kdwarf_rel_release(struct kdwarf *d);

/* *out: kdwarf_close(). KD_ENODEBUG (with advice) when there is no DWARF. */
int kdwarf_open(struct kelf *elf, struct kdwarf **out);
void kdwarf_close(struct kdwarf *d);
/* "PATH: DWARF: message" for a libdwarf error; frees @err. Returns -KD_EFORMAT. */
int kdwarf_error(struct kdwarf *d, Dwarf_Error err, const char *what);

/*
 * Call @fn with the DIE of each compilation unit in order until it returns
 * non-zero: negative is an error (returned), positive stops the walk (0 is
 * returned). libdwarf's CU cursor is always run to the end, so the next
 * walk of @d starts at the first CU again.
 */
typedef int (*kdwarf_cu_fn)(Dwarf_Die cu, void *ctx);
/*
 * Call @fn with each child of @parent in order, with the same return
 * convention as kdwarf_for_each_cu(). The child DIE is freed after @fn
 * returns. @what names the walk in error messages.
 */
typedef int (*kdwarf_die_fn)(Dwarf_Die child, void *ctx);
int kdwarf_for_each_child(struct kdwarf *d, Dwarf_Die parent, kdwarf_die_fn fn, void *ctx,
			  const char *what);
int kdwarf_for_each_cu(struct kdwarf *d, kdwarf_cu_fn fn, void *ctx);

/* --- CU lookup by address (.debug_aranges) --------------------------------- */
struct cu_ranges;
int cu_ranges_load(struct kdwarf *d, struct cu_ranges **out);
/* Offset of the CU DIE covering @addr, or 0 when no CU covers it. */
Dwarf_Off cu_ranges_lookup(const struct cu_ranges *r, uint64_t addr);
void cu_ranges_free(struct cu_ranges *r);

/* --- small DIE accessors ---------------------------------------------------- */
/* DW_AT_name, or NULL (the string belongs to libdwarf). */
const char *die_name(struct kdwarf *d, Dwarf_Die die);
/* Attribute as unsigned/signed/reference; false when absent or unreadable. */
bool die_udata(struct kdwarf *d, Dwarf_Die die, Dwarf_Half at, Dwarf_Unsigned *v);
bool die_sdata(struct kdwarf *d, Dwarf_Die die, Dwarf_Half at, Dwarf_Signed *v);
/* An enumerator's value: data1..data4 zero-extended (see read_constant). */
bool die_enumerator_value(struct kdwarf *d, Dwarf_Die die, Dwarf_Signed *v);
bool die_ref(struct kdwarf *d, Dwarf_Die die, Dwarf_Half at, Dwarf_Off *off);
bool die_flag(struct kdwarf *d, Dwarf_Die die, Dwarf_Half at);
Dwarf_Half die_tag(struct kdwarf *d, Dwarf_Die die);
Dwarf_Off die_offset(struct kdwarf *d, Dwarf_Die die);

#endif
