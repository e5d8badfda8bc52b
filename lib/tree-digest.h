/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The digest of what a reader can reach by name under a set of
 * directories: the key both caches (the UAPI compile cache, the
 * extraction cache of header trees) trust a tree by. It covers every
 * entry, dot-files included, with its kind (file, directory, dangling
 * link, FIFO or device, unreadable), and each regular file's size and
 * SHA-256 -- contents, not modification times, so a copied or
 * re-extracted tree hits and a same-size edit misses. Directories reached
 * through symbolic links are walked too, each once (by device and inode):
 * a second name for one, a link back up (a loop) included, is recorded as
 * "the same as" the name it was walked under. Names are taken in
 * alphasort() order, so the digest does not depend on the directory's
 * order on disk.
 */
#ifndef KD_TREE_DIGEST_H
#define KD_TREE_DIGEST_H

#include <stdbool.h>
#include <stdint.h>

struct kd_digest;

/* Beyond these a tree is not digested (the caller does without a cache). */
struct kd_tree_bounds {
	long max_files;			/* regular files */
	uint64_t max_bytes;		/* their sizes summed */
	int max_depth;			/* directories below a top one */
};

/*
 * Feed @d the records of the @nr_dirs directories @dirs, in that order (a
 * NULL or missing one is recorded as missing). *too_big when a bound of
 * @bounds was hit: what @d was fed is then partial and must not key
 * anything. Returns 0, or -ENOMEM.
 */
int kd_tree__digest(struct kd_digest *d, const char *const *dirs, int nr_dirs,
		    const struct kd_tree_bounds *bounds, bool *too_big);

#endif
