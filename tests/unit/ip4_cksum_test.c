/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_cksum_ok, ip4_cksum and ip4_ttl_dec (RFC 1071, RFC 1624) against a
 * byte-by-byte reference, on random headers with and without options, at
 * odd alignments, for every TTL, and on the 0x0000/0xFFFF checksum cases
 * that naive incremental updates get wrong.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ip4/cksum.h"

#define ROUNDS 20000

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	/* xorshift64*: deterministic, so a failure reproduces */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 0x2545f4914f6cdd1dull) >> 32);
}

/* One's complement sum of big-endian 16-bit words, folded; the checksum
 * field (bytes 10-11) is included or skipped. */
static uint16_t ref_sum(const uint8_t *h, unsigned len, int skip_cksum)
{
	uint32_t s = 0;

	for (unsigned i = 0; i < len; i += 2) {
		if (skip_cksum && i == 10)
			continue;
		s += (uint32_t)(h[i] << 8 | h[i + 1]);
	}
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

static void put_cksum(uint8_t *h, uint16_t ck)
{
	h[10] = (uint8_t)(ck >> 8);
	h[11] = (uint8_t)ck;
}

static uint16_t get_cksum(const uint8_t *h)
{
	return (uint16_t)(h[10] << 8 | h[11]);
}

/* The checksum a full recomputation gives. */
static uint16_t ref_cksum(const uint8_t *h)
{
	return (uint16_t)~ref_sum(h, (h[0] & 0xf) * 4u, 1);
}

static bool ref_ok(const uint8_t *h)
{
	return ref_sum(h, (h[0] & 0xf) * 4u, 0) == 0xffff;
}

/* A random header of ihl words (random content, version 4) with a valid checksum. */
static void random_header(uint8_t *h, unsigned ihl)
{
	for (unsigned i = 0; i < ihl * 4; i++)
		h[i] = (uint8_t)rnd();
	h[0] = (uint8_t)(0x40 | ihl);
	put_cksum(h, ref_cksum(h));
}

static void test_cksum_ok_matches_reference(void **state)
{
	uint8_t buf[64 + 8];

	(void)state;
	for (unsigned r = 0; r < ROUNDS; r++) {
		uint8_t *h = buf + (r % 8); /* IP headers sit at any alignment */
		unsigned ihl = 5 + r % 11;

		random_header(h, ihl);
		assert_true(ip4_cksum_ok((const struct rte_ipv4_hdr *)h, ihl));
		assert_int_equal(rte_be_to_cpu_16(ip4_cksum((const struct rte_ipv4_hdr *)h)),
		                 get_cksum(h));
		/* any single flipped bit breaks it (a one's complement sum moves by 2^k) */
		unsigned bit = rnd() % (ihl * 32);
		h[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		assert_false(ip4_cksum_ok((const struct rte_ipv4_hdr *)h, ihl));
		/* and random garbage agrees with the reference either way */
		h[rnd() % (ihl * 4)] = (uint8_t)rnd();
		assert_int_equal(ip4_cksum_ok((const struct rte_ipv4_hdr *)h, ihl),
		                 ref_sum(h, ihl * 4, 0) == 0xffff);
	}
}

/* The fast path's 20-byte check agrees with the general one and the reference,
 * on valid headers, on single flipped bits, and on words at the carry edges. */
static void test_cksum20_ok_matches_reference(void **state)
{
	static const uint8_t edges[] = { 0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff };
	uint8_t buf[20 + 8];

	(void)state;
	for (unsigned r = 0; r < ROUNDS; r++) {
		uint8_t *h = buf + (r % 8);
		const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)h;

		random_header(h, 5);
		assert_true(ip4_cksum20_ok(ip));
		unsigned bit = rnd() % 160;
		h[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		assert_false(ip4_cksum20_ok(ip));
		/* bytes of edge values make long carry chains in the 64-bit sums */
		for (unsigned i = 1; i < 20; i++)
			if (rnd() % 2)
				h[i] = edges[rnd() % sizeof(edges)];
		if (r % 2) /* the flipped bit may have changed the IHL: 20 bytes all the same */
			put_cksum(h, (uint16_t)~ref_sum(h, 20, 1));
		assert_int_equal(ip4_cksum20_ok(ip), ip4_cksum_ok(ip, 5));
		assert_int_equal(ip4_cksum20_ok(ip), ref_sum(h, 20, 0) == 0xffff);
	}
	memset(buf, 0xff, 20); /* ten words of -0: sums to -0 */
	assert_true(ip4_cksum20_ok((const struct rte_ipv4_hdr *)buf));
}

static void test_cksum_ok_known_header(void **state)
{
	/* a well-known header (192.168.0.1 -> 192.168.0.199, UDP): checksum 0xb861 */
	uint8_t h[20] = { 0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
		          0xb8, 0x61, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7 };

	(void)state;
	assert_true(ip4_cksum_ok((const struct rte_ipv4_hdr *)h, 5));
	assert_int_equal(rte_be_to_cpu_16(ip4_cksum((const struct rte_ipv4_hdr *)h)), 0xb861);
	h[11] ^= 1;
	assert_false(ip4_cksum_ok((const struct rte_ipv4_hdr *)h, 5));
	/* options are covered: a valid 20-byte sum with a bad option word fails */
	uint8_t o[24];
	memcpy(o, h, 20);
	o[0] = 0x46;
	memset(o + 20, 0, 4);
	put_cksum(o, ref_cksum(o));
	assert_true(ip4_cksum_ok((const struct rte_ipv4_hdr *)o, 6));
	o[23] = 1;
	assert_false(ip4_cksum_ok((const struct rte_ipv4_hdr *)o, 6));
}

/* Decrement in a copy and compare with a full recomputation. */
static void check_ttl_dec(const uint8_t *orig, unsigned ihl, unsigned align)
{
	uint8_t buf[64 + 8], *h = buf + align;

	memcpy(h, orig, ihl * 4);
	ip4_ttl_dec((struct rte_ipv4_hdr *)h);
	assert_int_equal(h[8], (uint8_t)(orig[8] - 1));
	assert_memory_equal(h, orig, 8);
	assert_memory_equal(h + 9, orig + 9, 1);
	assert_memory_equal(h + 12, orig + 12, ihl * 4 - 12);
	assert_int_equal(get_cksum(h), ref_cksum(h));
	assert_true(ref_ok(h));
	assert_true(ip4_cksum_ok((const struct rte_ipv4_hdr *)h, ihl));
}

static void test_ttl_dec_every_ttl(void **state)
{
	uint8_t h[64];

	(void)state;
	for (unsigned r = 0; r < 200; r++) {
		unsigned ihl = 5 + r % 11;

		random_header(h, ihl);
		for (unsigned ttl = 1; ttl <= 255; ttl++) {
			h[8] = (uint8_t)ttl;
			put_cksum(h, ref_cksum(h));
			check_ttl_dec(h, ihl, (ttl + r) % 8);
		}
	}
}

/* Set the id field so that every word but the checksum sums to 0xffff
 * (one's complement -0), making 0x0000 the checksum. */
static void force_zero_cksum(uint8_t *h, unsigned ihl)
{
	h[4] = h[5] = 0;
	uint16_t id = (uint16_t)(0xffff - ref_sum(h, ihl * 4, 1));

	h[4] = (uint8_t)(id >> 8);
	h[5] = (uint8_t)id;
	assert_int_equal(ref_sum(h, ihl * 4, 1), 0xffff);
	assert_int_equal(ref_cksum(h), 0x0000);
}

/*
 * RFC 1624 section 3: when the other words sum to 0xffff (one's complement
 * -0) the checksum is 0x0000, and a header may also carry the equivalent
 * 0xffff. Both before and after the decrement, the result must verify and
 * equal what a full recomputation gives.
 */
static void test_ttl_dec_rfc1624_cases(void **state)
{
	uint8_t h[64];

	(void)state;
	for (unsigned r = 0; r < 2000; r++) {
		unsigned ihl = 5 + r % 11, ttl = 2 + rnd() % 254;

		random_header(h, ihl);
		h[8] = (uint8_t)ttl;
		/* checksum 0x0000 before the decrement */
		force_zero_cksum(h, ihl);
		put_cksum(h, 0x0000);
		assert_true(ref_ok(h));
		check_ttl_dec(h, ihl, r % 8);
		/* the same header carrying 0xffff, the other zero */
		put_cksum(h, 0xffff);
		assert_true(ref_ok(h));
		check_ttl_dec(h, ihl, r % 8);
		/* a header whose checksum becomes 0x0000 after the decrement */
		h[8] = (uint8_t)(ttl - 1);
		force_zero_cksum(h, ihl);
		h[8] = (uint8_t)ttl;
		put_cksum(h, ref_cksum(h));
		check_ttl_dec(h, ihl, r % 8);
	}
	/* one explicit case: the decremented header's checksum must be 0x0000, not 0xffff */
	random_header(h, 5);
	h[8] = 9;
	force_zero_cksum(h, 5);
	h[8] = 10;
	put_cksum(h, ref_cksum(h));
	ip4_ttl_dec((struct rte_ipv4_hdr *)h);
	assert_int_equal(get_cksum(h), 0x0000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cksum_ok_known_header),
		cmocka_unit_test(test_cksum_ok_matches_reference),
		cmocka_unit_test(test_cksum20_ok_matches_reference),
		cmocka_unit_test(test_ttl_dec_every_ttl),
		cmocka_unit_test(test_ttl_dec_rfc1624_cases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
