// SPDX-License-Identifier: GPL-2.0-only
/*
 * The arm64 bootable image as an ELF the BTF front end reads. Debian's
 * arm64 /boot/vmlinuz is the kernel's raw Image (Documentation/arch/arm64/
 * booting.rst: "ARM\x64" at offset 0x38), other distributions ship it
 * gzip-compressed (Image.gz) or as an EFI zboot executable (a PE file with
 * "zimg" at offset 4, the compressed Image at the offset and size its
 * header gives). A raw Image is the kernel's memory from _text to _edata
 * and nothing else: no section headers, no symbols. System.map gives the
 * addresses, and an ELF is written around the bytes with libelf: the
 * whole Image as one section at _text, and as sections of their own the
 * parts the readers look up by name or type: .BTF (__start_BTF ..
 * __stop_BTF), the notes with the build-id (__start_notes ..
 * __stop_notes) and the dynamic relocations. Debian links arm64 kernels
 * with --no-apply-dynamic-relocs: pointers in data (sys_call_table) are
 * zero in the Image and their values are the R_AARCH64_RELATIVE addends
 * of .rela.dyn (__rela_start .. __rela_end; __pi_rela_* since 6.10),
 * which elf-reloc.c applies as it does for the debug vmlinux.
 *
 * Every address comes from System.map and is checked against the Image
 * before it is used; a compressed Image is bounded as a bzImage's payload.
 */
#include "extract/btf_internal.h"

#include <archive.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "extract/elf_internal.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/path.h"

#define IMAGE_MAGIC_OFF 0x38
#define ZBOOT_PAYLOAD_OFF 8		/* le32 offset and le32 size of the compressed Image */
#define ZBOOT_HEADER_END 16
/* Debian's arm64 Image is ~45 MiB; 1 GiB is no kernel. */
#define IMAGE_MAX (1ull << 30)

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool raw_image_is(const unsigned char *head, size_t n)
{
	return n >= IMAGE_MAGIC_OFF + 4 && !memcmp(head + IMAGE_MAGIC_OFF, "ARM\x64", 4);
}

static bool zboot_is(const unsigned char *head, size_t n)
{
	return n >= ZBOOT_HEADER_END && !memcmp(head, "MZ", 2) && !memcmp(head + 4, "zimg", 4);
}

static bool gzip_is(const unsigned char *head, size_t n)
{
	return n >= 2 && head[0] == 0x1f && head[1] == 0x8b;
}

static int buf_out(void *ctx, const void *buf, size_t n)
{
	return kd_buf_add(ctx, buf, n);
}

/* Where the compressed Image of a zboot file lies, checked against the file. */
static int zboot_range(const char *path, const unsigned char *img, size_t size, size_t *off,
		       size_t *len)
{
	uint64_t o = le32(img + ZBOOT_PAYLOAD_OFF), l = le32(img + ZBOOT_PAYLOAD_OFF + 4);

	if (!l || o > size || l > size - o) {
		kd_err("%s: EFI zboot payload (offset %llu, %llu bytes) lies outside the file"
		       " (%zu bytes)", path, (unsigned long long)o, (unsigned long long)l, size);
		return -KD_EFORMAT;
	}
	*off = (size_t)o;
	*len = (size_t)l;
	return 0;
}

/* Whether the gzip file @path decompresses to an arm64 Image header (its first block read only). */
static bool gzip_image_is(const char *path)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	unsigned char head[IMAGE_MAGIC_OFF + 4];
	size_t got = 0;
	bool yes = false;

	if (!a)
		return false;
	if (archive_read_support_filter_gzip(a) == ARCHIVE_OK &&
	    archive_read_support_format_raw(a) == ARCHIVE_OK &&
	    archive_read_open_filename(a, path, 1 << 16) == ARCHIVE_OK &&
	    archive_read_next_header(a, &e) == ARCHIVE_OK && archive_filter_count(a) >= 2) {
		while (got < sizeof(head)) {
			la_ssize_t n = archive_read_data(a, head + got, sizeof(head) - got);

			if (n <= 0)
				break;
			got += (size_t)n;
		}
		yes = raw_image_is(head, got);
	}
	archive_read_free(a);
	return yes;
}

bool arm64_image_is(const char *path, const unsigned char *head, size_t n)
{
	/* A zboot header says what it is; its payload is checked when opened. */
	return raw_image_is(head, n) || zboot_is(head, n) || (gzip_is(head, n) && gzip_image_is(path));
}

/* The raw Image of @path (mapped @img of @size bytes) into @out. */
static int raw_image(const char *path, const unsigned char *img, size_t size, struct kd_buf *out)
{
	size_t off, len;
	int err;

	if (raw_image_is(img, size))
		return kd_buf_add(out, img, size);
	if (zboot_is(img, size)) {
		err = zboot_range(path, img, size, &off, &len);
		if (!err)
			err = boot_inflate(path, "the compressed arm64 Image", img + off, len, IMAGE_MAX,
					   buf_out, out);
	} else {
		err = boot_inflate(path, "the compressed arm64 Image", img, size, IMAGE_MAX, buf_out,
				   out);
	}
	if (!err && !raw_image_is((const unsigned char *)out->s, out->len)) {
		kd_err("%s: decompresses to something other than an arm64 Image", path);
		err = -KD_EFORMAT;
	}
	return err;
}

/* The symbols the ELF is made from, from System.map. */
enum image_sym { TEXT, BTF_START, BTF_STOP, NOTES_START, NOTES_STOP, RELA_START, RELA_END,
		 PI_RELA_START, PI_RELA_END, NR_IMAGE_SYMS };

static const char *const image_sym_names[NR_IMAGE_SYMS] = {
	"_text", "__start_BTF", "__stop_BTF", "__start_notes", "__stop_notes",
	"__rela_start", "__rela_end", "__pi_rela_start", "__pi_rela_end",
};

/* One section of the synthesized ELF: [@start, @stop) of the Image at _text. */
struct image_part {
	const char *name;
	uint32_t type;
	uint64_t flags, start, stop, entsize;
};

static int add_section(Elf *e, const struct image_part *p, const struct kd_buf *img, uint64_t text,
		       size_t name_off)
{
	Elf_Scn *scn = elf_newscn(e);
	Elf_Data *d = scn ? elf_newdata(scn) : NULL;
	GElf_Shdr sh;

	if (!d || !gelf_getshdr(scn, &sh))
		return -KD_EFORMAT;
	d->d_buf = img->s + (p->start - text);
	d->d_size = p->stop - p->start;
	d->d_type = ELF_T_BYTE;
	/* Notes are 4-aligned on Linux; libelf reads an 8-aligned note section with 8-byte padding. */
	d->d_align = p->type == SHT_NOTE ? 4 : 8;
	sh.sh_name = name_off;
	sh.sh_type = p->type;
	sh.sh_flags = p->flags;
	sh.sh_addr = p->start;
	sh.sh_entsize = p->entsize;
	sh.sh_addralign = d->d_align;
	return gelf_update_shdr(scn, &sh) ? 0 : -KD_EFORMAT;
}

/* The ELF around @img (at @sym[TEXT]) into the file @fd. */
static int write_elf(const char *path, const struct kd_buf *img, const uint64_t *sym, int fd)
{
	bool pi = !sym[RELA_START] && sym[PI_RELA_START];
	const struct image_part parts[] = {
		{ ".kernel", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE | SHF_EXECINSTR, sym[TEXT],
		  sym[TEXT] + img->len, 0 },
		{ ".BTF", SHT_PROGBITS, SHF_ALLOC, sym[BTF_START], sym[BTF_STOP], 0 },
		{ ".notes", SHT_NOTE, SHF_ALLOC, sym[NOTES_START], sym[NOTES_STOP], 0 },
		{ ".rela.dyn", SHT_RELA, SHF_ALLOC, sym[pi ? PI_RELA_START : RELA_START],
		  sym[pi ? PI_RELA_END : RELA_END], sizeof(Elf64_Rela) },
	};
	static const char names[] = "\0.kernel\0.BTF\0.notes\0.rela.dyn\0.shstrtab";
	static const size_t name_offs[] = { 1, 9, 14, 21 }, shstrtab_off = 31;
	GElf_Ehdr eh;
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Shdr sh;
	size_t i;
	Elf *e;
	int err = 0;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		const struct image_part *p = &parts[i];

		/* No relocations: a kernel linked without them (the words are final). */
		if (i == 3 && !p->start && !p->stop)
			continue;
		if (!p->start || p->stop < p->start || p->start < sym[TEXT] ||
		    p->stop - sym[TEXT] > img->len ||
		    (p->entsize && (p->stop - p->start) % p->entsize)) {
			kd_err("%s: System.map places %s at 0x%llx..0x%llx, outside the Image"
			       " (0x%llx, %zu bytes): not this image's System.map?", path, p->name,
			       (unsigned long long)p->start, (unsigned long long)p->stop,
			       (unsigned long long)sym[TEXT], img->len);
			return -KD_EFORMAT;
		}
	}
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -KD_EFORMAT;
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!e || !gelf_newehdr(e, ELFCLASS64) || !gelf_getehdr(e, &eh)) {
		err = -KD_EFORMAT;
		goto out;
	}
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_type = ET_DYN;
	eh.e_machine = EM_AARCH64;
	eh.e_version = EV_CURRENT;
	eh.e_entry = sym[TEXT];
	for (i = 0; !err && i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i].start || parts[i].stop)
			err = add_section(e, &parts[i], img, sym[TEXT], name_offs[i]);
	scn = err ? NULL : elf_newscn(e);
	d = scn ? elf_newdata(scn) : NULL;
	if (!d || !gelf_getshdr(scn, &sh)) {
		err = -KD_EFORMAT;
		goto out;
	}
	d->d_buf = (void *)names;
	d->d_size = sizeof(names);
	d->d_type = ELF_T_BYTE;
	d->d_align = 1;
	sh.sh_name = shstrtab_off;
	sh.sh_type = SHT_STRTAB;
	eh.e_shstrndx = elf_ndxscn(scn);
	if (!gelf_update_shdr(scn, &sh) || !gelf_update_ehdr(e, &eh) || elf_update(e, ELF_C_WRITE) < 0)
		err = -KD_EFORMAT;
out:
	if (err)
		kd_err("%s: cannot write the Image's ELF view: %s", path, elf_errmsg(-1));
	if (e)
		elf_end(e);
	return err;
}

int arm64_image_open_elf(const char *path, const char *map, struct kelf **out)
{
	struct kd_buf img = KD_BUF_INIT;
	uint64_t sym[NR_IMAGE_SYMS];
	const unsigned char *file = NULL;
	size_t size = 0;
	int mfd = -1, err;

	*out = NULL;
	err = kd_map_file(path, &file, &size);
	if (err || !size) {
		kd_err("%s: %s", path, err == -KD_ENOTREG || !err ? "not a regular file" : kd_strerror(err));
		return err ? err : -KD_ENOTREG;
	}
	err = raw_image(path, file, size, &img);
	if (!err)
		err = system_map_lookup(map, image_sym_names, sym, NR_IMAGE_SYMS);
	if (!err && !sym[TEXT]) {
		kd_err("%s: no _text: not the System.map of a kernel", map);
		err = -KD_EFORMAT;
	}
	if (err)
		goto out;
	mfd = memfd_create("kabi-diff-image", MFD_CLOEXEC);
	if (mfd < 0) {
		err = -errno;
		kd_err("%s: memfd_create: %s", path, strerror(errno));
		goto out;
	}
	err = write_elf(path, &img, sym, mfd);
	if (!err) {
		err = kelf_open_fd(mfd, path, out);
		mfd = -1;	/* taken by kelf_open_fd() */
	}
out:
	if (mfd >= 0)
		close(mfd);
	kd_unmap_file(file, size);
	kd_buf_release(&img);
	return err;
}
