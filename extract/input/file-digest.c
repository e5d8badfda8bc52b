// SPDX-License-Identifier: GPL-2.0-only
/*
 * Content digests remembered by identity (file-digest.h). A memo,
 * CACHE/file-HASH.ref with HASH the 64-bit hash of the identity, holds
 * three lines: the path the file was read under (for `cache list`), the
 * identity in full, the digest. Only the full identity is trusted: two
 * identities sharing a hash, or a memo edited by hand, are a miss.
 */
#include "extract/input/file-digest.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "extract/input/kernel-input.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/path.h"
#include "lib/tmpfile.h"

#define READ_CHUNK (1u << 20)

/* The identity of @st as the memo records it. */
static int identity_text(struct kd_buf *b, const struct stat *st)
{
	return kd_buf_addf(b, "%ju %ju %jd %jd.%09ld %jd.%09ld", (uintmax_t)st->st_dev,
			   (uintmax_t)st->st_ino, (intmax_t)st->st_size, (intmax_t)st->st_mtim.tv_sec,
			   st->st_mtim.tv_nsec, (intmax_t)st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
}

static bool same_identity(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

static bool is_hex_digest(const char *s, size_t len)
{
	size_t i;

	if (len != KD_DIGEST_HEX_LEN)
		return false;
	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/*
 * Split the memo @text into its three lines, each NUL-terminated in
 * place; false unless it is exactly three non-empty lines and a digest.
 */
static bool parse_memo(char *text, size_t len, char *line[3])
{
	char *p = text, *nl;
	int i;

	for (i = 0; i < 3; i++) {
		nl = memchr(p, '\n', len - (size_t)(p - text));
		if (!nl || nl == p)
			return false;
		*nl = '\0';
		line[i] = p;
		p = nl + 1;
	}
	return p == text + len && is_hex_digest(line[2], strlen(line[2]));
}

/* The memo's path for the identity @st into @ref. */
static int memo_path(struct kd_buf *ref, const char *cache_dir, const struct stat *st)
{
	return kd_buf_addf(ref, "%s/file-%016" PRIx64 ".ref", cache_dir,
			   kernel_input__file_identity(st));
}

/* The digest the memo @ref records for the identity @id, into @hex; false: none. */
static bool memo_lookup(const char *ref, const char *id, char hex[KD_DIGEST_HEX_LEN + 1])
{
	struct kd_buf text = KD_BUF_INIT;
	char *line[3];
	bool hit = !kd_buf_read_regular(&text, ref, KFILE_DIGEST_REF_MAX) && text.len &&
		   parse_memo(text.s, text.len, line) && !strcmp(line[1], id);

	if (hit) {
		memcpy(hex, line[2], KD_DIGEST_HEX_LEN + 1);
		/* Last used, for `cache prune --older-than` (best effort). */
		(void)utimensat(AT_FDCWD, ref, NULL, 0);
	}
	kd_buf_release(&text);
	return hit;
}

/* Read the open file @fd (of @path) through SHA-256; *@after: its stat once read. */
static int digest_fd(int fd, const char *path, struct stat *after, char hex[KD_DIGEST_HEX_LEN + 1])
{
	static char chunk[READ_CHUNK];	/* one reader at a time: the diff's parent process */
	struct kd_digest *d;
	ssize_t n;
	int err = kd_digest__new(&d);

	if (err) {
		kd_err("out of memory");
		return err;
	}
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			kd_err("%s: %s", path, strerror(errno));
			break;
		}
		kd_digest__update(d, chunk, (size_t)n);
	}
	if (!err && fstat(fd, after) < 0) {
		err = -errno;
		kd_err("%s: %s", path, strerror(errno));
	}
	if (!err && kd_digest__final(d, NULL, hex)) {
		err = -EIO;
		kd_err("%s: SHA-256 failed", path);
	}
	kd_digest__free(d);
	return err;
}

int kfile_digest__get(const char *cache_dir, const char *path, char hex[KD_DIGEST_HEX_LEN + 1])
{
	struct kd_buf ref = KD_BUF_INIT, id = KD_BUF_INIT, text = KD_BUF_INIT;
	struct stat st, after;
	char *abs;
	int fd = kd_open_regular(path, 0, &st), err;

	if (fd < 0) {
		kd_err("%s: %s", path, kd_strerror(fd));
		return fd;
	}
	err = identity_text(&id, &st);
	if (!err && cache_dir)
		err = memo_path(&ref, cache_dir, &st);
	if (err) {
		kd_err("out of memory");
		goto out;
	}
	if (cache_dir && memo_lookup(ref.s, id.s, hex))
		goto out;
	err = digest_fd(fd, path, &after, hex);
	/* Written while read: the digest is of no one identity, so it is not remembered. */
	if (err || !cache_dir || !same_identity(&st, &after))
		goto out;
	/* The absolute path, for `cache list` to tell whether the memo can serve again. */
	abs = realpath(path, NULL);
	if (abs && !strchr(abs, '\n') && !kd_buf_addf(&text, "%s\n%s\n%s\n", abs, id.s, hex))
		(void)kd_write_file_atomic(ref.s, text.s, text.len, KD_WRITE_CACHE);
	free(abs);
out:
	close(fd);
	kd_buf_release(&ref);
	kd_buf_release(&id);
	kd_buf_release(&text);
	return err;
}

int kfile_digest__describe(const char *ref_path, char **file, bool *live)
{
	struct kd_buf text = KD_BUF_INIT, id = KD_BUF_INIT;
	char *line[3];
	struct stat st;
	int err = 0;

	*file = NULL;
	*live = false;
	if (!kd_buf_read_regular(&text, ref_path, KFILE_DIGEST_REF_MAX) && text.len &&
	    parse_memo(text.s, text.len, line)) {
		*file = kd_strdup(line[0]);
		if (!*file)
			err = -ENOMEM;
		else if (!stat(line[0], &st))
			err = identity_text(&id, &st);
		*live = !err && id.len && !strcmp(id.s, line[1]);
	}
	kd_buf_release(&text);
	kd_buf_release(&id);
	return err;
}
