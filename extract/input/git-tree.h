/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A revision of a kernel git tree as a diff input: its UAPI headers
 * (include/uapi/, arch/ARCH/include/uapi/) read from the object store as
 * the blobs that were committed (no filter the repository configures
 * runs), never from or into the work tree, and written below a new
 * directory that kernel_input__probe() reads as a header tree.
 */
#ifndef KD_GIT_TREE_H
#define KD_GIT_TREE_H

struct kd_arch;

/*
 * Export the UAPI headers of revision @rev of the git repository @repo
 * and of architecture @arch (lib/arch.h: arch/x86 for x86_64, arch/arm64;
 * NULL: x86_64) into a new directory below @parent (.kabi-git-XXXXXX),
 * which then holds that one architecture's headers; *dir names it (made
 * and registered by kd_tmpdir_create(): the caller gives it back to
 * kd_tmpdir_remove()). Only
 * regular files under the two UAPI directories are written, with checked
 * paths, within the unpack limits (unpack-limits.h). Returns 0 or a
 * negative code (reported: git's own message is on stderr, the revision
 * named); on failure nothing is left.
 */
int git_tree__export(const char *repo, const char *rev, const struct kd_arch *arch,
		     const char *parent, char **dir);

/*
 * The same for the work tree of @repo (a directory): its UAPI headers as
 * they are on disk, committed or not, copied without running git
 * (worktree.c). Symbolic links are not followed. Returns 0 or a negative
 * code (reported; -ENOENT when the work tree has no UAPI header); on
 * failure nothing is left.
 */
int git_tree__export_worktree(const char *repo, const struct kd_arch *arch, const char *parent,
			      char **dir);

#endif
