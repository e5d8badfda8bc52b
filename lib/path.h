/* SPDX-License-Identifier: GPL-2.0-only */
/* File-system path helpers shared by the readers of directory inputs. */
#ifndef KD_PATH_H
#define KD_PATH_H

#include <stdbool.h>

/* "@a/@b" in a new string (caller frees), or NULL on ENOMEM. */
char *kd_path_join(const char *a, const char *b);
/* Does @path name a directory / a regular file (symbolic links followed)? */
bool kd_is_dir(const char *path);
bool kd_is_file(const char *path);
/* Does @dir/@sub exist as a directory? */
bool kd_has_dir(const char *dir, const char *sub);

#endif
