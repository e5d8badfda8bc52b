// SPDX-License-Identifier: GPL-2.0-only
/*
 * The syscall tables, read from the binary: sys_call_table is an array of
 * entry-point addresses in .rodata, resolved through .symtab. Several
 * symbols often share an address (aliases, __pfx_ padding symbols); the
 * __x64_sys_ name is the one that says which syscall it is.
 *
 * Kernels since 6.9 (and the stable 6.1 series since 6.1.87) dispatch
 * ia32 and x32 syscalls through switch statements, not tables; for those
 * ABIs the entry points are recorded by name, without numbers.
 */
#include "extract/syscalls_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"

static bool has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/*
 * Entry symbol -> do-function name: __x64_sys_openat -> sys_openat,
 * __ia32_compat_sys_ioctl -> compat_sys_ioctl. NULL when not an entry.
 */
static const char *func_of_entry(const char *sym)
{
	static const char *const prefixes[] = { "__x64_", "__ia32_", "__x32_", NULL };
	int i;

	for (i = 0; prefixes[i]; i++) {
		if (has_prefix(sym, prefixes[i])) {
			const char *rest = sym + strlen(prefixes[i]);

			if (has_prefix(rest, "sys_") || has_prefix(rest, "compat_sys_"))
				return rest;
		}
	}
	return NULL;
}

static bool is_ni(const char *func)
{
	return !strcmp(func, "sys_ni_syscall");
}

/* Best name for the entry at @addr: __x64_sys_* first, then any entry, then any function. */
static const struct kelf_symbol *entry_at(struct kelf *k, uint64_t addr, const char *want_prefix)
{
	const struct kelf_symbol *best = NULL;
	size_t first, end, i;

	end = kelf_symbols_at(k, addr, &first);
	for (i = first; i < end; i++) {
		const struct kelf_symbol *s = &k->symbols[i];

		if (has_prefix(s->name, want_prefix) && func_of_entry(s->name))
			return s;
		if (!best && func_of_entry(s->name))
			best = s;
	}
	if (best)
		return best;
	for (i = first; i < end; i++)
		if (k->symbols[i].type == STT_FUNC && !has_prefix(k->symbols[i].name, "__pfx_"))
			return &k->symbols[i];
	return end > first ? &k->symbols[first] : NULL;
}

struct xfunc *xsyscalls_func(struct xsyscalls *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nr_funcs; i++)
		if (!strcmp(s->funcs[i].name, name))
			return &s->funcs[i];
	return NULL;
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

static int add_slot(struct xsyscalls *s, const char *abi, int64_t nr, const struct kelf_symbol *entry)
{
	const char *func = entry ? func_of_entry(entry->name) : NULL;
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

static int read_table(struct xsyscalls *s, struct kelf *k, const struct kelf_symbol *table,
		      const char *abi, const char *prefix, int64_t nr_base)
{
	const unsigned char *p;
	size_t n, i;
	int err;

	n = table->size / 8;
	if (!n || n > 4096) {
		kd_err("%s: %s has an implausible size (%llu bytes)", k->path, table->name,
		       (unsigned long long)table->size);
		return -KD_ENOTKERNEL;
	}
	p = kelf_read_addr(k, table->addr, n * 8);
	if (!p) {
		kd_err("%s: %s is not in a section with contents", k->path, table->name);
		return -KD_ENOTKERNEL;
	}
	for (i = 0; i < n; i++) {
		uint64_t addr;

		memcpy(&addr, p + i * 8, 8);	/* little-endian host and file */
		err = add_slot(s, abi, nr_base + (int64_t)i, addr ? entry_at(k, addr, prefix) : NULL);
		if (err)
			return err;
	}
	return 0;
}

/* An ABI without a table: every entry symbol with @prefix, unnumbered. */
static int read_entry_points(struct xsyscalls *s, struct kelf *k, const char *abi,
			     const char *prefix, const char *also)
{
	size_t i;
	int err;

	for (i = 0; i < k->nr_symbols; i++) {
		const struct kelf_symbol *sym = &k->symbols[i];

		/* Skip compiler-split parts (foo.cold, foo.part.0): not entry points. */
		if (sym->type != STT_FUNC || strchr(sym->name, '.'))
			continue;
		if (!has_prefix(sym->name, prefix) && !(also && has_prefix(sym->name, also)))
			continue;
		err = add_slot(s, abi, -1, sym);
		if (err)
			return err;
	}
	return 0;
}

int xsyscalls_read_tables(struct xsyscalls *s, struct kelf *k)
{
	const struct kelf_symbol *t;
	int err;

	t = kelf_symbol_by_name(k, "sys_call_table");
	if (!t) {
		kd_err("%s: not a kernel image (no sys_call_table symbol)", k->path);
		return -KD_ENOTKERNEL;
	}
	err = read_table(s, k, t, "x64", "__x64_", 0);
	if (err)
		return err;
	t = kelf_symbol_by_name(k, "ia32_sys_call_table");
	err = t ? read_table(s, k, t, "ia32", "__ia32_", 0)
		: read_entry_points(s, k, "ia32", "__ia32_sys_", "__ia32_compat_sys_");
	if (err)
		return err;
	/* x32 numbers carry __X32_SYSCALL_BIT (0x40000000). */
	t = kelf_symbol_by_name(k, "x32_sys_call_table");
	return t ? read_table(s, k, t, "x32", "__x64_", 0x40000000)
		 : read_entry_points(s, k, "x32", "__x32_compat_sys_", NULL);
}

void xsyscalls_release(struct xsyscalls *s)
{
	size_t i, j;

	for (i = 0; i < s->nr_slots; i++) {
		free(s->slots[i].name);
		free(s->slots[i].func);
	}
	free(s->slots);
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
