// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which functions a syscall dispatcher calls, from the kernel's own DWARF.
 * x86_64 kernels since 6.9 (and 6.1 since 6.1.87) dispatch ia32 and x32
 * syscalls through a switch (ia32_sys_call(), x32_sys_call()) whose cases
 * each return an entry point. The entry points' names alone do not say
 * which ABI calls them: the syscall-definition macros emit by-product
 * aliases (__ia32_compat_sys_x32_rt_sigreturn) that no ia32 case calls.
 * The compiler does know: at -O2 -g it records each call the dispatcher
 * makes as a DW_TAG_call_site child of its subprogram DIE (DWARF 4 with
 * GNU extensions: DW_TAG_GNU_call_site), whose DW_AT_call_origin (GNU:
 * DW_AT_abstract_origin) refers to the callee's DIE; the switch's cases
 * are tail calls (DW_AT_call_tail_call), and a callee inlined into the
 * switch is a DW_TAG_inlined_subroutine naming it the same way. Both are
 * read here, nested blocks included; the caller keeps the entry points.
 */
#include "extract/syscalls_internal.h"

#include <errno.h>
#include <string.h>

#include "lib/err.h"

/* An origin's name may sit behind a declaration or an abstract instance. */
#define ORIGIN_HOPS_MAX 4
/*
 * Blocks and inlined bodies inside the dispatcher: a switch nests a few;
 * a hostile image could nest them until the recursion exhausts the stack.
 */
#define BLOCK_DEPTH_MAX 64

struct dispatch_walk {
	struct kdwarf *d;
	const char *dispatcher;
	xdispatch_fn fn;
	void *ctx;
	long nr_calls;		/* call sites and inlined calls seen */
	int depth;		/* blocks entered */
	bool found;		/* the dispatcher's defining DIE */
};

/* DW_AT_name of the DIE at @off, following abstract origins and specifications. */
static int origin_name(struct kdwarf *d, Dwarf_Off off, const char **name, Dwarf_Die *keep)
{
	static const Dwarf_Half via[] = { DW_AT_abstract_origin, DW_AT_specification };
	Dwarf_Error derr = NULL;
	Dwarf_Die die = NULL;
	int hop;
	size_t i;

	*name = NULL;
	*keep = NULL;
	for (hop = 0; hop < ORIGIN_HOPS_MAX; hop++) {
		Dwarf_Off next = 0;

		if (dwarf_offdie_b(d->dbg, off, 1, &die, &derr) != DW_DLV_OK)
			return kdwarf_error(d, derr, "reading a call site's callee");
		*name = die_name(d, die);
		if (*name) {
			*keep = die;	/* the name belongs to libdwarf's DIE */
			return 0;
		}
		for (i = 0; i < sizeof(via) / sizeof(via[0]) && !next; i++)
			if (!die_ref(d, die, via[i], &next))
				next = 0;
		dwarf_dealloc_die(die);
		if (!next)
			return 0;
		off = next;
	}
	return 0;
}

static int callee(struct dispatch_walk *w, Dwarf_Die die)
{
	Dwarf_Die named = NULL;
	Dwarf_Off off;
	const char *name;
	int err;

	if (!die_ref(w->d, die, DW_AT_call_origin, &off) &&
	    !die_ref(w->d, die, DW_AT_abstract_origin, &off))
		return 0;	/* an indirect call (DW_AT_call_target): no name */
	err = origin_name(w->d, off, &name, &named);
	if (!err && name)
		err = w->fn(name, w->ctx);
	if (named)
		dwarf_dealloc_die(named);
	return err;
}

static int call_in_body(Dwarf_Die die, void *ctx)
{
	struct dispatch_walk *w = ctx;
	Dwarf_Half tag = die_tag(w->d, die);
	int err;

	if (tag == DW_TAG_call_site || tag == DW_TAG_GNU_call_site ||
	    tag == DW_TAG_inlined_subroutine) {
		w->nr_calls++;
		err = callee(w, die);
		if (err)
			return err;
	}
	/* Lexical blocks and inlined bodies hold calls the dispatcher makes too. */
	if (tag != DW_TAG_lexical_block && tag != DW_TAG_inlined_subroutine)
		return 0;
	if (w->depth >= BLOCK_DEPTH_MAX) {
		kd_err("%s: DWARF: %s's blocks nest deeper than %d", w->d->elf->path,
		       w->dispatcher, BLOCK_DEPTH_MAX);
		return -KD_ELIMIT;
	}
	w->depth++;
	err = kdwarf_for_each_child(w->d, die, call_in_body, w, "reading a dispatcher");
	w->depth--;
	return err;
}

static int top_level(Dwarf_Die die, void *ctx)
{
	struct dispatch_walk *w = ctx;
	const char *name;
	int err;

	if (die_tag(w->d, die) != DW_TAG_subprogram || die_flag(w->d, die, DW_AT_declaration))
		return 0;
	name = die_name(w->d, die);
	if (!name || strcmp(name, w->dispatcher))
		return 0;
	w->found = true;
	err = kdwarf_for_each_child(w->d, die, call_in_body, w, "reading a dispatcher");
	return err ? err : 1;	/* one definition: stop */
}

static int in_cu(Dwarf_Die cu, void *ctx)
{
	struct dispatch_walk *w = ctx;
	int err = kdwarf_for_each_child(w->d, cu, top_level, w, "reading a compilation unit");

	return err ? err : w->found;
}

long xdispatch_read(struct kdwarf *d, uint64_t addr, const char *dispatcher, xdispatch_fn fn,
		    void *ctx)
{
	struct dispatch_walk w = { d, dispatcher, fn, ctx, 0, 0, false };
	struct cu_ranges *ranges = NULL;
	Dwarf_Error derr = NULL;
	Dwarf_Die cu = NULL;
	Dwarf_Off cu_off;
	int err;

	err = cu_ranges_load(d, &ranges);
	if (err)
		return err;
	cu_off = cu_ranges_lookup(ranges, addr);
	cu_ranges_free(ranges);
	if (!cu_off)	/* no .debug_aranges: every CU's top level */
		err = kdwarf_for_each_cu(d, in_cu, &w);
	else if (dwarf_offdie_b(d->dbg, cu_off, 1, &cu, &derr) != DW_DLV_OK)
		err = kdwarf_error(d, derr, "reading a compilation unit");
	else
		err = in_cu(cu, &w);
	if (cu)
		dwarf_dealloc_die(cu);
	if (err < 0)
		return err;
	return w.found ? w.nr_calls : -ENOENT;
}
