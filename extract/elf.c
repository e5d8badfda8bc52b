// SPDX-License-Identifier: GPL-2.0-only
/*
 * ELF access for the extractor. Everything the rest of extract/ needs from
 * libelf goes through here: validation with messages a user can act on,
 * section lookup, zero-copy section data, the symbol table sorted by
 * address, and reads at a virtual address (for sys_call_table; words a
 * loader relocates are read through elf-reloc.c).
 */
#include "extract/elf_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/find.h"
#include "lib/mem.h"

static int check_not_elf(const char *path, const unsigned char *head, size_t n)
{
	/* A bzImage starts with an MZ/boot sector and has "HdrS" at 0x202. */
	if (n >= 0x206 && !memcmp(head + 0x202, "HdrS", 4)) {
		kd_err("%s: not an ELF file (compressed kernel image, bzImage); use the debug vmlinux"
		       " (Debian: linux-image-*-dbg) or extract-vmlinux", path);
		return -KD_EFORMAT;
	}
	if (n >= 2 && head[0] == 0x1f && head[1] == 0x8b) {
		kd_err("%s: not an ELF file (gzip-compressed); decompress it first", path);
		return -KD_EFORMAT;
	}
	if (n >= 6 && !memcmp(head, "\xfd" "7zXZ", 5)) {
		kd_err("%s: not an ELF file (xz-compressed); decompress it first", path);
		return -KD_EFORMAT;
	}
	if (n >= 4 && !memcmp(head, "\x28\xb5\x2f\xfd", 4)) {
		kd_err("%s: not an ELF file (zstd-compressed); decompress it first", path);
		return -KD_EFORMAT;
	}
	kd_err("%s: not an ELF file", path);
	return -KD_EFORMAT;
}

static int check_header(struct kelf *k, const unsigned char *head, size_t n,
			const struct kd_arch *abi)
{
	bool ilp32 = abi && abi->ilp32;

	if (n < EI_NIDENT || memcmp(head, ELFMAG, SELFMAG))
		return check_not_elf(k->path, head, n);
	if (head[EI_CLASS] != (ilp32 ? ELFCLASS32 : ELFCLASS64)) {
		if (ilp32) {
			kd_err("%s: not a 32-bit ELF object of %s", k->path, abi->name);
			return -KD_EUNSUPPORTED;
		}
		kd_err("%s: 32-bit ELF is not supported (%s kernels only)", k->path,
		       kd_arch__supported());
		return -KD_EUNSUPPORTED;
	}
	if (head[EI_DATA] != ELFDATA2LSB) {
		kd_err("%s: big-endian ELF is not supported (%s kernels only)", k->path,
		       kd_arch__supported());
		return -KD_EUNSUPPORTED;
	}
	if (head[EI_VERSION] != EV_CURRENT) {
		/* libelf takes it for no ELF at all, and says "no error". */
		kd_err("%s: bad ELF header: version %u (EV_CURRENT is %u)", k->path, head[EI_VERSION],
		       EV_CURRENT);
		return -KD_EFORMAT;
	}
	if (n < (ilp32 ? sizeof(Elf32_Ehdr) : sizeof(Elf64_Ehdr))) {
		kd_err("%s: truncated ELF file (%zu bytes)", k->path, n);
		return -KD_EFORMAT;
	}
	return 0;
}

static int read_head(struct kelf *k, unsigned char *head, size_t cap, size_t *n)
{
	ssize_t got = pread(k->fd, head, cap, 0);

	if (got < 0) {
		kd_err("%s: %s", k->path, strerror(errno));
		return -errno;
	}
	*n = (size_t)got;
	return 0;
}

static int load_sections(struct kelf *k)
{
	size_t shstrndx, i;
	Elf_Scn *scn;

	if (elf_getshdrnum(k->elf, &k->nr_sections) < 0 ||
	    elf_getshdrstrndx(k->elf, &shstrndx) < 0) {
		kd_err("%s: bad section headers: %s", k->path, elf_errmsg(-1));
		return -KD_EFORMAT;
	}
	k->sections = kd_calloc(k->nr_sections ? k->nr_sections : 1, sizeof(*k->sections));
	if (!k->sections)
		return -ENOMEM;
	for (i = 0; i < k->nr_sections; i++) {
		struct kelf_section *s = &k->sections[i];

		scn = elf_getscn(k->elf, i);
		if (!scn || !gelf_getshdr(scn, &s->shdr)) {
			kd_err("%s: bad section header %zu: %s", k->path, i, elf_errmsg(-1));
			return -KD_EFORMAT;
		}
		s->name = elf_strptr(k->elf, shstrndx, s->shdr.sh_name);
		if (!s->name)
			s->name = "";
		if (s->shdr.sh_type != SHT_NOBITS &&
		    (s->shdr.sh_offset > k->file_size ||
		     s->shdr.sh_size > k->file_size - s->shdr.sh_offset)) {
			/* The name is unknown when .shstrtab itself is cut off: give the index. */
			if (*s->name)
				kd_err("%s: truncated ELF file: section %s extends past the end"
				       " (%zu bytes)", k->path, s->name, k->file_size);
			else
				kd_err("%s: truncated ELF file: section [%zu] extends past the end"
				       " (%zu bytes)", k->path, i, k->file_size);
			return -KD_EFORMAT;
		}
	}
	return 0;
}

int kelf_open(const char *path, struct kelf **out)
{
	return kelf_open_as(path, path, out);
}

int kelf_open_as(const char *file, const char *path, struct kelf **out)
{
	/*
	 * O_NONBLOCK: opening a FIFO (a "module" named x.ko in a modules
	 * directory) would otherwise wait forever for a writer; the S_ISREG
	 * check of kelf_open_fd() refuses it. Reads of a regular file ignore the flag.
	 */
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	*out = NULL;
	if (fd < 0) {
		int err = -errno;

		kd_err("%s: %s", path, strerror(errno));
		return err;
	}
	return kelf_open_fd(fd, path, out);
}

static int open_fd(int fd, const char *path, const struct kd_arch *abi, struct kelf **out);

int kelf_open_fd(int fd, const char *path, struct kelf **out)
{
	return open_fd(fd, path, NULL, out);
}

int kelf_open_abi(const char *path, const struct kd_arch *abi, struct kelf **out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	*out = NULL;
	if (fd < 0) {
		int err = -errno;

		kd_err("%s: %s", path, strerror(errno));
		return err;
	}
	return open_fd(fd, path, abi, out);
}

static int open_fd(int fd, const char *path, const struct kd_arch *abi, struct kelf **out)
{
	unsigned char head[0x210];
	struct kelf *k;
	struct stat st;
	size_t n = 0;
	int err;

	*out = NULL;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		kd_err("libelf: %s", elf_errmsg(-1));
		close(fd);
		return -KD_EFORMAT;
	}
	k = kd_calloc(1, sizeof(*k));
	if (!k) {
		close(fd);
		return -ENOMEM;
	}
	k->path = path;
	k->fd = fd;
	if (fstat(k->fd, &st) < 0) {
		err = -errno;
		kd_err("%s: %s", path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		kd_err("%s: not a regular file", path);
		err = -KD_EFORMAT;
		goto fail;
	}
	k->file_size = (size_t)st.st_size;
	err = read_head(k, head, sizeof(head), &n);
	if (err)
		goto fail;
	err = check_header(k, head, n, abi);
	if (err)
		goto fail;
	k->elf = elf_begin(k->fd, ELF_C_READ_MMAP, NULL);
	if (!k->elf || elf_kind(k->elf) != ELF_K_ELF || !gelf_getehdr(k->elf, &k->ehdr)) {
		int e = elf_errno();

		kd_err("%s: unreadable ELF file: %s", path,
		       e ? elf_errmsg(e) : "libelf does not take it for ELF");
		err = -KD_EFORMAT;
		goto fail;
	}
	k->arch = abi && abi->ilp32 ? (k->ehdr.e_machine == abi->elf_machine ? abi : NULL) :
		  kd_arch__by_elf_machine(k->ehdr.e_machine);
	if (!k->arch) {
		kd_err("%s: ELF machine %u is not supported (%s kernels only)",
		       path, k->ehdr.e_machine, kd_arch__supported());
		err = -KD_EUNSUPPORTED;
		goto fail;
	}
	if (k->ehdr.e_shoff > k->file_size ||
	    (uint64_t)k->ehdr.e_shnum * k->ehdr.e_shentsize > k->file_size - k->ehdr.e_shoff) {
		kd_err("%s: truncated ELF file: section headers past the end", path);
		err = -KD_EFORMAT;
		goto fail;
	}
	err = load_sections(k);
	if (err)
		goto fail;
	*out = k;
	return 0;
fail:
	kelf_close(k);
	return err;
}

void kelf_close(struct kelf *k)
{
	if (!k)
		return;
	free(k->relocs);
	free(k->symbols);
	free(k->symbol_text);
	free(k->sections);
	if (k->elf)
		elf_end(k->elf);
	if (k->fd >= 0)
		close(k->fd);
	free(k);
}

struct kelf_section *kelf_section_by_name(struct kelf *k, const char *name)
{
	return KD_FIND_NAMED(struct kelf_section, k->sections, k->nr_sections, name, name);
}

const unsigned char *kelf_section_data(struct kelf *k, struct kelf_section *s)
{
	size_t idx = (size_t)(s - k->sections);
	Elf_Scn *scn;
	Elf_Data *d;

	if (s->loaded)
		return s->data;
	scn = elf_getscn(k->elf, idx);
	if (!scn)
		goto bad;
	if (s->shdr.sh_flags & SHF_COMPRESSED) {
		/* libelf inflates in place and owns the buffer until elf_end(). */
		if (elf_compress(scn, 0, 0) < 0)
			goto bad;
	}
	d = elf_getdata(scn, NULL);
	if (!d)
		goto bad;
	s->data = d->d_buf;
	s->size = d->d_size;
	s->loaded = true;
	return s->data;
bad:
	kd_err("%s: cannot read section %s: %s", k->path, s->name, elf_errmsg(-1));
	return NULL;
}

static int cmp_symbol_addr(const void *a, const void *b)
{
	const struct kelf_symbol *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x < y ? -1 : (x > y);
}

int kelf_load_symbols(struct kelf *k)
{
	struct kelf_section *symtab = NULL;
	Elf_Data *d;
	size_t i, n, idx;

	for (i = 0; i < k->nr_sections; i++)
		if (k->sections[i].shdr.sh_type == SHT_SYMTAB)
			symtab = &k->sections[i];
	if (!symtab) {
		kd_err("%s: no symbol table (.symtab); a stripped image cannot be read, use the"
		       " debug vmlinux", k->path);
		return -KD_ENOTKERNEL;
	}
	idx = (size_t)(symtab - k->sections);
	d = elf_getdata(elf_getscn(k->elf, idx), NULL);
	if (!d || !symtab->shdr.sh_entsize) {
		kd_err("%s: unreadable symbol table: %s", k->path, elf_errmsg(-1));
		return -KD_EFORMAT;
	}
	n = d->d_size / symtab->shdr.sh_entsize;
	k->symbols = kd_calloc(n ? n : 1, sizeof(*k->symbols));
	if (!k->symbols)
		return -ENOMEM;
	k->nr_symbols = 0;
	for (i = 1; i < n; i++) {
		struct kelf_symbol *s = &k->symbols[k->nr_symbols];
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(d, (int)i, &sym))
			continue;
		name = elf_strptr(k->elf, symtab->shdr.sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		s->name = name;
		s->addr = sym.st_value;
		s->size = sym.st_size;
		s->type = GELF_ST_TYPE(sym.st_info);
		s->bind = GELF_ST_BIND(sym.st_info);
		s->shndx = sym.st_shndx;
		k->nr_symbols++;
	}
	qsort(k->symbols, k->nr_symbols, sizeof(*k->symbols), cmp_symbol_addr);
	return 0;
}

const struct kelf_symbol *kelf_symbol_by_name(struct kelf *k, const char *name)
{
	return KD_FIND_NAMED(const struct kelf_symbol, k->symbols, k->nr_symbols, name, name);
}

size_t kelf_symbols_at(struct kelf *k, uint64_t addr, size_t *first)
{
	size_t lo = 0, hi = k->nr_symbols;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->symbols[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	while (hi < k->nr_symbols && k->symbols[hi].addr == addr)
		hi++;
	return hi;
}

const unsigned char *kelf_read_addr(struct kelf *k, uint64_t addr, size_t len)
{
	size_t i;

	for (i = 0; i < k->nr_sections; i++) {
		struct kelf_section *s = &k->sections[i];
		const unsigned char *data;

		if (!(s->shdr.sh_flags & SHF_ALLOC) || s->shdr.sh_type == SHT_NOBITS)
			continue;
		if (addr < s->shdr.sh_addr || addr - s->shdr.sh_addr >= s->shdr.sh_size)
			continue;
		if (len > s->shdr.sh_size - (addr - s->shdr.sh_addr))
			return NULL;
		data = kelf_section_data(k, s);
		if (!data || s->size != s->shdr.sh_size)
			return NULL;
		return data + (addr - s->shdr.sh_addr);
	}
	return NULL;
}

const unsigned char *kelf_note(struct kelf *k, const char *owner, uint32_t type, size_t *size)
{
	size_t i, owner_len = strlen(owner) + 1;

	for (i = 0; i < k->nr_sections; i++) {
		Elf_Data *d;
		GElf_Nhdr nhdr;
		size_t off = 0, name_off, desc_off;

		if (k->sections[i].shdr.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(elf_getscn(k->elf, i), NULL);
		if (!d)
			continue;
		while ((off = gelf_getnote(d, off, &nhdr, &name_off, &desc_off)) > 0) {
			if (nhdr.n_type != type || nhdr.n_namesz != owner_len ||
			    memcmp((const char *)d->d_buf + name_off, owner, owner_len))
				continue;
			*size = nhdr.n_descsz;
			return (const unsigned char *)d->d_buf + desc_off;
		}
	}
	return NULL;
}

char *kelf_build_id(struct kelf *k)
{
	struct kd_buf hex = KD_BUF_INIT;
	size_t j, n = 0;
	const unsigned char *desc = kelf_note(k, "GNU", NT_GNU_BUILD_ID, &n);

	if (!desc)
		return NULL;
	for (j = 0; j < n; j++)
		if (kd_buf_addf(&hex, "%02x", desc[j])) {
			kd_buf_release(&hex);
			return NULL;
		}
	return kd_buf_detach(&hex);
}
