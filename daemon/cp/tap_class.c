/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which way a frame goes between fwd and a port's TAP (cp/tap.h): pure
 * functions, unit-tested apart from the interfaces.
 */
#include <stddef.h>
#include <string.h>

#include "cp/tap.h"

#define ETH_LEN        14u
#define ETH_P_IP4      0x0800
#define ETH_P_ARP4     0x0806
#define ETH_P_IP6      0x86dd
#define IPPROTO_ICMP_  1
#define IPPROTO_ICMP6_ 58

const char *const tap_down_names[TAP_DOWN_MAX] = {
	[TAP_DOWN_ROUTE4] = "route4",   [TAP_DOWN_ROUTE6] = "route6",
	[TAP_DOWN_LINK] = "link",       [TAP_DOWN_ARP] = "arp",
	[TAP_DOWN_NDP] = "ndp",         [TAP_DOWN_TOO_BIG] = "too_big",
	[TAP_DOWN_INVALID] = "invalid", [TAP_DOWN_NOT_OURS] = "not_ours",
	[TAP_DOWN_NO_LINK] = "no_link",
};

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static enum tap_down class4(const uint8_t *ip, unsigned len,
                            bool (*is_local4)(uint16_t iface, uint32_t ip), uint16_t iface)
{
	unsigned hlen, tot;
	uint32_t src, dst;

	if (len < 20 || ip[0] >> 4 != 4)
		return TAP_DOWN_INVALID;
	hlen = (ip[0] & 0xfu) * 4u;
	tot = (unsigned)(ip[2] << 8 | ip[3]);
	if (hlen < 20 || tot < hlen || tot > len)
		return TAP_DOWN_INVALID;
	src = be32(ip + 12);
	dst = be32(ip + 16);
	/* link-local multicast (224.0.0.0/24) and broadcasts stay on the link:
	 * the kernel chose the port; the source may be 0 (DHCP) or ours */
	if ((dst & 0xffffff00u) == 0xe0000000u || dst == 0xffffffffu)
		return src == 0 || is_local4(iface, src) ? TAP_DOWN_LINK : TAP_DOWN_NOT_OURS;
	if (!is_local4(iface, src))
		return TAP_DOWN_NOT_OURS;
	if ((dst >> 28) == 0xe)
		return TAP_DOWN_INVALID; /* wider multicast: fwd routes no multicast */
	return TAP_DOWN_ROUTE4;
}

/* The upper-layer protocol after IPv6 extension headers (hop-by-hop,
 * routing, destination options), with its offset; -1 if cut short. */
static int upper6(const uint8_t *ip, unsigned len, unsigned *off)
{
	int nh = ip[6];

	*off = 40;
	while (nh == 0 || nh == 43 || nh == 60) {
		if (*off + 8 > len)
			return -1;
		nh = ip[*off];
		*off += (ip[*off + 1] + 1u) * 8u;
	}
	return *off <= len ? nh : -1;
}

static enum tap_down class6(const uint8_t *ip, unsigned len,
                            bool (*is_local6)(uint16_t iface, const uint8_t ip[16]), uint16_t iface)
{
	static const uint8_t any[16];
	unsigned off;
	int nh;

	if (len < 40 || ip[0] >> 4 != 6 || 40u + (unsigned)(ip[4] << 8 | ip[5]) > len)
		return TAP_DOWN_INVALID;
	nh = upper6(ip, 40u + (unsigned)(ip[4] << 8 | ip[5]), &off);
	if (nh < 0)
		return TAP_DOWN_INVALID;
	/* NDP (RS 133 .. redirect 137): fwd is the only speaker on the wire */
	if (nh == IPPROTO_ICMP6_ && off < len && ip[off] >= 133 && ip[off] <= 137)
		return TAP_DOWN_NDP;
	/* the unspecified source: MLD reports before an address (RFC 3810 5.2.13) */
	if (memcmp(ip + 8, any, 16) == 0)
		return ip[24] == 0xff ? TAP_DOWN_ROUTE6 : TAP_DOWN_NOT_OURS;
	if (!is_local6(iface, ip + 8))
		return TAP_DOWN_NOT_OURS;
	return TAP_DOWN_ROUTE6;
}

enum tap_down tap_down_class(const uint8_t *frame, unsigned len, unsigned mtu,
                             bool (*is_local4)(uint16_t iface, uint32_t ip),
                             bool (*is_local6)(uint16_t iface, const uint8_t ip[16]),
                             uint16_t iface)
{
	unsigned type;

	if (len < ETH_LEN)
		return TAP_DOWN_INVALID;
	type = (unsigned)(frame[12] << 8 | frame[13]);
	if (type == ETH_P_ARP4)
		return TAP_DOWN_ARP;
	if (len - ETH_LEN > mtu)
		return TAP_DOWN_TOO_BIG;
	if (type == ETH_P_IP4)
		return class4(frame + ETH_LEN, len - ETH_LEN, is_local4, iface);
	if (type == ETH_P_IP6)
		return class6(frame + ETH_LEN, len - ETH_LEN, is_local6, iface);
	return TAP_DOWN_INVALID;
}

enum tap_down tap_down_nolink(enum tap_down c, const uint8_t *frame, unsigned len)
{
	const uint8_t *dst = frame + ETH_LEN + 24;

	if (c == TAP_DOWN_LINK)
		return TAP_DOWN_NO_LINK;
	/* tap_down_class said ROUTE6 only of a whole IPv6 header */
	if (c != TAP_DOWN_ROUTE6 || len < ETH_LEN + 40)
		return c;
	if (dst[0] == 0xff || (dst[0] == 0xfe && (dst[1] & 0xc0) == 0x80))
		return TAP_DOWN_NO_LINK;
	return c;
}

int tap_up_owner(const uint8_t *frame, unsigned len, int (*owner4)(uint32_t ip),
                 int (*owner6)(const uint8_t ip[16]))
{
	unsigned type;

	if (len < ETH_LEN)
		return -1;
	type = (unsigned)(frame[12] << 8 | frame[13]);
	if (type == ETH_P_IP4 && len >= ETH_LEN + 20)
		return owner4(be32(frame + ETH_LEN + 16));
	if (type == ETH_P_IP6 && len >= ETH_LEN + 40)
		return owner6(frame + ETH_LEN + 24);
	return -1;
}
