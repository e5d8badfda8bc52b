/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What unpacking one input may write to disk: the members of a
 * distribution package (package.c) or the blobs of a git revision
 * (git-tree.c). A crafted archive declares a 1 TiB sparse file in 600
 * bytes, or goes on past the size it declares; so each member is admitted
 * against the caps and the free space before a byte is written, then
 * counted block by block while it is written. The caps leave room for
 * real kernels: Debian's debug vmlinux is ~0.7 GB, amdgpu.ko 0.36-0.6 GB,
 * a whole debug package 5.8-6.9 GB unpacked, its UAPI headers ~10 MB.
 * doc/LIMITS.md lists them.
 */
#ifndef KD_UNPACK_LIMITS_H
#define KD_UNPACK_LIMITS_H

#include <stdint.h>
#include <sys/types.h>

enum unpack_kind { UNPACK_IMAGE, UNPACK_MODULE, UNPACK_HEADER, UNPACK_KINDS };

#define UNPACK_MAX_IMAGE	(4ULL << 30)	/* one vmlinux member */
#define UNPACK_MAX_MODULE	(2ULL << 30)	/* one module member */
#define UNPACK_MAX_HEADER	(16ULL << 20)	/* one header or Kbuild */
#define UNPACK_MAX_HEADERS	(1ULL << 30)	/* the headers of one input, together */
#define UNPACK_MAX_INPUT	(32ULL << 30)	/* all one input writes, modules streamed too */
#define UNPACK_MAX_FILES	100000		/* members one input writes */
/* Directories below the unpacked tree's top: as deep as the UAPI walker goes. */
#define UNPACK_MAX_DEPTH	64

struct unpack_caps {
	uint64_t member[UNPACK_KINDS];	/* bytes of one member of each kind */
	uint64_t kind[UNPACK_KINDS];	/* bytes of all the members of a kind */
	uint64_t input;			/* bytes of every member written */
	uint64_t files;			/* members written */
};

/* The caps above (an image or a module replaces or follows the last one:
 * only their members and the input are capped). */
extern const struct unpack_caps unpack_default_caps;

/*
 * The caps of every budget that names none, instead of unpack_default_caps
 * (NULL: those again): the package fuzz harness keeps a crafted package to
 * a few MiB, where the real caps let one input write gigabytes.
 */
void unpack__override_caps(const struct unpack_caps *caps);

/* What one input has written so far; zero it, then set @caps. */
struct unpack_budget {
	const struct unpack_caps *caps;	/* NULL: the defaults (or the override) */
	uint64_t kind_bytes[UNPACK_KINDS];
	uint64_t bytes;
	uint64_t files;
};

/*
 * May member @member of @input (both for messages), of @kind and declared
 * size @declared bytes (negative: unknown), be written below @dir? Not
 * past a cap, nor when @dir's file system has less free space than it
 * declares. Returns 0, -KD_ELIMIT or -ENOSPC (reported in one line
 * naming the member and the cap).
 */
int unpack__admit(struct unpack_budget *b, const char *input, const char *member,
		  enum unpack_kind kind, int64_t declared, const char *dir);

/*
 * Is @rel (a path below the unpacked tree's top) at most UNPACK_MAX_DEPTH
 * directories deep? 0, or -KD_ELIMIT (reported, naming @member of @input).
 */
int unpack__check_depth(const char *input, const char *member, const char *rel);

/*
 * The member's data: @len bytes at most into @buf; returns how many (0 at
 * the end) or a negative code, reported by the function itself.
 */
typedef ssize_t (*unpack_read_fn)(void *ctx, void *buf, size_t len);

/*
 * Copy an admitted member from @read into @fd, every block counted before
 * it is written: more data than it declared (@declared, negative: unknown)
 * stops it with -KD_EFORMAT, more than a cap with -KD_ELIMIT (both
 * reported). A hole of a sparse member is zeros and counts like data.
 * Returns 0, @read's negative code, or -errno of a failed write (for the
 * caller to report with the path).
 */
int unpack__copy(struct unpack_budget *b, const char *input, const char *member,
		 enum unpack_kind kind, int64_t declared, unpack_read_fn read, void *ctx, int fd);

#endif
