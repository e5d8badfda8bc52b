// SPDX-License-Identifier: GPL-2.0-only
/* SHA-256 through libcrypto's EVP interface (lib/digest.h says why SHA-256). */
#include "digest.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "mem.h"

struct kd_digest {
	EVP_MD_CTX *ctx;
	bool failed;		/* a step of libcrypto failed: final says so */
};

static void start(struct kd_digest *d)
{
	d->failed = EVP_DigestInit_ex(d->ctx, EVP_sha256(), NULL) != 1;
}

int kd_digest__new(struct kd_digest **out)
{
	struct kd_digest *d = kd_calloc(1, sizeof(*d));

	*out = NULL;
	if (!d)
		return -ENOMEM;
	d->ctx = EVP_MD_CTX_new();
	if (!d->ctx) {
		free(d);
		return -ENOMEM;
	}
	start(d);
	*out = d;
	return 0;
}

void kd_digest__update(struct kd_digest *d, const void *data, size_t len)
{
	if (!d->failed && len && EVP_DigestUpdate(d->ctx, data, len) != 1)
		d->failed = true;
}

void kd_digest__str(struct kd_digest *d, const char *s)
{
	static const char null_marker[] = "\0(null)";

	if (!s)
		kd_digest__update(d, null_marker, sizeof(null_marker));
	else
		kd_digest__update(d, s, strlen(s) + 1);
}

void kd_digest__u64(struct kd_digest *d, uint64_t v)
{
	unsigned char b[8];
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	kd_digest__update(d, b, sizeof(b));
}

int kd_digest__final(struct kd_digest *d, unsigned char raw[KD_DIGEST_BYTES],
		     char hex[KD_DIGEST_HEX_LEN + 1])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0, i;
	bool failed = d->failed;

	if (!failed && (EVP_DigestFinal_ex(d->ctx, md, &len) != 1 || len != KD_DIGEST_BYTES))
		failed = true;
	if (hex)
		hex[0] = '\0';
	if (!failed && raw)
		memcpy(raw, md, KD_DIGEST_BYTES);
	for (i = 0; !failed && hex && i < KD_DIGEST_BYTES; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	start(d);
	return failed ? -EIO : 0;
}

void kd_digest__free(struct kd_digest *d)
{
	if (!d)
		return;
	EVP_MD_CTX_free(d->ctx);
	free(d);
}
