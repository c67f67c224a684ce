/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The neighbour table's keyed hash: SipHash-2-4 against its authors'
 * vectors, and addresses computed to share one chain under the old,
 * unkeyed hash spread over the table, so that a lookup miss stays short.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <rte_common.h>

#include "core/siphash.h"
#include "nexthop/neigh_priv.h"
#include "nexthop/nexthop.h"

#define N_NEXTHOPS  65536
#define N_COLLIDING 16384
#define K           0x9e3779b97f4a7c15ull

/* The first outputs of the reference's vectors (key 00..0f, message 00..n-1). */
static void test_siphash_vectors(void **state)
{
	static const uint64_t want[] = { 0x726fdb47dd0e0e31ull, 0x74f839c593dc67fdull,
		                         0x0d6c8009d9a94f5aull, 0x85676696d7fb7e2dull,
		                         0xcf2794e0277187b7ull, 0x18765564cd99a68dull,
		                         0xcbc9466e58fee3ceull, 0xab0200f58b01d137ull,
		                         0x93f5f5799a932462ull, 0x9e0082df0ba9e4b0ull };
	uint8_t key[16], msg[64];

	(void)state;
	for (unsigned i = 0; i < 16; i++)
		key[i] = (uint8_t)i;
	for (unsigned i = 0; i < 64; i++)
		msg[i] = (uint8_t)i;
	for (unsigned n = 0; n < RTE_DIM(want); n++)
		assert_true(fwd_siphash(key, msg, n) == want[n]);
	assert_true(fwd_siphash(key, msg, 15) == 0xa129ca6149be45e5ull);
	assert_true(fwd_siphash(key, msg, 63) == 0x958a324ceb064572ull);
}

/* The table's hash before it was keyed: a fixed multiplier, invertible. */
static uint32_t old_hash(const struct fwd_ip *a, uint16_t port, uint32_t mask)
{
	uint64_t h = (uint64_t)port << 8 | a->family, w;

	for (unsigned i = 0; i < sizeof(a->v6); i += 8) {
		memcpy(&w, &a->v6[i], sizeof(w));
		h = (h ^ w) * K;
	}
	h *= K;
	return (uint32_t)(h >> 32) & mask;
}

static uint64_t inverse(uint64_t k) /* of an odd k, mod 2^64 (Newton) */
{
	uint64_t x = k;

	for (unsigned i = 0; i < 6; i++)
		x *= 2 - k * x;
	return x;
}

/* The i-th address of 2001:db8::/64 in old bucket 0 of a table of mask+1
 * buckets: the last word undoes the two multiplications after it. */
static struct fwd_ip colliding(uint32_t i, uint32_t mask)
{
	static const uint8_t prefix[8] = { 0x20, 0x01, 0x0d, 0xb8 };
	struct fwd_ip a = { .family = AF_INET6 };
	uint64_t w0, h1, kinv = inverse(K);
	uint64_t target = (uint64_t)(i + 1) << (32 + __builtin_popcount(mask)) | 0x5a5a;

	memcpy(a.v6, prefix, sizeof(prefix));
	memcpy(&w0, prefix, sizeof(w0));
	h1 = ((AF_INET6 & 0xff) ^ w0) * K; /* port 0 */
	uint64_t w1 = target * kinv * kinv ^ h1;
	memcpy(&a.v6[8], &w1, sizeof(w1));
	return a;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void test_colliding_addresses_spread(void **state)
{
	uint32_t mask = rte_align32pow2(N_NEXTHOPS / 2) - 1, longest = 0;
	struct fwd_ip miss = colliding(N_COLLIDING, mask);
	double t0, us;

	(void)state;
	assert_int_equal(neigh_table_init(N_NEXTHOPS), 0);
	for (uint32_t i = 0; i < N_COLLIDING; i++) {
		struct fwd_ip a = colliding(i, mask);
		assert_int_equal(old_hash(&a, 0, mask), 0); /* one chain, unkeyed */
		assert_non_null(neigh_table_add(a, 0, NH_FIRST_DYNAMIC + i));
	}
	for (uint32_t i = 0; i < N_COLLIDING; i++)
		longest = RTE_MAX(longest, neigh_table_chain_len(colliding(i, mask), 0));
	assert_null(neigh_lookup(miss, 0));
	t0 = now_us();
	for (unsigned i = 0; i < 100; i++)
		assert_null(neigh_lookup(miss, 0));
	us = (now_us() - t0) / 100;
	printf("# %u addresses of one old chain: longest chain %u, lookup miss %.3f us\n",
	       (unsigned)N_COLLIDING, longest, us);
	/* 16,384 keys in 32,768 chains at random: the longest has about 7 */
	assert_true(longest <= 16);
	assert_true(us < 10);
	neigh_table_fini();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_siphash_vectors),
		cmocka_unit_test(test_colliding_addresses_spread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
