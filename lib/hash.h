/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 64-bit content hashing for structural type identity. Not cryptographic:
 * dedup compares the full canonical description on a hash match, so a
 * collision costs a lookup, never a wrong merge.
 */
#ifndef KD_HASH_H
#define KD_HASH_H

#include <stddef.h>
#include <stdint.h>

#define KD_HASH_SEED 0x9e3779b97f4a7c15ULL

uint64_t kd_hash_bytes(uint64_t h, const void *data, size_t len);
uint64_t kd_hash_str(uint64_t h, const char *s);	/* NULL hashes as "" plus a marker */
uint64_t kd_hash_u64(uint64_t h, uint64_t v);

#endif
