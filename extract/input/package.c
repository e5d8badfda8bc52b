// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel packages read as streams (libarchive): a .deb is an ar archive
 * whose data.tar.{xz,zst,gz} is opened as a nested archive over the outer
 * one's data; an RPM is a cpio payload libarchive reads directly (its rpm
 * filter); a plain tarball of a kernel directory works too. Each member's
 * path is mapped to where a kernel directory keeps it, or skipped:
 *
 *   usr/lib/debug/boot/vmlinux-REL             -> vmlinux   (Debian -dbg)
 *   usr/lib/debug/lib/modules/REL/vmlinux      -> vmlinux   (kernel-debuginfo)
 *   usr/lib/debug/lib/modules/REL/X.ko[.debug] -> modules/X.ko
 *   usr/src/linux-headers-*-common/include/uapi/..., .../arch/A/include/uapi/...
 *                                              -> include/uapi/..., include/arch/A/include/uapi/...
 *   usr/include/...  (kernel-headers)          -> usr/include/...
 *
 * Modules only matter for the ioctl argument types the UAPI headers name,
 * so they are written only when the input has headers: packages whose name
 * says "headers" are read first, and without headers the modules of a
 * debug package (most of its 5 GB) never reach the disk.
 */
#include "extract/input/package.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"

#define READ_BLOCK (256u << 10)

bool kpkg__is_package(const char *path)
{
	static const unsigned char rpm_lead[4] = { 0xed, 0xab, 0xee, 0xdb };
	unsigned char head[24];
	struct stat st;
	ssize_t n;
	int fd;

	/* Never open a FIFO or a device to look at it: that may block. */
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n >= 4 && !memcmp(head, rpm_lead, 4))
		return true;
	return n >= 24 && !memcmp(head, "!<arch>\ndebian-binary", 21);
}

bool kpkg__is_package_list(const char *arg)
{
	char *copy = kd_strdup(arg), *save = NULL, *p;
	bool all = copy && *copy;

	for (p = copy ? strtok_r(copy, ",", &save) : NULL; all && p; p = strtok_r(NULL, ",", &save))
		all = kpkg__is_package(p);
	free(copy);
	return all;
}

struct unpack {
	const char *dir;
	const char *pkg;	/* the package being read, for messages */
	bool modules;		/* write modules (the input has headers) */
	bool has_headers;
	struct kpkg_stats *st;
};

static bool has_prefix(const char *s, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n))
		return false;
	*rest = s + n;
	return true;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* Where member @path goes below the kernel directory, or 0 (skip). *headers for header files. */
static int map_member(struct unpack *u, const char *path, struct kd_buf *to, bool *headers)
{
	const char *rest, *slash;

	*headers = false;
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	while (path[0] == '/')
		path++;
	if (has_prefix(path, "usr/lib/debug/boot/vmlinux-", &rest) && *rest && !strchr(rest, '/'))
		return kd_buf_adds(to, "vmlinux") ?: 1;
	if (has_prefix(path, "usr/lib/debug/lib/modules/", &rest) && (slash = strchr(rest, '/'))) {
		rest = slash + 1;
		if (!strcmp(rest, "vmlinux"))
			return kd_buf_adds(to, "vmlinux") ?: 1;
		if (!u->modules)
			return ends_with(rest, ".ko") || ends_with(rest, ".ko.debug") ? 2 : 0;
		if (ends_with(rest, ".ko"))
			return kd_buf_addf(to, "modules/%s", rest) ?: 1;
		if (ends_with(rest, ".ko.debug"))
			return kd_buf_addf(to, "modules/%.*s", (int)(strlen(rest) - 6), rest) ?: 1;
		return 0;
	}
	if (has_prefix(path, "usr/src/linux-headers-", &rest) && (slash = strchr(rest, '/')) &&
	    ends_with(path, ".h")) {
		rest = slash + 1;
		if (!strncmp(rest, "include/uapi/", 13)) {
			*headers = true;
			return kd_buf_adds(to, rest) ?: 1;
		}
		if (!strncmp(rest, "arch/", 5) && (slash = strchr(rest + 5, '/')) &&
		    !strncmp(slash, "/include/uapi/", 14)) {
			*headers = true;
			return kd_buf_addf(to, "include/%s", rest) ?: 1;
		}
		return 0;
	}
	if (has_prefix(path, "usr/include/", &rest) && ends_with(rest, ".h")) {
		*headers = true;
		return kd_buf_adds(to, path) ?: 1;
	}
	return 0;
}

/* No empty, "." or ".." component: the member stays inside the directory. */
static bool safe_relative(const char *p)
{
	const char *c = p;

	if (!*p || *p == '/')
		return false;
	for (;;) {
		size_t n = strcspn(c, "/");

		if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		if (!c[n])
			return true;
		c += n + 1;
	}
}

/* Create the directories of @rel below @dir (never following a link). */
static int make_parents(const char *dir, const char *rel)
{
	struct kd_buf b = KD_BUF_INIT;
	const char *p;
	int err = 0;

	for (p = strchr(rel, '/'); !err && p; p = strchr(p + 1, '/')) {
		struct stat st;

		kd_buf_reset(&b);
		err = kd_buf_addf(&b, "%s/%.*s", dir, (int)(p - rel), rel);
		if (err)
			break;
		if (mkdir(b.s, 0755) < 0 && errno != EEXIST)
			err = -errno;
		else if (lstat(b.s, &st) < 0 || !S_ISDIR(st.st_mode))
			err = -ENOTDIR;
	}
	kd_buf_release(&b);
	return err;
}

static int write_member(struct unpack *u, struct archive *a, const char *rel, time_t mtime)
{
	struct kd_buf path = KD_BUF_INIT;
	char *block = NULL;
	int fd = -1, err;
	ssize_t n;

	err = make_parents(u->dir, rel);
	if (!err)
		err = kd_buf_addf(&path, "%s/%s", u->dir, rel);
	if (err)
		goto out;
	/* A second vmlinux (or header) replaces the first: the last package wins. */
	unlink(path.s);
	fd = open(path.s, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	block = kd_malloc(READ_BLOCK);
	if (!block) {
		err = -ENOMEM;
		goto out;
	}
	while ((n = archive_read_data(a, block, READ_BLOCK)) > 0) {
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(fd, block + off, (size_t)(n - off));

			if (w < 0) {
				if (errno == EINTR)
					continue;
				err = -errno;
				goto out;
			}
			off += w;
			u->st->written_bytes += w;
		}
	}
	if (n < 0) {
		kd_err("%s: %s: %s", u->pkg, rel, archive_error_string(a));
		err = -KD_EFORMAT;
		goto out;
	}
	u->st->written++;
	{
		/* The package's mtime: the cache fingerprint of a header tree
		 * unpacked twice stays the same. */
		struct timespec ts[2] = { { .tv_sec = mtime }, { .tv_sec = mtime } };

		futimens(fd, ts);
	}
out:
	if (fd >= 0 && close(fd) < 0 && !err)
		err = -errno;
	if (err && err != -KD_EFORMAT)
		kd_err("%s: cannot write %s: %s", u->pkg, path.s, kd_strerror(err));
	free(block);
	kd_buf_release(&path);
	return err;
}

/* Every entry of @a (a payload: tar, cpio), mapped and written or skipped. */
static int read_payload(struct unpack *u, struct archive *a)
{
	struct archive_entry *e;
	struct kd_buf to = KD_BUF_INIT;
	int r, err = 0;

	while (!err && (r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);
		bool headers;
		int m;

		u->st->members++;
		if (archive_entry_filetype(e) != AE_IFREG || !name)
			continue;
		u->st->total_bytes += archive_entry_size(e);
		kd_buf_reset(&to);
		m = map_member(u, name, &to, &headers);
		if (m < 0) {
			err = m;
			break;
		}
		if (m == 2)
			u->st->skipped_modules++;
		if (m != 1)
			continue;
		if (!safe_relative(to.s)) {
			kd_err("%s: member '%s' leaves the package's tree", u->pkg, name);
			err = -KD_EFORMAT;
			break;
		}
		err = write_member(u, a, to.s, archive_entry_mtime(e));
		u->has_headers |= headers && !err;
	}
	if (!err && r != ARCHIVE_EOF) {
		kd_err("%s: %s", u->pkg, archive_error_string(a));
		err = -KD_EFORMAT;
	}
	kd_buf_release(&to);
	return err;
}

/* The nested data.tar of a .deb, read through the outer archive. */
static la_ssize_t outer_read(struct archive *inner, void *ctx, const void **buf)
{
	static char block[READ_BLOCK];	/* one nested read at a time */

	(void)inner;
	*buf = block;
	return archive_read_data(ctx, block, sizeof(block));
}

static struct archive *new_reader(void)
{
	struct archive *a = archive_read_new();

	if (a) {
		archive_read_support_filter_all(a);
		archive_read_support_format_tar(a);
		archive_read_support_format_cpio(a);
		archive_read_support_format_ar(a);
	}
	return a;
}

static int read_package(struct unpack *u, const char *pkg)
{
	struct archive *a = new_reader(), *inner = NULL;
	struct archive_entry *e;
	int r, err = 0;
	bool deb = false;

	u->pkg = pkg;
	if (!a)
		return -ENOMEM;
	if (archive_read_open_filename(a, pkg, READ_BLOCK) != ARCHIVE_OK) {
		kd_err("%s: %s", pkg, archive_error_string(a));
		err = -KD_EFORMAT;
		goto out;
	}
	/* The first member says what it is: a .deb's "debian-binary", else a payload. */
	r = archive_read_next_header(a, &e);
	if (r == ARCHIVE_OK && (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_AR)
		deb = true;
	if (!deb) {
		archive_read_free(a);
		a = new_reader();
		if (!a)
			return -ENOMEM;
		if (archive_read_open_filename(a, pkg, READ_BLOCK) != ARCHIVE_OK) {
			kd_err("%s: %s", pkg, archive_error_string(a));
			err = -KD_EFORMAT;
			goto out;
		}
		err = read_payload(u, a);
		goto out;
	}
	for (; r == ARCHIVE_OK; r = archive_read_next_header(a, &e)) {
		const char *name = archive_entry_pathname(e);

		if (!name || strncmp(name, "data.tar", 8))
			continue;
		inner = new_reader();
		if (!inner) {
			err = -ENOMEM;
			goto out;
		}
		if (archive_read_open(inner, a, NULL, outer_read, NULL) != ARCHIVE_OK) {
			kd_err("%s: %s: %s", pkg, name, archive_error_string(inner));
			err = -KD_EFORMAT;
			goto out;
		}
		err = read_payload(u, inner);
		goto out;
	}
	kd_err("%s: %s", pkg, r == ARCHIVE_EOF ? "a .deb without data.tar" : archive_error_string(a));
	err = -KD_EFORMAT;
out:
	if (inner)
		archive_read_free(inner);
	archive_read_free(a);
	return err;
}

int kpkg__unpack(const char *arg, const char *dir, struct kpkg_stats *stats)
{
	struct unpack u = { .dir = dir, .st = stats };
	char *copy = kd_strdup(arg), *save = NULL, *p, **list = NULL;
	size_t n = 0, cap = 0, i, pass;
	int err = copy ? 0 : -ENOMEM;

	memset(stats, 0, sizeof(*stats));
	for (p = copy ? strtok_r(copy, ",", &save) : NULL; !err && p; p = strtok_r(NULL, ",", &save)) {
		err = KD_GROW(list, cap, n + 1);
		if (!err)
			list[n++] = p;
	}
	/* Header packages first: whether modules are worth writing depends on them. */
	for (pass = 0; !err && pass < 2; pass++) {
		for (i = 0; !err && i < n; i++) {
			const char *base = strrchr(list[i], '/') ? strrchr(list[i], '/') + 1 : list[i];

			if ((strstr(base, "headers") != NULL) != (pass == 0))
				continue;
			u.modules = u.has_headers;
			err = read_package(&u, list[i]);
		}
	}
	free(list);
	free(copy);
	return err;
}

int kpkg__unpack_temp(const char *arg, const char *parent, char **dir, struct kpkg_stats *stats)
{
	struct kd_buf b = KD_BUF_INIT;
	int err;

	*dir = NULL;
	err = kd_buf_addf(&b, "%s/.kabi-unpack-XXXXXX", parent);
	if (err)
		return err;
	if (!mkdtemp(b.s)) {
		err = -errno;
		kd_err("%s: cannot create a directory to unpack %s into: %s", parent, arg,
		       strerror(errno));
		kd_buf_release(&b);
		return err;
	}
	err = kpkg__unpack(arg, b.s, stats);
	if (err) {
		kpkg__remove_dir(b.s);
		kd_buf_release(&b);
		return err;
	}
	*dir = kd_buf_detach(&b);
	return *dir ? 0 : -ENOMEM;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void kpkg__remove_dir(const char *dir)
{
	if (dir)
		nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
