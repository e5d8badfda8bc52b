/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A file's content digest for the extraction cache's key, remembered by
 * the file's identity. The key covers a vmlinux by what it holds, not by
 * where it lies: the same image unpacked from a .deb and sitting in a
 * kernel directory is one cache entry. Reading a 1 GB image for every
 * cached diff would cost more than the diff, so CACHE/file-ID.ref records
 * the digest with the identity it was read under (device, inode, size,
 * modification and change times: any write changes the ctime, which no
 * tool sets back); a file of that exact identity is not read again.
 */
#ifndef KD_FILE_DIGEST_H
#define KD_FILE_DIGEST_H

#include <stdbool.h>

#include "lib/digest.h"

/* A memo is a path, an identity and a digest: far below this. */
#define KFILE_DIGEST_REF_MAX (16u << 10)

/*
 * The SHA-256 of @path's content into @hex, through the memo of the cache
 * directory @cache_dir (NULL: no memo). Only a regular file is read.
 * A memo that cannot be read or written is no error: the file is read.
 * Returns 0 or a negative code (reported).
 */
int kfile_digest__get(const char *cache_dir, const char *path, char hex[KD_DIGEST_HEX_LEN + 1]);

/*
 * What the memo at @ref_path says: the file it was read from (*@file,
 * malloc'ed; NULL when the memo cannot be parsed) and whether it can
 * still serve (*@live: that file has the identity it records). 0 or
 * -ENOMEM (not reported).
 */
int kfile_digest__describe(const char *ref_path, char **file, bool *live);

#endif
