/* SPDX-License-Identifier: BSD-3-Clause */
/* Extension headers, options and the pseudo-header checksum (hdr6.h). */
#include <string.h>

#include <netinet/in.h>

#include <rte_byteorder.h>
#include <rte_ip.h>

#include "ip6/hdr6.h"
#include "ip6/ip6.h"

#define HDR_LEN 40u

#define OPT_PAD1         0
#define OPT_PADN         1
#define OPT_ROUTER_ALERT 5
#define PAD_MAX          7 /* bytes of padding in a row: more is a covert channel (RFC 4942) */

unsigned ip6_ext_len(const uint8_t *ip, unsigned len, unsigned off, uint8_t type)
{
	unsigned hlen;

	if (off + 8 > len)
		return 0;
	hlen = type == IPPROTO_FRAGMENT ? 8u : (ip[off + 1] + 1u) * 8u;
	return off + hlen <= len ? hlen : 0;
}

static bool is_walked(uint8_t proto)
{
	return proto == IPPROTO_HOPOPTS || proto == IPPROTO_ROUTING || proto == IPPROTO_DSTOPTS ||
	       proto == IPPROTO_FRAGMENT;
}

bool ip6_chain_skip(const uint8_t *ip, unsigned len, struct ip6_chain *c)
{
	c->proto = ip[6];
	c->off = HDR_LEN;
	c->nh_off = 6;
	c->later_frag = false;
	while (is_walked(c->proto)) {
		unsigned hlen = ip6_ext_len(ip, len, c->off, c->proto);

		if (hlen == 0)
			return false;
		c->nh_off = c->off;
		if (c->proto == IPPROTO_FRAGMENT &&
		    (rte_be_to_cpu_16(*(const unaligned_uint16_t *)(ip + c->off + 2)) & 0xfff8)) {
			c->later_frag = true;
			c->proto = ip[c->off];
			c->off += hlen;
			return true;
		}
		c->proto = ip[c->off];
		c->off += hlen;
	}
	return true;
}

/* An option the header does not know: what the high bits of its type say. */
static enum ip6_opts_verdict unknown_option(const uint8_t *ip, unsigned at, uint32_t *pointer)
{
	switch (ip[at] >> 6) {
	case 0:
		return IP6_OPTS_OK;
	case 1:
		return IP6_OPTS_DISCARD;
	case 2:
		*pointer = at;
		return IP6_OPTS_PARAM;
	default:
		*pointer = at;
		return ip6_is_multicast(ip + 24) ? IP6_OPTS_DISCARD : IP6_OPTS_PARAM;
	}
}

/* PadN's bytes are all zero. */
static bool padn_ok(const uint8_t *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (v[i] != 0)
			return false;
	return true;
}

enum ip6_opts_verdict ip6_opts_check(const uint8_t *ip, unsigned off, unsigned hlen, bool hbh,
                                     uint32_t *pointer)
{
	unsigned at = off + 2, end = off + hlen, pad = 0;

	while (at < end) {
		uint8_t type = ip[at], n;
		enum ip6_opts_verdict v = IP6_OPTS_OK;

		if (type == OPT_PAD1) {
			if (++pad > PAD_MAX)
				return IP6_OPTS_MALFORMED;
			at++;
			continue;
		}
		if (at + 2 > end || at + 2 + ip[at + 1] > end)
			return IP6_OPTS_MALFORMED;
		n = ip[at + 1];
		if (type == OPT_PADN) {
			pad += 2u + n;
			if (pad > PAD_MAX || !padn_ok(ip + at + 2, n))
				return IP6_OPTS_MALFORMED;
		} else {
			pad = 0;
			if (hbh && type == OPT_ROUTER_ALERT) {
				if (n != 2)
					return IP6_OPTS_MALFORMED;
			} else if ((v = unknown_option(ip, at, pointer)) != IP6_OPTS_OK) {
				return v;
			}
		}
		at += 2u + n;
	}
	return IP6_OPTS_OK;
}

uint16_t ip6_l4_sum(const struct rte_ipv6_hdr *ip, uint8_t proto, const void *l4, unsigned l4len)
{
	struct {
		uint8_t src[16], dst[16];
		rte_be32_t len;
		uint8_t zero[3], proto;
	} __rte_packed ph;
	uint32_t sum;

	memcpy(ph.src, ip->src_addr, 16);
	memcpy(ph.dst, ip->dst_addr, 16);
	ph.len = rte_cpu_to_be_32(l4len);
	memset(ph.zero, 0, sizeof(ph.zero));
	ph.proto = proto;
	sum = (uint32_t)rte_raw_cksum(&ph, sizeof(ph)) + rte_raw_cksum(l4, l4len);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)((sum & 0xffff) + (sum >> 16));
}
