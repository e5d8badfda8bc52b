// SPDX-License-Identifier: GPL-2.0-only
/*
 * extract__image_id(): an ELF vmlinux is opened with the extractor's ELF
 * reader (its build-id and whether it has the PVH entry QEMU starts it
 * by); an x86 bzImage is known by its setup header ("HdrS" at 0x202, boot
 * protocol 2.00+), whose kernel_version field points at the string
 * "RELEASE (BUILDER) UTS_VERSION" (Documentation/arch/x86/boot.rst).
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
#include "lib/err.h"
#include "lib/mem.h"

#define XEN_ELFNOTE_PHYS32_ENTRY 18
#define BZ_MAGIC_OFF 0x202		/* "HdrS" */
#define BZ_VERSION_OFF 0x206		/* boot protocol, 0x0200 and up */
#define BZ_KVER_OFF 0x20e		/* kernel_version: a pointer less 0x200 */
#define BZ_KVER_MAX 256

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
	else {
		kd_err("%s: neither an ELF vmlinux nor an x86 bzImage", path);
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
