// SPDX-License-Identifier: GPL-2.0-only
/* Path joining and type tests; see path.h. */
#include "path.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"

char *kd_path_join(const char *a, const char *b)
{
	struct kd_buf buf = KD_BUF_INIT;

	if (kd_buf_addf(&buf, "%s/%s", a, b)) {
		kd_buf_release(&buf);
		return NULL;
	}
	return kd_buf_detach(&buf);
}

bool kd_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool kd_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool kd_has_dir(const char *dir, const char *sub)
{
	char *p = kd_path_join(dir, sub);
	bool yes = p && kd_is_dir(p);

	free(p);
	return yes;
}

const char *kd_path_short(const char *path, const char *base)
{
	size_t n = base ? strlen(base) : 0;
	const char *slash;

	if (!path)
		return "none";
	while (n > 1 && base[n - 1] == '/')
		n--;
	if (n && !strncmp(path, base, n) && path[n] == '/' && path[n + 1])
		return path + n + 1;
	slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}
