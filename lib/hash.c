// SPDX-License-Identifier: GPL-2.0-only
/* FNV-1a over bytes, finished with a 64-bit mixer to spread low bits. */
#include "hash.h"

#include <string.h>

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

uint64_t kd_hash_bytes(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return mix(h ^ len);
}

uint64_t kd_hash_str(uint64_t h, const char *s)
{
	if (!s)
		return kd_hash_u64(h, 0x6e756c6cULL);
	return kd_hash_bytes(h, s, strlen(s) + 1);
}

uint64_t kd_hash_u64(uint64_t h, uint64_t v)
{
	return kd_hash_bytes(h, &v, sizeof(v));
}
