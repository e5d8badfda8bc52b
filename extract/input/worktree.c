// SPDX-License-Identifier: GPL-2.0-only
/*
 * git_tree__export_worktree(): the UAPI headers of a git work tree, what
 * `--git` without revisions compares with HEAD (check-uapi.sh's habit:
 * the uncommitted change against the last commit). The files a revision
 * gives (git-tree.c: include/uapi/ and arch/ARCH/include/uapi/, the names
 * kpkg__uapi_file() admits) are copied from the work tree as they are on
 * disk, committed or not. No git runs, so nothing the repository
 * configures does (a clean filter would run to hash a modified file).
 * Only regular files and directories are followed: a symbolic link, which
 * may lead anywhere on the machine, is skipped; depth, sizes and counts
 * are held to the unpack limits as a package's members are.
 */
#include "extract/input/git-tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "extract/input/package.h"
#include "extract/input/unpack-limits.h"
#include "lib/arch.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/path.h"
#include "lib/tmpfile.h"

struct tree_copy {
	const char *repo, *dir;
	const char *label;		/* "REPO (work tree)", for messages */
	struct unpack_budget budget;
	size_t copied;
};

static ssize_t read_fd(void *ctx, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(*(int *)ctx, buf, len);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

/* The regular file @rel of the work tree, below the export directory. */
static int copy_file(struct tree_copy *t, const char *rel)
{
	struct kd_buf src = KD_BUF_INIT, dst = KD_BUF_INIT;
	struct stat st;
	int in = -1, out = -1, err;

	err = kd_buf_addf(&src, "%s/%s", t->repo, rel);
	if (!err)
		err = kd_buf_addf(&dst, "%s/%s", t->dir, rel);
	if (!err) {
		in = kd_open_regular(src.s, O_NOFOLLOW, &st);
		err = in < 0 ? in : 0;
	}
	if (err == -KD_ENOTREG || err == -ELOOP) {
		err = 0;	/* changed into something else while read: as if absent */
		goto out;
	}
	if (!err)
		err = unpack__admit(&t->budget, t->label, rel, UNPACK_HEADER, (int64_t)st.st_size, t->dir);
	if (!err)
		err = kpkg__make_parents(t->dir, rel);
	if (!err) {
		out = open(dst.s, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		err = out < 0 ? -errno : 0;
	}
	if (!err)
		err = unpack__copy(&t->budget, t->label, rel, UNPACK_HEADER, (int64_t)st.st_size,
				   read_fd, &in, out);
	if (out >= 0 && close(out) < 0 && !err)
		err = -errno;
	if (!err)
		t->copied++;
	else if (err != -KD_EFORMAT && err != -KD_ELIMIT && err != -ENOSPC)
		kd_err("%s: cannot copy into %s: %s", src.s, t->dir, kd_strerror(err));
out:
	if (in >= 0)
		close(in);
	kd_buf_release(&src);
	kd_buf_release(&dst);
	return err;
}

/* Every wanted file below the work tree's directory @rel. */
static int copy_dir(struct tree_copy *t, const char *rel)
{
	struct kd_buf path = KD_BUF_INIT, sub = KD_BUF_INIT;
	struct dirent *de;
	DIR *d;
	int fd, err;

	err = unpack__check_depth(t->label, rel, rel);
	if (!err)
		err = kd_buf_addf(&path, "%s/%s", t->repo, rel);
	if (err)
		goto out;
	fd = open(path.s, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		/* An architecture without UAPI headers, or no such tree: nothing to copy. */
		err = errno == ENOENT || errno == ENOTDIR || errno == ELOOP ? 0 : -errno;
		if (err)
			kd_err("%s: %s", path.s, kd_strerror(err));
		goto out;
	}
	d = fdopendir(fd);
	if (!d) {
		err = -errno;
		close(fd);
		kd_err("%s: %s", path.s, kd_strerror(err));
		goto out;
	}
	while (!err && (errno = 0, de = readdir(d))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		kd_buf_reset(&sub);
		err = kd_buf_addf(&sub, "%s/%s", rel, de->d_name);
		if (err)
			break;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;	/* gone since readdir */
		if (S_ISDIR(st.st_mode))
			err = copy_dir(t, sub.s);
		else if (S_ISREG(st.st_mode) && kpkg__uapi_file(sub.s))
			err = copy_file(t, sub.s);
	}
	if (!err && errno)
		err = -errno;
	closedir(d);
out:
	kd_buf_release(&path);
	kd_buf_release(&sub);
	return err;
}

int git_tree__export_worktree(const char *repo, const struct kd_arch *arch, const char *parent,
			      char **dir)
{
	struct kd_buf label = KD_BUF_INIT, arch_dir = KD_BUF_INIT;
	struct tree_copy t = { .repo = repo };
	int err;

	*dir = NULL;
	if (!arch)
		arch = kd_arch__by_name("x86_64");
	err = kd_buf_addf(&label, "%s (work tree)", repo);
	if (!err)
		err = kd_buf_addf(&arch_dir, "arch/%s/include/uapi", arch->uapi_dir);
	if (err)
		goto out;
	err = kd_tmpdir_create(parent, ".kabi-git-", dir);
	if (err) {
		kd_err("%s: cannot create a directory for the work tree of %s: %s", parent, repo,
		       kd_strerror(err));
		goto out;
	}
	t.dir = *dir;
	t.label = label.s;
	err = copy_dir(&t, "include/uapi");
	if (!err)
		err = copy_dir(&t, arch_dir.s);
	if (!err && !t.copied) {
		kd_err("%s: no UAPI header in the work tree (include/uapi/, %s/)", repo, arch_dir.s);
		err = -ENOENT;
	}
	if (err) {
		kd_tmpdir_remove(*dir);
		*dir = NULL;
	}
out:
	kd_buf_release(&label);
	kd_buf_release(&arch_dir);
	return err;
}
