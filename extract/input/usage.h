/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a program uses, read for `diff --for FILE` (lib/usage.h), from one
 * of three kinds of file, told apart by content:
 * - an ELF binary (usage-elf.c): its dynamic imports named as syscalls,
 *   on x86-64 its direct `syscall` numbers and ioctl command immediates;
 * - a seccomp profile, OCI/Docker JSON (usage-seccomp.c): the syscalls it
 *   allows, the ioctl commands its argument filters name;
 * - an `strace -f` log (usage-strace.c): every syscall it shows, ioctl
 *   commands by name, number or _IOC(...).
 * Every file may come from anyone: a malformed one is an error naming
 * the file, line and cause, never a crash or a partial set.
 */
#ifndef KD_USAGE_READ_H
#define KD_USAGE_READ_H

struct kd_usage;

/*
 * Fill @u (empty, KD_USAGE_INIT) from @path and finish it
 * (kd_usage_finish()). Returns 0 or a negative code (reported); @u is
 * then still to be released by the caller.
 */
int usage__read(const char *path, struct kd_usage *u);

/* The three readers, for usage__read() and the tests. */
int usage__read_strace(const char *path, struct kd_usage *u);
int usage__read_seccomp(const char *path, struct kd_usage *u);
int usage__read_elf(const char *path, struct kd_usage *u);

#endif
