// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel directories as diff inputs. One kernel's parts are found by
 * content, in the layouts that hold them:
 *
 *   build tree       DIR/vmlinux, modules as *.ko anywhere below, UAPI in
 *                    DIR/include/uapi + DIR/arch/ARCH/include/uapi, or
 *                    DIR/usr/include after `make headers_install`;
 *   kernel cache     DIR/vmlinux, DIR/modules/, DIR/include/ (Debian's
 *                    linux-headers layout: include/uapi and
 *                    include/arch/ARCH/include/uapi), as tests/real uses;
 *   debug package    DIR/usr/lib/debug/boot/vmlinux-* (Debian's -dbg) or
 *                    DIR/usr/lib/debug/lib/modules/VERSION/vmlinux
 *                    (Fedora's debuginfo), modules under
 *                    DIR/usr/lib/debug/lib/modules/.
 *   bootable image   DIR/vmlinuz with DIR/System.map (Debian's regular
 *                    image package unpacked, fetch --image), when no
 *                    debug image is there: read through BTF.
 *
 * The vDSO's debug images (vdso64.so; arm64: vdso.so) are in DIR/vdso/
 * (the kernel cache) or DIR/usr/lib/debug/lib/modules/VERSION/vdso/ (the
 * debug package: the first VERSION in name order that has one).
 *
 * A vmlinux is recognized by its ELF magic, a header tree by its linux/ and
 * asm/ directories, modules by at least one *.ko file: a part that is
 * absent is left out (the diff then covers less), never guessed. ARCH is
 * the vmlinux's (its ELF machine: x86, arm64; lib/arch.h): the common
 * header packages ship every architecture's headers side by side.
 */
#include "extract/input/kernel-input.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "extract/extract.h"
#include "extract/uapi/uapi.h"
#include "lib/arch.h"
#include "lib/buf.h"
#include "lib/digest.h"
#include "lib/err.h"
#include "lib/hash.h"
#include "lib/mem.h"
#include "lib/path.h"
#include "lib/str.h"
#include "lib/tree-digest.h"

/* The architecture of the ELF file @path by its e_machine; x86_64 when unknown. */
static const struct kd_arch *elf_arch(const char *path)
{
	const struct kd_arch *arch = NULL;
	unsigned char head[20];

	if (path && kd_read_head(path, head, sizeof(head)) == (ssize_t)sizeof(head) &&
	    !memcmp(head, "\177ELF", 4) && head[EI_DATA] == ELFDATA2LSB)
		arch = kd_arch__by_elf_machine((unsigned int)head[18] | (unsigned int)head[19] << 8);
	return arch ? arch : kd_arch__by_name("x86_64");
}

static bool is_elf(const char *path)
{
	unsigned char head[4];

	return kd_read_head(path, head, sizeof(head)) == 4 && !memcmp(head, "\177ELF", 4);
}

/*
 * The ELF files @dir/NAME whose NAME starts with @prefix (and, with @leaf,
 * the ELF files @dir/NAME/@leaf): *@found counts them, *@path is the first
 * (sorted by name, so the choice is stable). Returns 0 or -ENOMEM.
 */
static int find_images(const char *dir, const char *prefix, const char *leaf, int *found, char **path)
{
	struct dirent **names = NULL;
	int n, i, err = 0;

	n = scandir(dir, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		struct kd_buf b = KD_BUF_INIT;

		if (!err && name[0] != '.' && !strncmp(name, prefix, strlen(prefix))) {
			err = leaf ? kd_buf_addf(&b, "%s/%s/%s", dir, name, leaf) :
				     kd_buf_addf(&b, "%s/%s", dir, name);
			if (!err && is_elf(b.s) && ++*found == 1)
				*path = kd_buf_detach(&b);
		}
		kd_buf_release(&b);
		free(names[i]);
	}
	free(names);
	return err;
}

/* @quiet_absent: no vmlinux is not an error (a header tree was found). */
static int find_vmlinux(const char *dir, struct kernel_input *ki, bool quiet_absent)
{
	char *top = kd_path_join(dir, "vmlinux"), *boot = kd_path_join(dir, "usr/lib/debug/boot"),
	     *mods = kd_path_join(dir, "usr/lib/debug/lib/modules");
	int found = 0, err = -ENOMEM;

	if (!top || !boot || !mods)
		goto out;
	err = 0;
	if (is_elf(top)) {
		ki->vmlinux = top;
		top = NULL;
		goto out;
	}
	err = find_images(boot, "vmlinux-", NULL, &found, &ki->vmlinux);
	if (!err && !found)
		err = find_images(mods, "", "vmlinux", &found, &ki->vmlinux);
	if (err)
		goto out;
	ki->layout = "debug package";
	/* No debug image: the bootable one (a regular package, fetch --image), read through BTF. */
	if (!found) {
		char *image = kd_path_join(dir, "vmlinuz");

		if (!image) {
			err = -ENOMEM;
			goto out;
		}
		if (extract__is_boot_image(image)) {
			ki->vmlinux = image;
			ki->layout = "bootable image";
			goto out;
		}
		free(image);
	}
	if (!found && quiet_absent) {
		ki->layout = "header tree";
	} else if (!found) {
		kd_err("%s: no vmlinux (an ELF file) found: looked for vmlinux,"
		       " usr/lib/debug/boot/vmlinux-*, usr/lib/debug/lib/modules/*/vmlinux"
		       " and a bootable vmlinuz;"
		       " nor a UAPI header tree (linux/ and asm/, or include/uapi/)", dir);
		err = -ENOENT;
	} else if (found > 1) {
		kd_err("%s: %d kernel images found (first %s): give the vmlinux of the one to"
		       " compare", dir, found, ki->vmlinux);
		err = -KD_EUSAGE;
	}
out:
	free(top);
	free(boot);
	free(mods);
	return err;
}

/* A header tree is keyed by content up to the UAPI compile cache's bounds, by identities beyond. */
#define FINGERPRINT_MAX_FILES 50000
#define FINGERPRINT_MAX_BYTES (512ull << 20)
#define FINGERPRINT_MAX_DEPTH 16
#define OUTSIDE_MAX_BYTES (16u << 20)	/* a header outside include/uapi, read for the key */

/* nftw() has no context argument: the state of the one walk under way. */
static struct {
	bool only_ko;		/* count modules (*.ko, *.ko.xz...) only, else *.h */
	bool stop_at_first;
	long files;
	uint64_t hash;		/* sum of per-file hashes: the walk's order does not matter */
	size_t root_len;
} walk;

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (type != FTW_F)
		return 0;
	/* The modules --modules reads, compressed ones too. */
	if (walk.only_ko ? !extract__is_module_path(path) : !kd_ends_with(path, ".h"))
		return 0;
	walk.files++;
	if (walk.stop_at_first)
		return 1;
	/*
	 * Gigabytes of modules are not read for a key: their identity is.
	 * Any write changes a file's ctime, which no tool can set back (a
	 * same-size edit with the mtime restored changes it).
	 */
	walk.hash += kd_hash_u64(kd_hash_str(KD_HASH_SEED, path + walk.root_len),
				 kernel_input__file_identity(st));
	return 0;
}

/* Walk @dir for *.ko (@ko) or *.h files; returns their count, or -1 when @dir is unreadable. */
static long walk_tree(const char *dir, bool ko, bool stop_at_first, uint64_t *hash)
{
	int rc;

	walk.only_ko = ko;
	walk.stop_at_first = stop_at_first;
	walk.files = 0;
	walk.hash = 0;
	walk.root_len = strlen(dir);
	rc = nftw(dir, walk_one, 32, FTW_PHYS);
	if (rc < 0)
		return -1;
	if (hash)
		*hash += walk.hash;
	return walk.files;
}

static int find_modules(const char *dir, struct kernel_input *ki)
{
	static const char *const where[] = { "modules", "usr/lib/debug/lib/modules", "" };
	size_t i;

	for (i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		char *p = *where[i] ? kd_path_join(dir, where[i]) : kd_strdup(dir);

		if (!p)
			return -ENOMEM;
		if ((!*where[i] || kd_has_dir(dir, where[i])) && walk_tree(p, true, true, NULL) > 0) {
			ki->modules_dir = p;
			return 0;
		}
		free(p);
		if (*where[i] && kd_has_dir(dir, where[i]))
			return 0;	/* the modules' own directory, empty: none */
	}
	return 0;
}

static int find_vdso(const char *dir, struct kernel_input *ki)
{
	char *mods = kd_path_join(dir, "usr/lib/debug/lib/modules");
	struct dirent **names = NULL;
	int i, n;

	if (!mods)
		return -ENOMEM;
	if (kd_has_dir(dir, "vdso")) {
		free(mods);
		return (ki->vdso_dir = kd_path_join(dir, "vdso")) ? 0 : -ENOMEM;
	}
	n = kd_has_dir(dir, "usr/lib/debug/lib/modules") ? scandir(mods, &names, NULL, alphasort) : 0;
	for (i = 0; i < n; i++) {
		char *sub = names[i]->d_name[0] != '.' ? kd_path_join(mods, names[i]->d_name) : NULL;

		if (!ki->vdso_dir && sub && kd_has_dir(sub, "vdso"))
			ki->vdso_dir = kd_path_join(sub, "vdso");
		free(sub);
		free(names[i]);
	}
	free(names);
	free(mods);
	return 0;
}

static int find_uapi(const char *dir, struct kernel_input *ki, const struct kd_arch *arch)
{
	/* uapi_dir (for extract --uapi), then the directories holding the headers. */
	static const char *const layouts[][3] = {
		{ "usr/include", "usr/include", NULL },
		{ "include", "include/uapi", "include/arch/%s/include/uapi" },
		{ "", "include/uapi", "arch/%s/include/uapi" },
		/* A header tree named itself: headers_install's, or an include/. */
		{ "", "", NULL },
		{ "", "uapi", "arch/%s/include/uapi" },
	};
	struct kd_buf arch_dir = KD_BUF_INIT;
	size_t i;
	int err = 0;

	for (i = 0; !err && i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		const char *const *l = layouts[i];

		kd_buf_reset(&arch_dir);
		if (l[2] && (err = kd_buf_addf(&arch_dir, l[2], arch->uapi_dir)))
			break;
		if (i == 0 ? !(kd_has_dir(dir, "usr/include/linux") && kd_has_dir(dir, "usr/include/asm")) :
		    i == 3 ? !(kd_has_dir(dir, "linux") && kd_has_dir(dir, "asm")) :
		    i == 4 ? !(kd_has_dir(dir, "uapi/linux") && kd_has_dir(dir, arch_dir.s)) :
			     !(kd_has_dir(dir, "include/uapi/linux") && kd_has_dir(dir, arch_dir.s)))
			continue;
		ki->uapi_dir = *l[0] ? kd_path_join(dir, l[0]) : kd_strdup(dir);
		ki->uapi_roots[0] = *l[1] ? kd_path_join(dir, l[1]) : kd_strdup(dir);
		ki->uapi_roots[1] = l[2] ? kd_path_join(dir, arch_dir.s) : NULL;
		ki->cache_layout_headers = i == 1;
		ki->arch = arch;
		if (!ki->uapi_dir || !ki->uapi_roots[0] || (l[2] && !ki->uapi_roots[1]))
			err = -ENOMEM;
		break;
	}
	kd_buf_release(&arch_dir);
	return err;
}

int kernel_input__probe(const char *dir, struct kernel_input *ki)
{
	size_t i;
	int err;

	memset(ki, 0, sizeof(*ki));
	ki->layout = "build tree";
	err = find_uapi(dir, ki, elf_arch(NULL));
	/* No x86 headers: another architecture's source tree (--git --arch exports one). */
	for (i = 1; !err && !ki->uapi_dir && kd_arch__nth(i); i++)
		err = find_uapi(dir, ki, kd_arch__nth(i));
	if (!err)
		err = find_vmlinux(dir, ki, ki->uapi_dir != NULL);
	/* The headers of the vmlinux's arch (the first look assumed x86_64's). */
	if (!err && ki->vmlinux && strcmp(elf_arch(ki->vmlinux)->name, "x86_64")) {
		free(ki->uapi_dir);
		free(ki->uapi_roots[0]);
		free(ki->uapi_roots[1]);
		ki->uapi_dir = ki->uapi_roots[0] = ki->uapi_roots[1] = NULL;
		ki->cache_layout_headers = false;
		err = find_uapi(dir, ki, elf_arch(ki->vmlinux));
	}
	/* Headers alone: modules answer a kernel's ioctls, there is none. */
	if (!err && ki->vmlinux)
		err = find_modules(dir, ki);
	if (!err && ki->vmlinux)
		err = find_vdso(dir, ki);
	/* A build tree keeps modules beside their sources and arch/ at the top. */
	if (!err && ki->vmlinux && strcmp(ki->layout, "debug package") &&
	    ((ki->modules_dir && kd_ends_with(ki->modules_dir, "/modules")) ||
	     (ki->uapi_roots[1] && ki->cache_layout_headers)))
		ki->layout = "kernel cache";
	if (err == -ENOMEM)
		kd_err("out of memory");
	return err;
}

uint64_t kernel_input__file_identity(const struct stat *st)
{
	uint64_t h = kd_hash_u64(KD_HASH_SEED, (uint64_t)st->st_dev);

	h = kd_hash_u64(h, (uint64_t)st->st_ino);
	h = kd_hash_u64(h, (uint64_t)st->st_size);
	h = kd_hash_u64(h, (uint64_t)st->st_mtim.tv_sec);
	h = kd_hash_u64(h, (uint64_t)st->st_mtim.tv_nsec);
	h = kd_hash_u64(h, (uint64_t)st->st_ctim.tv_sec);
	return kd_hash_u64(h, (uint64_t)st->st_ctim.tv_nsec);
}

/* @dir's headers by identity into @d: a tree beyond the digest's bounds. */
static int fingerprint_identities(struct kd_digest *d, const char *dir)
{
	uint64_t h = 0;

	if (walk_tree(dir, false, false, &h) < 0) {
		int e = errno ? errno : EIO;

		kd_err("%s: cannot read: %s", dir, strerror(e));
		return -e;
	}
	kd_digest__str(d, "identities");
	kd_digest__u64(d, h);
	return 0;
}

int kernel_input__fingerprint(const struct kernel_input *ki, struct kd_digest *d)
{
	static const struct kd_tree_bounds bounds = {
		.max_files = FINGERPRINT_MAX_FILES, .max_bytes = FINGERPRINT_MAX_BYTES,
		.max_depth = FINGERPRINT_MAX_DEPTH,
	};
	const char *const roots[2] = { ki->uapi_roots[0], ki->uapi_roots[1] };
	char hex[KD_DIGEST_HEX_LEN + 1];
	struct kd_digest *tree = NULL;
	bool too_big = false;
	uint64_t h = 0;
	int i, err = 0;

	if (roots[0] || roots[1]) {
		err = kd_digest__new(&tree);
		if (!err)
			err = kd_tree__digest(tree, roots, 2, &bounds, &too_big);
		if (!err && kd_digest__final(tree, NULL, hex))
			err = -EIO;
		kd_digest__free(tree);
		if (err) {
			kd_err("%s: cannot digest the header tree: %s", ki->uapi_dir ? ki->uapi_dir : "?",
			       kd_strerror(err));
			return err;
		}
		if (!too_big)
			kd_digest__str(d, hex);
		for (i = 0; too_big && !err && i < 2; i++)
			if (roots[i])
				err = fingerprint_identities(d, roots[i]);
		if (err)
			return err;
	}
	if (ki->modules_dir) {
		if (walk_tree(ki->modules_dir, true, false, &h) < 0) {
			int e = errno ? errno : EIO;

			kd_err("%s: cannot read: %s", ki->modules_dir, strerror(e));
			return -e;
		}
		kd_digest__str(d, "modules");
		kd_digest__u64(d, h);
	}
	/* A source tree's headers outside include/uapi are read too (extract/uapi/outside.c). */
	for (i = 0; ki->uapi_dir && uapi__outside_path((size_t)i); i++) {
		char *p = kd_path_join(ki->uapi_dir, uapi__outside_path((size_t)i));
		struct kd_buf text = KD_BUF_INIT;
		int rc;

		if (!p)
			return -ENOMEM;
		/* By content, as the tree's other headers; one that is not a readable file, by that. */
		rc = kd_buf_read_regular(&text, p, OUTSIDE_MAX_BYTES);
		free(p);
		kd_digest__str(d, uapi__outside_path((size_t)i));
		kd_digest__u64(d, (uint64_t)-rc);
		if (!rc)
			kd_digest__update(d, text.s ? text.s : "", text.len);
		kd_buf_release(&text);
		if (rc == -ENOMEM)
			return rc;
	}
	return 0;
}

void kernel_input__release(struct kernel_input *ki)
{
	if (!ki)
		return;
	free(ki->vmlinux);
	free(ki->uapi_dir);
	free(ki->modules_dir);
	free(ki->vdso_dir);
	free(ki->uapi_roots[0]);
	free(ki->uapi_roots[1]);
	memset(ki, 0, sizeof(*ki));
}
