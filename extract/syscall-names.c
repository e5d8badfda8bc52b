// SPDX-License-Identifier: GPL-2.0-only
/*
 * Syscall names as the syscall table (arch/x86/entry/syscalls/syscall_64.tbl) spells
 * them. The binary only has entry points, whose names differ from the
 * table's in a few historical cases: the syscall is "stat" but its entry is
 * sys_newstat (the "new" struct stat of 2.x kernels), "umount2" is
 * sys_umount, "sendfile" is sys_sendfile64. These are facts of the 64-bit ABI, listed here once; the
 * ia32 table numbers old and new variants separately, so its entry points
 * keep their function names.
 */
#include "extract/syscalls_internal.h"

#include <string.h>

static const struct {
	const char *func, *name;
} renamed[] = {
	{ "sys_newstat", "stat" },
	{ "sys_newfstat", "fstat" },
	{ "sys_newlstat", "lstat" },
	{ "sys_newuname", "uname" },
	{ "sys_umount", "umount2" },
	{ "sys_sendfile64", "sendfile" },
};

const char *syscall_name_of_func(const char *abi, const char *func)
{
	size_t i;

	if (strcmp(abi, "ia32"))
		for (i = 0; i < sizeof(renamed) / sizeof(renamed[0]); i++)
			if (!strcmp(func, renamed[i].func))
				return renamed[i].name;
	if (!strncmp(func, "compat_sys_", 11))
		return func + 11;
	if (!strncmp(func, "sys_", 4))
		return func + 4;
	return func;
}
