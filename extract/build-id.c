// SPDX-License-Identifier: GPL-2.0-only
/*
 * extract__build_id(): open the image with the extractor's ELF reader
 * (which validates it and names the problem when it is not a usable
 * vmlinux) and read its NT_GNU_BUILD_ID note. Costs a few milliseconds on
 * a 600 MB vmlinux: sections are mapped, not read. A bzImage is
 * decompressed first.
 */
#include "extract/build-id.h"

#include <errno.h>
#include <stddef.h>

#include "extract/btf_internal.h"
#include "extract/elf_internal.h"
#include "extract/extract.h"

int extract__build_id(const char *path, char **hex)
{
	struct kelf *k = NULL;
	int err;

	*hex = NULL;
	/* A boot image keeps its notes (a bzImage's ELF decompressed, ~0.3 s): the same build-id. */
	err = extract__is_boot_image(path) ? boot_image_open_elf(path, NULL, &k) : kelf_open(path, &k);
	if (err)
		return err;
	*hex = kelf_build_id(k);
	kelf_close(k);
	return 0;
}
