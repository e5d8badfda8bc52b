// SPDX-License-Identifier: GPL-2.0-only
/*
 * usage__read(): which of the three readers a --for file goes to, by its
 * first bytes: ELF's magic, a JSON object, else an strace log (which
 * refuses a file with no call in it).
 */
#include "extract/input/usage.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/usage.h"

int usage__read(const char *path, struct kd_usage *u)
{
	unsigned char head[64];
	struct stat st;
	ssize_t n;
	size_t i = 0;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		err = -errno;
		kd_err("%s: %s", path, kd_strerror(err));
		return err;
	}
	/* A FIFO or a device: never read, and never opened blocking by a reader. */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		kd_err("%s: not a regular file", path);
		return -KD_ENOTREG;
	}
	n = read(fd, head, sizeof(head));
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err) {
		kd_err("%s: %s", path, kd_strerror(err));
		return err;
	}
	while (i < (size_t)n && head[i] && strchr(" \t\r\n", head[i]))
		i++;
	if (n >= 4 && !memcmp(head, "\177ELF", 4))
		err = usage__read_elf(path, u);
	else if (i < (size_t)n && head[i] == '{')
		err = usage__read_seccomp(path, u);
	else
		err = usage__read_strace(path, u);
	if (!err)
		kd_usage_finish(u);
	return err;
}
