// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vDSO images a vmlinux embeds: the shared object the kernel maps into
 * every process, whose entry points C libraries and runtimes look up by
 * name and version node (`__vdso_clock_gettime` at `LINUX_2.6`). x86_64
 * describes each image with a `struct vdso_image` (vdso_image_64, _32,
 * _x32) whose first two members are the image's address and size; arm64
 * brackets its images with vdso_start..vdso_end and
 * vdso32_start..vdso32_end, padded to a page, so the ELF's own extent is
 * the image's size.
 *
 * Each image is copied out of the vmlinux and read with libelf
 * (elf_memory()): a hostile vmlinux may put anything there, so every
 * address, size and count is bounded first, and whatever is wrong with
 * one image is a problem row (stage "vdso", location the symbol), never
 * the end of the extraction.
 */
#include "extract/vdso_internal.h"

#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-vdso.h"
#include "extract/elf_internal.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"

/* Where an architecture keeps each ABI's image, and what that image must be. */
struct vdso_place {
	const char *arch;	/* lib/arch.h name */
	const char *abi;
	const char *start;	/* struct vdso_image, or the first byte */
	const char *end;	/* NULL: @start is a struct vdso_image */
	int elf_class;		/* ELFCLASS32 | ELFCLASS64 */
	int machine;
};

static const struct vdso_place places[] = {
	{ "x86_64", "x64", "vdso_image_64", NULL, ELFCLASS64, EM_X86_64 },
	{ "x86_64", "ia32", "vdso_image_32", NULL, ELFCLASS32, EM_386 },
	{ "x86_64", "x32", "vdso_image_x32", NULL, ELFCLASS32, EM_X86_64 },
	{ "arm64", "arm64", "vdso_start", "vdso_end", ELFCLASS64, EM_AARCH64 },
	{ "arm64", "aarch32", "vdso32_start", "vdso32_end", ELFCLASS32, EM_ARM },
};

/* Problem rows of one image past which the rest are summed up in one. */
#define VDSO_MAX_PROBLEMS 32

struct vdso_read {
	struct kdb *db;
	const char *input;
	const struct vdso_place *pl;
	int64_t *problems;
	unsigned nr_problems;	/* of this image */
	struct kd_buf scratch;
	Elf *elf;
	/* Version definitions by index (vd_ndx), names owned by the Elf. */
	const char *version_name[VDSO_MAX_VERSIONS];
};

static int problem(struct vdso_read *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int problem(struct vdso_read *v, const char *fmt, ...)
{
	va_list ap;
	int err;

	if (v->nr_problems++ > VDSO_MAX_PROBLEMS)
		return 0;
	kd_buf_reset(&v->scratch);
	if (v->nr_problems > VDSO_MAX_PROBLEMS) {
		err = kd_buf_addf(&v->scratch, "vDSO image %s: more than %d problems; the rest are"
				  " not recorded", v->pl->abi, VDSO_MAX_PROBLEMS);
	} else {
		err = kd_buf_addf(&v->scratch, "vDSO image %s: ", v->pl->abi);
		va_start(ap, fmt);
		if (!err)
			err = kd_buf_vaddf(&v->scratch, fmt, ap);
		va_end(ap);
	}
	if (!err)
		err = kdb__put_problem(v->db, "vdso", v->input, v->pl->start, "%s", v->scratch.s);
	if (!err && v->problems)
		(*v->problems)++;
	return err;
}

/*
 * x86_64's struct vdso_image { void *data; unsigned long size; ... } at
 * symbol @s: the image's address and size. 0, 1 with a problem recorded
 * (a relocation this reader does not compute: its cause in the row), or a
 * negative code.
 */
static int read_image_struct(struct vdso_read *v, struct kelf *k, const struct kelf_symbol *s,
			     uint64_t *addr, uint64_t *size)
{
	struct kd_buf why = KD_BUF_INIT;
	bool bad;
	int err;

	if (!kelf_read_addr(k, s->addr, 16)) {
		err = problem(v, "%s at 0x%llx is not in a section with contents", v->pl->start,
			      (unsigned long long)s->addr);
		return err ? err : 1;
	}
	kd_log_capture(&why);
	bad = kelf_read_word(k, s->addr, addr, v->pl->start) ||
	      kelf_read_word(k, s->addr + 8, size, v->pl->start);
	kd_log_capture(NULL);
	while (why.len && why.s[why.len - 1] == '\n')
		why.s[--why.len] = '\0';
	err = bad ? problem(v, "the address and size of %s cannot be read%s%s", v->pl->start,
			    why.len ? ": " : "", why.len ? why.s : "") : 0;
	kd_buf_release(&why);
	return err ? err : bad;
}

/*
 * The bytes of @v->pl's image in @k: *data, *len (the most it may span);
 * 0 with *data NULL when the kernel has no such image (not built), or a
 * problem recorded when it is there and unreadable.
 */
static int locate(struct vdso_read *v, struct kelf *k, const unsigned char **data, size_t *len)
{
	const struct kelf_symbol *s = kelf_symbol_by_name(k, v->pl->start), *e;
	uint64_t addr, size;

	*data = NULL;
	*len = 0;
	if (!s)
		return 0;
	if (v->pl->end) {
		e = kelf_symbol_by_name(k, v->pl->end);
		if (!e)
			return problem(v, "%s is there and %s is not", v->pl->start, v->pl->end);
		addr = s->addr;
		if (e->addr < s->addr)
			return problem(v, "%s (0x%llx) lies before %s (0x%llx)", v->pl->end,
				       (unsigned long long)e->addr, v->pl->start,
				       (unsigned long long)s->addr);
		size = e->addr - s->addr;
	} else {
		int err = read_image_struct(v, k, s, &addr, &size);

		if (err)
			return err < 0 ? err : 0;	/* 1: recorded, no bytes */
	}
	if (size == 0 || size > VDSO_MAX_BYTES)
		return problem(v, "%llu bytes: %s", (unsigned long long)size,
			       size ? "larger than " "4 MiB, the limit of a vDSO image" : "empty");
	*data = kelf_read_addr(k, addr, (size_t)size);
	if (!*data)
		return problem(v, "its %llu bytes at 0x%llx are not inside one section with contents",
			       (unsigned long long)size, (unsigned long long)addr);
	*len = (size_t)size;
	return 0;
}

/* Raise *end to @off + @size when both fit in 64 bits; false on overflow. */
static bool extent(uint64_t *end, uint64_t off, uint64_t size)
{
	if (off > UINT64_MAX - size)
		return false;
	if (off + size > *end)
		*end = off + size;
	return true;
}

/* The bytes the ELF itself spans: headers, sections and segments. */
static int own_size(struct vdso_read *v, const GElf_Ehdr *eh, uint64_t *out)
{
	uint64_t end = eh->e_ehsize;
	Elf_Scn *scn = NULL;
	size_t i, n = 0;
	bool fits = extent(&end, eh->e_shoff, (uint64_t)eh->e_shnum * eh->e_shentsize) &&
		    extent(&end, eh->e_phoff, (uint64_t)eh->e_phnum * eh->e_phentsize);

	while (fits && (scn = elf_nextscn(v->elf, scn))) {
		GElf_Shdr sh;

		if (++n > 1024 || !gelf_getshdr(scn, &sh))
			return problem(v, "its section headers cannot be read: %s", elf_errmsg(-1));
		if (sh.sh_type != SHT_NOBITS)
			fits = extent(&end, sh.sh_offset, sh.sh_size);
	}
	if (!elf_getphdrnum(v->elf, &n))
		for (i = 0; fits && i < n && i < 64; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(v->elf, (int)i, &ph))
				fits = extent(&end, ph.p_offset, ph.p_filesz);
		}
	if (!fits)
		return problem(v, "an offset and size of its headers overflow 64 bits");
	*out = end;
	return 0;
}

/* The first section of type @type, with its header. */
static Elf_Scn *section_of_type(Elf *elf, GElf_Word type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t n = 0;

	while ((scn = elf_nextscn(elf, scn)) && ++n <= 1024)
		if (gelf_getshdr(scn, sh) && sh->sh_type == type)
			return scn;
	return NULL;
}

static char *soname(Elf *elf)
{
	GElf_Shdr sh;
	Elf_Scn *scn = section_of_type(elf, SHT_DYNAMIC, &sh);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	size_t i, n = d ? d->d_size / (gelf_getclass(elf) == ELFCLASS32 ? 8 : 16) : 0;

	for (i = 0; i < n && i < 256; i++) {
		GElf_Dyn dyn;

		if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag == DT_NULL)
			break;
		if (dyn.d_tag == DT_SONAME) {
			const char *s = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val);

			return s ? kd_strdup(s) : NULL;
		}
	}
	return NULL;
}

static char *build_id(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t n = 0;

	while ((scn = elf_nextscn(elf, scn)) && ++n <= 1024) {
		GElf_Shdr sh;
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE || !(d = elf_getdata(scn, NULL)))
			continue;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			const unsigned char *desc = (const unsigned char *)d->d_buf + desc_off;
			struct kd_buf b = KD_BUF_INIT;
			size_t i;

			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((const char *)d->d_buf + name_off, "GNU", 4) || nh.n_descsz > 64)
				continue;
			for (i = 0; i < nh.n_descsz; i++)
				if (kd_buf_addf(&b, "%02x", desc[i])) {
					kd_buf_release(&b);
					return NULL;
				}
			return kd_buf_detach(&b);
		}
	}
	return NULL;
}

/* .gnu.version_d: every definition, and the names symbols' indexes refer to. */
static int read_versions(struct vdso_read *v)
{
	GElf_Shdr sh;
	Elf_Scn *scn = section_of_type(v->elf, SHT_GNU_verdef, &sh);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	struct kd_buf parents = KD_BUF_INIT;
	size_t off = 0, i;
	int err = 0;

	for (i = 0; d && !err && i < sh.sh_info; i++) {
		GElf_Verdef vd;
		GElf_Verdaux va;
		size_t aux;
		const char *name;
		unsigned j;

		if (i == VDSO_MAX_VERSIONS) {
			err = problem(v, "more than %d version definitions; the rest are not read",
				      VDSO_MAX_VERSIONS);
			break;
		}
		if (!gelf_getverdef(d, (int)off, &vd) || vd.vd_cnt == 0 ||
		    !gelf_getverdaux(d, (int)(aux = off + vd.vd_aux), &va) ||
		    !(name = elf_strptr(v->elf, sh.sh_link, va.vda_name))) {
			err = problem(v, "version definition %zu at offset %zu cannot be read", i, off);
			break;
		}
		kd_buf_reset(&parents);
		for (j = 1; !err && j < vd.vd_cnt && j < 16 && va.vda_next; j++) {
			const char *p;

			aux += va.vda_next;
			if (aux > d->d_size || !gelf_getverdaux(d, (int)aux, &va) ||
			    !(p = elf_strptr(v->elf, sh.sh_link, va.vda_name)))
				break;
			err = kd_buf_addf(&parents, "%s%s", parents.len ? " " : "", p);
		}
		if (!err)
			err = kdb__put_vdso_version(v->db, &(struct kd_vdso_version){
					.abi = v->pl->abi, .idx = vd.vd_ndx, .name = name,
					.flags = vd.vd_flags, .parents = parents.len ? parents.s : NULL });
		if (err == 1)
			err = problem(v, "version index %u is defined twice (%s)", vd.vd_ndx, name);
		else if (!err && vd.vd_ndx < VDSO_MAX_VERSIONS)
			v->version_name[vd.vd_ndx] = name;
		if (err || !vd.vd_next)
			break;
		if (vd.vd_next > d->d_size - off || off + vd.vd_next > (size_t)INT32_MAX) {
			err = problem(v, "version definition %zu points past its section", i);
			break;
		}
		off += vd.vd_next;
	}
	kd_buf_release(&parents);
	return err;
}

static const char *bind_name(unsigned b)
{
	switch (b) {
	case STB_GLOBAL: return "global";
	case STB_WEAK: return "weak";
	case STB_GNU_UNIQUE: return "unique";
	default: return NULL;
	}
}

static const char *type_name(unsigned t, char *buf, size_t len)
{
	static const char *const names[] = {
		[STT_NOTYPE] = "notype", [STT_OBJECT] = "object", [STT_FUNC] = "func",
		[STT_SECTION] = "section", [STT_FILE] = "file", [STT_COMMON] = "common",
		[STT_TLS] = "tls", [STT_GNU_IFUNC] = "ifunc",
	};

	if (t < sizeof(names) / sizeof(names[0]) && names[t])
		return names[t];
	snprintf(buf, len, "type %u", t);
	return buf;
}

/* .dynsym: each defined symbol of global, weak or unique binding and default visibility. */
static int read_symbols(struct vdso_read *v)
{
	GElf_Shdr sh, vsh;
	Elf_Scn *scn = section_of_type(v->elf, SHT_DYNSYM, &sh);
	Elf_Scn *vscn = section_of_type(v->elf, SHT_GNU_versym, &vsh);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	Elf_Data *vd = vscn ? elf_getdata(vscn, NULL) : NULL;
	size_t i, n = d && sh.sh_entsize ? d->d_size / sh.sh_entsize : 0;
	int err = 0;

	if (!d)
		return problem(v, "no dynamic symbol table (.dynsym)");
	for (i = 1; !err && i < n; i++) {
		GElf_Sym sym;
		GElf_Versym vs = 1;
		const char *name, *version = NULL, *bind;
		unsigned vis;
		char tbuf[24];

		if (i > VDSO_MAX_SYMBOLS) {
			err = problem(v, "more than %d dynamic symbols; the rest are not read",
				      VDSO_MAX_SYMBOLS);
			break;
		}
		if (!gelf_getsym(d, (int)i, &sym)) {
			err = problem(v, "dynamic symbol %zu cannot be read: %s", i, elf_errmsg(-1));
			break;
		}
		bind = bind_name(GELF_ST_BIND(sym.st_info));
		vis = GELF_ST_VISIBILITY(sym.st_other);
		if (!bind || sym.st_shndx == SHN_UNDEF || vis == STV_HIDDEN || vis == STV_INTERNAL)
			continue;	/* not exported */
		name = elf_strptr(v->elf, sh.sh_link, sym.st_name);
		if (!name || !*name) {
			err = problem(v, "dynamic symbol %zu has no readable name", i);
			continue;
		}
		if (vd && !gelf_getversym(vd, (int)i, &vs)) {
			err = problem(v, "%s: its .gnu.version entry cannot be read", name);
			continue;
		}
		/* 0: local, 1: the base (unversioned); others name a definition. */
		if ((vs & 0x7fff) > 1) {
			version = (vs & 0x7fff) < VDSO_MAX_VERSIONS ? v->version_name[vs & 0x7fff] : NULL;
			if (!version) {
				err = problem(v, "%s: version index %u is not defined", name, vs & 0x7fff);
				continue;
			}
		}
		err = kdb__put_vdso_symbol(v->db, &(struct kd_vdso_symbol){
				.abi = v->pl->abi, .name = name, .version = version,
				.hidden = (vs & 0x8000) != 0, .bind = bind,
				.type = type_name(GELF_ST_TYPE(sym.st_info), tbuf, sizeof(tbuf)),
				.value = sym.st_value, .size = sym.st_size });
		if (err == 1)
			err = problem(v, "%s%s%s is defined twice", name, version ? "@" : "",
				      version ? version : "");
	}
	return err;
}

/* One image's bytes (@len at most) into rows. */
static int read_image(struct vdso_read *v, const unsigned char *bytes, size_t len)
{
	/* A private, aligned copy: libelf may convert in place, the mapping is read-only. */
	char *copy = kd_malloc(len);
	char *name = NULL, *id = NULL;
	GElf_Ehdr eh;
	uint64_t size = 0;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, bytes, len);
	v->elf = elf_memory(copy, len);
	if (!v->elf || elf_kind(v->elf) != ELF_K_ELF || !gelf_getehdr(v->elf, &eh)) {
		err = problem(v, "the %zu bytes at %s are not an ELF image", len, v->pl->start);
		goto out;
	}
	if (gelf_getclass(v->elf) != v->pl->elf_class || eh.e_machine != v->pl->machine ||
	    eh.e_type != ET_DYN) {
		err = problem(v, "an ELF of class %d, machine %u, type %u: not the %s vDSO"
			      " (class %d, machine %d, a shared object)", gelf_getclass(v->elf),
			      eh.e_machine, eh.e_type, v->pl->abi, v->pl->elf_class, v->pl->machine);
		goto out;
	}
	err = own_size(v, &eh, &size);
	if (err || !size)
		goto out;
	if (size > len) {
		err = problem(v, "truncated: the ELF spans %llu bytes, the vmlinux holds %zu",
			      (unsigned long long)size, len);
		goto out;
	}
	name = soname(v->elf);
	id = build_id(v->elf);
	err = kdb__put_vdso_image(v->db, &(struct kd_vdso_image){
			.abi = v->pl->abi, .symbol = v->pl->start, .size = (int64_t)size,
			.elf_class = v->pl->elf_class == ELFCLASS32 ? 32 : 64,
			.machine = eh.e_machine, .soname = name, .build_id = id });
	if (err == 1) {
		err = problem(v, "a second image of the ABI");
		goto out;
	}
	if (!err)
		err = read_versions(v);
	if (!err)
		err = read_symbols(v);
out:
	free(name);
	free(id);
	elf_end(v->elf);
	v->elf = NULL;
	free(copy);
	return err;
}

int extract_vdso(struct kdb *db, struct kelf *k, const char *input, int64_t *problems)
{
	struct vdso_read v = { .db = db, .input = input, .problems = problems,
			       .scratch = KD_BUF_INIT };
	size_t i;
	int err = 0;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -KD_EUNSUPPORTED;
	for (i = 0; !err && i < sizeof(places) / sizeof(places[0]); i++) {
		const unsigned char *bytes;
		size_t len;

		if (strcmp(places[i].arch, k->arch->name))
			continue;
		memset(v.version_name, 0, sizeof(v.version_name));
		v.pl = &places[i];
		v.nr_problems = 0;
		err = locate(&v, k, &bytes, &len);
		if (!err && bytes)
			err = read_image(&v, bytes, len);
	}
	if (!err)
		err = kdb__set_meta(db, "vdso", KDB_VDSO_NAMES);
	kd_buf_release(&v.scratch);
	return err;
}
