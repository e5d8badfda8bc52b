// SPDX-License-Identifier: GPL-2.0-only
/*
 * Words of a relocatable kernel image as its loader leaves them. A linked
 * x86_64 vmlinux is ET_EXEC with every address final in the file. Debian's
 * arm64 vmlinux is ET_DYN (linked -shared -Bsymbolic with
 * --no-apply-dynamic-relocs): pointers in data (sys_call_table, the ftrace
 * metadata arrays) are zero in the file, and the early boot code stores
 * "addend + KASLR offset" into each from the R_AARCH64_RELATIVE entries of
 * .rela.dyn. Reading with a zero offset gives the link-time addresses that
 * .symtab and DWARF use.
 *
 * Only allocated SHT_RELA sections are dynamic relocations; the
 * non-allocated .rela.text etc. that --emit-relocs keeps are already
 * applied. SHT_RELR (.relr.dyn) stores its addends in place, so the file's
 * bytes are already right for those words.
 */
#include "extract/elf_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/mem.h"

struct reloc_types {
	uint32_t none, relative, abs64, glob_dat, jump_slot;
};

static bool types_of(uint16_t machine, struct reloc_types *t)
{
	switch (machine) {
	case EM_AARCH64:
		*t = (struct reloc_types){ R_AARCH64_NONE, R_AARCH64_RELATIVE, R_AARCH64_ABS64,
					   R_AARCH64_GLOB_DAT, R_AARCH64_JUMP_SLOT };
		return true;
	case EM_X86_64:
		*t = (struct reloc_types){ R_X86_64_NONE, R_X86_64_RELATIVE, R_X86_64_64,
					   R_X86_64_GLOB_DAT, R_X86_64_JUMP_SLOT };
		return true;
	}
	return false;
}

/* Sorting key: address, then order in the file (the later entry wins, as when applied in order). */
struct seq_reloc {
	struct kelf_reloc r;
	size_t seq;
};

static int cmp_seq_reloc(const void *a, const void *b)
{
	const struct seq_reloc *x = a, *y = b;

	if (x->r.addr != y->r.addr)
		return x->r.addr < y->r.addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* S of S + A: the symbol's link-time value, from the section @rela links to. */
static bool symbol_value(struct kelf *k, const struct kelf_section *rela, size_t sym, uint64_t *out)
{
	const struct kelf_section *symtab;
	Elf_Data *d;
	GElf_Sym s;

	if (rela->shdr.sh_link == 0 || rela->shdr.sh_link >= k->nr_sections)
		return false;
	symtab = &k->sections[rela->shdr.sh_link];
	if (symtab->shdr.sh_type != SHT_SYMTAB && symtab->shdr.sh_type != SHT_DYNSYM)
		return false;
	d = elf_getdata(elf_getscn(k->elf, rela->shdr.sh_link), NULL);
	if (!d || sym > INT32_MAX || !gelf_getsym(d, (int)sym, &s) || s.st_shndx == SHN_UNDEF)
		return false;
	*out = s.st_value;
	return true;
}

static int read_section(struct kelf *k, struct kelf_section *s, const struct reloc_types *t,
			struct seq_reloc **v, size_t *n, size_t *cap)
{
	size_t idx = (size_t)(s - k->sections), i, count;
	Elf_Data *d;
	int err;

	if (s->shdr.sh_entsize != sizeof(Elf64_Rela) || s->shdr.sh_size % sizeof(Elf64_Rela)) {
		kd_err("%s: %s: entries of %llu bytes, not %zu", k->path, s->name,
		       (unsigned long long)s->shdr.sh_entsize, sizeof(Elf64_Rela));
		return -KD_EFORMAT;
	}
	d = elf_getdata(elf_getscn(k->elf, idx), NULL);
	if (!d || d->d_size != s->shdr.sh_size) {
		kd_err("%s: cannot read %s: %s", k->path, s->name, elf_errmsg(-1));
		return -KD_EFORMAT;
	}
	count = d->d_size / sizeof(Elf64_Rela);
	for (i = 0; i < count; i++) {
		struct seq_reloc *r;
		GElf_Rela rela;
		uint32_t type;

		if (i > INT32_MAX || !gelf_getrela(d, (int)i, &rela)) {
			kd_err("%s: %s: unreadable entry %zu: %s", k->path, s->name, i, elf_errmsg(-1));
			return -KD_EFORMAT;
		}
		type = (uint32_t)GELF_R_TYPE(rela.r_info);
		if (type == t->none)
			continue;
		err = KD_GROW(*v, *cap, *n + 1);
		if (err)
			return err;
		r = &(*v)[(*n)++];
		memset(r, 0, sizeof(*r));
		r->seq = *n;
		r->r.addr = rela.r_offset;
		r->r.type = type;
		if (type == t->relative) {
			/* B + A with the link-time base B = 0. */
			r->r.value = (uint64_t)rela.r_addend;
			r->r.known = true;
		} else if (type == t->abs64 || type == t->glob_dat || type == t->jump_slot) {
			uint64_t sym = 0;

			/* S + A (GLOB_DAT and JUMP_SLOT have A = 0 on both machines' ABIs). */
			r->r.known = symbol_value(k, s, GELF_R_SYM(rela.r_info), &sym);
			r->r.value = sym + (uint64_t)(type == t->abs64 ? rela.r_addend : 0);
		}
	}
	return 0;
}

static int load_relocs(struct kelf *k)
{
	struct seq_reloc *v = NULL;
	struct reloc_types t;
	size_t n = 0, cap = 0, i, out;
	int err = 0;

	if (k->relocs_loaded)
		return 0;
	if (k->ehdr.e_type == ET_DYN && types_of(k->ehdr.e_machine, &t)) {
		for (i = 0; !err && i < k->nr_sections; i++) {
			struct kelf_section *s = &k->sections[i];

			if (s->shdr.sh_type == SHT_RELA && (s->shdr.sh_flags & SHF_ALLOC))
				err = read_section(k, s, &t, &v, &n, &cap);
		}
	}
	if (err)
		goto out;
	if (n)
		qsort(v, n, sizeof(*v), cmp_seq_reloc);
	k->relocs = kd_calloc(n ? n : 1, sizeof(*k->relocs));
	if (!k->relocs) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0, out = 0; i < n; i++) {
		if (out && k->relocs[out - 1].addr == v[i].r.addr)
			out--;	/* applied later: overwrites */
		k->relocs[out++] = v[i].r;
	}
	k->nr_relocs = out;
	k->relocs_loaded = true;
out:
	free(v);
	return err;
}

static const struct kelf_reloc *reloc_at(const struct kelf *k, uint64_t addr)
{
	size_t lo = 0, hi = k->nr_relocs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->relocs[mid].addr < addr)
			lo = mid + 1;
		else if (k->relocs[mid].addr > addr)
			hi = mid;
		else
			return &k->relocs[mid];
	}
	return NULL;
}

int kelf_read_word(struct kelf *k, uint64_t addr, uint64_t *out, const char *what)
{
	const unsigned char *p = kelf_read_addr(k, addr, 8);
	const struct kelf_reloc *r;
	int err;

	if (!p) {
		kd_err("%s: %s: address 0x%llx is not in a section with contents", k->path, what,
		       (unsigned long long)addr);
		return -KD_EFORMAT;
	}
	memcpy(out, p, 8);	/* little-endian host and file (kelf_open checks) */
	err = load_relocs(k);
	if (err)
		return err;
	r = reloc_at(k, addr);
	if (!r)
		return 0;
	if (!r->known) {
		kd_err("%s: %s: the word at 0x%llx is relocated by type %u, which this reader does"
		       " not compute", k->path, what, (unsigned long long)addr, r->type);
		return -KD_EUNSUPPORTED;
	}
	*out = r->value;
	return 0;
}
