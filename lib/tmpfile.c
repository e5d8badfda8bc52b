// SPDX-License-Identifier: GPL-2.0-only
/*
 * Registry of temporary outputs. The registry is a fixed array of
 * heap-allocated names so the signal handler can walk it without
 * allocating (unlink() is async-signal-safe; malloc is not). Directories
 * are removed with openat/getdents64/unlinkat on stack buffers for the
 * same reason (nftw and readdir allocate). Child processes (lib/child.c)
 * are killed, their whole process groups, before anything is removed.
 */
#include "tmpfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stdbool.h>
#include <sys/stat.h>

#include "buf.h"
#include "child.h"
#include "err.h"
#include "mem.h"

#define MAX_TMPFILES 16
#define MAX_TMPDIRS 8

static char *volatile registry[MAX_TMPFILES];
static const char *volatile dir_registry[MAX_TMPDIRS];

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

static mode_t current_umask(void)
{
	mode_t m = umask(0);

	umask(m);
	return m;
}

/* Does @dest exist as something rename() must not replace? */
static bool exists_not_regular(const char *dest, struct stat *st)
{
	return !stat(dest, st) && !S_ISREG(st->st_mode);
}

int kd_output_check(const char *dest, const char *const *inputs, size_t n)
{
	struct stat out, in;
	size_t i;

	if (!strcmp(dest, "-"))
		return 0;
	if (exists_not_regular(dest, &out)) {
		kd_err("%s: not a regular file; an output must be one ('-' for standard output)", dest);
		return -KD_ENOTREG;
	}
	if (stat(dest, &out))
		return 0;	/* created new: no input can be it */
	for (i = 0; i < n; i++) {
		if (inputs[i] && !stat(inputs[i], &in) && in.st_dev == out.st_dev &&
		    in.st_ino == out.st_ino) {
			kd_err("%s: %s", dest, kd_strerror(-KD_ESAMEFILE));
			return -KD_ESAMEFILE;
		}
	}
	return 0;
}

int kd_tmpfile_create(const char *dest, char **tmp_path)
{
	struct kd_buf b = KD_BUF_INIT;
	struct stat st;
	bool keep;
	char *path;
	int fd, err;

	if (exists_not_regular(dest, &st))
		return -KD_ENOTREG;
	keep = !stat(dest, &st);
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
	/*
	 * mkstemp() makes 0600 files: an output gets the mode any new file
	 * would, and a rewrite keeps the file's mode and, where the user may
	 * (root), its owner.
	 */
	if (keep && (st.st_uid != geteuid() || st.st_gid != getegid()) &&
	    fchown(fd, st.st_uid, st.st_gid) < 0)
		errno = 0;	/* not ours to give: the new file stays the user's */
	if (fchmod(fd, keep ? st.st_mode & 07777 : 0666 & ~current_umask()) < 0) {
		err = -errno;
		close(fd);
		kd_tmpfile_discard(path);
		free(path);
		return err;
	}
	*tmp_path = path;
	return fd;
}

int kd_tmpfile_create_cache(const char *dest, char **tmp_path)
{
	struct stat st;

	if (!lstat(dest, &st) && !S_ISREG(st.st_mode) && unlink(dest) < 0 && errno != ENOENT)
		return -KD_ENOTREG;
	return kd_tmpfile_create(dest, tmp_path);
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
	struct stat st;
	int fd;

	/* rename() would replace a device or FIFO made there since the output was created. */
	if (exists_not_regular(dest, &st))
		return -KD_ENOTREG;
	fd = open(tmp_path, O_RDONLY);

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

/*
 * Register @dir (alive until kd_tmpdir_forget()) to be removed with
 * everything below it if a fatal signal arrives. At most MAX_TMPDIRS at
 * once: -EMFILE beyond.
 */
static int tmpdir_register(const char *dir)
{
	int i;

	for (i = 0; i < MAX_TMPDIRS; i++) {
		if (!dir_registry[i]) {
			dir_registry[i] = dir;
			return 0;
		}
	}
	return -EMFILE;
}

void kd_tmpdir_forget(const char *dir)
{
	int i;

	for (i = 0; i < MAX_TMPDIRS; i++)
		if (dir_registry[i] == dir)
			dir_registry[i] = NULL;
}

/*
 * One walk down from the top (@top, not moved): in each directory, files
 * and empty subdirectories are removed and the walk goes on into the first
 * subdirectory that is not empty; it ends in a directory that has none.
 * The walk keeps one directory open at a time and never climbs back
 * ("..", which a rename could point out of the tree): the next walk
 * starts again from the top and removes the directory this one emptied.
 * So any depth is removed with constant stack and descriptors, in time
 * proportional to the number of directories times their depth. Returns
 * the number of entries removed; *@at_top: the walk ended at the top;
 * *@err: the first error met (kept).
 */
static long remove_walk(int top, bool *at_top, int *err)
{
	char buf[2048] __attribute__((aligned(8)));
	int fd = openat(top, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), depth = 0;
	long removed = 0;

	*at_top = false;
	if (fd < 0) {
		if (!*err)
			*err = -errno;
		return 0;
	}
	for (;;) {
		int sub = -1;
		ssize_t n;

		while (sub < 0 && (n = getdents64(fd, buf, sizeof(buf))) > 0) {
			for (ssize_t off = 0; sub < 0 && off < n;) {
				const struct dirent64 *d = (const struct dirent64 *)(buf + off);
				const char *name = d->d_name;

				off += d->d_reclen;
				if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
					continue;
				if (!unlinkat(fd, name, 0) ||
				    ((errno == EISDIR || errno == EPERM) && !unlinkat(fd, name, AT_REMOVEDIR))) {
					removed++;
					continue;
				}
				if (errno == ENOTEMPTY || errno == EEXIST)
					sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (sub < 0 && errno != ENOENT && !*err)
					*err = -errno;
			}
		}
		if (sub < 0) {
			if (n < 0 && !*err)
				*err = -errno;
			break;
		}
		close(fd);
		fd = sub;
		depth++;
	}
	close(fd);
	*at_top = depth == 0;
	return removed;
}

int kd_remove_tree(const char *dir)
{
	int top = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), err = 0;

	if (top < 0)
		return errno == ENOENT ? 0 : -errno;
	/*
	 * Walks until the top is empty. Entries removed shift a directory's
	 * offsets under getdents64, so a walk may miss some: the next one
	 * catches them. A walk that removes nothing would repeat itself.
	 */
	for (;;) {
		bool at_top;
		long removed = remove_walk(top, &at_top, &err);

		if (at_top && (!rmdir(dir) || errno == ENOENT)) {
			err = 0;
			break;
		}
		if (at_top && errno != ENOTEMPTY && errno != EEXIST && !err)
			err = -errno;
		if (!removed) {
			if (!err)
				err = -ENOTEMPTY;
			break;
		}
	}
	close(top);
	return err;
}

const char *kd_tmpdir_parent(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && *tmp ? tmp : "/tmp";
}

int kd_tmpdir_create(const char *parent, const char *prefix, char **dir)
{
	struct kd_buf b = KD_BUF_INIT;
	int err;

	*dir = NULL;
	err = kd_buf_addf(&b, "%s/%sXXXXXX", parent ? parent : kd_tmpdir_parent(), prefix);
	if (err)
		return err;
	if (!mkdtemp(b.s)) {
		err = -errno;
		kd_buf_release(&b);
		return err;
	}
	*dir = kd_buf_detach(&b);	/* allocated by the addf: cannot fail */
	/* By this pointer, which stays the directory's until kd_tmpdir_remove(). */
	(void)tmpdir_register(*dir);
	return 0;
}

void kd_tmpdir_remove(char *dir)
{
	if (!dir)
		return;
	/* Registered until it is gone: a signal meanwhile finishes the removal. */
	(void)kd_remove_tree(dir);
	kd_tmpdir_forget(dir);
	free(dir);
}

int kd_write_all(int fd, const void *buf, size_t len)
{
	const char *data = buf;

	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

int kd_write_file_atomic(const char *dest, const void *data, size_t len, unsigned flags)
{
	char *tmp = NULL;
	int fd, err;

	fd = flags & KD_WRITE_CACHE ? kd_tmpfile_create_cache(dest, &tmp) :
				      kd_tmpfile_create(dest, &tmp);
	if (fd < 0)
		return fd;
	err = kd_write_all(fd, data, len);
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err)
		err = kd_tmpfile_commit(tmp, dest);
	if (err)
		kd_tmpfile_discard(tmp);
	free(tmp);
	return err;
}

static void on_fatal_signal(int sig)
{
	int i, saved = errno;

	/* First the programs running (a compiler writing into a directory below). */
	kd_child_kill_all();
	for (i = 0; i < MAX_TMPFILES; i++)
		if (registry[i])
			unlink(registry[i]);
	for (i = 0; i < MAX_TMPDIRS; i++)
		if (dir_registry[i])
			kd_remove_tree(dir_registry[i]);
	errno = saved;
	signal(sig, SIG_DFL);
	raise(sig);
}

void kd_tmpfile_install_signal_cleanup(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal_signal;
	sigemptyset(&sa.sa_mask);
	/* One cleanup at a time: a second signal waits for the first's. */
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGHUP);
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
