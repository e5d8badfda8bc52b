// SPDX-License-Identifier: GPL-2.0-only
/*
 * extract__image_id(): an ELF vmlinux is opened with the extractor's ELF
 * reader (its build-id and whether it has the PVH entry QEMU starts it
 * by); an x86 bzImage is known by its setup header ("HdrS" at 0x202, boot
 * protocol 2.00+), whose kernel_version field points at the string
 * "RELEASE (BUILDER) UTS_VERSION" (Documentation/arch/x86/boot.rst); an
 * arm64 Image by its header ("ARM\x64" at 0x38,
 * Documentation/arch/arm64/booting.rst), which names no release: the
 * uncompressed Image holds linux_banner as it is ("Linux version RELEASE
 * (BUILDER) (COMPILER) UTS_VERSION"), found by a scan of the file.
 * Nothing is decompressed.
 */
#include "extract/image.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/kdb.h"
#include "extract/elf_internal.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/str.h"

#define XEN_ELFNOTE_PHYS32_ENTRY 18
#define BZ_MAGIC_OFF 0x202		/* "HdrS" */
#define BZ_VERSION_OFF 0x206		/* boot protocol, 0x0200 and up */
#define BZ_KVER_OFF 0x20e		/* kernel_version: a pointer less 0x200 */
#define BZ_KVER_MAX 256
#define ARM64_MAGIC_OFF 0x38		/* "ARM\x64" */
#define BANNER_MAX 512			/* linux_banner, with room */
#define ARM64_SCAN_MAX (512u << 20)	/* Images are tens of MiB */

static int elf_id(const char *path, struct kimage_id *id)
{
	struct kelf *k = NULL;
	size_t n = 0;
	int err = kelf_open(path, &k);

	if (err)
		return err;
	id->kind = KIMAGE_ELF;
	id->arch = k->arch->name;
	id->build_id = kelf_build_id(k);
	id->pvh = kelf_note(k, "Xen", XEN_ELFNOTE_PHYS32_ENTRY, &n) != NULL;
	kelf_close(k);
	return 0;
}

/* The kernel_version string, checked: inside the file, NUL-ended, printable. */
static int bz_version(int fd, const char *path, const unsigned char *head, struct kimage_id *id)
{
	char buf[BZ_KVER_MAX];
	off_t at = (off_t)(head[BZ_KVER_OFF] | head[BZ_KVER_OFF + 1] << 8) + 0x200;
	ssize_t got = pread(fd, buf, sizeof(buf), at);
	size_t len, i;

	if (got <= 0 || !(len = strnlen(buf, (size_t)got)) || len == (size_t)got) {
		kd_err("%s: bzImage without a readable kernel version string", path);
		return -KD_EFORMAT;
	}
	for (i = 0; i < len; i++)
		if ((unsigned char)buf[i] < 0x20 || (unsigned char)buf[i] > 0x7e) {
			kd_err("%s: bzImage whose kernel version string is not text", path);
			return -KD_EFORMAT;
		}
	id->kind = KIMAGE_BZIMAGE;
	id->arch = "x86_64";
	id->version = kd_strndup(buf, len);
	return id->version ? 0 : -ENOMEM;
}

/* "Linux version " followed by a digit, the text up to its newline or NUL. */
static char *banner_at(const char *p, size_t avail)
{
	static const char prefix[] = "Linux version ";
	size_t n = sizeof(prefix) - 1, len = 0;

	if (avail <= n || p[n] < '0' || p[n] > '9')
		return NULL;
	p += n;
	avail -= n;
	while (len < avail && len < BANNER_MAX && p[len] >= 0x20 && p[len] < 0x7f)
		len++;
	if (len == avail || len == BANNER_MAX || (p[len] != '\n' && p[len]))
		return NULL;
	return kd_strndup(p, len);
}

/*
 * Every linux_banner in the file, one a line in id->version: since 6.1 an
 * Image holds two, the real one (init/version-timestamp.c) and the weak
 * one of init/version.c, linked first and overridden, whose UTS_VERSION
 * lacks the build number ("# SMP ..."). Read in blocks that overlap by a
 * banner's length, so that one split across two reads is still found.
 */
static int arm64_version(int fd, const char *path, struct kimage_id *id)
{
	enum { BLOCK = 1 << 20, KEEP = BANNER_MAX + 16, MAX_BANNERS = 8 };
	char *buf = kd_malloc(BLOCK + KEEP);
	struct kd_buf all = KD_BUF_INIT;
	size_t keep = 0, found = 0;
	off_t at = 0;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	while (!err && found < MAX_BANNERS && (size_t)at < ARM64_SCAN_MAX) {
		ssize_t got = pread(fd, buf + keep, BLOCK, at);
		size_t have, from, i;

		if (got < 0) {
			err = -errno;
			kd_err("%s: %s", path, kd_strerror(err));
			break;
		}
		if (!got)
			break;
		have = keep + (size_t)got;
		from = have;	/* where the next block's scan starts */
		for (i = 0; !err && found < MAX_BANNERS && i < have; i++) {
			const char *hit = memchr(buf + i, 'L', have - i);
			char *b;

			if (!hit)
				break;
			i = (size_t)(hit - buf);
			if (have - i < 14) {
				from = i;	/* perhaps a banner's start */
				break;
			}
			if (memcmp(hit, "Linux version ", 14))
				continue;
			b = banner_at(hit, have - i);
			if (!b && have - i < KEEP) {
				from = i;	/* cut off by the block's end: whole in the next */
				break;
			}
			if (b)
				err = kd_buf_addf(&all, "%s%s", found++ ? "\n" : "", b);
			free(b);
		}
		at += got;
		keep = have - from;
		memmove(buf, buf + from, keep);
	}
	free(buf);
	if (!err && !found) {
		kd_err("%s: arm64 Image without a kernel version string (linux_banner)", path);
		err = -KD_EFORMAT;
	}
	if (!err) {
		id->kind = KIMAGE_ARM64;
		id->arch = "arm64";
		id->version = kd_buf_detach(&all);
		err = id->version ? 0 : -ENOMEM;
	}
	kd_buf_release(&all);
	return err;
}

int extract__image_id(const char *path, struct kimage_id *id)
{
	unsigned char head[BZ_KVER_OFF + 2];
	struct stat st;
	ssize_t got;
	int fd, err;

	memset(id, 0, sizeof(*id));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		err = -errno;
		kd_err("%s: %s", path, kd_strerror(err));
		return err;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		kd_err("%s: not a regular file", path);
		close(fd);
		return -KD_ENOTREG;
	}
	got = pread(fd, head, sizeof(head), 0);
	if (got >= 4 && !memcmp(head, "\177ELF", 4)) {
		close(fd);
		return elf_id(path, id);
	}
	if (got == (ssize_t)sizeof(head) && !memcmp(head + BZ_MAGIC_OFF, "HdrS", 4) &&
	    (head[BZ_VERSION_OFF] | head[BZ_VERSION_OFF + 1] << 8) >= 0x200)
		err = bz_version(fd, path, head, id);
	else if (got >= ARM64_MAGIC_OFF + 4 && !memcmp(head + ARM64_MAGIC_OFF, "ARM\x64", 4))
		err = arm64_version(fd, path, id);
	else if (got >= 2 && head[0] == 0x1f && head[1] == 0x8b) {
		kd_err("%s: a gzip-compressed image: give the uncompressed one (zcat it)", path);
		err = -KD_EFORMAT;
	} else {
		kd_err("%s: neither an ELF vmlinux, an x86 bzImage nor an arm64 Image", path);
		err = -KD_EFORMAT;
	}
	close(fd);
	return err;
}

void kimage_id_release(struct kimage_id *id)
{
	free(id->build_id);
	free(id->version);
	memset(id, 0, sizeof(*id));
}

/* "RELEASE (BUILDER) UTS_VERSION" of a bzImage against the banner in meta version. */
static int check_bzimage(const char *kernel, const char *version, const char *release,
			 const char *banner, const char *db_path)
{
	size_t rel_len = strcspn(version, " ");
	const char *uts = strstr(version, ") ");
	size_t bl = banner ? strlen(banner) : 0;

	if (release && (strlen(release) != rel_len || strncmp(release, version, rel_len))) {
		kd_err("%s: kernel %.*s, but %s was extracted from %s: not the same kernel",
		       kernel, (int)rel_len, version, db_path, release);
		return -KD_EFORMAT;
	}
	/* The same release rebuilt: the build number and date tell them apart. */
	if (uts && banner && (bl < strlen(uts + 2) || strcmp(banner + bl - strlen(uts + 2), uts + 2))) {
		kd_err("%s: build '%s', but %s was extracted from '%s': not the same build",
		       kernel, uts + 2, db_path, banner);
		return -KD_EFORMAT;
	}
	return 0;
}

/* An arm64 Image's banners (less "Linux version ", one a line): one is the .kabi's. */
static int check_banner(const char *kernel, const char *versions, const char *release,
			const char *banner, const char *db_path)
{
	const char *v, *shown = versions;
	bool release_seen = false;
	size_t len;

	for (v = versions; *v; v += len + (v[len] == '\n')) {
		len = strcspn(v, "\n");
		if (banner && kd_starts_with(banner, "Linux version ") &&
		    strlen(banner + 14) == len && !strncmp(banner + 14, v, len))
			return 0;
		if (!release_seen && release && strcspn(v, " ") == strlen(release) &&
		    !strncmp(v, release, strlen(release))) {
			shown = v;
			release_seen = true;
		}
	}
	if (release && !release_seen) {
		kd_err("%s: kernel %.*s, but %s was extracted from %s: not the same kernel",
		       kernel, (int)strcspn(versions, " \n"), versions, db_path, release);
		return -KD_EFORMAT;
	}
	if (banner) {
		kd_err("%s: build 'Linux version %.*s', but %s was extracted from '%s': not the same"
		       " build", kernel, (int)strcspn(shown, "\n"), shown, db_path, banner);
		return -KD_EFORMAT;
	}
	return 0;
}

int extract__image_check(struct kdb *db, const char *db_path, const char *kernel,
			 struct kimage_id *id)
{
	char *release = NULL, *banner = NULL, *build_id = NULL, *arch = NULL;
	int err = extract__image_id(kernel, id);

	if (err)
		return err;
	if (kdb__get_meta(db, "release", &release))
		release = NULL;
	if (kdb__get_meta(db, "version", &banner))
		banner = NULL;
	if (kdb__get_meta(db, "build_id", &build_id))
		build_id = NULL;
	if (kdb__get_meta(db, "arch", &arch))
		arch = NULL;
	if (arch && strcmp(arch, id->arch)) {
		kd_err("%s: an %s kernel, but %s describes an %s one", kernel, id->arch, db_path, arch);
		err = -KD_EFORMAT;
	} else if (id->kind == KIMAGE_BZIMAGE) {
		err = check_bzimage(kernel, id->version, release, banner, db_path);
	} else if (id->kind == KIMAGE_ARM64) {
		err = check_banner(kernel, id->version, release, banner, db_path);
	} else if (build_id && id->build_id && strcmp(build_id, id->build_id)) {
		kd_err("%s: build-id %s, but %s was extracted from build-id %s: not the same kernel",
		       kernel, id->build_id, db_path, build_id);
		err = -KD_EFORMAT;
	}
	if (err)
		kimage_id_release(id);
	free(release);
	free(banner);
	free(build_id);
	free(arch);
	return err;
}
