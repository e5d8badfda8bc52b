/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Distribution kernel packages as inputs: Debian .deb (linux-image-*-dbg,
 * linux-headers-*-common, linux-image-*) and RPM (kernel-debuginfo,
 * kernel-headers), read with libarchive as a stream. Only the members a
 * kernel input needs are written, into a directory laid out as
 * DIR/{vmlinux,modules/,include/} (or DIR/usr/include for an installed
 * header tree), which kernel_input__probe() then reads like any kernel
 * directory; every other member is skipped without touching the disk.
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

/*
 * Write what a kernel input needs from the packages of @arg (one, or a
 * comma-separated list) into the existing empty directory @dir: the debug
 * vmlinux as DIR/vmlinux, modules under DIR/modules/ (only when a package
 * also brings UAPI headers), UAPI headers under DIR/include/ or
 * DIR/usr/include/. Paths are the packages' own, checked: nothing is
 * written outside @dir, links are not followed. Returns 0 or a negative
 * code (reported, naming the package).
 */
int kpkg__unpack(const char *arg, const char *dir, struct kpkg_stats *stats);

/*
 * kpkg__unpack() into a new directory below @parent (.kabi-unpack-XXXXXX);
 * *dir (malloc'ed, caller frees) names it. On failure nothing is left.
 */
int kpkg__unpack_temp(const char *arg, const char *parent, char **dir, struct kpkg_stats *stats);

/* Remove @dir and everything below it (best effort; for the unpacked area). */
void kpkg__remove_dir(const char *dir);

#endif
