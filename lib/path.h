/* SPDX-License-Identifier: GPL-2.0-only */
/* File-system path helpers shared by the readers of directory inputs. */
#ifndef KD_PATH_H
#define KD_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct stat;

/* "@a/@b" in a new string (caller frees), or NULL on ENOMEM. */
char *kd_path_join(const char *a, const char *b);
/* Does @path name a directory / a regular file (symbolic links followed)? */
bool kd_is_dir(const char *path);
bool kd_is_file(const char *path);
/* Does @dir/@sub exist as a directory? */
bool kd_has_dir(const char *dir, const char *sub);
/*
 * @path as a progress line names it: relative to @base when inside it
 * ("usr/lib/debug/boot/vmlinux-6.1.0-47-amd64" of the package's area),
 * else its last component ("12f1e1ca...-um-07d3.kabi" of the cache): the
 * ~250-character paths made every line of a run unreadable (issue 29).
 * Points into @path; @base may be NULL.
 */
const char *kd_path_short(const char *path, const char *base);

/* An input at most this long is named as given (tests/t0750 pins it). */
#define KD_INPUT_SHORT_MAX 40

/*
 * @arg, an input as given (a path, or packages "a.deb,b.deb"), as a
 * progress line names it: itself when at most KD_INPUT_SHORT_MAX
 * characters, else the last component of each comma-separated part
 * ("linux-image-6.12.107-amd64-dbg_6.12.107-1_amd64.deb,..."): in CI an
 * input is often a ~250-character path, which made every line of a run
 * unreadable (issue 29). A new string (caller frees), NULL on ENOMEM.
 */
char *kd_input_short(const char *arg);

/*
 * @path opened for reading (O_CLOEXEC, and @flags: O_NOFOLLOW), never
 * blocking: a FIFO is not waited on. The descriptor, its stat in *@st;
 * -KD_ENOTREG (closed) unless a regular file; -errno. Nothing is reported.
 */
int kd_open_regular(const char *path, int flags, struct stat *st);
/*
 * @path mapped read-only and private: *@data (NULL for an empty file) and
 * its *@size; undo with kd_unmap_file(). 0, -KD_ENOTREG when it is no
 * regular file (never opened blocking), or -errno. Nothing is reported.
 */
int kd_map_file(const char *path, const unsigned char **data, size_t *size);
void kd_unmap_file(const unsigned char *data, size_t size);
/*
 * Read the first @len bytes of @path into @buf (its magic number): the
 * count read, fewer at a short file, or a negative errno. Only a regular
 * file is read: it is opened without blocking and anything else (a FIFO,
 * a device, a directory) is -KD_ENOTREG, its bytes left unread. Nothing
 * is reported.
 */
ssize_t kd_read_head(const char *path, void *buf, size_t len);

#endif
