/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The transmit hash of a bond (bonds[].hash, fwd.yaml(5)), as Linux's
 * xmit_hash_policy: l2 (layer2) the MACs and ethertype, l23 (layer2+3)
 * those and the IP addresses, l34 (layer3+4) the IP addresses and, for
 * TCP and UDP that is not a fragment, the ports; a frame that is not IP
 * falls back to l2. Every fragment of a datagram (the first, with its
 * ports, too) hashes on its addresses alone, so they leave together.
 * Pure functions of the frame's bytes: the unit tests drive them.
 */
#ifndef FWD_BOND_HASH_H
#define FWD_BOND_HASH_H

#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>

#include "bond/bond_config.h"

static inline uint32_t bond_load32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The IPv4 part of l23/l34: addresses, and ports when l4 wants them. */
static inline uint32_t bond_hash_ip4(const uint8_t *ip, uint32_t len, bool l4)
{
	uint32_t h, ihl;
	uint16_t frag;

	if (len < 20)
		return 0;
	h = bond_load32(ip + 12) ^ bond_load32(ip + 16);
	ihl = (ip[0] & 0xfu) * 4u;
	memcpy(&frag, ip + 6, sizeof(frag));
	if (l4 && (frag & RTE_BE16(0x3fff)) == 0 &&
	    (ip[9] == IPPROTO_TCP || ip[9] == IPPROTO_UDP) && ihl >= 20 && len >= ihl + 4)
		h ^= bond_load32(ip + ihl);
	return h;
}

static inline uint32_t bond_hash_ip6(const uint8_t *ip, uint32_t len, bool l4)
{
	uint32_t h = 0;

	if (len < 40)
		return 0;
	for (unsigned i = 8; i < 40; i += 4)
		h ^= bond_load32(ip + i);
	/* a fragment header (44) or any other extension: the addresses only */
	if (l4 && (ip[6] == IPPROTO_TCP || ip[6] == IPPROTO_UDP) && len >= 44)
		h ^= bond_load32(ip + 40);
	return h;
}

/* The l2 hash: the MACs' last four bytes and the ethertype. */
static inline uint32_t bond_hash_l2(const uint8_t *d, uint16_t type)
{
	return bond_load32(d + 2) ^ bond_load32(d + 8) ^ type;
}

/* The hash of frame d (len bytes, Ethernet, maybe one 802.1Q tag). */
static inline uint32_t bond_hash_frame(const uint8_t *d, uint32_t len, enum bond_hash how)
{
	uint32_t off = 14, h3;
	uint16_t type;

	if (len < 14)
		return 0;
	memcpy(&type, d + 12, sizeof(type));
	if (type == RTE_BE16(0x8100) && len >= 18) {
		memcpy(&type, d + 16, sizeof(type));
		off = 18;
	}
	if (how == BOND_HASH_L2)
		return bond_hash_l2(d, type);
	if (type == RTE_BE16(0x0800))
		h3 = bond_hash_ip4(d + off, len - off, how == BOND_HASH_L34);
	else if (type == RTE_BE16(0x86dd))
		h3 = bond_hash_ip6(d + off, len - off, how == BOND_HASH_L34);
	else
		return bond_hash_l2(d, type);
	return how == BOND_HASH_L23 ? h3 ^ bond_hash_l2(d, type) : h3;
}

/* Which of n members (n > 0) a hash picks: its bits mixed, then scaled. */
static inline unsigned bond_pick(uint32_t h, unsigned n)
{
	h ^= h >> 16;
	h *= 0x45d9f3bu;
	h ^= h >> 16;
	return (unsigned)(((uint64_t)h * n) >> 32);
}

#endif
