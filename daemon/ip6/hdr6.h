/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reading an IPv6 packet past its fixed header, on the control thread:
 * the extension headers (RFC 8200 4), the options of the hop-by-hop and
 * destination options headers (4.2), and the upper-layer checksum over the
 * pseudo-header (8.1). Each function takes the IPv6 header and the
 * packet's length (40 + payload length), and reads nothing past it.
 */
#ifndef FWD_IP6_HDR6_H
#define FWD_IP6_HDR6_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ip.h>

/* Where a walk over the extension headers stopped. */
struct ip6_chain {
	uint8_t proto;   /* the header found there: upper layer, or one not walked */
	unsigned off;    /* its offset from the IPv6 header */
	unsigned nh_off; /* offset of the Next Header field that names it */
	bool later_frag; /* stopped at the data of a fragment other than the first */
};

/*
 * Skip the hop-by-hop, routing, destination options and fragment headers:
 * false when one runs past the packet. A non-first fragment's data is no
 * header: the walk stops there, later_frag set.
 */
bool ip6_chain_skip(const uint8_t *ip, unsigned len, struct ip6_chain *c);

/* What the options of a header say to do with its packet. */
enum ip6_opts_verdict {
	IP6_OPTS_OK,        /* every option known or skippable */
	IP6_OPTS_MALFORMED, /* lengths or padding wrong: drop it */
	IP6_OPTS_DISCARD,   /* an unknown option says: drop it silently */
	IP6_OPTS_PARAM,     /* an unknown option says: drop it, Parameter Problem 2 at *pointer */
};

/*
 * The options of the hop-by-hop (hbh true) or destination options header
 * at offset off, of hlen bytes (RFC 8200 4.2): Pad1 and PadN (at most 7
 * bytes of padding in a row, all zero, as Linux checks), Router Alert in a
 * hop-by-hop header (RFC 2711: two bytes of value); an unknown option by
 * the two high bits of its type: skip, discard, discard and tell (PARAM,
 * *pointer its offset from the IPv6 header), and tell unless the
 * destination is multicast.
 */
enum ip6_opts_verdict ip6_opts_check(const uint8_t *ip, unsigned off, unsigned hlen, bool hbh,
                                     uint32_t *pointer);

/* The length of the extension header at ip + off ((Hdr Ext Len + 1) * 8, or
 * 8 for a fragment header); 0 when it does not fit in len. */
unsigned ip6_ext_len(const uint8_t *ip, unsigned len, unsigned off, uint8_t type);

/* The one's complement sum of the pseudo-header of an upper-layer packet
 * of l4len bytes and protocol proto, and of those bytes: 0xffff when a
 * received packet's checksum is right. */
uint16_t ip6_l4_sum(const struct rte_ipv6_hdr *ip, uint8_t proto, const void *l4, unsigned l4len);

/* The checksum to write into an upper-layer header whose checksum field
 * holds 0. */
static inline uint16_t ip6_l4_cksum(const struct rte_ipv6_hdr *ip, uint8_t proto, const void *l4,
                                    unsigned l4len)
{
	return (uint16_t)~ip6_l4_sum(ip, proto, l4, l4len);
}

#endif
