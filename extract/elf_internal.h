/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to extract/: one ELF input (vmlinux or module) opened with
 * libelf over a read-only mapping, its sections and its symbol table.
 * Section bytes are handed out as pointers into the mapping, never copied
 * (compressed sections are the exception: they are inflated once and kept).
 */
#ifndef KD_EXTRACT_ELF_H
#define KD_EXTRACT_ELF_H

#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/arch.h"

struct kelf_section {
	const char *name;
	GElf_Shdr shdr;
	const unsigned char *data;	/* NULL until kelf_section_data() */
	size_t size;			/* bytes of data (uncompressed) */
	bool loaded;
};

struct kelf_symbol {
	const char *name;
	uint64_t addr;
	uint64_t size;
	unsigned char type;	/* STT_* */
	unsigned char bind;	/* STB_* */
	uint16_t shndx;
};

/* What the loader stores at one address of a relocatable (ET_DYN) image. */
struct kelf_reloc {
	uint64_t addr;		/* r_offset: a link-time virtual address */
	uint64_t value;		/* the word the loader writes there (before KASLR) */
	uint32_t type;		/* R_* of the machine */
	bool known;		/* a type this reader computes; else value is unset */
};

struct kelf {
	const char *path;	/* as given by the caller, for messages */
	const struct kd_arch *arch;	/* chosen by e_machine */
	int fd;
	size_t file_size;
	Elf *elf;
	GElf_Ehdr ehdr;
	size_t nr_sections;
	struct kelf_section *sections;
	size_t nr_symbols;
	struct kelf_symbol *symbols;	/* sorted by address after kelf_load_symbols() */
	char *symbol_text;	/* System.map's text (names point into it), or NULL */
	/*
	 * Symbol sizes are distances to the next address (System.map has no
	 * sizes): an upper bound that may take in alignment padding.
	 */
	bool sizes_estimated;
	size_t nr_relocs;
	struct kelf_reloc *relocs;	/* sorted by addr, loaded on first kelf_read_word() */
	bool relocs_loaded;
};

/*
 * Open @path, check it is a little-endian 64-bit ELF of a supported
 * architecture (lib/arch.h) and read its section headers. Errors name the
 * file and the cause (compressed kernel, truncated, another architecture).
 * *out: kelf_close().
 */
int kelf_open(const char *path, struct kelf **out);
/* kelf_open() of @file, named @path in messages (a module spooled from a package). */
int kelf_open_as(const char *file, const char *path, struct kelf **out);
/*
 * kelf_open() of the open file @fd (an anonymous memory file holding a
 * decompressed image), named @path in messages. Takes @fd: closed by
 * kelf_close(), or here on failure.
 */
int kelf_open_fd(int fd, const char *path, struct kelf **out);
/*
 * kelf_open() of an object compiled for the user ABI @abi: with
 * @abi->ilp32 (ia32) a 32-bit ELF of its machine, whose k->arch is @abi.
 */
int kelf_open_abi(const char *path, const struct kd_arch *abi, struct kelf **out);
void kelf_close(struct kelf *k);
/* Section by name, or NULL. */
struct kelf_section *kelf_section_by_name(struct kelf *k, const char *name);
/* Bytes of @s (inflating SHF_COMPRESSED ones); NULL with a message on error. */
const unsigned char *kelf_section_data(struct kelf *k, struct kelf_section *s);
/* Read .symtab into k->symbols, sorted by address. */
int kelf_load_symbols(struct kelf *k);
/* First symbol named @name (linear scan: use for a handful of lookups). */
const struct kelf_symbol *kelf_symbol_by_name(struct kelf *k, const char *name);
/* Index range [*first, return) of symbols at exactly @addr. */
size_t kelf_symbols_at(struct kelf *k, uint64_t addr, size_t *first);
/*
 * Pointer to @len bytes at virtual address @addr inside an allocated
 * section with file contents; NULL when not mapped.
 */
const unsigned char *kelf_read_addr(struct kelf *k, uint64_t addr, size_t len);
/*
 * The 64-bit word at virtual address @addr as the loaded image holds it:
 * the file's bytes, or, where a dynamic relocation (.rela.dyn) targets the
 * word, the value the loader stores there. Debian's arm64 vmlinux is
 * linked -shared with --no-apply-dynamic-relocs: its pointer tables are
 * zero in the file and filled from R_AARCH64_RELATIVE entries at boot.
 * Returns 0, or a negative code with a message naming @what (a symbol).
 */
int kelf_read_word(struct kelf *k, uint64_t addr, uint64_t *out, const char *what);
/* The GNU build-id as lowercase hex (malloc'ed) or NULL when absent. */
char *kelf_build_id(struct kelf *k);
/* The descriptor of the first note of @owner ("GNU", "Xen") and @type, its size in *size; or NULL. */
const unsigned char *kelf_note(struct kelf *k, const char *owner, uint32_t type, size_t *size);

#endif
