/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which pairs of a distribution's release matrix to compare
 * (`kabi-diff matrix K1 ... Kn`): each consecutive update of one flavour,
 * and each flavour of a release against that release's base flavour.
 *
 * A kernel release ("6.12.107+deb12-arm64-16k", as `uname -r` prints it)
 * is read as a version and a flavour: the version is its leading
 * '-'-separated words that start with a digit ("6.12.107+deb12",
 * "6.1.0-47"), the flavour the rest ("arm64-16k", "cloud-amd64"). A
 * release without such a rest ("6.5.6-300.fc39.x86_64") has the empty
 * flavour: its kernels form one series. Kernels of two architectures are
 * never paired: their syscall tables are not one ABI.
 */
#ifndef KD_DIFF_MATRIX_H
#define KD_DIFF_MATRIX_H

#include <stddef.h>

/* One kernel of the matrix, in the order the user gave them. */
struct matrix_kernel {
	const char *release;	/* "6.12.107+deb12-amd64"; NULL or "": unknown */
	const char *arch;	/* "x86_64", "aarch64" */
};

enum matrix_pair_kind {
	MATRIX_UPDATE,		/* the next version of the same flavour */
	MATRIX_FLAVOUR,		/* another flavour of the same version */
};

struct matrix_pair {
	enum matrix_pair_kind kind;
	size_t old, new;	/* indices into the kernels */
};

/*
 * Split @release into its version and flavour (malloc'ed; caller frees
 * both). Returns 0 or -ENOMEM.
 */
int matrix_split_release(const char *release, char **version, char **flavour);

/*
 * The pairs to compare among @k[0..@n): every update first (by
 * architecture and flavour in the order the user named them, versions in
 * increasing order, strverscmp()), then every flavour against its base:
 * the flavour of the first kernel given of that architecture, or, where a
 * version lacks it, the first kernel given of that version. Kernels of
 * equal release are compared once as a flavour pair when their flavours
 * differ and never otherwise. *pairs: malloc'ed (NULL when none), caller
 * frees. Returns 0 or -ENOMEM.
 */
int matrix_plan(const struct matrix_kernel *k, size_t n, struct matrix_pair **pairs,
		size_t *nr_pairs);

const char *matrix_pair_kind_name(enum matrix_pair_kind kind);

#endif
