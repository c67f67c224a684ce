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

/* The 20 bytes of an option-less header as two 64-bit words and a 32-bit one. */
static inline void ip4_hdr20_words(const uint8_t *p, uint64_t *a, uint64_t *b, uint32_t *c)
{
	memcpy(a, p, 8);
	memcpy(b, p + 8, 8);
	memcpy(c, p + 16, 4);
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

	ip4_hdr20_words(p, &a, &b, &c);
	a = ip4_add_ec(ip4_add_ec(a, b), c);
	if (unlikely(ihl > 5))
		for (unsigned i = 5; i < ihl; i++) {
			memcpy(&c, p + 4 * i, 4);
			a = ip4_add_ec(a, c);
		}
	return a % 0xffff == 0;
}

/*
 * ip4_cksum_ok for an option-less header (20 bytes), in as few instructions
 * as the fast path can have: the three words summed in one carry chain,
 * then "a % 0xffff == 0" as a multiplication by the inverse of 0xffff
 * modulo 2^64 and one compare (for an odd d, a is a multiple of d exactly
 * when a * d^-1 mod 2^64 <= (2^64 - 1) / d), with both constants read from
 * memory so that they hold no register in the forwarding loop.
 */
static const uint64_t ip4_ffff_inv = UINT64_C(0xfffefffefffeffff);
static const uint64_t ip4_ffff_lim = UINT64_C(0x0001000100010001);

static inline bool ip4_cksum20_ok(const struct rte_ipv4_hdr *ip)
{
	uint64_t a, b;
	uint32_t c;

	ip4_hdr20_words((const uint8_t *)ip, &a, &b, &c);
#if defined(__x86_64__) && defined(__GCC_ASM_FLAG_OUTPUTS__)
	bool ok;

	__asm__("addq %[b], %[a]\n\t"
	        "adcq %[c], %[a]\n\t"
	        "adcq $0, %[a]\n\t"
	        "imulq %[inv], %[a]\n\t"
	        "cmpq %[lim], %[a]"
	        : [a] "+&r"(a), "=@ccbe"(ok)
	        :
	        [b] "rm"(b), [c] "r"((uint64_t)c), [inv] "m"(ip4_ffff_inv), [lim] "m"(ip4_ffff_lim)
	        : "cc");
	return ok;
#else
	a = ip4_add_ec(ip4_add_ec(a, b), c);
	return a * ip4_ffff_inv <= ip4_ffff_lim;
#endif
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
	ip->time_to_live--;
#if defined(__x86_64__)
	/*
	 * The stored word w, as a little-endian CPU reads it, gains one, and
	 * one more when w >= 0xfffe: the compare leaves the carry set exactly
	 * when w < 0xfffe, and w - (-2) - carry is w + 1 or w + 2 (mod 2^16).
	 * Two instructions, both on the header in place.
	 */
	__asm__("cmpw $0xfffe, %[w]\n\t"
	        "sbbw $-2, %[w]"
	        : [w] "+m"(*(ip4_u16 *)(void *)((uint8_t *)ip + 10))
	        :
	        : "cc");
#else
	uint32_t sum = (uint32_t)ip->hdr_checksum + rte_cpu_to_be_16(0x0100);

	/* sum + (sum >= 0xffff), without a compare: sum is at most 0x10000 */
	ip->hdr_checksum = (uint16_t)(sum + ((sum + 1) >> 16));
#endif
}

#endif
