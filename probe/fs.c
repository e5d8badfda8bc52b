// SPDX-License-Identifier: GPL-2.0-only
/*
 * --fs ext4: the probe's objects on a disk file system. The initramfs root
 * is tmpfs, and a file call answers as its file system does (tmpfs has no
 * O_DIRECT on directories, no FMODE_NOWAIT, two fallocate modes). Here
 * mke2fs makes a small ext4 image at probe time; the probe (/init) loads
 * the modules ext4 needs from the kernel's own modules tree, where the
 * kernel does not have them built in (Debian builds ext4, jbd2, mbcache,
 * crc16, crc32c and loop as modules), attaches the image to a loop device,
 * mounts it and makes it its root (chroot): its directory, its file and
 * every path a case names are then on ext4. The list of modules and the
 * image travel in the initramfs (/kabi-fs, /fs.img, /kabi-mod/).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/kdb.h"
#include "lib/arch.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/str.h"
#include "probe/probe_internal.h"

/*
 * What ext4 on a loop device needs (modinfo depends and softdep of
 * Debian's 6.1 and 6.12 builds). The probe loads them in passes until no
 * more load, so their order here does not matter.
 */
static const char *const ext4_modules[] = {
	"crc16", "mbcache", "jbd2", "crc32c_generic", "ext4", "loop",
};
#define NR_MODULES (sizeof(ext4_modules) / sizeof(ext4_modules[0]))
#define WALK_DEPTH_MAX 16
/* 4 KiB blocks as on a disk (mke2fs takes 1 KiB below 512 MiB); the journal is 4 MiB. */
#define IMAGE_SIZE "8M"

static int walk(struct probe_fs *fs, struct kd_buf *path, int depth)
{
	size_t len = path->len;
	DIR *d;
	struct dirent *e;
	int err = 0;

	if (depth > WALK_DEPTH_MAX)
		return 0;
	d = opendir(path->s);
	if (!d)
		return depth ? 0 : -errno;
	while (!err && (e = readdir(d))) {
		struct stat st;
		size_t i, n = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		path->len = len;
		path->s[len] = '\0';
		err = kd_buf_addf(path, "/%s", e->d_name);
		if (err || lstat(path->s, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			err = walk(fs, path, depth + 1);
			continue;
		}
		if (!S_ISREG(st.st_mode))
			continue;
		for (i = 0; i < NR_MODULES; i++) {
			size_t m = strlen(ext4_modules[i]);

			if (n <= m || strncmp(e->d_name, ext4_modules[i], m) || e->d_name[m] != '.')
				continue;
			if (!strcmp(e->d_name + m, ".ko") && !fs->modules[i]) {
				fs->modules[i] = kd_strdup(path->s);
				err = fs->modules[i] ? 0 : -ENOMEM;
			} else if (kd_starts_with(e->d_name + m, ".ko.") && !fs->compressed[i]) {
				/* .ko.xz, .ko.zst, .ko.gz: Debian's packages compress since 6.x */
				fs->compressed[i] = kd_strdup(path->s);
				err = fs->compressed[i] ? 0 : -ENOMEM;
			}
		}
	}
	closedir(d);
	path->len = len;
	path->s[len] = '\0';
	return err;
}

/*
 * A module without its DWARF: Debian's -dbg modules are what the cache
 * holds (ext4.ko 19 MB, 1 MB stripped), and every byte of the initramfs
 * is unpacked under TCG. @objcopy is the binutils of the kernel's
 * architecture; where it fails or is missing the module goes as it is.
 */
static int strip_module(const char *objcopy, const char *dir, size_t i, struct probe_fs *fs)
{
	struct kd_buf out = KD_BUF_INIT;
	int err = kd_buf_addf(&out, "%s/%s.ko", dir, ext4_modules[i]);

	if (!err) {
		char *argv[] = { (char *)objcopy, "--strip-debug", fs->modules[i], out.s, NULL };

		if (probe_run_cmd(argv, NULL, 60, 1u << 20) == 0) {
			free(fs->modules[i]);
			fs->modules[i] = kd_buf_detach(&out);
			fs->stripped[i] = true;
			err = fs->modules[i] ? 0 : -ENOMEM;
		} else {
			unlink(out.s);
		}
	}
	kd_buf_release(&out);
	return err;
}

int probe__fs_prepare(const char *dir, const char *arch, const char *modules_dir,
		      struct probe_fs *fs)
{
	const struct kd_arch *a = kd_arch__by_name(arch ? arch : "x86_64"), *host = kd_arch__host();
	struct kd_buf objcopy = KD_BUF_INIT;
	struct kd_buf path = KD_BUF_INIT, log = KD_BUF_INIT;
	size_t i;
	int err;

	memset(fs, 0, sizeof(*fs));
	/* No tree: every module built in (probe__fs_choose() said so). */
	err = modules_dir ? kd_buf_adds(&path, modules_dir) : 0;
	err = err || !modules_dir ? err : walk(fs, &path, 0);
	if (err && err != -ENOMEM)
		kd_err("%s: cannot read the kernel's modules (--modules): %s", modules_dir,
		       kd_strerror(err));
	for (i = 0; !err && i < NR_MODULES; i++)
		if (!fs->modules[i] && fs->compressed[i]) {
			kd_err("%s: a compressed module; --fs ext4 loads uncompressed .ko files only"
			       " (unxz or unzstd them)", fs->compressed[i]);
			err = -KD_EUNSUPPORTED;
		}
	if (!err)
		err = !a || a == host ? kd_buf_adds(&objcopy, "objcopy")
				      : kd_buf_addf(&objcopy, "%s-objcopy", a->gcc_triplet);
	for (i = 0; !err && i < NR_MODULES; i++)
		if (fs->modules[i])
			err = strip_module(objcopy.s, dir, i, fs);
	if (!err) {
		char *argv[] = { "mke2fs", "-q", "-F", "-t", "ext4", "-b", "4096", "-L", "kabi-probe",
				 NULL, IMAGE_SIZE, NULL };

		kd_buf_reset(&path);
		err = kd_buf_addf(&path, "%s/fs.img", dir);
		argv[9] = path.s;
		if (!err)
			err = probe_run_cmd(argv, &log, 60, 1u << 20);
		if (err == -ENOENT)
			kd_err("probe: --fs ext4 needs mke2fs (Debian: e2fsprogs)");
		else if (err)
			kd_err("probe: mke2fs failed on %s (exit %d): %.400s", path.s, err, log.s);
		err = err > 0 ? -EIO : err;
	}
	if (!err) {
		fs->image = kd_buf_detach(&path);
		err = fs->image ? 0 : -ENOMEM;
	}
	kd_buf_release(&path);
	kd_buf_release(&log);
	kd_buf_release(&objcopy);
	if (err)
		probe_fs__release(fs);
	return err;
}

/* Is @name an executable file in a directory of $PATH? */
static bool on_path(const char *name)
{
	const char *path = getenv("PATH"), *p, *end;
	struct kd_buf b = KD_BUF_INIT;
	bool yes = false;

	for (p = path ? path : ""; !yes && *p; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		kd_buf_reset(&b);
		if (kd_buf_addf(&b, "%.*s/%s", (int)(end - p), end > p ? p : ".", name))
			break;
		yes = access(b.s, X_OK) == 0;
	}
	kd_buf_release(&b);
	return yes;
}

int probe__fs_choose(const char *modules_dir, const char *boot_support, const char **fs,
		     struct kd_buf *why)
{
	/* What must be a module of the tree or built in; the rest follows ext4. */
	static const struct { size_t module; const char *word; } needs[] = {
		{ 4, KDB_BOOT_EXT4 }, { 5, KDB_BOOT_LOOP },
	};
	struct probe_fs found;
	struct kd_buf path = KD_BUF_INIT;
	size_t i;
	int err = 0;

	*fs = "tmpfs";
	memset(&found, 0, sizeof(found));
	if (!on_path("mke2fs"))
		return kd_buf_adds(why, "no mke2fs on PATH (Debian: e2fsprogs)");
	err = kd_buf_adds(&path, modules_dir);
	if (!err && walk(&found, &path, 0) == -ENOMEM)
		err = -ENOMEM;
	for (i = 0; !err && i < sizeof(needs) / sizeof(needs[0]); i++) {
		const char *name = ext4_modules[needs[i].module];

		if (found.modules[needs[i].module] || probe__has_word(boot_support, needs[i].word))
			continue;
		err = found.compressed[needs[i].module]
		      ? kd_buf_addf(why, "%s: compressed (unxz or unzstd it)",
				    found.compressed[needs[i].module])
		      : kd_buf_addf(why, "%s neither built in nor in %s (--modules)", name, modules_dir);
		break;
	}
	if (!err && i == sizeof(needs) / sizeof(needs[0]))
		*fs = "ext4";
	probe_fs__release(&found);
	kd_buf_release(&path);
	return err;
}

void probe_fs__release(struct probe_fs *fs)
{
	size_t i;

	if (fs->image)
		unlink(fs->image);
	free(fs->image);
	for (i = 0; i < PROBE_FS_MODULES_MAX; i++) {
		if (fs->stripped[i])
			unlink(fs->modules[i]);
		free(fs->modules[i]);
		free(fs->compressed[i]);
	}
	memset(fs, 0, sizeof(*fs));
}

int probe__pack_fs(struct probe_cpio *a, const struct probe_fs *fs)
{
	struct kd_buf data = KD_BUF_INIT, list = KD_BUF_INIT, name = KD_BUF_INIT;
	size_t i;
	int err;

	err = kd_buf_read_file(&data, fs->image);
	if (!err)
		err = probe_cpio__add_file(a, "fs.img", 0600, data.s, data.len);
	if (!err)
		err = probe_cpio__add_dir(a, "kabi-mod", 0755);
	for (i = 0; !err && i < NR_MODULES; i++) {
		if (!fs->modules[i])
			continue;	/* built in, or the kernel has no such module */
		kd_buf_reset(&data);
		kd_buf_reset(&name);
		err = kd_buf_read_file(&data, fs->modules[i]);
		if (err && err != -ENOMEM)
			kd_err("%s: %s", fs->modules[i], kd_strerror(err));
		if (!err)
			err = kd_buf_addf(&name, "kabi-mod/%s.ko", ext4_modules[i]);
		if (!err)
			err = probe_cpio__add_file(a, name.s, 0600, data.s, data.len);
		if (!err)
			err = kd_buf_addf(&list, "/%s\n", name.s);
	}
	/* An empty list is a list: ext4 and loop built in. */
	if (!err)
		err = probe_cpio__add_file(a, "kabi-fs", 0600, list.len ? list.s : "", list.len);
	kd_buf_release(&data);
	kd_buf_release(&list);
	kd_buf_release(&name);
	return err;
}
