/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4 header checksum helpers for the fast path (RFC 1071, RFC 1624). */
#ifndef FWD_IP4_CKSUM_H
#define FWD_IP4_CKSUM_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_ip.h>

static inline uint16_t ip4_fold(uint32_t sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* IP headers follow a 14-byte Ethernet header: never assume alignment. */
typedef uint16_t ip4_u16 __attribute__((aligned(1), may_alias));

/* a + b with the carry wrapped around: one's complement addition in 64 bits */
static inline uint64_t ip4_add_ec(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? r + 1 : r;
}

/*
 * True when the header (ihl 32-bit words, at least 5) sums to all ones.
 * A one's complement sum of 16-bit words is congruent, mod 0xffff, to the
 * one's complement sum of the same bytes taken as 64-bit words (2^64 - 1 is
 * a multiple of 2^16 - 1, and 2^16 = 1 mod 0xffff makes byte order
 * irrelevant), so two additions with end-around carry and one reduction
 * replace the usual folding. An all-zero header would pass: callers check
 * the version first.
 */
static inline bool ip4_cksum_ok(const struct rte_ipv4_hdr *ip, unsigned ihl)
{
	const uint8_t *p = (const uint8_t *)ip;
	uint64_t a, b;
	uint32_t c;

	memcpy(&a, p, 8);
	memcpy(&b, p + 8, 8);
	memcpy(&c, p + 16, 4);
	a = ip4_add_ec(ip4_add_ec(a, b), c);
	if (unlikely(ihl > 5))
		for (unsigned i = 5; i < ihl; i++) {
			memcpy(&c, p + 4 * i, 4);
			a = ip4_add_ec(a, c);
		}
	return a % 0xffff == 0;
}

/* Full header checksum (the field is ignored and not changed), network order. */
static inline uint16_t ip4_cksum(const struct rte_ipv4_hdr *ip)
{
	const ip4_u16 *w = (const ip4_u16 *)(const void *)ip;
	unsigned n = (ip->version_ihl & 0xf) * 2;
	uint32_t sum = 0;

	for (unsigned i = 0; i < n; i++)
		if (i != 5)
			sum += w[i];
	return (uint16_t)~ip4_fold(sum);
}

/*
 * Decrement the TTL (which must be at least 1) and patch the checksum (RFC
 * 1624): the TTL/protocol word loses one TTL unit, so the checksum, its
 * complement, gains one, with the end-around carry. A sum of 0xffff (-0)
 * becomes 0x0000, as a full recomputation gives for a header that is not
 * all zeros (RFC 1624 section 3). One's complement sums are byte-order
 * independent, so the stored (network order) word is used as it is: the
 * way Linux's ip_decrease_ttl does it.
 */
static inline void ip4_ttl_dec(struct rte_ipv4_hdr *ip)
{
	uint32_t sum = (uint32_t)ip->hdr_checksum + rte_cpu_to_be_16(0x0100);

	ip->time_to_live--;
	/* sum + (sum >= 0xffff), without a compare: sum is at most 0x10000 */
	ip->hdr_checksum = (uint16_t)(sum + ((sum + 1) >> 16));
}

#endif
