/* SPDX-License-Identifier: GPL-2.0-only */
/* Private to extract/: the vDSO images a vmlinux embeds, into db/kdb-vdso.h's rows. */
#ifndef KD_EXTRACT_VDSO_H
#define KD_EXTRACT_VDSO_H

#include <stdint.h>

struct kdb;
struct kelf;

/* The largest image read (real ones: 4 to 16 KiB); past it, a problem row. */
#define VDSO_MAX_BYTES (4u << 20)
/* Symbols and version definitions read of one image; past them, a problem row. */
#define VDSO_MAX_SYMBOLS 4096
#define VDSO_MAX_VERSIONS 256

/*
 * Find each vDSO image of @k's architecture (symbols loaded) and write its
 * soname, version definitions and exported dynamic symbols to @db, and
 * meta "vdso". Whatever an image lacks or gets wrong (not ELF, truncated,
 * outside every section) is a problem row naming the image and the cause;
 * the other images and the rest of the extraction go on. @input names the
 * vmlinux in problem rows. *problems (may be NULL) grows by the rows
 * written. Returns 0, or a negative code when the DB or memory failed.
 */
int extract_vdso(struct kdb *db, struct kelf *k, const char *input, int64_t *problems);

struct kd_arch;
struct type_sink;
/*
 * vdso-dwarf.c: the signatures of the entry points of @db's images (after
 * extract_vdso()) from the debug images in @dir (vdso64.so; arm64:
 * vdso.so), their types written through @sink; meta "vdso_dwarf" names the
 * images read. An image without DWARF is a problem row. Returns 0 or a
 * negative code when the DB or memory failed.
 */
int extract_vdso_dwarf(struct kdb *db, struct type_sink *sink, const char *dir,
		       const struct kd_arch *arch, int64_t *problems);

#endif
