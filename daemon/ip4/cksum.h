/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4 header checksum helpers for the fast path (RFC 1071, RFC 1624). */
#ifndef FWD_IP4_CKSUM_H
#define FWD_IP4_CKSUM_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ip.h>

static inline uint16_t ip4_fold(uint32_t sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* IP headers follow a 14-byte Ethernet header: never assume alignment. */
typedef uint32_t ip4_u32_unaligned __attribute__((aligned(1), may_alias));
typedef uint16_t ip4_u16 __attribute__((aligned(1), may_alias));

/* True when the header (ihl 32-bit words, at least 5) sums to all ones. */
static inline bool ip4_cksum_ok(const struct rte_ipv4_hdr *ip, unsigned ihl)
{
	const ip4_u32_unaligned *w = (const ip4_u32_unaligned *)(const void *)ip;
	uint64_t sum = (uint64_t)w[0] + w[1] + w[2] + w[3] + w[4];

	for (unsigned i = 5; i < ihl; i++)
		sum += w[i];
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffffffff) + (sum >> 32);
	return ip4_fold((uint32_t)sum) == 0xffff;
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
 * Decrement the TTL and patch the checksum incrementally with RFC 1624
 * equation 3, HC' = ~(~HC + ~m + m'), on the 16-bit word holding TTL and
 * protocol. One's complement sums are byte-order independent, so the
 * stored (network order) words are used as they are.
 */
static inline void ip4_ttl_dec(struct rte_ipv4_hdr *ip)
{
	ip4_u16 *word = (ip4_u16 *)(void *)&ip->time_to_live;
	uint16_t m = *word, m2;

	ip->time_to_live--;
	m2 = *word;
	uint32_t sum = (uint16_t)~ip->hdr_checksum + (uint16_t)~m + m2;
	ip->hdr_checksum = (uint16_t)~ip4_fold(sum);
}

#endif
