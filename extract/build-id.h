/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one cheap question about a kernel image that the diff command asks
 * before deciding whether to extract it: its GNU build-id, which keys the
 * cache of extracted .kabi files. Reads the ELF note only, no DWARF.
 */
#ifndef KD_EXTRACT_BUILD_ID_H
#define KD_EXTRACT_BUILD_ID_H

/*
 * *hex: the build-id of the ELF file @path as lowercase hex (malloc'ed,
 * caller frees), or NULL when it has none. Returns 0 or a negative code
 * (the cause reported with kd_err(): not ELF, compressed kernel, ...).
 */
int extract__build_id(const char *path, char **hex);

#endif
