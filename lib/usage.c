// SPDX-License-Identifier: GPL-2.0-only
/*
 * The set of what one program uses (lib/usage.h): growable arrays of
 * names and numbers, sorted and made unique once, then searched.
 */
#include "lib/str.h"
#include "lib/usage.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mem.h"

static int add_name(char ***arr, size_t *nr, size_t *cap, const char *name, size_t len)
{
	char *s;

	if (KD_GROW(*arr, *cap, *nr + 1))
		return -ENOMEM;
	s = kd_strndup(name, len);
	if (!s)
		return -ENOMEM;
	(*arr)[(*nr)++] = s;
	return 0;
}

int kd_usage_add_syscall(struct kd_usage *u, const char *name, size_t len)
{
	return add_name(&u->syscalls, &u->nr_syscalls, &u->cap_syscalls, name, len);
}

int kd_usage_add_ioctl(struct kd_usage *u, const char *name, size_t len)
{
	return add_name(&u->ioctls, &u->nr_ioctls, &u->cap_ioctls, name, len);
}

int kd_usage_add_syscall_nr(struct kd_usage *u, int64_t nr)
{
	if (KD_GROW(u->syscall_nrs, u->cap_syscall_nrs, u->nr_syscall_nrs + 1))
		return -ENOMEM;
	u->syscall_nrs[u->nr_syscall_nrs++] = nr;
	return 0;
}

int kd_usage_add_ioctl_cmd(struct kd_usage *u, uint32_t cmd)
{
	if (KD_GROW(u->ioctl_cmds, u->cap_ioctl_cmds, u->nr_ioctl_cmds + 1))
		return -ENOMEM;
	u->ioctl_cmds[u->nr_ioctl_cmds++] = cmd;
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void uniq_names(char **arr, size_t *nr)
{
	size_t i, n = 0;

	if (!*nr)
		return;
	qsort(arr, *nr, sizeof(*arr), kd_strcmp_ptr);
	for (i = 0; i < *nr; i++) {
		if (n && !strcmp(arr[n - 1], arr[i]))
			free(arr[i]);
		else
			arr[n++] = arr[i];
	}
	*nr = n;
}

/* Sort @nr elements of @size bytes and drop repeats (compared by @cmp). */
static void uniq(void *arr, size_t *nr, size_t size, int (*cmp)(const void *, const void *))
{
	char *a = arr;
	size_t i, n = 0;

	if (!*nr)
		return;
	qsort(a, *nr, size, cmp);
	for (i = 0; i < *nr; i++)
		if (!n || cmp(a + (n - 1) * size, a + i * size))
			memmove(a + n++ * size, a + i * size, size);
	*nr = n;
}

void kd_usage_finish(struct kd_usage *u)
{
	uniq_names(u->syscalls, &u->nr_syscalls);
	uniq_names(u->ioctls, &u->nr_ioctls);
	uniq(u->syscall_nrs, &u->nr_syscall_nrs, sizeof(*u->syscall_nrs), cmp_i64);
	uniq(u->ioctl_cmds, &u->nr_ioctl_cmds, sizeof(*u->ioctl_cmds), cmp_u32);
}

static bool has_name(char *const *arr, size_t nr, const char *name)
{
	return nr && bsearch(&name, arr, nr, sizeof(*arr), kd_strcmp_ptr) != NULL;
}

bool kd_usage_has_syscall(const struct kd_usage *u, const char *name)
{
	return has_name(u->syscalls, u->nr_syscalls, name);
}

bool kd_usage_has_ioctl(const struct kd_usage *u, const char *name)
{
	return has_name(u->ioctls, u->nr_ioctls, name);
}

bool kd_usage_has_ioctl_cmd(const struct kd_usage *u, uint32_t cmd)
{
	return u->nr_ioctl_cmds &&
	       bsearch(&cmd, u->ioctl_cmds, u->nr_ioctl_cmds, sizeof(cmd), cmp_u32) != NULL;
}

void kd_usage_release(struct kd_usage *u)
{
	size_t i;

	for (i = 0; i < u->nr_syscalls; i++)
		free(u->syscalls[i]);
	for (i = 0; i < u->nr_ioctls; i++)
		free(u->ioctls[i]);
	free(u->syscalls);
	free(u->ioctls);
	free(u->syscall_nrs);
	free(u->ioctl_cmds);
	free(u->label);
	free(u->abi);
	memset(u, 0, sizeof(*u));
}
