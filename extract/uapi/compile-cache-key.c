// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a compile cache entry (compile-cache.c) is keyed and verified by:
 * files' content hashes, and the key of a tree: a SHA-256 of the compiler,
 * its flags and of everything the compiler can reach by name under the
 * tree's directories (lib/tree-digest.h says what that covers). The key is
 * trusted without comparing the trees, so it must not be collidable on
 * purpose: a 64-bit hash was (issue 25).
 */
#include "extract/uapi/compile_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "extract/uapi/uapi_internal.h"
#include "lib/digest.h"
#include "lib/err.h"
#include "lib/hash.h"
#include "lib/path.h"
#include "lib/tmpfile.h"
#include "lib/tree-digest.h"

/* 3: SHA-256 over lib/tree-digest.c's records (2 was a pair of 64-bit hashes). */
#define KEY_FORMAT "kabi-diff uapi-cc key 3"
/* A tree beyond these is compiled but not cached (hashing it would cost more than it saves). */
#define TREE_MAX_FILES 50000
#define TREE_MAX_BYTES (512ull << 20)
#define TREE_MAX_DEPTH 16
/* Files are hashed in blocks of this size, whatever read() returns at a time. */
#define HASH_BLOCK 65536

/* --- file contents ---------------------------------------------------------- */

/*
 * The content hash and size of what @fd holds, read to its end but no
 * further than @max + 1 bytes (-KD_ELIMIT past @max); each block also
 * written to @copy_fd unless that is -1.
 */
int uapi_cc_hash_fd(int fd, uint64_t max, int copy_fd, uint64_t *hash, uint64_t *size)
{
	unsigned char block[HASH_BLOCK];
	uint64_t h = KD_HASH_SEED, n = 0;
	bool eof = false;
	int err = 0;

	while (!eof && !err) {
		size_t fill = 0;

		/* Whole blocks: the same hash however the reads were split. */
		while (fill < sizeof(block) && n + fill <= max) {
			size_t want = sizeof(block) - fill;
			ssize_t r;

			if (want > max + 1 - n - fill)
				want = (size_t)(max + 1 - n - fill);
			r = read(fd, block + fill, want);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				eof = r == 0;
				err = r < 0 ? -EIO : 0;
				break;
			}
			fill += (size_t)r;
		}
		n += fill;
		if (!err && n > max)
			err = -KD_ELIMIT;
		if (!err && fill) {
			h = kd_hash_bytes(h, block, fill);
			if (copy_fd >= 0)
				err = kd_write_all(copy_fd, block, fill);
		}
	}
	*hash = h;
	*size = n;
	return err;
}

/* Content hash and size of the regular file @path, if at most @max bytes (else -KD_ELIMIT). */
int uapi_cc_file_hash(const char *path, uint64_t max, uint64_t *hash, uint64_t *size)
{
	struct stat st;
	int fd = kd_open_regular(path, 0, &st), err;

	if (fd < 0)
		return fd;
	err = (uint64_t)st.st_size > max ? -KD_ELIMIT : uapi_cc_hash_fd(fd, max, -1, hash, size);
	close(fd);
	return err;
}

/* --- the key of a tree ----------------------------------------------------------- */

int uapi_cc_tree_key(const struct utree *tree, const struct uapi_cc_conf *conf, const char *cc_path,
		     const char *version, char key[UAPI_CC_KEY_SIZE])
{
	static const struct kd_tree_bounds bounds = {
		.max_files = TREE_MAX_FILES, .max_bytes = TREE_MAX_BYTES, .max_depth = TREE_MAX_DEPTH,
	};
	const char *dirs[sizeof(tree->dirs) / sizeof(tree->dirs[0])];
	struct kd_digest *d;
	const char *const *f;
	bool too_big = false;
	int i, err;

	key[0] = '\0';
	err = kd_digest__new(&d);
	if (err)
		return err;
	kd_digest__str(d, KEY_FORMAT);
	kd_digest__str(d, cc_path);
	kd_digest__str(d, version);
	kd_digest__str(d, conf->arch->name);
	for (f = conf->arch->flags; f && *f; f++)
		kd_digest__str(d, *f);
	kd_digest__str(d, "not_roots");
	for (f = conf->arch->not_roots; f && *f; f++)
		kd_digest__str(d, *f);
	kd_digest__u64(d, (uint64_t)tree->source_layout);
	for (i = 0; i < tree->nr_dirs; i++)
		dirs[i] = tree->dirs[i];
	err = kd_tree__digest(d, dirs, tree->nr_dirs, &bounds, &too_big);
	if (!err && kd_digest__final(d, NULL, key))
		err = -EIO;
	if (err || too_big)
		key[0] = '\0';
	kd_digest__free(d);
	return err;
}
