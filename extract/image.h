/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a kernel image says about itself, cheaply: enough for probe to
 * check, before a boot of many seconds, that the image it is given is the
 * kernel a .kabi describes, and how QEMU would start it.
 */
#ifndef KD_EXTRACT_IMAGE_H
#define KD_EXTRACT_IMAGE_H

#include <stdbool.h>

enum kimage_kind {
	KIMAGE_ELF = 1,		/* a vmlinux */
	KIMAGE_BZIMAGE,		/* x86's bootable image (vmlinuz) */
	KIMAGE_ARM64,		/* arm64's uncompressed Image (Debian's vmlinuz) */
};

struct kimage_id {
	enum kimage_kind kind;
	const char *arch;	/* ELF: the machine's name (lib/arch.h); bzImage: "x86_64";
				 * Image: "arm64" */
	char *build_id;		/* ELF: NT_GNU_BUILD_ID as hex, or NULL */
	bool pvh;		/* ELF: has a PVH entry (Xen note PHYS32_ENTRY, CONFIG_PVH) */
	char *version;		/* bzImage: the setup header's "RELEASE (BUILDER) #N ...";
				 * Image: its linux_banner less "Linux version " */
};

/*
 * Identify the image at @path. Returns 0, or a negative code with the
 * cause reported (not a kernel image, truncated, unreadable).
 * Free @id with kimage_id_release().
 */
int extract__image_id(const char *path, struct kimage_id *id);
void kimage_id_release(struct kimage_id *id);

struct kdb;

/*
 * extract__image_id() of @kernel, then its identity against what @db (at
 * @db_path, for messages) was extracted from: the architecture, a
 * vmlinux's build-id, a bzImage's release and build string against the
 * banner (meta version), an arm64 Image's banner against the same.
 * Returns 0 with *id filled (kimage_id_release()),
 * or a negative code with the mismatch reported naming both files.
 */
int extract__image_check(struct kdb *db, const char *db_path, const char *kernel,
			 struct kimage_id *id);

#endif
