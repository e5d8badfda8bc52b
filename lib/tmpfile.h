/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Temporary output files that must not survive a failure. Writers create
 * their output under a temporary name next to the destination (so the final
 * rename is atomic), register it here, and unregister it after the rename.
 * Temporary directories (a package's unpacked members) are registered the
 * same way. kd_tmpfile_install_signal_cleanup() makes SIGINT/SIGTERM/SIGHUP
 * kill every child process group lib/child.c runs, then remove every
 * registered file and directory, before the process dies. The helpers at
 * the end are the one way to make such a directory, remove a tree and
 * write a small file atomically.
 */
#ifndef KD_TMPFILE_H
#define KD_TMPFILE_H

#include <stddef.h>

/*
 * Create an empty file "DEST.tmp.XXXXXX" beside @dest and register it.
 * Its mode is @dest's when @dest exists (owner and group too, where
 * allowed), else 0666 less the umask. A @dest that exists and is not a
 * regular file (a device, a FIFO, a directory) is refused: -KD_ENOTREG.
 * *tmp_path: malloc'ed, caller frees (after kd_tmpfile_forget()).
 * Returns an open fd or a negative errno.
 */
int kd_tmpfile_create(const char *dest, char **tmp_path);
/*
 * May @dest be written as the output of a command reading the @n files
 * @inputs? Not when it exists and is not a regular file (-KD_ENOTREG), nor
 * when it is one of the inputs, under any name (-KD_ESAMEFILE). Reports
 * the cause naming @dest. "-" (standard output) is always fine.
 */
int kd_output_check(const char *dest, const char *const *inputs, size_t n);
/* Stop tracking @tmp_path (after a rename or an unlink). */
void kd_tmpfile_forget(const char *tmp_path);
/* Unlink and forget. */
void kd_tmpfile_discard(const char *tmp_path);
/*
 * fsync @tmp_path's data, rename onto @dest, forget it. Negative errno on
 * failure; -KD_ENOTREG when @dest became a non-regular file meanwhile.
 */
int kd_tmpfile_commit(const char *tmp_path, const char *dest);
/*
 * kd_tmpfile_create() for a file of a cache: whatever stands at @dest and
 * is not a regular file (a FIFO, a device, a symbolic link: planted in a
 * shared cache) is removed first instead of refused.
 */
int kd_tmpfile_create_cache(const char *dest, char **tmp_path);
void kd_tmpfile_install_signal_cleanup(void);

/*
 * Stop removing @dir (made by kd_tmpdir_create()) on a fatal signal: a
 * directory kept on purpose, its name then freed by the caller.
 */
void kd_tmpdir_forget(const char *dir);
/*
 * Remove @dir and everything below it at any depth, links not followed;
 * async-signal-safe (no allocation, no recursion), so the signal handler
 * uses it too. Best effort: returns 0 or the first negative errno met.
 */
int kd_remove_tree(const char *dir);

/* Where temporary directories go: $TMPDIR when set and not empty, else /tmp. */
const char *kd_tmpdir_parent(void);
/*
 * Create a new private (0700) directory "@parent/@prefix" followed by six
 * random characters (@parent NULL: kd_tmpdir_parent()), and register it
 * (best effort: a ninth is not) to be removed on a fatal signal. *dir:
 * malloc'ed, given back to kd_tmpdir_remove(). Returns 0 or a negative
 * errno (*dir NULL); nothing is reported.
 */
int kd_tmpdir_create(const char *parent, const char *prefix, char **dir);
/* Remove @dir with everything below it, forget it and free it; NULL is fine. */
void kd_tmpdir_remove(char *dir);

/* write() until @len bytes are out: 0, -errno, or -EIO when the file takes no more. */
int kd_write_all(int fd, const void *data, size_t len);

/* kd_write_file_atomic()'s @flags. */
#define KD_WRITE_CACHE 1	/* a cache's file: as kd_tmpfile_create_cache() */

/*
 * Write the @len bytes at @data to @dest atomically: into a temporary file
 * beside it (kd_tmpfile_create(), or kd_tmpfile_create_cache() with
 * KD_WRITE_CACHE), fsync'ed and renamed onto it. On failure @dest is as it
 * was and the temporary file gone. Returns 0 or a negative errno (-EIO
 * for a short write); nothing is reported.
 */
int kd_write_file_atomic(const char *dest, const void *data, size_t len, unsigned flags);

#endif
