/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What one program uses of the kernel's user-space ABI (`diff --for`):
 * syscalls by name or by number, ioctls by name or by command number.
 * Readers (extract/input/usage.h: an strace log, a seccomp profile, an
 * ELF binary) fill one; diff_result__restrict() keeps the changes it
 * reaches. Numbers are resolved to names against a kernel's tables by
 * the diff, since only a kernel knows which syscall a number is.
 *
 * Names are kept sorted and unique once kd_usage_finish() ran; a zeroed
 * struct (KD_USAGE_INIT) is empty and valid, kd_usage_release() frees it.
 */
#ifndef KD_USAGE_H
#define KD_USAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kd_usage {
	char *label;		/* what it was read from: "strace log", "seccomp profile" */
	char *abi;		/* the syscall ABI of its numbers and calls (x64, ia32,
				 * x32, arm64, aarch32); NULL: any */
	char **syscalls;	/* names */
	size_t nr_syscalls, cap_syscalls;
	int64_t *syscall_nrs;	/* numbers of @abi (a direct `syscall` instruction) */
	size_t nr_syscall_nrs, cap_syscall_nrs;
	char **ioctls;		/* names */
	size_t nr_ioctls, cap_ioctls;
	uint32_t *ioctl_cmds;	/* command numbers */
	size_t nr_ioctl_cmds, cap_ioctl_cmds;
	/* Names are a binary's imports: only those a kernel has as syscalls
	 * are syscalls (printf is none); otherwise every name is a syscall the
	 * program makes, one no kernel has is worth a word. */
	bool imports_are_candidates;
	/* What the reader could not see (static text, NULL: nothing to say). */
	const char *unseen;
};

#define KD_USAGE_INIT { 0 }

/* Add a name or a number (names are copied). 0 or -ENOMEM. */
int kd_usage_add_syscall(struct kd_usage *u, const char *name, size_t len);
int kd_usage_add_syscall_nr(struct kd_usage *u, int64_t nr);
int kd_usage_add_ioctl(struct kd_usage *u, const char *name, size_t len);
int kd_usage_add_ioctl_cmd(struct kd_usage *u, uint32_t cmd);
/* Sort and deduplicate every list: the lookups below need it. */
void kd_usage_finish(struct kd_usage *u);
/* Lookups in a finished set. */
bool kd_usage_has_syscall(const struct kd_usage *u, const char *name);
bool kd_usage_has_ioctl(const struct kd_usage *u, const char *name);
bool kd_usage_has_ioctl_cmd(const struct kd_usage *u, uint32_t cmd);
void kd_usage_release(struct kd_usage *u);

#endif
