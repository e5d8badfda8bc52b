/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel-directory inputs of `kabi-diff OLD NEW`: where the vmlinux, the
 * modules and the UAPI header tree of one kernel are, found by content in
 * the layouts builds and packages use (see kernel-input.c), and a
 * fingerprint of what would be read, for the extraction cache's key.
 */
#ifndef KD_KERNEL_INPUT_H
#define KD_KERNEL_INPUT_H

#include <stdbool.h>
#include <stdint.h>

struct kd_arch;

struct kernel_input {
	char *vmlinux;		/* the image with DWARF; NULL: a header tree alone */
	char *uapi_dir;		/* for extract --uapi; NULL: no header tree */
	char *modules_dir;	/* for extract --modules; NULL: no *.ko below */
	char *vdso_dir;		/* for extract --vdso; NULL: no vDSO debug images */
	char *uapi_roots[2];	/* the header directories fingerprinted (NULL: unused) */
	const char *layout;	/* "kernel cache", "build tree", "debug package", "header tree" */
	bool cache_layout_headers;	/* headers as Debian's package: include/arch/ARCH/ */
	/* A header tree alone: the architecture whose arch/ARCH/include/uapi it has. */
	const struct kd_arch *arch;
};

/*
 * Find the parts of the kernel in directory @dir. Fails (reported) when
 * neither a vmlinux nor a UAPI header tree is found, or when several images
 * are and none is at the top. A header tree without a vmlinux (layout
 * "header tree": headers_install's DIR/{linux,asm}, a source tree, an
 * include/ with uapi/ and arch/x86/include/uapi/, or another supported
 * architecture's when it has no x86 one, as --git --arch exports) has
 * @vmlinux NULL and @arch that architecture. @ki is
 * filled with strings it owns; release it with kernel_input__release()
 * (also after a failure).
 */
int kernel_input__probe(const char *dir, struct kernel_input *ki);

/*
 * Feed @d what @ki would read: its header trees by content (names, kinds,
 * sizes and SHA-256 of every entry: lib/tree-digest.h; a tree beyond its
 * bounds by each header's name and identity), every module's name and
 * identity (kernel_input__file_identity()): another tree, or an edited
 * file, feeds other bytes. The same headers unpacked elsewhere feed the
 * same. Returns 0 or a negative code (reported).
 */
struct kd_digest;
int kernel_input__fingerprint(const struct kernel_input *ki, struct kd_digest *d);

/*
 * A file's identity for the cache: device, inode, size, mtime and ctime.
 * Any write changes the ctime, and no tool sets it back, so an edited file
 * (even of the same size, its mtime restored) gets another identity.
 */
struct stat;
uint64_t kernel_input__file_identity(const struct stat *st);

void kernel_input__release(struct kernel_input *ki);

#endif
