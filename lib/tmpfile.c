// SPDX-License-Identifier: GPL-2.0-only
/*
 * Registry of temporary outputs. The registry is a fixed array of
 * heap-allocated names so the signal handler can walk it without
 * allocating (unlink() is async-signal-safe; malloc is not).
 */
#include "tmpfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "mem.h"

#define MAX_TMPFILES 16

static char *volatile registry[MAX_TMPFILES];

static int remember(char *path)
{
	int i;

	for (i = 0; i < MAX_TMPFILES; i++) {
		if (!registry[i]) {
			registry[i] = path;
			return 0;
		}
	}
	return -EMFILE;
}

int kd_tmpfile_create(const char *dest, char **tmp_path)
{
	struct kd_buf b = KD_BUF_INIT;
	char *path;
	int fd, err;

	err = kd_buf_addf(&b, "%s.tmp.XXXXXX", dest);
	if (err)
		return err;
	path = kd_buf_detach(&b);
	if (!path)
		return -ENOMEM;
	fd = mkstemp(path);
	if (fd < 0) {
		err = -errno;
		free(path);
		return err;
	}
	err = remember(path);
	if (err) {
		close(fd);
		unlink(path);
		free(path);
		return err;
	}
	*tmp_path = path;
	return fd;
}

void kd_tmpfile_forget(const char *tmp_path)
{
	int i;

	for (i = 0; i < MAX_TMPFILES; i++)
		if (registry[i] == tmp_path || (registry[i] && tmp_path &&
						 !strcmp(registry[i], tmp_path)))
			registry[i] = NULL;
}

void kd_tmpfile_discard(const char *tmp_path)
{
	if (!tmp_path)
		return;
	unlink(tmp_path);
	kd_tmpfile_forget(tmp_path);
}

int kd_tmpfile_commit(const char *tmp_path, const char *dest)
{
	int fd = open(tmp_path, O_RDONLY);

	if (fd >= 0) {
		/* A rename before the data is on disk could publish an empty file after a crash. */
		if (fsync(fd) < 0 && errno != EINVAL) {
			int err = -errno;

			close(fd);
			return err;
		}
		close(fd);
	}
	if (rename(tmp_path, dest) < 0)
		return -errno;
	kd_tmpfile_forget(tmp_path);
	return 0;
}

static void on_fatal_signal(int sig)
{
	int i;

	for (i = 0; i < MAX_TMPFILES; i++)
		if (registry[i])
			unlink(registry[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

void kd_tmpfile_install_signal_cleanup(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/*
	 * Past a file size limit (ulimit -f) the default action of SIGXFSZ
	 * kills the process and leaves the temporary file behind; ignored,
	 * the write fails with EFBIG and the writer cleans up like for ENOSPC.
	 */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGXFSZ, &sa, NULL);
}
