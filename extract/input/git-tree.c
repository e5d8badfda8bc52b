// SPDX-License-Identifier: GPL-2.0-only
/*
 * git_tree__export(): `git -C REPO archive --format=tar REV -- include/uapi
 * arch/ARCH/include/uapi` read as a stream with libarchive, its headers
 * written below a fresh directory. git reads the object store only: the
 * work tree, the index and HEAD are never touched, so a dirty checkout or
 * one on another branch gives the same answer. Each file keeps the commit
 * time git gives it, so a revision exported twice has the same cache
 * fingerprint (kernel-input.c).
 */
#include "extract/input/git-tree.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "extract/input/package.h"
#include "lib/arch.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/tmpfile.h"

/*
 * What a header tree needs of a source tree (kernel-input.c's third
 * layout): include/uapi/ and @arch_dir/ ("arch/x86/include/uapi").
 */
static bool wanted(const char *name, const char *arch_dir)
{
	size_t n = strlen(name), a = strlen(arch_dir);

	if (n < 3 || !kpkg__uapi_file(name))
		return false;
	return !strncmp(name, "include/uapi/", 13) || (!strncmp(name, arch_dir, a) && name[a] == '/');
}

static int write_entry(struct archive *a, struct archive_entry *e, const char *dir,
		       const char *name)
{
	struct kd_buf path = KD_BUF_INIT;
	int fd = -1, err = kpkg__make_parents(dir, name);

	if (!err)
		err = kd_buf_addf(&path, "%s/%s", dir, name);
	if (err)
		goto out;
	fd = open(path.s, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	if (archive_read_data_into_fd(a, fd) != ARCHIVE_OK) {
		kd_err("git archive: %s: %s", name, archive_error_string(a));
		err = -KD_EFORMAT;
		goto out;
	}
	{
		time_t t = archive_entry_mtime(e);
		struct timespec ts[2] = { { .tv_sec = t }, { .tv_sec = t } };

		futimens(fd, ts);
	}
out:
	if (fd >= 0 && close(fd) < 0 && !err)
		err = -errno;
	if (err && err != -KD_EFORMAT)
		kd_err("%s: cannot write: %s", path.len ? path.s : dir, kd_strerror(err));
	kd_buf_release(&path);
	return err;
}

/* Every wanted member of the tar stream on @fd, written below @dir; *@n counts them. */
static int read_tar(int fd, const char *dir, const char *rev, const char *arch_dir, long *n)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	int r, err = 0;

	if (!a)
		return -ENOMEM;
	archive_read_support_format_tar(a);
	if (archive_read_open_fd(a, fd, 64 * 1024) != ARCHIVE_OK) {
		/* No tar at all: git failed before writing (its status says), or wrote nothing. */
		archive_read_free(a);
		return -ENODATA;
	}
	while (!err && (r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);

		if (archive_entry_filetype(e) != AE_IFREG || !name || !wanted(name, arch_dir))
			continue;
		if (!kpkg__safe_relative(name)) {
			kd_err("git archive %s: member '%s' leaves the tree", rev, name);
			err = -KD_EFORMAT;
			break;
		}
		err = write_entry(a, e, dir, name);
		++*n;
	}
	/* An empty stream (git failed before writing) is git's error, told by its status. */
	if (!err && r != ARCHIVE_EOF && *n) {
		kd_err("git archive %s: %s", rev, archive_error_string(a));
		err = -KD_EFORMAT;
	}
	archive_read_free(a);
	return err;
}

/* Run git archive for @rev with its output on a pipe; read and write it; wait. */
static int export(const char *repo, const char *rev, const char *arch_dir, const char *dir)
{
	char *argv[] = { "git", "-C", (char *)repo, "archive", "--format=tar", (char *)rev, "--",
			 "include/uapi", (char *)arch_dir, NULL };
	int pipefd[2], status, err;
	long n = 0;
	pid_t pid;

	if (rev[0] == '-') {
		kd_err("%s: not a revision (starts with '-')", rev);
		return -KD_EUSAGE;
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		err = -errno;
		kd_err("cannot create a pipe: %s", strerror(errno));
		return err;
	}
	pid = fork();
	if (pid == 0) {
		if (dup2(pipefd[1], 1) < 0)
			_exit(127);
		execvp("git", argv);
		_exit(127);
	}
	close(pipefd[1]);
	if (pid < 0) {
		err = -errno;
		close(pipefd[0]);
		kd_err("cannot start git: %s", strerror(-err));
		return err;
	}
	err = read_tar(pipefd[0], dir, rev, arch_dir, &n);
	close(pipefd[0]);	/* git, if still writing, gets SIGPIPE */
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = -1;
			break;
		}
	}
	if (err && err != -ENODATA)
		return err;
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			kd_err("%s: cannot run git (is it installed?)", repo);
		else
			kd_err("%s: git archive %s failed (git's message above): no such revision,"
			       " or no include/uapi and %s in it", repo, rev, arch_dir);
		return -EIO;
	}
	if (err) {
		kd_err("%s: git archive %s wrote no tar stream", repo, rev);
		return -KD_EFORMAT;
	}
	if (!n) {
		kd_err("%s: revision %s has no header under include/uapi or %s", repo, rev,
		       arch_dir);
		return -ENOENT;
	}
	return 0;
}

int git_tree__export(const char *repo, const char *rev, const struct kd_arch *arch,
		     const char *parent, char **dir)
{
	struct kd_buf b = KD_BUF_INIT, arch_dir = KD_BUF_INIT;
	int err;

	*dir = NULL;
	if (!arch)
		arch = kd_arch__by_name("x86_64");
	err = kd_buf_addf(&arch_dir, "arch/%s/include/uapi", arch->uapi_dir);
	if (!err)
		err = kd_buf_addf(&b, "%s/.kabi-git-XXXXXX", parent);
	if (err) {
		kd_buf_release(&arch_dir);
		kd_buf_release(&b);
		return err;
	}
	if (!mkdtemp(b.s)) {
		err = -errno;
		kd_err("%s: cannot create a directory for revision %s: %s", parent, rev,
		       strerror(errno));
		kd_buf_release(&b);
		kd_buf_release(&arch_dir);
		return err;
	}
	err = export(repo, rev, arch_dir.s, b.s);
	kd_buf_release(&arch_dir);
	if (err) {
		kd_remove_tree(b.s);
		kd_buf_release(&b);
		return err;
	}
	*dir = kd_buf_detach(&b);
	return *dir ? 0 : -ENOMEM;
}
