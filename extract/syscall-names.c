// SPDX-License-Identifier: GPL-2.0-only
/*
 * Syscall names as the syscall tables spell them (x86_64:
 * arch/x86/entry/syscalls/syscall_64.tbl; arm64: the __NR_ names of
 * include/uapi/asm-generic/unistd.h). The binary only has entry points,
 * whose names differ from the table's in a few historical cases: the
 * syscall is "fstat" but its entry is sys_newfstat (the "new" struct stat
 * of 2.x kernels), "umount2" is sys_umount, "sendfile" is sys_sendfile64,
 * asm-generic's "fadvise64" is sys_fadvise64_64 and arm64's "personality"
 * its own sys_arm64_personality. These are facts of
 * the 64-bit ABIs, listed here once. The compat tables (ia32, aarch32)
 * number old and new variants separately, so their entry points keep
 * their function names (AArch32's own wrappers lose their "aarch32_":
 * compat_sys_aarch32_mmap2 is mmap2).
 */
#include "extract/syscalls_internal.h"
#include "lib/str.h"

#include <string.h>

struct renamed {
	const char *func, *name;
};

/* The 64-bit ABIs of both architectures. */
static const struct renamed renamed_64[] = {
	{ "sys_newstat", "stat" },
	{ "sys_newfstat", "fstat" },
	{ "sys_newlstat", "lstat" },
	{ "sys_newuname", "uname" },
	{ "sys_umount", "umount2" },
	{ "sys_sendfile64", "sendfile" },
};

/*
 * arm64: asm-generic's 64-bit choice (x86_64 has sys_fadvise64), and the
 * arch's own wrapper (arch/arm64/kernel/sys.c) for personality.
 */
static const struct renamed renamed_arm64[] = {
	{ "sys_fadvise64_64", "fadvise64" },
	{ "sys_arm64_personality", "personality" },
};

static const char *lookup(const struct renamed *v, size_t n, const char *func)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(func, v[i].func))
			return v[i].name;
	return NULL;
}

#define LOOKUP(v, func) lookup(v, sizeof(v) / sizeof(v[0]), func)

const char *syscall_name_of_func(const char *abi, const char *func)
{
	const char *name = NULL;

	if (!strcmp(abi, "x64") || !strcmp(abi, "x32") || !strcmp(abi, "arm64"))
		name = LOOKUP(renamed_64, func);
	if (!name && !strcmp(abi, "arm64"))
		name = LOOKUP(renamed_arm64, func);
	if (name)
		return name;
	if (kd_starts_with(func, "compat_sys_")) {
		func += 11;
		if (!strcmp(abi, "aarch32") && kd_starts_with(func, "aarch32_"))
			func += 8;
		return func;
	}
	if (kd_starts_with(func, "sys_"))
		return func + 4;
	return func;
}
