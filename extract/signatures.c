// SPDX-License-Identifier: GPL-2.0-only
/*
 * Syscall signatures from DWARF. SYSCALL_DEFINEn(name, ...) expands to an
 * entry point __x64_sys_name(const struct pt_regs *) (arm64:
 * __arm64_sys_name) that unpacks registers
 * into __se_sys_name(long, ...), which calls the real implementation
 * __do_sys_name(int dfd, const char __user *filename, ...), usually inlined
 * into both. The abstract instance of __do_sys_name keeps the real
 * parameter names and types, and it lives in the CU that holds the entry
 * point, so only the CUs of the entry points' addresses are read.
 * SYSCALL_DEFINE0 gives __do_sys_name (or, in other kernels and in our
 * fixture, the entry point itself) one ignored "const struct pt_regs
 * *__unused" parameter: such syscalls take no arguments. Where no DWARF
 * function exists, the ftrace metadata arrays types__NAME/args__NAME give
 * the parameters as strings.
 */
#include "extract/syscalls_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/str.h"

struct named_die {
	char *name;
	Dwarf_Off off;
};

struct die_index {
	size_t n, cap;
	struct named_die *v;
};

/* The do-functions, and every architecture's entry points (SYSCALL_DEFINE0's). */
static const char *const wanted_prefixes[] = {
	"__do_sys_", "__do_compat_sys_", "__x64_sys_", "__ia32_sys_",
	"__ia32_compat_sys_", "__x32_compat_sys_", "__arm64_sys_", "__arm64_compat_sys_", NULL,
};

static bool wanted(const char *name)
{
	int i;

	for (i = 0; wanted_prefixes[i]; i++)
		if (!strncmp(name, wanted_prefixes[i], strlen(wanted_prefixes[i])))
			return true;
	return false;
}

/* The DWARF reader and the index being filled, for the walks over CUs and DIEs. */
struct index_walk {
	struct kdwarf *d;
	struct die_index *idx;
};

static int index_die(Dwarf_Die die, void *ctx)
{
	struct index_walk *w = ctx;
	struct die_index *idx = w->idx;
	const char *name;
	int err;

	if (die_tag(w->d, die) != DW_TAG_subprogram)
		return 0;
	name = die_name(w->d, die);
	/* A declaration (an extern prototype) has no body to describe. */
	if (!name || !wanted(name) || die_flag(w->d, die, DW_AT_declaration))
		return 0;
	err = KD_GROW(idx->v, idx->cap, idx->n + 1);
	if (err)
		return err;
	idx->v[idx->n].name = kd_strdup(name);
	if (!idx->v[idx->n].name)
		return -ENOMEM;
	idx->v[idx->n++].off = die_offset(w->d, die);
	return 0;
}

static int index_cu(struct kdwarf *d, Dwarf_Off cu_off, struct die_index *idx)
{
	struct index_walk w = { d, idx };
	Dwarf_Error derr = NULL;
	Dwarf_Die cu = NULL;
	int err;

	if (dwarf_offdie_b(d->dbg, cu_off, 1, &cu, &derr) != DW_DLV_OK)
		return kdwarf_error(d, derr, "reading a compilation unit");
	if (!d->version) {
		Dwarf_Half version = 0, offset_size = 0;

		if (dwarf_get_version_of_die(cu, &version, &offset_size) == DW_DLV_OK)
			d->version = version;
	}
	err = kdwarf_for_each_child(d, cu, index_die, &w, "reading a compilation unit");
	dwarf_dealloc_die(cu);
	return err;
}

static int index_one_cu(Dwarf_Die cu, void *ctx)
{
	struct index_walk *w = ctx;

	return index_cu(w->d, die_offset(w->d, cu), w->idx);
}

/* Slow path for images without .debug_aranges: every CU's top level. */
static int index_all_cus(struct kdwarf *d, struct die_index *idx)
{
	struct index_walk w = { d, idx };

	return kdwarf_for_each_cu(d, index_one_cu, &w);
}

static int cmp_named(const void *a, const void *b)
{
	return strcmp(((const struct named_die *)a)->name, ((const struct named_die *)b)->name);
}

static Dwarf_Off find_die(const struct die_index *idx, const char *name)
{
	struct named_die key = { .name = (char *)name };
	const struct named_die *hit;

	hit = idx->n ? bsearch(&key, idx->v, idx->n, sizeof(*idx->v), cmp_named) : NULL;
	return hit ? hit->off : 0;
}

/*
 * The DIE named @name whose code is at @addr, else the first of that
 * name. The CU of sys_ni_syscall (kernel/sys_ni.c) is always read, and it
 * holds a weak COND_SYSCALL stub for every call that may be compiled out:
 * where the call is built, the linker discards the stub (its DWARF stays,
 * at address 0) and keeps the real entry point, under the same name. The
 * code starts a few bytes after the symbol where the kernel reserves
 * patchable NOPs before it (arm64's ftrace: low_pc = symbol + 8).
 */
#define PATCHABLE_ENTRY_MAX 64

static Dwarf_Off find_die_at(struct kdwarf *d, const struct die_index *idx, const char *name,
			     uint64_t addr)
{
	struct named_die key = { .name = (char *)name };
	const struct named_die *hit, *p, *end;

	/* An empty index has no vector: NULL + 0 is undefined (clang's UBSan stops on it). */
	if (!idx->n)
		return 0;
	end = idx->v + idx->n;
	hit = bsearch(&key, idx->v, idx->n, sizeof(*idx->v), cmp_named);
	if (!hit)
		return 0;
	while (hit > idx->v && !strcmp(hit[-1].name, name))
		hit--;
	if (hit + 1 == end || strcmp(hit[1].name, name))
		return hit->off;	/* one DIE of that name: nothing to choose */
	for (p = hit; p < end && !strcmp(p->name, name); p++) {
		Dwarf_Error derr = NULL;
		Dwarf_Die die = NULL;
		Dwarf_Addr lo = 0;

		if (dwarf_offdie_b(d->dbg, p->off, 1, &die, &derr) == DW_DLV_OK) {
			if (dwarf_lowpc(die, &lo, &derr) != DW_DLV_OK && derr)
				dwarf_dealloc_error(d->dbg, derr);
			dwarf_dealloc_die(die);
		} else if (derr) {
			dwarf_dealloc_error(d->dbg, derr);
		}
		if (lo >= addr && lo - addr <= PATCHABLE_ENTRY_MAX)
			return p->off;
	}
	return hit->off;
}

static int cmp_off(const void *a, const void *b)
{
	Dwarf_Off x = *(const Dwarf_Off *)a, y = *(const Dwarf_Off *)b;

	return x < y ? -1 : x > y;
}

/* Is DIE @off "const struct pt_regs *"? (the SYSCALL_DEFINE0 parameter) */
static bool is_pt_regs_pointer(struct kdwarf *d, Dwarf_Off off)
{
	Dwarf_Error derr = NULL;
	Dwarf_Die die = NULL;
	int hops;
	bool yes = false;

	for (hops = 0; hops < 4 && off; hops++) {
		Dwarf_Half tag;
		const char *name;

		if (dwarf_offdie_b(d->dbg, off, 1, &die, &derr) != DW_DLV_OK)
			return false;
		tag = die_tag(d, die);
		name = die_name(d, die);
		if (tag == DW_TAG_structure_type) {
			yes = hops >= 1 && name && !strcmp(name, "pt_regs");
			dwarf_dealloc_die(die);
			return yes;
		}
		if (tag != DW_TAG_pointer_type && tag != DW_TAG_const_type) {
			dwarf_dealloc_die(die);
			return false;
		}
		if (!die_ref(d, die, DW_AT_type, &off))
			off = 0;
		dwarf_dealloc_die(die);
	}
	return false;
}

static int add_param(struct xfunc *f, size_t *cap, const char *name)
{
	int err = KD_GROW(f->params, *cap, f->nr_params + 1);

	if (err)
		return err;
	memset(&f->params[f->nr_params], 0, sizeof(f->params[0]));
	if (name && !(f->params[f->nr_params].name = kd_strdup(name)))
		return -ENOMEM;
	f->nr_params++;
	return 0;
}

struct param_walk {
	struct xtable *xt;
	struct xfunc *f;
	size_t cap;
	Dwarf_Off first_param_type;
	bool regs_pending;	/* the only parameter so far is const struct pt_regs * */
};

static int read_param(Dwarf_Die child, void *ctx)
{
	struct param_walk *w = ctx;
	struct kdwarf *d = w->xt->dwarf;
	struct xfunc *f = w->f;
	Dwarf_Off type_off = 0;
	int err = 0;

	if (die_tag(d, child) != DW_TAG_formal_parameter)
		return 0;
	die_ref(d, child, DW_AT_type, &type_off);
	if (f->nr_params == 1 && w->regs_pending)
		err = xt_type_of_die(w->xt, w->first_param_type, &f->params[0].type);
	w->regs_pending = !f->nr_params && is_pt_regs_pointer(d, type_off);
	if (!f->nr_params)
		w->first_param_type = type_off;
	if (!err)
		err = add_param(f, &w->cap, die_name(d, child));
	/* Not queued yet: a lone pt_regs parameter is dropped by the caller. */
	if (!err && !w->regs_pending)
		err = xt_type_of_die(w->xt, type_off, &f->params[f->nr_params - 1].type);
	return err;
}

static int read_signature(struct xtable *xt, struct xfunc *f, Dwarf_Off off, bool define0)
{
	struct param_walk w = { .xt = xt, .f = f };
	struct kdwarf *d = xt->dwarf;
	Dwarf_Error derr = NULL;
	Dwarf_Die die = NULL;
	Dwarf_Unsigned line;
	int err;

	if (dwarf_offdie_b(d->dbg, off, 1, &die, &derr) != DW_DLV_OK)
		return kdwarf_error(d, derr, "reading a syscall function");
	err = xt_type_attr(xt, die, &f->ret);
	if (err)
		goto out;
	if (die_udata(d, die, DW_AT_decl_line, &line))
		f->decl_line = (int)line;
	f->decl_file = xt_decl_file(xt, die);
	f->source = "dwarf";
	f->found = true;
	if (define0)
		goto out;
	err = kdwarf_for_each_child(d, die, read_param, &w, "reading syscall parameters");
	/* SYSCALL_DEFINE0's __do_sys_ keeps the ignored pt_regs parameter. */
	if (!err && f->nr_params == 1 && w.regs_pending) {
		free(f->params[0].name);
		f->nr_params = 0;
	}
out:
	dwarf_dealloc_die(die);
	return err;
}

/* A C string at virtual address @addr, bounded by its section. */
static const char *string_at(struct kelf *k, uint64_t addr)
{
	const unsigned char *p = kelf_read_addr(k, addr, 1);
	size_t i;

	if (!p)
		return NULL;
	for (i = 0; i < 512; i++) {
		const unsigned char *q = kelf_read_addr(k, addr + i, 1);

		if (!q)
			return NULL;
		if (!*q)
			return (const char *)p;
	}
	return NULL;
}

/*
 * ftrace's syscall metadata: static const char *types__X[] and args__X[]
 * (pointers, so read as the loader leaves them: relocated on arm64).
 */
static int read_metadata(struct kelf *k, struct xfunc *f)
{
	struct kd_buf sym = KD_BUF_INIT;
	const struct kelf_symbol *types, *args;
	const char *base = !kd_starts_with(f->name, "sys_") ? NULL : f->name + 4;
	size_t n, i, cap = 0;
	int err = 0;

	if (!base)
		return 0;
	if ((err = kd_buf_addf(&sym, "types__%s", base)))
		return err;
	types = kelf_symbol_by_name(k, sym.s);
	kd_buf_reset(&sym);
	if ((err = kd_buf_addf(&sym, "args__%s", base)))
		goto out;
	args = kelf_symbol_by_name(k, sym.s);
	if (!types || !args || types->size != args->size || types->size > 6 * 8)
		goto out;
	n = types->size / 8;
	if (!kelf_read_addr(k, types->addr, n * 8) || !kelf_read_addr(k, args->addr, n * 8))
		goto out;
	for (i = 0; i < n; i++) {
		uint64_t ta, aa;
		const char *ts, *as;

		err = kelf_read_word(k, types->addr + i * 8, &ta, types->name);
		if (!err)
			err = kelf_read_word(k, args->addr + i * 8, &aa, args->name);
		if (err)
			goto out;
		ts = string_at(k, ta);
		as = string_at(k, aa);
		if (!ts || !as)
			goto out;
		err = add_param(f, &cap, as);
		if (err)
			goto out;
		f->params[f->nr_params - 1].type_text = kd_strdup(ts);
		if (!f->params[f->nr_params - 1].type_text) {
			err = -ENOMEM;
			goto out;
		}
	}
	f->source = "metadata";
	f->found = true;
out:
	kd_buf_release(&sym);
	return err;
}

static int resolve(struct xtable *xt, struct kelf *k, struct die_index *idx, struct xfunc *f)
{
	struct kd_buf name = KD_BUF_INIT;
	Dwarf_Off off, param_type;
	int err;

	err = kd_buf_addf(&name, "__do_%s", f->name);
	if (err)
		return err;
	off = find_die(idx, name.s);
	kd_buf_release(&name);
	if (off)
		return read_signature(xt, f, off, false);
	off = find_die_at(xt->dwarf, idx, f->entry_name, f->entry_addr);
	if (off) {
		Dwarf_Error derr = NULL;
		Dwarf_Die die = NULL, child = NULL, extra = NULL;
		bool define0 = false;

		if (dwarf_offdie_b(xt->dwarf->dbg, off, 1, &die, &derr) == DW_DLV_OK) {
			if (dwarf_child(die, &child, &derr) == DW_DLV_OK) {
				define0 = die_tag(xt->dwarf, child) == DW_TAG_formal_parameter &&
					  die_ref(xt->dwarf, child, DW_AT_type, &param_type) &&
					  is_pt_regs_pointer(xt->dwarf, param_type);
				if (define0 && dwarf_siblingof_b(xt->dwarf->dbg, child, 1, &extra,
								 &derr) == DW_DLV_OK) {
					define0 = die_tag(xt->dwarf, extra) != DW_TAG_formal_parameter;
					dwarf_dealloc_die(extra);
				}
				dwarf_dealloc_die(child);
			}
			dwarf_dealloc_die(die);
		}
		if (define0)
			return read_signature(xt, f, off, true);
	}
	err = read_metadata(k, f);
	if (err || f->found)
		return err;
	xt_problem(xt, 0, "no signature for %s: neither __do_%s nor a SYSCALL_DEFINE0 entry"
		   " in DWARF, nor ftrace metadata", f->name, f->name);
	return 0;
}

int xsyscalls_read_signatures(struct xsyscalls *s, struct xtable *xt, struct kelf *k)
{
	struct die_index idx = { 0 };
	struct cu_ranges *ranges = NULL;
	Dwarf_Off *cus = NULL;
	size_t nr_cus = 0, cus_cap = 0, i;
	int err;

	err = cu_ranges_load(xt->dwarf, &ranges);
	if (err)
		goto out;
	for (i = 0; i < s->nr_funcs; i++) {
		Dwarf_Off cu = cu_ranges_lookup(ranges, s->funcs[i].entry_addr);

		if (!cu)
			continue;
		err = KD_GROW(cus, cus_cap, nr_cus + 1);
		if (err)
			goto out;
		cus[nr_cus++] = cu;
	}
	if (nr_cus)	/* qsort(NULL, 0, ...) is undefined */
		qsort(cus, nr_cus, sizeof(*cus), cmp_off);
	for (i = 0; i < nr_cus; i++) {
		if (i && cus[i] == cus[i - 1])
			continue;
		err = index_cu(xt->dwarf, cus[i], &idx);
		if (err)
			goto out;
	}
	if (!nr_cus && s->nr_funcs) {
		kd_info("%s: no .debug_aranges for the syscall entry points; scanning every CU",
			k->path);
		err = index_all_cus(xt->dwarf, &idx);
		if (err)
			goto out;
	}
	if (idx.n)
		qsort(idx.v, idx.n, sizeof(*idx.v), cmp_named);
	for (i = 0; i < s->nr_funcs; i++) {
		err = resolve(xt, k, &idx, &s->funcs[i]);
		if (err)
			goto out;
	}
out:
	for (i = 0; i < idx.n; i++)
		free(idx.v[i].name);
	free(idx.v);
	free(cus);
	cu_ranges_free(ranges);
	return err;
}
