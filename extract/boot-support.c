// SPDX-License-Identifier: GPL-2.0-only
/*
 * Meta "boot_support": which of the kernel features a probe boot relies on
 * the vmlinux was built with, read from its symbol table. A kernel without
 * them boots under QEMU and then says nothing (no console), cannot start
 * the probe, or never powers off, and the probe would wait for its timeout
 * and report a hang; probe checks this word list before it boots.
 *
 * Each feature is known by a function that exists only when it is built
 * in, and whose address the kernel takes (so it is never inlined away).
 */
#include "extract/boot_internal.h"

#include <string.h>

#include "db/kdb.h"
#include "extract/elf_internal.h"
#include "lib/buf.h"

struct boot_need {
	const char *word;
	const char *arch;	/* NULL: every architecture */
	const char *symbol;
};

static const struct boot_need needs[] = {
	/* drivers/tty/serial/8250: CONFIG_SERIAL_8250_CONSOLE (ttyS0 on x86's QEMU) */
	{ KDB_BOOT_CONSOLE, "x86_64", "serial8250_console_setup" },
	/* drivers/tty/serial/amba-pl011.c: CONFIG_SERIAL_AMBA_PL011_CONSOLE (QEMU's virt board) */
	{ KDB_BOOT_CONSOLE, "arm64", "pl011_console_setup" },
	/* init/initramfs.c, built with CONFIG_BLK_DEV_INITRD */
	{ KDB_BOOT_INITRAMFS, NULL, "populate_rootfs" },
	/* fs/binfmt_elf.c: CONFIG_BINFMT_ELF */
	{ KDB_BOOT_ELF, NULL, "load_elf_binary" },
	/* drivers/acpi/sleep.c: CONFIG_ACPI; QEMU's q35/pc power off through ACPI */
	{ KDB_BOOT_POWEROFF, "x86_64", "acpi_power_off" },
	/* drivers/firmware/psci: CONFIG_ARM_PSCI_FW */
	{ KDB_BOOT_POWEROFF, "arm64", "psci_sys_poweroff" },
	/* fs/ext4/super.c (get_tree_bdev(fc, ext4_fill_super)): CONFIG_EXT4_FS=y */
	{ KDB_BOOT_EXT4, NULL, "ext4_fill_super" },
	/* drivers/block/loop.c (loop_ctl_fops): CONFIG_BLK_DEV_LOOP=y */
	{ KDB_BOOT_LOOP, NULL, "loop_control_ioctl" },
};

int extract_boot_support(struct kdb *db, struct kelf *k)
{
	struct kd_buf words = KD_BUF_INIT;
	size_t i;
	int err = 0;

	for (i = 0; !err && i < sizeof(needs) / sizeof(needs[0]); i++) {
		if (needs[i].arch && strcmp(needs[i].arch, k->arch->name))
			continue;
		if (kelf_symbol_by_name(k, needs[i].symbol))
			err = kd_buf_addf(&words, "%s%s", words.len ? " " : "", needs[i].word);
	}
	if (!err)
		err = kdb__set_meta(db, "boot_support", words.len ? words.s : "");
	kd_buf_release(&words);
	return err;
}
