/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Temporary output files that must not survive a failure. Writers create
 * their output under a temporary name next to the destination (so the final
 * rename is atomic), register it here, and unregister it after the rename.
 * Temporary directories (a package's unpacked members) are registered the
 * same way. kd_tmpfile_install_signal_cleanup() makes SIGINT/SIGTERM/SIGHUP
 * remove every registered file and directory before the process dies.
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
 * Register @dir (the caller keeps it alive until kd_tmpdir_forget()) to be
 * removed with everything below it if a fatal signal arrives. At most 8
 * at once: -EMFILE beyond.
 */
int kd_tmpdir_register(const char *dir);
void kd_tmpdir_forget(const char *dir);
/*
 * Remove @dir and everything below it at any depth, links not followed;
 * async-signal-safe (no allocation, no recursion), so the signal handler
 * uses it too. Best effort: returns 0 or the first negative errno met.
 */
int kd_remove_tree(const char *dir);

#endif
