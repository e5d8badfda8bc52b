// SPDX-License-Identifier: GPL-2.0-only
/*
 * The table of supported architectures (see arch.h). Adding one here is
 * the start, not the end: extract/ also needs its syscall-table layout
 * (extract/syscall-table.c) and the names of its entry points.
 */
#include "lib/arch.h"
#include "lib/find.h"

#include <string.h>

static const struct kd_arch arches[] = {
	{
		.name = "x86_64", .elf_machine = 62 /* EM_X86_64 */,
		.native_abi = "x64", .compat_abis = "ia32,x32",
		.uapi_dir = "x86", .gcc_triplet = "x86_64-linux-gnu",
		.qemu = "qemu-system-x86_64", .char_signed = true, .wchar_signed = true,
	},
	{
		.name = "arm64", .elf_machine = 183 /* EM_AARCH64 */,
		.native_abi = "arm64", .compat_abis = "aarch32",
		.uapi_dir = "arm64", .gcc_triplet = "aarch64-linux-gnu",
		.qemu = "qemu-system-aarch64", .char_signed = false, .wchar_signed = false,
	},
};

#define NR_ARCHES (sizeof(arches) / sizeof(arches[0]))

/*
 * i386 user space on an x86_64 kernel: the same arch/x86 headers, read
 * with __i386__ and compiled with gcc -m32 (ILP32; __u64 4-aligned in
 * structs). Not a kernel kabi-diff reads, so not in arches[].
 */
static const struct kd_arch ia32_user = {
	.name = "ia32", .elf_machine = 3 /* EM_386 */,
	.native_abi = "ia32", .compat_abis = "",
	.uapi_dir = "x86", .gcc_triplet = "i686-linux-gnu",
	.qemu = "qemu-system-i386", .char_signed = true, .wchar_signed = true, .ilp32 = true,
};

const struct kd_arch *kd_arch__compat_user(const struct kd_arch *arch)
{
	return arch && !strcmp(arch->name, "x86_64") ? &ia32_user : NULL;
}

const struct kd_arch *kd_arch__by_name(const char *name)
{
	return KD_FIND_NAMED(const struct kd_arch, arches, NR_ARCHES, name, name);
}

const struct kd_arch *kd_arch__by_elf_machine(unsigned int machine)
{
	size_t i;

	for (i = 0; i < NR_ARCHES; i++)
		if (arches[i].elf_machine == machine)
			return &arches[i];
	return NULL;
}

const struct kd_arch *kd_arch__nth(size_t i)
{
	return i < NR_ARCHES ? &arches[i] : NULL;
}

const struct kd_arch *kd_arch__host(void)
{
#if defined(__x86_64__)
	return kd_arch__by_name("x86_64");
#elif defined(__aarch64__)
	return kd_arch__by_name("arm64");
#else
	return NULL;
#endif
}

const char *kd_arch__supported(void)
{
	return "x86_64 and arm64";
}

bool kd_arch__has_abi(const struct kd_arch *arch, const char *abi)
{
	size_t i, len = abi ? strlen(abi) : 0;

	for (i = 0; len && i < NR_ARCHES; i++) {
		const char *p = arches[i].compat_abis;

		if (arch && arch != &arches[i])
			continue;
		if (!strcmp(arches[i].native_abi, abi))
			return true;
		for (;;) {
			size_t n = strcspn(p, ",");

			if (n == len && !strncmp(p, abi, len))
				return true;
			if (!p[n])
				break;
			p += n + 1;
		}
	}
	return false;
}

int kd_arch__abi_width(const struct kd_arch *arch)
{
	size_t i, w = 0;

	for (i = 0; i < NR_ARCHES; i++) {
		const char *p;
		size_t n = 0;

		if (arch && arch != &arches[i])
			continue;
		if (strlen(arches[i].native_abi) > w)
			w = strlen(arches[i].native_abi);
		for (p = arches[i].compat_abis; ; p++) {
			if (*p && *p != ',') {
				n++;
				continue;
			}
			if (n > w)
				w = n;
			n = 0;
			if (!*p)
				break;
		}
	}
	return (int)w;
}
