/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Distribution kernel packages as inputs: Debian .deb (linux-image-*-dbg,
 * linux-headers-*-common, linux-image-*) and RPM (kernel-debuginfo,
 * kernel-headers), read with libarchive as a stream. Only the vmlinux and
 * the headers are written, into a directory laid out as
 * DIR/{vmlinux,include/} (or DIR/usr/include for an installed header
 * tree), which kernel_input__probe() then reads like any kernel directory;
 * the modules (most of a debug package) are streamed to the extractor, a
 * few at a time; every other member is skipped without touching the disk.
 */
#ifndef KD_PACKAGE_H
#define KD_PACKAGE_H

#include <stdbool.h>
#include <stdint.h>

struct kpkg_stats {
	int64_t members;	/* members of the packages' payloads */
	int64_t written;	/* members written */
	int64_t written_bytes;	/* their size: the disk the unpacking used */
	int64_t total_bytes;	/* size of every regular member: unpacking all would use this */
	int64_t skipped_modules;/* .ko left out (no UAPI headers: nothing would use them) */
};

/* Does @path name a package (by its content: ar with debian-binary, an RPM lead)? */
bool kpkg__is_package(const char *path);

/*
 * Is @arg one package or a comma-separated list of them ("a.deb,b.deb")?
 * Each element must exist and be a package.
 */
bool kpkg__is_package_list(const char *arg);

struct kpkg;
struct extract_modules_feed;

/*
 * Read the packages of @arg (one, or a comma-separated list; those whose
 * name says "headers" first) into a new directory below @parent
 * (.kabi-unpack-XXXXXX, kpkg__dir()): the debug vmlinux as DIR/vmlinux,
 * UAPI headers under DIR/include/ or DIR/usr/include/. Paths are the
 * packages' own, checked: nothing is written outside DIR, links are not
 * followed, every member within the unpack limits (unpack-limits.h: its
 * size, the input's, the free space, the depth). Modules are never
 * unpacked: with UAPI headers they are handed to the extractor one at a
 * time by kpkg__modules_feed(); the reading of a
 * .deb stops at its first module (after the vmlinux) and goes on from
 * there, a package whose modules come before its vmlinux (an RPM) is read
 * a second time; without headers, the last package is read only up to
 * its first module after the vmlinux. @verbose: a line on stderr per reading. Returns 0 or a
 * negative code (reported, naming the package; nothing left on disk).
 */
int kpkg__open(const char *arg, const char *parent, bool verbose, struct kpkg **p);
const char *kpkg__dir(const struct kpkg *p);
/* The modules to extract, or NULL (no UAPI headers: nothing would use them; or none). */
const struct extract_modules_feed *kpkg__modules_feed(const struct kpkg *p);
/* Close the packages and remove DIR. */
void kpkg__close(struct kpkg *p);

/*
 * Is @path a file a UAPI header tree is made of: a header, or a Kbuild
 * list? asm-generic/Kbuild names the asm/ headers Kbuild generates, which
 * are headers of the tree (extract/uapi/tree.c): without it a package or
 * git export has fewer headers than the same tree unpacked.
 */
bool kpkg__uapi_file(const char *path);
/* Is @p relative with no empty, "." or ".." component (it stays inside a directory)? */
bool kpkg__safe_relative(const char *p);
/* Create the directories of @rel below @dir, never following a link: 0 or -errno. */
int kpkg__make_parents(const char *dir, const char *rel);

#endif
