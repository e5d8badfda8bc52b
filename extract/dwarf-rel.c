// SPDX-License-Identifier: GPL-2.0-only
/*
 * The DWARF sections of a relocatable object (.ko) with their relocations
 * applied, for libdwarf's object access interface (dwarf.c). libdwarf's
 * own ELF loader reads every debug section and its .rela section into
 * memory of its own: Debian 6.12.107's amdgpu.ko has a .rela.debug_info of
 * 233 MiB next to its 154 MiB .debug_info and 123 MiB .debug_str, and that
 * one module set the peak RSS of a whole extraction. Here a section with
 * relocations is the only copy; the relocations and the sections without
 * any are read from the file's mapping, and the mapped pages of a section
 * once copied and of its relocations are given back to the kernel
 * (MADV_DONTNEED: they are the file's, read again if ever touched).
 */
#include "extract/dwarf_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/mem.h"

/* The SHT_RELA section that applies to section @idx, or NULL. */
static struct kelf_section *rela_for(struct kelf *k, size_t idx)
{
	size_t i;

	for (i = 0; i < k->nr_sections; i++) {
		const GElf_Shdr *sh = &k->sections[i].shdr;

		if (sh->sh_type == SHT_RELA && sh->sh_info == idx && !(sh->sh_flags & SHF_ALLOC))
			return &k->sections[i];
	}
	return NULL;
}

/* Drop the pages of [@p, @p + @n) from this process when they are the file's mapping. */
static void give_back(struct kelf *k, const void *p, size_t n)
{
	size_t size = 0, page = (size_t)sysconf(_SC_PAGESIZE);
	const char *base = elf_rawfile(k->elf, &size);
	uintptr_t a = (uintptr_t)p, lo, hi;

	if (!base || !page || a < (uintptr_t)base || a + n > (uintptr_t)base + size)
		return;		/* memory of libelf's own (inflated, converted): keep */
	lo = (a + page - 1) & ~(uintptr_t)(page - 1);
	hi = (a + n) & ~(uintptr_t)(page - 1);
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

/* Width in bytes of relocation @type of @machine in a debug section; 0: none; -1: unknown. */
static int rel_width(uint16_t machine, uint32_t type)
{
	if (machine == EM_X86_64)
		return type == R_X86_64_NONE ? 0 : type == R_X86_64_64 ? 8 :
		       type == R_X86_64_32 || type == R_X86_64_32S ? 4 : -1;
	if (machine == EM_AARCH64)
		return type == R_AARCH64_NONE ? 0 : type == R_AARCH64_ABS64 ? 8 :
		       type == R_AARCH64_ABS32 ? 4 : -1;
	return -1;
}

/* Apply @rela (S + A, with S the symbol's st_value) to @buf of @size bytes; d->cause on errors. */
static int apply(struct kdwarf *d, struct kelf_section *rela, unsigned char *buf, size_t size)
{
	struct kelf *k = d->elf;
	struct kelf_section *symtab;
	const Elf64_Rela *r;
	const Elf64_Sym *syms;
	size_t i, nr, nr_syms;

	if (rela->shdr.sh_link >= k->nr_sections)
		return -EINVAL;
	symtab = &k->sections[rela->shdr.sh_link];
	r = (const Elf64_Rela *)kelf_section_data(k, rela);
	syms = (const Elf64_Sym *)kelf_section_data(k, symtab);
	if (!r || !syms || symtab->shdr.sh_type != SHT_SYMTAB) {
		d->cause = "a debug section's relocations name no symbol table";
		return -EINVAL;
	}
	nr = rela->size / sizeof(*r);
	nr_syms = symtab->size / sizeof(*syms);
	for (i = 0; i < nr; i++) {
		uint64_t off = r[i].r_offset, sym = ELF64_R_SYM(r[i].r_info);
		uint64_t v;
		int w = rel_width(k->ehdr.e_machine, (uint32_t)ELF64_R_TYPE(r[i].r_info));

		if (w < 0) {
			d->cause = "a relocation of a type no debug section has";
			return -EINVAL;
		}
		if (sym >= nr_syms || off > size || size - off < (uint64_t)w) {
			d->cause = "a relocation outside its debug section or of no symbol";
			return -EINVAL;
		}
		if (!w)
			continue;
		v = syms[sym].st_value + (uint64_t)r[i].r_addend;
		if (w == 8) {
			memcpy(buf + off, &v, 8);
		} else {
			uint32_t v32 = (uint32_t)v;

			memcpy(buf + off, &v32, 4);
		}
	}
	give_back(k, r, rela->size);
	return 0;
}

int kdwarf_rel_load(struct kdwarf *d, size_t idx, Dwarf_Small **data)
{
	struct kelf *k = d->elf;
	struct kelf_section *s = &k->sections[idx], *rela = rela_for(k, idx);
	const unsigned char *src = kelf_section_data(k, s);
	unsigned char *copy;
	int err;

	if (!src)
		return -EIO;
	if (!rela) {
		/* libdwarf never writes to sections it did not relocate. */
		*data = (Dwarf_Small *)src;
		return 0;
	}
	if (KD_GROW(d->copies, d->cap_copies, d->nr_copies + 1))
		return -ENOMEM;
	copy = kd_malloc(s->size ? s->size : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, src, s->size);
	err = apply(d, rela, copy, s->size);
	if (err) {
		free(copy);
		return err;
	}
	give_back(k, src, s->size);
	d->copies[d->nr_copies++] = copy;
	*data = copy;
	return 0;
}

void kdwarf_rel_release(struct kdwarf *d)
{
	size_t i;

	for (i = 0; i < d->nr_copies; i++)
		free(d->copies[i]);
	free(d->copies);
	d->copies = NULL;
	d->nr_copies = d->cap_copies = 0;
}
