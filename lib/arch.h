/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel architectures kabi-diff reads, as facts every stage shares:
 * the name a .kabi records (meta "arch"), the ELF machine that identifies
 * an image, the syscall ABIs its tables hold, where its UAPI headers live
 * and which tools build and boot user space for it. extract chooses the
 * entry by the image's ELF machine; every later stage by the .kabi's arch.
 */
#ifndef KD_ARCH_H
#define KD_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kd_arch {
	const char *name;		/* meta "arch": "x86_64", "arm64" */
	uint16_t elf_machine;		/* EM_X86_64 (62), EM_AARCH64 (183) */
	const char *native_abi;		/* ABI of sys_call_table: "x64", "arm64" */
	const char *compat_abis;	/* the other ABIs, comma-separated: "ia32,x32" */
	const char *uapi_dir;		/* the tree's arch/<uapi_dir>/include/uapi */
	const char *gcc_triplet;	/* Debian's gcc for it: "aarch64-linux-gnu" */
	const char *qemu;		/* the system emulator: "qemu-system-aarch64" */
	bool char_signed;		/* plain char of its C ABI (arm64: unsigned) */
	bool wchar_signed;		/* wchar_t: int, or unsigned int on arm64 */
	bool ilp32;			/* int, long and pointers 4 bytes (a compat user ABI) */
};

/* The native ABIs as an SQL list, to order a kernel's own table first. */
#define KD_ARCH_NATIVE_ABIS_SQL "('x64', 'arm64')"

/* The architecture of that name (meta "arch"), or NULL. */
const struct kd_arch *kd_arch__by_name(const char *name);
/* The architecture of an ELF e_machine, or NULL. */
const struct kd_arch *kd_arch__by_elf_machine(unsigned int machine);
/* The architecture this program was built for, when kabi-diff knows it; else NULL. */
const struct kd_arch *kd_arch__host(void);
/* "x86_64 and arm64": the supported names, for messages. Static storage. */
const char *kd_arch__supported(void);
/* The @i-th supported architecture (0: x86_64), NULL past the last. */
const struct kd_arch *kd_arch__nth(size_t i);

/*
 * Is @abi one of @arch's syscall ABIs, native or compat ("x32" of x86_64)?
 * @arch NULL: of any architecture kabi-diff knows.
 */
bool kd_arch__has_abi(const struct kd_arch *arch, const char *abi);
/*
 * The 32-bit user space a kernel of @arch also runs, as a user ABI its
 * UAPI headers are compiled and read for (x86_64: "ia32", i386 programs
 * under CONFIG_IA32_EMULATION); NULL when kabi-diff builds no such view
 * (arm64's AArch32 headers are arch/arm's, another tree). Never one of
 * the kernel architectures above: kd_arch__by_name() does not find it.
 */
const struct kd_arch *kd_arch__compat_user(const struct kd_arch *arch);

/* Columns for an ABI name of @arch in aligned output (NULL: any arch). */
int kd_arch__abi_width(const struct kd_arch *arch);

#endif
