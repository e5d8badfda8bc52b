// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe__check_kernel(): before a boot of many seconds, the kernel must be
 * able to run the probe at all. Without this check an unfit kernel costs
 * the whole --timeout and ends in "output ended" or a silent console.
 * (That the image is the kernel the .kabi describes is extract's check,
 * extract__image_check().)
 */
#include "probe/probe_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "lib/buf.h"
#include "lib/err.h"

static const struct {
	const char *word, *what;
} needs[] = {
	{ KDB_BOOT_CONSOLE, "no built-in serial console (x86_64: CONFIG_SERIAL_8250_CONSOLE=y;"
	  " arm64: CONFIG_SERIAL_AMBA_PL011_CONSOLE=y)" },
	{ KDB_BOOT_INITRAMFS, "no initramfs support (CONFIG_BLK_DEV_INITRD=y)" },
	{ KDB_BOOT_ELF, "no ELF binaries (CONFIG_BINFMT_ELF=y)" },
	{ KDB_BOOT_POWEROFF, "no way to power off (x86_64: CONFIG_ACPI=y; arm64:"
	  " CONFIG_ARM_PSCI_FW=y)" },
};

bool probe__has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; p && (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

/* meta boot_support (absent in a .kabi of an older kabi-diff: not checked). */
static int check_support(struct kdb *db, const char *db_path)
{
	struct kd_buf missing = KD_BUF_INIT;
	char *support = NULL;
	size_t i;
	int err = 0;

	if (kdb__get_meta(db, "boot_support", &support) || !support)
		return 0;
	for (i = 0; !err && i < sizeof(needs) / sizeof(needs[0]); i++)
		if (!probe__has_word(support, needs[i].word))
			err = kd_buf_addf(&missing, "%s%s", missing.len ? "; " : "", needs[i].what);
	if (!err && missing.len) {
		kd_err("%s: this kernel cannot be probed: %s", db_path, missing.s);
		err = -KD_EUNSUPPORTED;
	}
	free(support);
	kd_buf_release(&missing);
	return err;
}

int probe__check_kernel(struct kdb *db, const char *db_path, const char *kernel,
			const char *arch, bool elf, bool pvh)
{
	int err = check_support(db, db_path);

	if (err)
		return err;
	if (!probe__machine(arch)) {
		kd_err("%s: the probe boots x86_64 and arm64 kernels only, not %s", kernel, arch);
		return -KD_EUNSUPPORTED;
	}
	/* QEMU's arm64 loader starts an Image; the vmlinux is linked at virtual addresses. */
	if (elf && strcmp(arch, "x86_64")) {
		kd_err("%s: an %s vmlinux cannot be booted by QEMU; give the Image (Debian's"
		       " vmlinuz)", kernel, arch);
		return -KD_EUNSUPPORTED;
	}
	if (elf && !pvh) {
		kd_err("%s: a vmlinux without a PVH entry (CONFIG_PVH) cannot be booted by QEMU;"
		       " give the bzImage (vmlinuz)", kernel);
		return -KD_EUNSUPPORTED;
	}
	return 0;
}
