/* SPDX-License-Identifier: BSD-3-Clause */
/* SipHash-2-4 as its authors' reference (public domain, CC0) describes it. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "core/log.h"
#include "core/siphash.h"

static uint8_t secret[FWD_SIPHASH_KEY_LEN];
static bool secret_set;

static inline uint64_t rotl(uint64_t x, unsigned b)
{
	return (x << b) | (x >> (64 - b));
}

static inline uint64_t load64(const uint8_t *p)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static inline void sipround(uint64_t v[4])
{
	v[0] += v[1];
	v[1] = rotl(v[1], 13) ^ v[0];
	v[0] = rotl(v[0], 32);
	v[2] += v[3];
	v[3] = rotl(v[3], 16) ^ v[2];
	v[0] += v[3];
	v[3] = rotl(v[3], 21) ^ v[0];
	v[2] += v[1];
	v[1] = rotl(v[1], 17) ^ v[2];
	v[2] = rotl(v[2], 32);
}

static inline void compress(uint64_t v[4], uint64_t m)
{
	v[3] ^= m;
	sipround(v);
	sipround(v);
	v[0] ^= m;
}

uint64_t fwd_siphash(const uint8_t key[FWD_SIPHASH_KEY_LEN], const void *data, size_t len)
{
	const uint8_t *p = data;
	uint64_t k0 = load64(key), k1 = load64(key + 8);
	uint64_t v[4] = { k0 ^ 0x736f6d6570736575ull, k1 ^ 0x646f72616e646f6dull,
		          k0 ^ 0x6c7967656e657261ull, k1 ^ 0x7465646279746573ull };
	uint8_t tail[8] = { 0 };
	size_t i;

	for (i = 0; i + 8 <= len; i += 8)
		compress(v, load64(p + i));
	memcpy(tail, p + i, len - i);
	compress(v, load64(tail) | (uint64_t)(len & 0xff) << 56);
	v[2] ^= 0xff;
	for (unsigned r = 0; r < 4; r++)
		sipround(v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}

static void secret_init(void)
{
	size_t got = 0;

	while (got < sizeof(secret)) {
		ssize_t n = getrandom(secret + got, sizeof(secret) - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			/* no kernel entropy at all: broken invariant at start */
			LOG(ERR, "getrandom: cannot choose the hash key");
			abort();
		}
		got += (size_t)n;
	}
	secret_set = true;
}

uint64_t fwd_keyed_hash(const void *data, size_t len)
{
	if (!secret_set)
		secret_init();
	return fwd_siphash(secret, data, len);
}

uint32_t fwd_hash_seed(uint32_t tag)
{
	uint8_t b[sizeof(tag)];

	memcpy(b, &tag, sizeof(b));
	return (uint32_t)fwd_keyed_hash(b, sizeof(b));
}
