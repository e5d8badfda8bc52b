// SPDX-License-Identifier: GPL-2.0-only
/* Path joining and type tests; see path.h. */
#include "path.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "err.h"
#include "mem.h"

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

/* The last component of @part (its first @len bytes), trailing slashes ignored. */
static int add_last_component(struct kd_buf *b, const char *part, size_t len)
{
	size_t start;

	while (len > 1 && part[len - 1] == '/')
		len--;
	for (start = len; start > 0 && part[start - 1] != '/'; start--)
		;
	if (start == len)	/* "/" alone */
		start = 0;
	return kd_buf_add(b, part + start, len - start);
}

char *kd_input_short(const char *arg)
{
	struct kd_buf b = KD_BUF_INIT;
	const char *p = arg, *comma;
	int err = 0;

	if (strlen(arg) <= KD_INPUT_SHORT_MAX)
		return kd_strdup(arg);
	for (;;) {
		comma = strchr(p, ',');
		err = add_last_component(&b, p, comma ? (size_t)(comma - p) : strlen(p));
		if (err || !comma)
			break;
		err = kd_buf_addc(&b, ',');
		if (err)
			break;
		p = comma + 1;
	}
	if (err) {
		kd_buf_release(&b);
		return NULL;
	}
	return kd_buf_detach(&b);
}

int kd_open_regular(const char *path, int flags, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | flags), err;

	if (fd < 0)
		return -errno;
	err = fstat(fd, st) < 0 ? -errno : S_ISREG(st->st_mode) ? 0 : -KD_ENOTREG;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int kd_map_file(const char *path, const unsigned char **data, size_t *size)
{
	struct stat st;
	int fd = kd_open_regular(path, 0, &st), err = 0;
	void *p;

	*data = NULL;
	*size = 0;
	if (fd < 0)
		return fd;
	if (st.st_size > 0) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			err = -errno;
		} else {
			*data = p;
			*size = (size_t)st.st_size;
		}
	}
	close(fd);
	return err;
}

void kd_unmap_file(const unsigned char *data, size_t size)
{
	if (data)
		munmap((void *)data, size);
}

ssize_t kd_read_head(const char *path, void *buf, size_t len)
{
	struct stat st;
	int fd = kd_open_regular(path, 0, &st);
	ssize_t err = 0;
	size_t got = 0;

	if (fd < 0)
		return fd;
	while (!err && got < len) {
		ssize_t n = pread(fd, (char *)buf + got, len - got, (off_t)got);

		if (n < 0 && errno != EINTR)
			err = -errno;
		else if (n == 0)
			break;
		else if (n > 0)
			got += (size_t)n;
	}
	close(fd);
	return err ? err : (ssize_t)got;
}
