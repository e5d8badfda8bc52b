/* SPDX-License-Identifier: GPL-2.0-only */
/* Private to extract/: meta "boot_support" from a vmlinux's symbols (extract/image.h). */
#ifndef KD_EXTRACT_BOOT_H
#define KD_EXTRACT_BOOT_H

struct kdb;
struct kelf;

/* Write meta "boot_support" (KDB_BOOT_* words) for @k, symbols loaded. */
int extract_boot_support(struct kdb *db, struct kelf *k);

#endif
