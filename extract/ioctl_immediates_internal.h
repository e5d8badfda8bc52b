/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to extract/: the ioctl command numbers a binary's x86-64 code
 * compares or moves as immediates (ioctl-immediates.c), the evidence that
 * a native handler knows an i386 command number itself.
 */
#ifndef KD_EXTRACT_IOCTL_IMMEDIATES_H
#define KD_EXTRACT_IOCTL_IMMEDIATES_H

#include <stddef.h>
#include <stdint.h>

#include "extract/elf_internal.h"

/*
 * The _IOR/_IOW/_IOWR-shaped imm32 operands of cmp and mov in @k's
 * executable sections (x86-64 only: none elsewhere), sorted and unique.
 * *out: malloc'ed (NULL when none), *n its length. 0 or -ENOMEM.
 */
int ioctl_immediates__read(struct kelf *k, uint32_t **out, size_t *n);
/*
 * The scan of one run of x86-64 code: each such operand of @code's @size
 * bytes appended to *v (*n of *cap, grown), in order, repeats kept.
 * 0 or -ENOMEM. Never reads past @size.
 */
int ioctl_immediates__scan(const unsigned char *code, size_t size, uint32_t **v, size_t *n,
			   size_t *cap);

#endif
