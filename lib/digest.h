/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SHA-256 digests for cache keys. A cache answers a key's match without
 * comparing what it was computed from, so the key must be one an attacker
 * cannot collide on purpose (lib/hash.h's 64-bit hash can be); this is
 * the one place that knows the digest comes from OpenSSL's libcrypto.
 *
 * Updates never fail on their own: a failure of the library is kept and
 * returned by kd_digest__final(), so a caller feeding many small records
 * checks once.
 */
#ifndef KD_DIGEST_H
#define KD_DIGEST_H

#include <stddef.h>
#include <stdint.h>

/* Hex digits of a digest; a buffer for one needs KD_DIGEST_HEX_LEN + 1 bytes. */
#define KD_DIGEST_HEX_LEN 64
#define KD_DIGEST_BYTES 32

struct kd_digest;

/* A new SHA-256 computation in *out (free with kd_digest__free()). 0 or -ENOMEM. */
int kd_digest__new(struct kd_digest **out);
void kd_digest__update(struct kd_digest *d, const void *data, size_t len);
/* @s with its terminating NUL (NULL as one NUL and a marker), so names cannot run together. */
void kd_digest__str(struct kd_digest *d, const char *s);
/* @v as 8 little-endian bytes, the same on every host. */
void kd_digest__u64(struct kd_digest *d, uint64_t v);
/*
 * The digest of everything fed in, as raw bytes (@raw, may be NULL) and
 * lower-case hex (@hex, may be NULL). @d is reset for a new computation
 * either way. 0, or -EIO when the library failed at any step.
 */
int kd_digest__final(struct kd_digest *d, unsigned char raw[KD_DIGEST_BYTES],
		     char hex[KD_DIGEST_HEX_LEN + 1]);
void kd_digest__free(struct kd_digest *d);

#endif
