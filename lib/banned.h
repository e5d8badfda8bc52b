/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Calls the program's sources may not make. The Makefile force-includes
 * this header (-include) into every source outside tests/, after the
 * system headers that declare these functions, so a declaration still
 * compiles and a call does not.
 *
 * Why: every allocation goes through lib/mem.h so that the out-of-memory
 * tests reach it (a raw malloc escapes the fault injection); string copies
 * and formats go through bounded calls (snprintf, lib/buf.h) so that no
 * length is trusted. lib/mem.c, the one place that calls the allocator,
 * undoes the allocation bans for itself.
 */
#ifndef KD_BANNED_H
#define KD_BANNED_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KD_BANNED(func) sorry_##func##_is_banned_see_lib_banned_h

#define malloc(n) KD_BANNED(malloc)
#define calloc(n, size) KD_BANNED(calloc)
#define realloc(p, size) KD_BANNED(realloc)
#define strdup(s) KD_BANNED(strdup)
#define strndup(s, n) KD_BANNED(strndup)
#define strcpy(dst, src) KD_BANNED(strcpy)
#define strcat(dst, src) KD_BANNED(strcat)
#define strncpy(dst, src, n) KD_BANNED(strncpy)
#define strncat(dst, src, n) KD_BANNED(strncat)
#define sprintf(...) KD_BANNED(sprintf)
#define vsprintf(...) KD_BANNED(vsprintf)

#endif
