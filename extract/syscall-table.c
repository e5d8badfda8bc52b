// SPDX-License-Identifier: GPL-2.0-only
/*
 * The syscall tables, read from the binary: sys_call_table is an array of
 * entry-point addresses in .rodata, resolved through .symtab (on arm64,
 * through the dynamic relocations that fill it: kelf_read_word). Several
 * symbols often share an address (aliases, __pfx_ padding symbols); the
 * entry name (__x64_sys_, __arm64_sys_) is the one that says which syscall
 * it is.
 *
 * Each architecture lists its tables below. x86_64: kernels since 6.9 (and
 * the stable 6.1 series since 6.1.87) dispatch ia32 and x32 syscalls
 * through switch statements (ia32_sys_call(), x32_sys_call()), not
 * tables; for those ABIs the entry points are the functions the
 * dispatcher calls (syscall-dispatch.c), recorded without numbers. Only
 * without DWARF call sites are they taken by name, which is an
 * approximation: every __ia32_sys_* exists whether or not ia32 programs
 * can call it. arm64: the AArch32 compat table
 * (compat_sys_call_table, CONFIG_COMPAT) holds both __arm64_sys_ and
 * __arm64_compat_sys_ entries, numbered as 32-bit ARM EABI numbers them.
 */
#include "extract/syscalls_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/find.h"
#include "lib/mem.h"
#include "lib/str.h"

/* One syscall table of an architecture. */
struct table_layout {
	const char *symbol;	/* sys_call_table */
	const char *abi;	/* static string: x64, arm64, ... */
	const char *prefix;	/* preferred entry prefix among aliases */
	int64_t nr_base;	/* added to the index: x32's __X32_SYSCALL_BIT */
	bool required;		/* no such symbol: not a kernel image */
	/* Without the table: the switch that dispatches the ABI (NULL: the ABI is absent). */
	const char *dispatcher;
	/* The dispatcher without call sites in DWARF: entry points by these prefixes. */
	const char *entries, *entries_also;
};

struct arch_layout {
	const char *arch;			/* kd_arch name */
	const char *const *entry_prefixes;	/* NULL-terminated */
	struct table_layout tables[3];		/* symbol NULL ends */
};

static const char *const x86_prefixes[] = { "__x64_", "__ia32_", "__x32_", NULL };
static const char *const arm64_prefixes[] = { "__arm64_", NULL };

static const struct arch_layout layouts[] = {
	{ "x86_64", x86_prefixes, {
		{ "sys_call_table", "x64", "__x64_", 0, true, NULL, NULL, NULL },
		{ "ia32_sys_call_table", "ia32", "__ia32_", 0, false, "ia32_sys_call",
		  "__ia32_sys_", "__ia32_compat_sys_" },
		/* x32 numbers carry __X32_SYSCALL_BIT (0x40000000). */
		{ "x32_sys_call_table", "x32", "__x64_", 0x40000000, false, "x32_sys_call",
		  "__x32_compat_sys_", NULL },
	} },
	{ "arm64", arm64_prefixes, {
		{ "sys_call_table", "arm64", "__arm64_", 0, true, NULL, NULL, NULL },
		{ "compat_sys_call_table", "aarch32", "__arm64_", 0, false, NULL, NULL, NULL },
	} },
};

static const struct arch_layout *layout_of(const struct kd_arch *arch)
{
	size_t i;

	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (!strcmp(layouts[i].arch, arch->name))
			return &layouts[i];
	return NULL;
}

/*
 * Entry symbol -> do-function name: __x64_sys_openat -> sys_openat,
 * __ia32_compat_sys_ioctl -> compat_sys_ioctl, __arm64_sys_openat ->
 * sys_openat. NULL when not an entry of @prefixes.
 */
static const char *func_of_entry(const char *const *prefixes, const char *sym)
{
	int i;

	for (i = 0; prefixes[i]; i++) {
		if (kd_starts_with(sym, prefixes[i])) {
			const char *rest = sym + strlen(prefixes[i]);

			if (kd_starts_with(rest, "sys_") || kd_starts_with(rest, "compat_sys_"))
				return rest;
		}
	}
	return NULL;
}

static bool is_ni(const char *func)
{
	return !strcmp(func, "sys_ni_syscall");
}

/* Best name for the entry at @addr: @want_prefix first, then any entry, then any function. */
static const struct kelf_symbol *entry_at(struct kelf *k, const char *const *prefixes,
					  uint64_t addr, const char *want_prefix)
{
	const struct kelf_symbol *best = NULL;
	size_t first, end, i;

	end = kelf_symbols_at(k, addr, &first);
	for (i = first; i < end; i++) {
		const struct kelf_symbol *s = &k->symbols[i];

		if (kd_starts_with(s->name, want_prefix) && func_of_entry(prefixes, s->name))
			return s;
		if (!best && func_of_entry(prefixes, s->name))
			best = s;
	}
	if (best)
		return best;
	for (i = first; i < end; i++)
		if (k->symbols[i].type == STT_FUNC && !kd_starts_with(k->symbols[i].name, "__pfx_"))
			return &k->symbols[i];
	return end > first ? &k->symbols[first] : NULL;
}

struct xfunc *xsyscalls_func(struct xsyscalls *s, const char *name)
{
	return KD_FIND_NAMED(struct xfunc, s->funcs, s->nr_funcs, name, name);
}

static int note_func(struct xsyscalls *s, const char *func, const struct kelf_symbol *entry)
{
	struct xfunc *f = xsyscalls_func(s, func);
	int err;

	if (f)
		return 0;
	err = KD_GROW(s->funcs, s->funcs_cap, s->nr_funcs + 1);
	if (err)
		return err;
	f = &s->funcs[s->nr_funcs];
	memset(f, 0, sizeof(*f));
	f->name = kd_strdup(func);
	if (!f->name)
		return -ENOMEM;
	f->entry_addr = entry->addr;
	f->entry_name = entry->name;
	s->nr_funcs++;
	return 0;
}

static int add_slot(struct xsyscalls *s, const char *const *prefixes, const char *abi, int64_t nr,
		    const struct kelf_symbol *entry)
{
	const char *func = entry ? func_of_entry(prefixes, entry->name) : NULL;
	struct xslot *slot;
	int err;

	err = KD_GROW(s->slots, s->slots_cap, s->nr_slots + 1);
	if (err)
		return err;
	slot = &s->slots[s->nr_slots++];
	memset(slot, 0, sizeof(*slot));
	slot->abi = abi;
	slot->nr = nr;
	slot->entry = entry;
	slot->implemented = func && !is_ni(func);
	if (!slot->implemented)
		return 0;
	slot->func = kd_strdup(func);
	slot->name = kd_strdup(syscall_name_of_func(abi, func));
	if (!slot->func || !slot->name)
		return -ENOMEM;
	return note_func(s, func, entry);
}

static int read_table(struct xsyscalls *s, struct kelf *k, const char *const *prefixes,
		      const struct kelf_symbol *table, const struct table_layout *t)
{
	size_t n, i;
	int err;

	n = table->size / 8;
	if (!n || n > 4096) {
		kd_err("%s: %s has an implausible size (%llu bytes)", k->path, table->name,
		       (unsigned long long)table->size);
		return -KD_ENOTKERNEL;
	}
	if (!kelf_read_addr(k, table->addr, n * 8)) {
		kd_err("%s: %s is not in a section with contents", k->path, table->name);
		return -KD_ENOTKERNEL;
	}
	/*
	 * A size from System.map runs to the next symbol and can take in
	 * alignment padding: zero words at the end are no slots (a real
	 * table points every slot somewhere, sys_ni_syscall at least).
	 */
	while (k->sizes_estimated && n > 1) {
		uint64_t last;

		err = kelf_read_word(k, table->addr + (n - 1) * 8, &last, table->name);
		if (err)
			return err;
		if (last)
			break;
		n--;
	}
	for (i = 0; i < n; i++) {
		uint64_t addr;

		err = kelf_read_word(k, table->addr + i * 8, &addr, table->name);
		if (err)
			return err;
		err = add_slot(s, prefixes, t->abi, t->nr_base + (int64_t)i,
			       addr ? entry_at(k, prefixes, addr, t->prefix) : NULL);
		if (err)
			return err;
	}
	return 0;
}

/* An ABI without a table: every entry symbol with @prefix, unnumbered. */
static int read_entry_points(struct xsyscalls *s, struct kelf *k, const char *const *prefixes,
			     const char *abi, const char *prefix, const char *also)
{
	size_t i;
	int err;

	for (i = 0; i < k->nr_symbols; i++) {
		const struct kelf_symbol *sym = &k->symbols[i];

		/* Skip compiler-split parts (foo.cold, foo.part.0): not entry points. */
		if (sym->type != STT_FUNC || strchr(sym->name, '.'))
			continue;
		if (!kd_starts_with(sym->name, prefix) && !(also && kd_starts_with(sym->name, also)))
			continue;
		err = add_slot(s, prefixes, abi, -1, sym);
		if (err)
			return err;
	}
	return 0;
}

static bool any_implemented(const struct xsyscalls *s, size_t first)
{
	size_t i;

	for (i = first; i < s->nr_slots; i++)
		if (s->slots[i].implemented)
			return true;
	return false;
}

int xsyscalls_read_tables(struct xsyscalls *s, struct kelf *k)
{
	const struct arch_layout *l = layout_of(k->arch);
	const struct table_layout *t;
	int err = 0;

	if (!l) {
		kd_err("%s: no syscall-table layout for %s", k->path, k->arch->name);
		return -KD_EUNSUPPORTED;
	}
	for (t = l->tables; !err && t < l->tables + 3 && t->symbol; t++) {
		const struct kelf_symbol *table = kelf_symbol_by_name(k, t->symbol);
		size_t first = s->nr_slots;

		if (table) {
			err = read_table(s, k, l->entry_prefixes, table, t);
			if (!err && t->required && !any_implemented(s, first)) {
				kd_err("%s: %s has no %s entry point (%ssys_*); is the ELF machine"
				       " (%u) right?", k->path, t->symbol, k->arch->name, t->prefix,
				       k->ehdr.e_machine);
				err = -KD_ENOTKERNEL;
			}
		} else if (t->required) {
			kd_err("%s: not a kernel image (no %s symbol)", k->path, t->symbol);
			err = -KD_ENOTKERNEL;
		}
		/* No table, maybe a dispatcher: xsyscalls_read_dispatchers(). */
	}
	return err;
}

/* The calls of one dispatcher, being turned into slots. */
struct dispatch_ctx {
	struct xsyscalls *s;
	struct kelf *k;
	const char *const *prefixes;
	const char *abi;
	size_t first;		/* the ABI's first slot */
};

static int on_callee(const char *callee, void *ctx)
{
	struct dispatch_ctx *c = ctx;
	const char *func = func_of_entry(c->prefixes, callee);
	const struct kelf_symbol *sym;
	size_t i;

	/* Helpers it calls are no entry points; its default case is no syscall. */
	if (!func || is_ni(func))
		return 0;
	for (i = c->first; i < c->s->nr_slots; i++)	/* several cases, one entry point */
		if (!strcmp(c->s->slots[i].entry->name, callee))
			return 0;
	sym = kelf_symbol_by_name(c->k, callee);
	return sym ? add_slot(c->s, c->prefixes, c->abi, -1, sym) : 0;
}

static int read_dispatcher(struct xsyscalls *s, struct kelf *k, struct kdwarf *d,
			   const struct arch_layout *l, const struct table_layout *t)
{
	const struct kelf_symbol *sym = kelf_symbol_by_name(k, t->dispatcher);
	struct dispatch_ctx c = { s, k, l->entry_prefixes, t->abi, s->nr_slots };
	struct kd_buf how = KD_BUF_INIT;
	long calls = -ENOENT;
	int err = 0;

	if (!sym)
		return 0;	/* neither table nor dispatcher: the ABI is not built */
	if (d) {
		calls = xdispatch_read(d, sym->addr, t->dispatcher, on_callee, &c);
		if (calls < 0 && calls != -ENOENT)
			return (int)calls;
	}
	if (s->dispatch)
		err = kd_buf_addf(&how, "%s; ", s->dispatch);
	if (!err && calls > 0 && s->nr_slots > c.first) {
		err = kd_buf_addf(&how, "%s: %zu entry points, the calls of %s (DWARF call sites)",
				  t->abi, s->nr_slots - c.first, t->dispatcher);
	} else if (!err) {
		err = read_entry_points(s, k, l->entry_prefixes, t->abi, t->entries,
					t->entries_also);
		if (!err)
			err = kd_buf_addf(&how, "%s: %zu entry points by name (%s*%s%s%s), %s",
					  t->abi, s->nr_slots - c.first, t->entries,
					  t->entries_also ? ", " : "",
					  t->entries_also ? t->entries_also : "",
					  t->entries_also ? "*" : "",
					  !d ? "no DWARF" : calls < 0 ?
					  "no DWARF definition of the dispatcher" :
					  "no call sites in the dispatcher's DWARF");
	}
	if (!err) {
		free(s->dispatch);
		s->dispatch = kd_buf_detach(&how);
		err = s->dispatch ? 0 : -ENOMEM;
	}
	kd_buf_release(&how);
	return err;
}

int xsyscalls_read_dispatchers(struct xsyscalls *s, struct kelf *k, struct kdwarf *d)
{
	const struct arch_layout *l = layout_of(k->arch);
	const struct table_layout *t;
	int err = 0;

	for (t = l ? l->tables : NULL; !err && t && t < l->tables + 3 && t->symbol; t++)
		if (t->dispatcher && !kelf_symbol_by_name(k, t->symbol))
			err = read_dispatcher(s, k, d, l, t);
	return err;
}

void xsyscalls_release(struct xsyscalls *s)
{
	size_t i, j;

	for (i = 0; i < s->nr_slots; i++) {
		free(s->slots[i].name);
		free(s->slots[i].func);
	}
	free(s->slots);
	free(s->dispatch);
	for (i = 0; i < s->nr_funcs; i++) {
		struct xfunc *f = &s->funcs[i];

		for (j = 0; j < f->nr_params; j++) {
			free(f->params[j].name);
			free(f->params[j].type_text);
		}
		free(f->params);
		free(f->name);
		free(f->decl_file);
	}
	free(s->funcs);
	memset(s, 0, sizeof(*s));
}
