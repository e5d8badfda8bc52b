// SPDX-License-Identifier: GPL-2.0-only
/*
 * The struct file_operations objects of a binary and where their ioctl
 * members point: what a character device does with an ioctl of a 32-bit
 * program (compat_ioctl NULL: ENOTTY; compat_ptr_ioctl: the native handler
 * given the 32-bit argument; another function: a translation).
 *
 * The variables are found in DWARF (a top-level DW_TAG_variable with a
 * location whose type, through qualifiers and typedefs, is struct
 * file_operations), with the offsets of unlocked_ioctl and compat_ioctl
 * from that same DWARF: the layout of the struct changes between releases
 * and configurations, so no offset is assumed. Each is then looked up in
 * .symtab by name and size, which also separates two static variables of
 * one name. A module is relocatable: its pointers are zero in the file and
 * the relocation at the member's offset of the variable's section names
 * the target (a symbol, or a section symbol plus an addend: the function
 * defined there). A linked vmlinux holds the address itself, named
 * through .symtab.
 *
 * Everything comes from the input file, which may be hostile: every
 * offset is checked against its section, a relocation table is read once
 * per section into a sorted array (no quadratic search), and what cannot
 * be read is counted into one problem text, never an error.
 */
#include "extract/fops_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/hash.h"
#include "lib/hashmap.h"
#include "lib/mem.h"

/* Qualifiers and typedefs followed from a variable to its struct, at most. */
#define MAX_TYPE_HOPS 16

struct fops_layout {
	uint64_t size;		/* bytes of struct file_operations */
	int64_t off_unlocked;	/* bytes; -1: no such member */
	int64_t off_compat;
};

/* A DWARF variable of the type, by name (several symbols may share it). */
struct var {
	const char *name;	/* libdwarf's string: valid while the DWARF is open */
	struct fops_layout layout;
};

struct rel {
	uint64_t off;		/* in the section */
	uint64_t sym;		/* index in the symbol table */
	int64_t addend;
	uint32_t type;
};

/* The relocations of one section, sorted by offset. */
struct sec_rels {
	size_t shndx;
	size_t symtab;		/* the section index of their symbol table; 0: none */
	struct rel *v;
	size_t n;
};

struct reader {
	struct kdwarf *d;
	struct kelf *k;
	struct var *vars;
	size_t nr_vars, cap_vars;
	struct kd_hashmap by_name;	/* name hash -> index + 1 in vars */
	struct kd_hashmap types;	/* type DIE offset -> 1: not ours, 2 + index in layouts */
	struct fops_layout *layouts;
	size_t nr_layouts, cap_layouts;
	struct sec_rels *secs;
	size_t nr_secs, cap_secs;
	struct fops_list *out;
	size_t nr_bad;
	struct kd_buf first_bad;
};

/* A malloc'ed string of @fmt, or NULL when out of memory. */
static char *text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *text(const char *fmt, ...)
{
	struct kd_buf b = KD_BUF_INIT;
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = kd_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (err) {
		kd_buf_release(&b);
		return NULL;
	}
	return kd_buf_detach(&b);
}

/* --- the DWARF side -------------------------------------------------------- */

static bool offdie(struct kdwarf *d, Dwarf_Off off, Dwarf_Die *die)
{
	Dwarf_Error err = NULL;
	int rc = dwarf_offdie_b(d->dbg, off, 1, die, &err);

	if (rc == DW_DLV_ERROR)
		dwarf_dealloc(d->dbg, err, DW_DLA_ERROR);
	return rc == DW_DLV_OK;
}

struct members_walk {
	struct kdwarf *d;
	struct fops_layout *l;
};

static int on_member(Dwarf_Die m, void *ctx)
{
	struct members_walk *w = ctx;
	const char *name;
	Dwarf_Unsigned off;

	if (die_tag(w->d, m) != DW_TAG_member || !(name = die_name(w->d, m)))
		return 0;
	/* DWARF 3 and later give a constant; the DWARF 2 expression form is no kernel's. */
	if (!die_udata(w->d, m, DW_AT_data_member_location, &off) || off > INT64_MAX)
		return 0;
	if (!strcmp(name, "unlocked_ioctl"))
		w->l->off_unlocked = (int64_t)off;
	else if (!strcmp(name, "compat_ioctl"))
		w->l->off_compat = (int64_t)off;
	return 0;
}

/*
 * The layout of the struct file_operations that the type at @off is, or
 * NULL (another type). Cached by DIE offset: every CU refers to its own
 * copy, and every variable of a CU to the same one.
 */
static int layout_of(struct reader *r, Dwarf_Off off, const struct fops_layout **out)
{
	uint64_t cached = kd_hashmap_get(&r->types, off + 1);
	Dwarf_Off at = off;
	Dwarf_Die die = NULL;
	struct fops_layout l = { 0, -1, -1 };
	Dwarf_Unsigned size;
	const char *name;
	int hops, err;

	*out = NULL;
	if (cached) {
		*out = cached >= 2 ? &r->layouts[cached - 2] : NULL;
		return 0;
	}
	for (hops = 0; hops < MAX_TYPE_HOPS; hops++) {
		Dwarf_Half tag;

		if (!offdie(r->d, at, &die))
			break;
		tag = die_tag(r->d, die);
		if (tag != DW_TAG_const_type && tag != DW_TAG_volatile_type && tag != DW_TAG_typedef)
			break;
		if (!die_ref(r->d, die, DW_AT_type, &at)) {
			dwarf_dealloc_die(die);
			die = NULL;
			break;
		}
		dwarf_dealloc_die(die);
		die = NULL;
	}
	if (die && die_tag(r->d, die) == DW_TAG_structure_type &&
	    (name = die_name(r->d, die)) && !strcmp(name, "file_operations") &&
	    !die_flag(r->d, die, DW_AT_declaration) &&
	    die_udata(r->d, die, DW_AT_byte_size, &size)) {
		struct members_walk w = { r->d, &l };

		l.size = size;
		err = kdwarf_for_each_child(r->d, die, on_member, &w, "reading struct file_operations");
		if (err)
			l.off_unlocked = l.off_compat = -1;	/* unreadable members: none known */
	}
	if (die)
		dwarf_dealloc_die(die);
	if (!l.size || (l.off_unlocked < 0 && l.off_compat < 0))
		return kd_hashmap_put(&r->types, off + 1, 1);
	err = KD_GROW(r->layouts, r->cap_layouts, r->nr_layouts + 1);
	if (err)
		return err;
	r->layouts[r->nr_layouts++] = l;
	err = kd_hashmap_put(&r->types, off + 1, r->nr_layouts + 1);
	if (!err)
		*out = &r->layouts[r->nr_layouts - 1];
	return err;
}

static int add_var(struct reader *r, const char *name, const struct fops_layout *l)
{
	uint64_t hash = kd_hash_str(0, name), idx;
	size_t pos = KD_HASHMAP_FIRST;
	int err = kd_hashmap_reserve(&r->by_name, 1);

	if (err)
		return err;
	while ((idx = kd_hashmap_next(&r->by_name, hash, &pos)))
		if (!strcmp(r->vars[idx - 1].name, name))
			return 0;	/* the first definition's layout: every CU has the same */
	err = KD_GROW(r->vars, r->cap_vars, r->nr_vars + 1);
	if (err)
		return err;
	r->vars[r->nr_vars].name = name;
	r->vars[r->nr_vars].layout = *l;
	r->nr_vars++;
	kd_hashmap_insert_at(&r->by_name, pos, hash, r->nr_vars);
	return 0;
}

static int on_top_die(Dwarf_Die die, void *ctx)
{
	struct reader *r = ctx;
	const struct fops_layout *l;
	const char *name;
	Dwarf_Off type, spec;
	Dwarf_Die decl;
	int err;

	if (die_tag(r->d, die) != DW_TAG_variable || !die_flag(r->d, die, DW_AT_location))
		return 0;
	name = die_name(r->d, die);
	if (!die_ref(r->d, die, DW_AT_type, &type))
		type = 0;
	/* A definition after an extern declaration names its type there. */
	if ((!name || !type) && die_ref(r->d, die, DW_AT_specification, &spec) &&
	    offdie(r->d, spec, &decl)) {
		if (!name)
			name = die_name(r->d, decl);
		if (!type && !die_ref(r->d, decl, DW_AT_type, &type))
			type = 0;
		dwarf_dealloc_die(decl);
	}
	if (!name || !type)
		return 0;
	err = layout_of(r, type, &l);
	return err || !l ? err : add_var(r, name, l);
}

static int on_cu(Dwarf_Die cu, void *ctx)
{
	struct reader *r = ctx;

	return kdwarf_for_each_child(r->d, cu, on_top_die, r, "reading file_operations variables");
}

/* --- the ELF side ---------------------------------------------------------- */

static int bad(struct reader *r, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Count one object that cannot be read; the first one's cause is kept for the problem row. */
static int bad(struct reader *r, const char *name, const char *fmt, ...)
{
	va_list ap;
	int err = 0;

	if (!r->nr_bad++) {
		err = kd_buf_addf(&r->first_bad, "%s: ", name);
		va_start(ap, fmt);
		if (!err)
			err = kd_buf_vaddf(&r->first_bad, fmt, ap);
		va_end(ap);
	}
	return err;
}

static int cmp_rel(const void *a, const void *b)
{
	const struct rel *x = a, *y = b;

	return (x->off > y->off) - (x->off < y->off);
}

/* The relocations that apply to section @shndx, read once; *out NULL when none. */
static int relocs_of(struct reader *r, size_t shndx, const struct sec_rels **out)
{
	struct kelf *k = r->k;
	struct sec_rels *s;
	size_t i, j;
	int err;

	for (i = 0; i < r->nr_secs; i++)
		if (r->secs[i].shndx == shndx) {
			*out = &r->secs[i];
			return 0;
		}
	err = KD_GROW(r->secs, r->cap_secs, r->nr_secs + 1);
	if (err)
		return err;
	s = &r->secs[r->nr_secs++];
	memset(s, 0, sizeof(*s));
	s->shndx = shndx;
	*out = s;
	for (i = 0; i < k->nr_sections; i++) {
		struct kelf_section *rs = &k->sections[i];
		const unsigned char *data;
		size_t n;

		if (rs->shdr.sh_type != SHT_RELA || rs->shdr.sh_info != shndx)
			continue;
		if (rs->shdr.sh_entsize != sizeof(Elf64_Rela) || rs->shdr.sh_link >= k->nr_sections ||
		    !(data = kelf_section_data(k, rs)))
			return 1;	/* unreadable: the caller says so */
		n = rs->size / sizeof(Elf64_Rela);
		s->v = kd_calloc(n ? n : 1, sizeof(*s->v));
		if (!s->v)
			return -ENOMEM;
		for (j = 0; j < n; j++) {
			Elf64_Rela e;

			memcpy(&e, data + j * sizeof(e), sizeof(e));	/* the file's alignment is its own */
			s->v[j] = (struct rel){ e.r_offset, ELF64_R_SYM(e.r_info), e.r_addend,
						(uint32_t)ELF64_R_TYPE(e.r_info) };
		}
		s->n = n;
		s->symtab = rs->shdr.sh_link;
		if (n)
			qsort(s->v, n, sizeof(*s->v), cmp_rel);
		break;
	}
	return 0;
}

static const struct rel *rel_at(const struct sec_rels *s, uint64_t off)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].off < off)
			lo = mid + 1;
		else if (s->v[mid].off > off)
			hi = mid;
		else
			return &s->v[mid];
	}
	return NULL;
}

/* A function symbol at @addr of section @shndx (any section: SHN_UNDEF), or NULL. */
static const char *symbol_at(struct kelf *k, uint64_t addr, size_t shndx)
{
	size_t first, end = kelf_symbols_at(k, addr, &first), i;
	const char *any = NULL;

	for (i = first; i < end; i++) {
		const struct kelf_symbol *s = &k->symbols[i];

		if (shndx != SHN_UNDEF && s->shndx != shndx)
			continue;
		if (s->type == STT_FUNC)
			return s->name;
		if (!any && s->type != STT_SECTION && s->type != STT_FILE)
			any = s->name;
	}
	return any;
}

static bool is_abs64(uint16_t machine, uint32_t type)
{
	return (machine == EM_X86_64 && type == R_X86_64_64) ||
	       (machine == EM_AARCH64 && type == R_AARCH64_ABS64);
}

/*
 * The target of the relocation @e of @s: the symbol's name, or for a
 * section symbol the function at the addend there. *name: malloc'ed.
 * 1 with a cause in @why when it cannot be named.
 */
static int name_rel_target(struct reader *r, const struct sec_rels *s, const struct rel *e,
			   char **name, const char **why)
{
	struct kelf *k = r->k;
	Elf_Data *d = elf_getdata(elf_getscn(k->elf, s->symtab), NULL);
	const char *sname, *fn;
	GElf_Sym sym;

	if (!is_abs64(k->ehdr.e_machine, e->type)) {
		*why = "the pointer is relocated by a type that is no absolute address";
		return 1;
	}
	if (k->sections[s->symtab].shdr.sh_type != SHT_SYMTAB || !d || e->sym > INT32_MAX ||
	    !gelf_getsym(d, (int)e->sym, &sym)) {
		*why = "the pointer's relocation names no symbol of a symbol table";
		return 1;
	}
	if (GELF_ST_TYPE(sym.st_info) == STT_SECTION) {
		uint64_t at = sym.st_value + (uint64_t)e->addend;

		fn = symbol_at(k, at, sym.st_shndx);
		*name = fn ? kd_strdup(fn) : text("0x%" PRIx64, at);
		return *name ? 0 : -ENOMEM;
	}
	sname = elf_strptr(k->elf, k->sections[s->symtab].shdr.sh_link, sym.st_name);
	if (!sname || !*sname) {
		*why = "the pointer's relocation names a symbol without a name";
		return 1;
	}
	*name = e->addend ? text("%s+0x%" PRIx64, sname, (uint64_t)e->addend) :
			    kd_strdup(sname);
	return *name ? 0 : -ENOMEM;
}

/* The pointer at @off of the relocatable object @s: 0, 1 (bad, @why), or -ENOMEM. */
static int read_rel_pointer(struct reader *r, const struct kelf_symbol *s, int64_t off,
			    char **out, const char **why)
{
	struct kelf *k = r->k;
	struct kelf_section *sec;
	const struct sec_rels *rels;
	const struct rel *e;
	const unsigned char *data;
	uint64_t pos, word;
	int err;

	if (s->shndx == SHN_UNDEF || s->shndx >= k->nr_sections) {
		*why = "its symbol is in no section of the file";
		return 1;
	}
	sec = &k->sections[s->shndx];
	pos = s->addr + (uint64_t)off;
	if (pos < s->addr || sec->shdr.sh_size < 8 || pos > sec->shdr.sh_size - 8) {
		*why = "the member lies outside the variable's section";
		return 1;
	}
	err = relocs_of(r, s->shndx, &rels);
	if (err) {
		*why = "the relocations of its section are unreadable";
		return err;
	}
	e = rel_at(rels, pos);
	if (e)
		return name_rel_target(r, rels, e, out, why);
	if (sec->shdr.sh_type == SHT_NOBITS)
		return 0;	/* .bss: zero */
	data = kelf_section_data(k, sec);
	if (!data || sec->size != sec->shdr.sh_size) {
		*why = "the variable's section is unreadable";
		return 1;
	}
	memcpy(&word, data + pos, 8);
	if (!word)
		return 0;
	*out = text("0x%" PRIx64, word);	/* an address nothing relocates: unnamed */
	return *out ? 0 : -ENOMEM;
}

/* The pointer at @off of the linked image's object @s: as read_rel_pointer(). */
static int read_linked_pointer(struct reader *r, const struct kelf_symbol *s, int64_t off,
			       char **out, const char **why)
{
	struct kelf *k = r->k;
	uint64_t addr = s->addr + (uint64_t)off, word;
	const char *fn;

	if (s->shndx != SHN_UNDEF && s->shndx < k->nr_sections &&
	    k->sections[s->shndx].shdr.sh_type == SHT_NOBITS)
		return 0;
	if (addr < s->addr || !kelf_read_addr(k, addr, 8)) {
		*why = "the member's address is in no section with contents";
		return 1;
	}
	if (kelf_read_word(k, addr, &word, s->name)) {
		*why = "the member's word cannot be read";
		return 1;
	}
	if (!word)
		return 0;
	fn = symbol_at(k, word, SHN_UNDEF);
	*out = fn ? kd_strdup(fn) : text("0x%" PRIx64, word);
	return *out ? 0 : -ENOMEM;
}

static int read_pointer(struct reader *r, const struct kelf_symbol *s, int64_t off, char **out,
			const char **why)
{
	*out = NULL;
	if (off < 0)
		return 0;	/* no such member in this kernel: never set */
	return r->k->ehdr.e_type == ET_REL ? read_rel_pointer(r, s, off, out, why) :
					      read_linked_pointer(r, s, off, out, why);
}

static const struct var *var_named(const struct reader *r, const char *name)
{
	uint64_t hash = kd_hash_str(0, name), idx;
	size_t pos = KD_HASHMAP_FIRST;

	while ((idx = kd_hashmap_next(&r->by_name, hash, &pos)))
		if (!strcmp(r->vars[idx - 1].name, name))
			return &r->vars[idx - 1];
	return NULL;
}

static int read_object(struct reader *r, const struct kelf_symbol *s, const struct var *v)
{
	struct fops_entry e = { 0 };
	const char *why = NULL;
	int err;

	err = read_pointer(r, s, v->layout.off_unlocked, &e.unlocked, &why);
	if (!err)
		err = read_pointer(r, s, v->layout.off_compat, &e.compat, &why);
	if (err > 0)
		err = bad(r, s->name, "%s", why);
	else if (!err && !(e.name = kd_strdup(s->name)))
		err = -ENOMEM;
	if (!err && e.name && !(err = KD_GROW(r->out->v, r->out->cap, r->out->n + 1))) {
		r->out->v[r->out->n++] = e;
		return 0;
	}
	free(e.name);
	free(e.unlocked);
	free(e.compat);
	return err;
}

static int cmp_str0(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) : (a != NULL) - (b != NULL);
}

static int cmp_entry(const void *a, const void *b)
{
	const struct fops_entry *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (!c)
		c = cmp_str0(x->unlocked, y->unlocked);
	return c ? c : cmp_str0(x->compat, y->compat);
}

static void reader_release(struct reader *r)
{
	size_t i;

	for (i = 0; i < r->nr_secs; i++)
		free(r->secs[i].v);
	free(r->secs);
	free(r->vars);
	free(r->layouts);
	kd_hashmap_release(&r->by_name);
	kd_hashmap_release(&r->types);
	kd_buf_release(&r->first_bad);
}

int fops__read(struct kdwarf *d, struct fops_list *out)
{
	struct reader r = { .d = d, .k = d->elf, .out = out, .first_bad = KD_BUF_INIT };
	size_t i;
	int err;

	err = kdwarf_for_each_cu(d, on_cu, &r);
	if (err && err != -ENOMEM) {
		err = bad(&r, "DWARF", "%s", "unreadable; the variables found before are kept");
	}
	if (!err && r.nr_vars && !r.k->symbols) {
		/* A .ko without .symtab: a problem of its fops, not an error of the module. */
		err = kelf_load_symbols(r.k);
		if (err && err != -ENOMEM)
			err = bad(&r, "symbols", "%s", "no readable symbol table");
	}
	for (i = 0; !err && r.k->symbols && i < r.k->nr_symbols; i++) {
		const struct kelf_symbol *s = &r.k->symbols[i];
		const struct var *v;

		if (s->type != STT_OBJECT || !(v = var_named(&r, s->name)) || s->size != v->layout.size)
			continue;
		err = read_object(&r, s, v);
	}
	if (!err && out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_entry);
	if (!err && r.nr_bad) {
		out->problem = r.nr_bad == 1 ?
			text("file_operations %s", r.first_bad.s) :
			text("%zu file_operations objects unreadable, the first %s", r.nr_bad,
				    r.first_bad.s);
		if (!out->problem)
			err = -ENOMEM;
	}
	reader_release(&r);
	return err;
}

void fops__release(struct fops_list *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].unlocked);
		free(l->v[i].compat);
	}
	free(l->v);
	free(l->problem);
	memset(l, 0, sizeof(*l));
}
