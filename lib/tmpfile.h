/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Temporary output files that must not survive a failure. Writers create
 * their output under a temporary name next to the destination (so the final
 * rename is atomic), register it here, and unregister it after the rename.
 * kd_tmpfile_install_signal_cleanup() makes SIGINT/SIGTERM/SIGHUP remove
 * every registered file before the process dies.
 */
#ifndef KD_TMPFILE_H
#define KD_TMPFILE_H

/*
 * Create an empty file "DEST.tmp.XXXXXX" beside @dest and register it.
 * *tmp_path: malloc'ed, caller frees (after kd_tmpfile_forget()).
 * Returns an open fd or a negative errno.
 */
int kd_tmpfile_create(const char *dest, char **tmp_path);
/* Stop tracking @tmp_path (after a rename or an unlink). */
void kd_tmpfile_forget(const char *tmp_path);
/* Unlink and forget. */
void kd_tmpfile_discard(const char *tmp_path);
/* fsync @tmp_path's data, rename onto @dest, forget it. Negative errno on failure. */
int kd_tmpfile_commit(const char *tmp_path, const char *dest);
void kd_tmpfile_install_signal_cleanup(void);

#endif
