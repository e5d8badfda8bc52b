/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to extract/: the UAPI headers each binary (vmlinux, a module)
 * was compiled with, from its line tables (binary-headers.c).
 */
#ifndef KD_EXTRACT_BINARY_HEADERS_H
#define KD_EXTRACT_BINARY_HEADERS_H

#include "extract/types_internal.h"

/* A set of header names; zero-initialized is empty. */
struct binary_headers {
	char **names;		/* "linux/tc_act/tc_ipt.h", sorted after binary_headers__read() */
	size_t n, cap;
	struct kd_hashmap seen;	/* name hash -> index + 1, while reading */
};

/* Add the UAPI headers of every CU of @d to @out, then sort it. 0 or negative. */
int binary_headers__read(struct kdwarf *d, struct binary_headers *out);
/* Free @h's names; @h is empty afterwards. NULL is fine. */
void binary_headers__release(struct binary_headers *h);

#endif
