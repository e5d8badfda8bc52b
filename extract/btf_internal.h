/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to extract/: the front end that needs no debug package. A
 * bootable image (x86's bzImage) holds the kernel's ELF, stripped of its
 * symbols but with .BTF, .rodata and .data; System.map beside it gives the
 * symbols. The types come from BTF (libbpf), into the same table the DWARF
 * reader fills (types_internal.h), so the rest of extract/ and everything
 * after it sees one model.
 */
#ifndef KD_EXTRACT_BTF_H
#define KD_EXTRACT_BTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extract/syscalls_internal.h"

struct btf;
struct extract_conf;
struct extract_stats;

/* extract__run() of a bzImage (conf->vmlinux) with its System.map. */
int extract_btf(const struct extract_conf *conf, struct extract_stats *stats);
/* Shared with the DWARF path (extract.c): meta identity (dwarf_version 0: none written)... */
int extract_write_identity(struct kdb *db, struct kelf *k, int dwarf_version, const char *input);
/* ...and the origin rows of vmlinux's structs, unions and enums... */
int extract_write_origins(struct xtable *xt, struct kdb *db);
/* ...and the modules and the UAPI headers' constants and ioctls (extract-uapi.c). */
struct header_job;
struct ioctl_types;
struct type_sink;
int extract_uapi(const struct extract_conf *conf, const struct kd_arch *arch, struct ioctl_types *it,
		 struct header_job *hj, struct kdb *db, struct type_sink *sink,
		 struct extract_stats *stats);

/*
 * Decompress the @len bytes at @data (any compression libarchive reads)
 * into @sink, at most @max bytes; @what names them in messages ("bzImage
 * payload"). Errors name @path and the cause. 0 or a negative code.
 */
typedef int (*boot_sink_fn)(void *ctx, const void *buf, size_t n);
int boot_inflate(const char *path, const char *what, const void *data, size_t len, uint64_t max,
		 boot_sink_fn sink, void *ctx);

/* Does @head (the first @n bytes of a file) start an x86 bzImage? */
bool bzimage_is(const unsigned char *head, size_t n);
/*
 * The ELF inside the bzImage @path, decompressed into an anonymous memory
 * file and opened with kelf_open_fd(). Errors name @path and the cause
 * (truncated, payload outside the file, unknown compression, no ELF).
 * *out: kelf_close().
 */
int bzimage_open_elf(const char *path, struct kelf **out);

/* Is @path, whose first @n bytes are @head, an arm64 Image, raw, gzip'ed or EFI zboot? */
bool arm64_image_is(const char *path, const unsigned char *head, size_t n);
/*
 * The arm64 Image @path (raw, Image.gz or EFI zboot) as an ELF: the Image
 * at _text with its .BTF, notes and dynamic relocations as sections, the
 * addresses from the System.map at @map. Errors name the file and the
 * cause (not an Image, no known compression, a map of another kernel).
 * *out: kelf_close().
 */
int arm64_image_open_elf(const char *path, const char *map, struct kelf **out);
/*
 * Any bootable image (a bzImage, an arm64 Image) as an ELF; @map: its
 * System.map, NULL for the one beside it.
 */
int boot_image_open_elf(const char *path, const char *map, struct kelf **out);

/*
 * The addresses of the @n symbols @names in the System.map at @path into
 * @addrs (0 where absent; the first of a name repeated). Errors name @path.
 */
int system_map_lookup(const char *path, const char *const *names, uint64_t *addrs, size_t n);

/*
 * Fill @k's symbols from the System.map at @path (sizes estimated: see
 * kelf->sizes_estimated). Errors name @path.
 */
int kelf_load_system_map(struct kelf *k, const char *path);

/*
 * BTF types into an xtable. Types are added on demand: asking for a BTF
 * id queues it, xbtf_drain() reads every queued type and what it refers
 * to, so only the types reachable from what was asked for are read.
 */
struct xbtf;
/*
 * Parse @k's .BTF section. Errors name k->path. *out: xbtf_free(); it
 * borrows @k and @xt, which must outlive it.
 */
int xbtf_new(struct kelf *k, struct xtable *xt, struct xbtf **out);
void xbtf_free(struct xbtf *b);
/* The table id of BTF type @btf_id (0: void), queued for reading when new. */
int xbtf_type(struct xbtf *b, unsigned btf_id, int64_t *id);
/* A new node of @kind over @ref: a pointer (8 bytes) or a qualifier. */
int xbtf_synth(struct xbtf *b, enum kd_kind kind, int64_t ref, int64_t *id);
/* Read every queued type into the table. */
int xbtf_drain(struct xbtf *b);
/* BTF id of the type named @name of BTF kind @kind (BTF_KIND_*), 0 when none. */
unsigned xbtf_find(const struct xbtf *b, const char *name, unsigned kind);
/*
 * The types of @set ("struct foo", "union foo", "enum foo", a typedef's
 * name) BTF defines, queued: found[i] the table id of entry i (0: not
 * defined; an entry already found is kept), as xt_find_named() does for
 * DWARF. Returns the number found or a negative code.
 */
struct name_set;
int xbtf_find_named(struct xbtf *b, const struct name_set *set, int64_t *found);
/* The parsed BTF (libbpf's; owned by @b). */
const struct btf *xbtf_btf(const struct xbtf *b);
/* A base type of the table by its C name ("long int", "unsigned int"): 0 when unknown. */
int xbtf_base_type(struct xbtf *b, const char *name, int64_t *id);

/*
 * Syscall signatures from BTF: FUNC __do_sys_NAME where the compiler kept
 * one, else ftrace's __syscall_meta_NAME (read through BTF's own layout of
 * struct syscall_metadata) with each type string resolved against BTF.
 * Counts of each source in *from_func, *from_meta.
 */
int xbtf_read_signatures(struct xsyscalls *s, struct xbtf *b, struct kelf *k,
			 size_t *from_func, size_t *from_meta);

#endif
