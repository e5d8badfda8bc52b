// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel packages read as streams (libarchive): a .deb is an ar archive
 * whose data.tar.{xz,zst,gz} is opened as a nested archive over the outer
 * one's data; an RPM is a cpio payload libarchive reads directly (its rpm
 * filter); a plain tarball of a kernel directory works too. Each member's
 * path is mapped to where a kernel directory keeps it, or skipped:
 *
 *   usr/lib/debug/boot/vmlinux-REL             -> vmlinux   (Debian -dbg)
 *   boot/vmlinuz-REL, boot/System.map-REL      -> vmlinuz, System.map (Debian's regular image)
 *   usr/lib/debug/lib/modules/REL/vmlinux      -> vmlinux   (kernel-debuginfo)
 *   usr/lib/debug/lib/modules/REL/X.ko[.debug] -> streamed (DIR/.spool-N.ko, one at a time)
 *   usr/src/linux-headers-*-common/include/uapi/..., .../arch/A/include/uapi/...
 *     (*.h and Kbuild)                         -> include/uapi/..., include/arch/A/include/uapi/...
 *   usr/include/...  (kernel-headers)          -> usr/include/...
 *
 * Modules only matter for the ioctl argument types the UAPI headers name,
 * so they are read only when the input has headers: packages whose name
 * says "headers" are read first. Without headers the reading of the last
 * package stops at its first module once the vmlinux is written (a debug
 * .deb has its vmlinux first: 0.6 of 5.7 GB read). With headers they are never unpacked
 * together: the extractor asks for the next module while those waiting
 * stay within its spool budget (extract/modules.c) and removes each once
 * read, so the ~4.5 GB of modules of a debug package pass through a few
 * hundred MB of disk.
 */
#include "extract/input/package.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "extract/extract.h"
#include "extract/input/unpack-limits.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/eta.h"
#include "lib/mem.h"
#include "lib/path.h"
#include "lib/str.h"
#include "lib/tmpfile.h"

#define READ_BLOCK (256u << 10)

bool kpkg__is_package(const char *path)
{
	static const unsigned char rpm_lead[4] = { 0xed, 0xab, 0xee, 0xdb };
	unsigned char head[24];
	/* Never a FIFO or a device: reading one to look at it may block. */
	ssize_t n = kd_read_head(path, head, sizeof(head));

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

/* One package being read: the archive of the package and that of its payload. */
struct reading {
	const char *pkg;
	struct archive *outer;	/* the package (a .deb's ar), or the payload itself */
	struct archive *payload;/* where the members come from: outer, or the nested data.tar */
	char *block;		/* the nested reader's buffer (each reading its own) */
	struct archive_entry *e;/* the current member */
	bool counted;		/* read before: its members are in the stats already */
	/* A status line on how far the reading is (not while modules stream: theirs is shown). */
	bool status;
	uint64_t size;		/* the package's bytes, 0 unknown */
	struct timespec started, shown;
};

struct kpkg {
	char *arg;
	char *name;		/* arg as progress lines name it (kd_input_short()) */
	char *names;		/* arg cut at its commas: a reading's pkg points in here */
	char *dir;		/* DIR: vmlinux, include/, usr/include/, spool files */
	bool modules;		/* modules wanted (the packages have UAPI headers) */
	bool has_headers;
	bool vmlinux_written;
	bool rest_unread;	/* no headers: the reading stopped at the first module */
	struct kpkg_stats st;
	/* Streaming the modules: the package the first reading stopped in (at
	 * its first module, @open.e), then those whose modules came before
	 * their vmlinux, read again. */
	struct reading open;	/* never copied: see read_packages() */
	bool pending;		/* open.e is a module not yet handed over */
	char **again;
	size_t nr_again, cap_again, next_again;
	uint64_t spool_seq;
	int64_t streamed, streamed_bytes;
	/* For the time left: bytes the streaming reads in all (0: unknown), and of closed readings. */
	uint64_t stream_total, stream_done;
	bool verbose;
	struct extract_modules_feed feed;
	struct unpack_budget budget;	/* what every reading wrote, against the caps */
};

static const char *clean_path(const char *path)
{
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	while (path[0] == '/')
		path++;
	return path;
}

enum member { SKIP, WRITE, MODULE };

/* A kernel image or its symbols (bounded as an image), not a header. */
static bool is_image_member(const char *to)
{
	return !strcmp(to, "vmlinux") || !strcmp(to, "vmlinuz") || !strcmp(to, "System.map");
}

/* What member @path is: a file to write at @to below DIR, a module, or neither. */
static int map_member(const char *path, struct kd_buf *to, bool *headers)
{
	const char *rest, *slash;
	int err;

	*headers = false;
	path = clean_path(path);
	if (kd_skip_prefix(path, "usr/lib/debug/boot/vmlinux-", &rest) && *rest && !strchr(rest, '/'))
		return kd_buf_adds(to, "vmlinux") ?: WRITE;
	/* The regular image package: the bootable image and its symbols, read through BTF. */
	if (kd_skip_prefix(path, "boot/vmlinuz-", &rest) && *rest && !strchr(rest, '/'))
		return kd_buf_adds(to, "vmlinuz") ?: WRITE;
	if (kd_skip_prefix(path, "boot/System.map-", &rest) && *rest && !strchr(rest, '/'))
		return kd_buf_adds(to, "System.map") ?: WRITE;
	if (kd_skip_prefix(path, "usr/lib/debug/lib/modules/", &rest) && (slash = strchr(rest, '/'))) {
		rest = slash + 1;
		if (!strcmp(rest, "vmlinux"))
			return kd_buf_adds(to, "vmlinux") ?: WRITE;
		return kd_ends_with(rest, ".ko") || kd_ends_with(rest, ".ko.debug") ? MODULE : SKIP;
	}
	if (kd_skip_prefix(path, "usr/src/linux-headers-", &rest) && (slash = strchr(rest, '/')) &&
	    kpkg__uapi_file(path)) {
		rest = slash + 1;
		if (kd_starts_with(rest, "include/uapi/")) {
			*headers = true;
			return kd_buf_adds(to, rest) ?: WRITE;
		}
		if (kd_starts_with(rest, "arch/") && (slash = strchr(rest + 5, '/')) &&
		    kd_starts_with(slash, "/include/uapi/")) {
			*headers = true;
			err = kd_buf_addf(to, "include/%s", rest);
			return err ? err : WRITE;
		}
		return SKIP;
	}
	if (kd_skip_prefix(path, "usr/include/", &rest) && kd_ends_with(rest, ".h")) {
		*headers = true;
		return kd_buf_adds(to, path) ?: WRITE;
	}
	return SKIP;
}

bool kpkg__uapi_file(const char *path)
{
	const char *base = strrchr(path, '/');

	return kd_ends_with(path, ".h") || !strcmp(base ? base + 1 : path, "Kbuild");
}

bool kpkg__safe_relative(const char *p)
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

int kpkg__make_parents(const char *dir, const char *rel)
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

/* Why reading @a failed, in its words; NULL when it says nothing. */
static const char *archive_reason(struct archive *a)
{
	const char *s = a ? archive_error_string(a) : NULL;

	return s && *s ? s : NULL;
}

/*
 * Why reading @r failed: the payload's reason, else the package's (a
 * .deb's data.tar is read through it, and a cut ar member fails there,
 * leaving the nested reader with no words of its own).
 */
static const char *reading_error(const struct reading *r)
{
	const char *s = archive_reason(r->payload);

	if (!s && r->outer != r->payload)
		s = archive_reason(r->outer);
	return s ? s : "truncated or damaged (libarchive gives no reason)";
}

/* unpack_read_fn over the current member of a reading. */
/* The size of package @pkg; 0 when it cannot be told (no estimate then). */
static uint64_t package_bytes(const char *pkg)
{
	struct stat st;

	return pkg && !stat(pkg, &st) && st.st_size > 0 ? (uint64_t)st.st_size : 0;
}

static double seconds_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

/* The status line of @r: the share of its package read, the time left (a few a second at most). */
static void show_reading(struct reading *r)
{
	la_int64_t at = archive_filter_bytes(r->outer, -1);
	const char *base = strrchr(r->pkg, '/') ? strrchr(r->pkg, '/') + 1 : r->pkg;
	struct timespec now;
	long left;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!r->size || at < 0 || (uint64_t)at > r->size || seconds_between(&r->shown, &now) < 0.25)
		return;
	r->shown = now;
	left = kd_eta_seconds((uint64_t)at, r->size, seconds_between(&r->started, &now));
	if (left >= 0)
		kd_status("%s: %d%% read (%.0f of %.0f MB), ~%ld s left", base,
			  (int)((uint64_t)at * 100 / r->size), at / 1e6, r->size / 1e6, left);
	else
		kd_status("%s: %d%% read (%.0f of %.0f MB)", base, (int)((uint64_t)at * 100 / r->size),
			  at / 1e6, r->size / 1e6);
}

static ssize_t read_member(void *ctx, void *buf, size_t len)
{
	struct reading *r = ctx;
	la_ssize_t n = archive_read_data(r->payload, buf, len);

	if (n < 0) {
		kd_err("%s: %s: %s", r->pkg, clean_path(archive_entry_pathname(r->e)),
		       reading_error(r));
		return -KD_EFORMAT;
	}
	if (r->status)
		show_reading(r);
	return n;
}

/*
 * The current member of @r, of @kind, into the new file @path: admitted
 * and copied within the caps of the input (unpack-limits.h).
 */
static int write_data(struct kpkg *p, struct reading *r, const char *path, enum unpack_kind kind)
{
	const char *member = clean_path(archive_entry_pathname(r->e));
	int64_t declared = archive_entry_size_is_set(r->e) ? archive_entry_size(r->e) : -1;
	int fd = -1, err;

	err = unpack__admit(&p->budget, r->pkg, member, kind, declared, p->dir);
	if (err)
		return err;
	/* A second vmlinux (or header) replaces the first: the last package wins. */
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	err = unpack__copy(&p->budget, r->pkg, member, kind, declared, read_member, r, fd);
	p->st.written_bytes = (int64_t)p->budget.bytes;
	if (err)
		goto out;
	p->st.written++;
	{
		/* The package's mtime: the cache fingerprint of a header tree
		 * unpacked twice stays the same. */
		time_t mtime = archive_entry_mtime(r->e);
		struct timespec ts[2] = { { .tv_sec = mtime }, { .tv_sec = mtime } };

		futimens(fd, ts);
	}
out:
	if (fd >= 0 && close(fd) < 0 && !err)
		err = -errno;
	if (err && err != -KD_EFORMAT && err != -KD_ELIMIT)
		kd_err("%s: cannot write %s: %s", r->pkg, path, kd_strerror(err));
	if (err && fd >= 0)
		unlink(path);
	return err;
}

static int write_member(struct kpkg *p, struct reading *r, const char *rel, enum unpack_kind kind)
{
	struct kd_buf path = KD_BUF_INIT;
	int err = kpkg__make_parents(p->dir, rel);

	if (!err)
		err = kd_buf_addf(&path, "%s/%s", p->dir, rel);
	if (!err)
		err = write_data(p, r, path.s, kind);
	else
		kd_err("%s: cannot write %s below %s: %s", r->pkg, rel, p->dir, kd_strerror(err));
	kd_buf_release(&path);
	return err;
}

/*
 * The next member of @r: 1 (r->e set), 0 at the end, or a negative code
 * (reported). Counts it.
 */
static int next_member(struct kpkg *p, struct reading *r)
{
	int rc = archive_read_next_header(r->payload, &r->e);

	if (rc == ARCHIVE_EOF)
		return 0;
	if (rc != ARCHIVE_OK) {
		kd_err("%s: %s", r->pkg, reading_error(r));
		return -KD_EFORMAT;
	}
	if (r->counted)
		return 1;
	p->st.members++;
	if (archive_entry_filetype(r->e) == AE_IFREG)
		p->st.total_bytes += archive_entry_size(r->e);
	return 1;
}

/* Its member path, when the current member of @r is a module (a regular file). */
static const char *module_member(struct reading *r)
{
	const char *name = archive_entry_pathname(r->e);
	struct kd_buf to = KD_BUF_INIT;
	bool headers;
	int m;

	if (archive_entry_filetype(r->e) != AE_IFREG || !name)
		return NULL;
	m = map_member(name, &to, &headers);
	kd_buf_release(&to);
	return m == MODULE ? clean_path(name) : NULL;
}

/*
 * The first reading of a payload: vmlinux and headers written, modules
 * skipped. Returns 1 when it stops at a module to stream (@may_stop: the
 * last package, its vmlinux written), 0 at the end, or a negative code.
 */
static int read_payload(struct kpkg *p, struct reading *r, bool may_stop, bool *again)
{
	struct kd_buf to = KD_BUF_INIT;
	int err;

	while ((err = next_member(p, r)) > 0) {
		const char *name = archive_entry_pathname(r->e);
		bool headers;
		int m;

		if (archive_entry_filetype(r->e) != AE_IFREG || !name)
			continue;
		kd_buf_reset(&to);
		m = map_member(name, &to, &headers);
		if (m < 0) {
			err = m;
			break;
		}
		if (m == MODULE) {
			if (!p->modules) {
				p->st.skipped_modules++;
				/*
				 * Nothing after the first module is needed: the rest
				 * of a debug package is modules (~85% of it), not read.
				 */
				if (may_stop && p->vmlinux_written) {
					p->rest_unread = true;
					err = 0;
					break;
				}
			} else if (may_stop && p->vmlinux_written && !*again) {
				err = 1;
				break;
			} else {
				*again = true;	/* before the vmlinux: streamed from a second reading */
			}
			continue;
		}
		if (m != WRITE)
			continue;
		if (!kpkg__safe_relative(to.s)) {
			kd_err("%s: member '%s' leaves the package's tree", r->pkg, name);
			err = -KD_EFORMAT;
			break;
		}
		err = unpack__check_depth(r->pkg, clean_path(name), to.s);
		if (!err)
			err = write_member(p, r, to.s, is_image_member(to.s) ? UNPACK_IMAGE : UNPACK_HEADER);
		if (err)
			break;
		p->has_headers |= headers;
		p->vmlinux_written |= !strcmp(to.s, "vmlinux") || !strcmp(to.s, "vmlinuz");
	}
	kd_buf_release(&to);
	return err;
}

/* The nested data.tar of a .deb, read through the outer archive. */
static la_ssize_t outer_read(struct archive *inner, void *ctx, const void **buf)
{
	struct reading *r = ctx;

	(void)inner;
	*buf = r->block;
	return archive_read_data(r->outer, r->block, READ_BLOCK);
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

static void close_reading(struct reading *r)
{
	if (r->payload && r->payload != r->outer)
		archive_read_free(r->payload);
	if (r->outer)
		archive_read_free(r->outer);
	free(r->block);
	memset(r, 0, sizeof(*r));
}

/* Open package @pkg at the start of its payload. */
static int open_reading(struct reading *r, const char *pkg)
{
	struct archive_entry *e;
	int rc;

	memset(r, 0, sizeof(*r));
	r->pkg = pkg;
	r->size = package_bytes(pkg);
	clock_gettime(CLOCK_MONOTONIC, &r->started);
	r->outer = new_reader();
	if (!r->outer)
		return -ENOMEM;
	if (archive_read_open_filename(r->outer, pkg, READ_BLOCK) != ARCHIVE_OK)
		goto bad;
	/* The first member says what it is: a .deb's "debian-binary", else a payload. */
	rc = archive_read_next_header(r->outer, &e);
	if (rc != ARCHIVE_OK || (archive_format(r->outer) & ARCHIVE_FORMAT_BASE_MASK) != ARCHIVE_FORMAT_AR) {
		archive_read_free(r->outer);
		r->outer = r->payload = new_reader();
		if (!r->outer)
			return -ENOMEM;
		if (archive_read_open_filename(r->outer, pkg, READ_BLOCK) != ARCHIVE_OK)
			goto bad;
		return 0;
	}
	for (; rc == ARCHIVE_OK; rc = archive_read_next_header(r->outer, &e)) {
		const char *name = archive_entry_pathname(e);

		if (!name || !kd_starts_with(name, "data.tar"))
			continue;
		r->block = kd_malloc(READ_BLOCK);
		r->payload = new_reader();
		if (!r->block || !r->payload)
			return -ENOMEM;
		if (archive_read_open(r->payload, r, NULL, outer_read, NULL) != ARCHIVE_OK) {
			kd_err("%s: %s: %s", pkg, name, reading_error(r));
			return -KD_EFORMAT;
		}
		return 0;
	}
	kd_err("%s: %s", pkg, rc == ARCHIVE_EOF ? "a .deb without data.tar" : reading_error(r));
	return -KD_EFORMAT;
bad:
	kd_err("%s: %s", pkg, reading_error(r));
	return -KD_EFORMAT;
}

static bool is_headers_package(const char *pkg)
{
	const char *base = strrchr(pkg, '/') ? strrchr(pkg, '/') + 1 : pkg;

	return strstr(base, "headers") != NULL;
}

/* The first reading of every package (headers first): all but the modules. */
static int read_packages(struct kpkg *p)
{
	char *save = NULL, *s, **list = NULL;
	size_t n = 0, cap = 0, i, pass, last = 0;
	int err;

	/* Kept until kpkg__close(): the streamed reading names its package after this returns. */
	p->names = kd_strdup(p->arg);
	err = p->names ? 0 : -ENOMEM;
	for (s = p->names ? strtok_r(p->names, ",", &save) : NULL; !err && s;
	     s = strtok_r(NULL, ",", &save)) {
		err = KD_GROW(list, cap, n + 1);
		if (!err)
			list[n++] = s;
	}
	/* Header packages first: whether modules are worth reading depends on them. */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < n; i++)
			if (is_headers_package(list[i]) == (pass == 0))
				last = i;
	for (pass = 0; !err && pass < 2; pass++) {
		for (i = 0; !err && i < n; i++) {
			bool again = false;

			if (is_headers_package(list[i]) != (pass == 0))
				continue;
			p->modules = p->has_headers;
			/*
			 * Read in place: the nested reader keeps the address of
			 * its reading (outer_read), so a reading is never copied.
			 */
			err = open_reading(&p->open, list[i]);
			p->open.status = p->verbose;
			if (!err)
				err = read_payload(p, &p->open, i == last, &again);
			if (p->open.status)
				kd_status("%s", "");
			p->open.status = false;
			if (err == 1) {
				p->pending = true;	/* streamed from here on */
				err = 0;
			} else {
				close_reading(&p->open);
			}
			if (!err && again) {
				err = KD_GROW(p->again, p->cap_again, p->nr_again + 1);
				if (!err && !(p->again[p->nr_again++] = kd_strdup(list[i])))
					err = -ENOMEM;
			}
		}
	}
	free(list);
	return err;
}

/* Hand the current member of p->open (a module) over as a spool file. */
static int spool_module(struct kpkg *p, char **name, char **file)
{
	struct kd_buf path = KD_BUF_INIT;
	const char *member = module_member(&p->open);
	int err = kd_buf_addf(&path, "%s/.spool-%" PRIu64 ".ko", p->dir, ++p->spool_seq);

	*name = kd_strdup(member);
	if (!err && !*name)
		err = -ENOMEM;
	if (!err)
		err = write_data(p, &p->open, path.s, UNPACK_MODULE);
	if (err) {
		free(*name);
		*name = NULL;
		kd_buf_release(&path);
		return err;
	}
	p->streamed++;
	p->streamed_bytes += archive_entry_size(p->open.e);
	*file = kd_buf_detach(&path);
	return *file ? 1 : -ENOMEM;
}

/* The bytes the streaming of the modules will read: the open package's and those read again. */
static uint64_t stream_bytes(const struct kpkg *p)
{
	uint64_t total = p->open.outer ? package_bytes(p->open.pkg) : 0, b;
	size_t i;

	if (p->open.outer && !total)
		return 0;
	for (i = p->next_again; i < p->nr_again; i++) {
		b = package_bytes(p->again[i]);
		if (!b)
			return 0;
		total += b;
	}
	return total;
}

/* extract_modules_feed.position: the bytes read of those stream_bytes() counted. */
static uint64_t feed_position(void *ctx, uint64_t *total)
{
	struct kpkg *p = ctx;
	la_int64_t at = p->open.outer ? archive_filter_bytes(p->open.outer, -1) : 0;

	*total = p->stream_total;
	return p->stream_done + (at > 0 ? (uint64_t)at : 0);
}

/* extract_modules_feed.next: the modules of p->open, then those of p->again. */
static int feed_next(void *ctx, char **name, char **file)
{
	struct kpkg *p = ctx;
	int err;

	*name = *file = NULL;
	for (;;) {
		if (p->pending) {
			p->pending = false;
			return spool_module(p, name, file);
		}
		if (p->open.payload) {
			while ((err = next_member(p, &p->open)) > 0)
				if (module_member(&p->open))
					return spool_module(p, name, file);
			p->stream_done += package_bytes(p->open.pkg);
			close_reading(&p->open);
			if (err)
				return err;
		}
		if (p->next_again == p->nr_again)
			break;
		err = open_reading(&p->open, p->again[p->next_again++]);
		if (err)
			return err;
		p->open.counted = true;
	}
	if (p->verbose)
		kd_progress("%s: wrote %" PRId64 " of %" PRId64 " members, %.1f of %.1f MB unpacked"
			    " (%" PRId64 " modules streamed: %.1f MB%s)", p->name, p->st.written,
			    p->st.members, p->st.written_bytes / 1e6, p->st.total_bytes / 1e6,
			    p->streamed, p->streamed_bytes / 1e6, p->nr_again ?
			    "; modules before the vmlinux: read twice" : "");
	return 0;
}

int kpkg__open(const char *arg, const char *parent, bool verbose, struct kpkg **out)
{
	struct kpkg *p = kd_calloc(1, sizeof(*p));
	int err;

	*out = NULL;
	if (!p || !(p->arg = kd_strdup(arg)) || !(p->name = kd_input_short(arg))) {
		kpkg__close(p);
		return -ENOMEM;
	}
	p->verbose = verbose;
	/* Registered for the signal cleanup (best effort: at most 8 at once). */
	err = kd_tmpdir_create(parent, ".kabi-unpack-", &p->dir);
	if (err) {
		if (err != -ENOMEM)
			kd_err("%s: cannot create a directory to unpack %s into: %s", parent, arg,
			       kd_strerror(err));
		kpkg__close(p);
		return err;
	}
	err = read_packages(p);
	if (err) {
		kpkg__close(p);
		return err;
	}
	if (verbose && (p->pending || p->nr_again))
		kd_progress("%s: wrote %" PRId64 " members, %.1f MB; the modules follow, streamed",
			    p->name, p->st.written, p->st.written_bytes / 1e6);
	else if (verbose)
		kd_progress("%s: wrote %" PRId64 " of %" PRId64 " members, %.1f of %.1f MB unpacked%s",
			    p->name, p->st.written, p->st.members, p->st.written_bytes / 1e6,
			    p->st.total_bytes / 1e6, p->rest_unread ?
			    " (modules skipped: no UAPI headers package; the rest not read)" :
			    p->st.skipped_modules ? " (modules skipped: no UAPI headers package)" : "");
	p->stream_total = stream_bytes(p);
	p->feed = (struct extract_modules_feed){ .next = feed_next, .position = feed_position,
						 .ctx = p, .what = p->arg, .name = p->name,
						 .report = verbose };
	*out = p;
	return 0;
}

const char *kpkg__dir(const struct kpkg *p)
{
	return p->dir;
}

const struct extract_modules_feed *kpkg__modules_feed(const struct kpkg *p)
{
	return p->pending || p->nr_again ? &p->feed : NULL;
}

void kpkg__close(struct kpkg *p)
{
	size_t i;

	if (!p)
		return;
	close_reading(&p->open);
	kd_tmpdir_remove(p->dir);
	for (i = 0; i < p->nr_again; i++)
		free(p->again[i]);
	free(p->again);
	free(p->names);
	free(p->name);
	free(p->arg);
	free(p);
}
