/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the packet fuzzer asserts about every frame a port sends, written
 * apart from the code under test (its own checksum, its own parsing): an
 * l3 port sends well-formed IPv4, IPv6 or ARP from its own MAC, within its MTU,
 * untagged or with one 802.1Q tag of a real VLAN (its VLAN interfaces);
 * l2 ports send exactly the bytes that came in.
 */
#ifndef FWD_FUZZ_PACKET_CHECK_H
#define FWD_FUZZ_PACKET_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "core/iface.h"
#include "ip4/addr.h"
#include "ip6/addr6.h"
#include "port/port.h"

#define CHECK(cond, ...)                                                         \
	do {                                                                     \
		if (!(cond)) {                                                   \
			fprintf(stderr, "packet_fuzz: invariant: " __VA_ARGS__); \
			fputc('\n', stderr);                                     \
			abort();                                                 \
		}                                                                \
	} while (0)

#define ETH_LEN  14u
#define ARP_LEN  28u
#define VLAN_LEN 4u

static inline unsigned be16_at(const uint8_t *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static inline uint32_t be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* RFC 1071, the plain way: 16-bit words summed, carries folded. */
static inline bool check_ip_cksum(const uint8_t *ip, unsigned hlen)
{
	uint32_t sum = 0;

	for (unsigned i = 0; i < hlen; i += 2)
		sum += be16_at(ip + i);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum == 0xffff;
}

static inline bool mac_is_unicast(const uint8_t *mac)
{
	static const uint8_t zero[6];

	return !(mac[0] & 1) && memcmp(mac, zero, 6) != 0;
}

static inline bool port_has_addr(uint16_t port, uint32_t ip)
{
	for (unsigned i = 0; i < ip4_addrs[port].n; i++)
		if (ip4_addrs[port].a[i].addr == ip)
			return true;
	return false;
}

/* Where the fragment in IPv4 header ip ends: offset plus payload. */
static inline unsigned ip_frag_end(const uint8_t *ip)
{
	return (be16_at(ip + 6) & 0x1fff) * 8u + be16_at(ip + 2) - (ip[0] & 0xf) * 4u;
}

/* end_max: past 65535 only what came in so (the router forwards a fragment
 * as it is, but never makes one reach further than the packet did) */
static inline void check_ip4_frame(const struct fwd_port *p, const uint8_t *f, unsigned len,
                                   unsigned end_max)
{
	const uint8_t *ip = f + ETH_LEN;
	unsigned hlen, tot;

	CHECK(len >= ETH_LEN + 20, "%s: IPv4 frame of %u bytes", p->name, len);
	hlen = (ip[0] & 0xf) * 4u;
	tot = be16_at(ip + 2);
	CHECK(mac_is_unicast(f), "%s: IPv4 to a group or zero MAC", p->name);
	CHECK(ip[0] >> 4 == 4 && hlen >= 20, "%s: version/IHL 0x%02x", p->name, ip[0]);
	CHECK(tot == len - ETH_LEN, "%s: total length %u in a frame of %u", p->name, tot, len);
	CHECK(hlen <= tot, "%s: IHL %u past total length %u", p->name, hlen, tot);
	CHECK(check_ip_cksum(ip, hlen), "%s: bad IPv4 header checksum", p->name);
	CHECK(ip[8] >= 1, "%s: TTL 0 sent", p->name);
	CHECK(tot <= p->mtu, "%s: %u bytes over MTU %u", p->name, tot, p->mtu);
	CHECK(ip_frag_end(ip) <= RTE_MAX(65535u, end_max), "%s: fragment ends at %u", p->name,
	      ip_frag_end(ip));
}

/* ARP sent on interface id (p's own or a VLAN of p's) */
static inline void check_arp_frame(const struct fwd_port *p, uint16_t id, const uint8_t *f,
                                   unsigned len)
{
	const uint8_t *a = f + ETH_LEN;
	unsigned op;

	CHECK(len >= ETH_LEN + ARP_LEN, "%s: ARP frame of %u bytes", p->name, len);
	op = be16_at(a + 6);
	CHECK(be16_at(a) == 1 && be16_at(a + 2) == 0x0800 && a[4] == 6 && a[5] == 4,
	      "%s: ARP hardware/protocol fields", p->name);
	CHECK(op == 1 || op == 2, "%s: ARP op %u", p->name, op);
	CHECK(memcmp(a + 8, p->mac.addr_bytes, 6) == 0, "%s: ARP sender is not us", p->name);
	CHECK(port_has_addr(id, be32_at(a + 14)), "%s: ARP from an address not ours", p->name);
	CHECK(op == 1 || mac_is_unicast(f), "%s: ARP reply to a group MAC", p->name);
}

/* One of our IPv6 addresses, of any interface, in any state. */
static inline bool is_our_ip6(const uint8_t *a)
{
	for (int p = fwd_iface_next_id(-1); p >= 0; p = fwd_iface_next_id(p))
		for (unsigned i = 0; i < ip6_addrs[p].n; i++)
			if (memcmp(ip6_addrs[p].a[i].addr, a, 16) == 0)
				return true;
	return false;
}

/* RFC 8200 8.1: the upper-layer sum with the pseudo-header, the plain way. */
static inline bool check_icmp6_cksum(const uint8_t *ip, unsigned plen)
{
	uint32_t sum = 58 + plen;

	for (unsigned i = 8; i < 40; i += 2)
		sum += be16_at(ip + i);
	for (unsigned i = 0; i + 1 < plen; i += 2)
		sum += be16_at(ip + 40 + i);
	if (plen & 1)
		sum += (uint32_t)ip[40 + plen - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum == 0xffff;
}

/* IPv6 leaving p: a whole packet within the MTU, a hop limit left, never
 * from a group, to its group's MAC or a unicast one; what we made ourselves
 * (ICMPv6 from our address, right after the header, and not a packet of
 * the input `in` relayed: all but its hop limit found there) has its
 * checksum right. */
static inline void check_ip6_frame(const struct fwd_port *p, const uint8_t *f, unsigned len,
                                   const uint8_t *in, size_t in_len)
{
	const uint8_t *ip = f + ETH_LEN;
	unsigned plen;

	CHECK(len >= ETH_LEN + 40, "%s: IPv6 frame of %u bytes", p->name, len);
	plen = be16_at(ip + 4);
	CHECK(ip[0] >> 4 == 6, "%s: IPv6 version %u", p->name, ip[0] >> 4);
	CHECK(plen == len - ETH_LEN - 40, "%s: payload length %u in a frame of %u", p->name, plen,
	      len);
	CHECK(ip[7] >= 1, "%s: hop limit 0 sent", p->name);
	CHECK(len - ETH_LEN <= p->mtu, "%s: %u bytes over MTU %u", p->name, len - ETH_LEN, p->mtu);
	CHECK(ip[8] != 0xff, "%s: IPv6 from a group address", p->name);
	if (ip[24] == 0xff)
		CHECK(f[0] == 0x33 && f[1] == 0x33 && memcmp(f + 2, ip + 36, 4) == 0,
		      "%s: IPv6 group packet to another MAC", p->name);
	else
		CHECK(mac_is_unicast(f), "%s: IPv6 to a group or zero MAC", p->name);
	bool relayed = memmem(in, in_len, f + ETH_LEN + 8, len - ETH_LEN - 8) != NULL;

	if (ip[6] == 58 && is_our_ip6(ip + 8) && !relayed)
		CHECK(check_icmp6_cksum(ip, plen), "%s: bad ICMPv6 checksum from us", p->name);
}

/* A frame leaving l3 port p; end_max as for check_ip4_frame; in: the whole
 * input, as for check_ip6_frame. */
/* One 802.1Q tag (a VLAN interface's frame): a real VID (not 0, the
 * priority tag, nor 4095), and no second tag behind it (fwd never stacks). */
/* The VLAN interface the tag names (frames leave tagged only for one). */
static inline uint16_t check_vlan_tag(const struct fwd_port *p, const uint8_t *f, unsigned len)
{
	const struct fwd_iface *ifp;
	unsigned vid, inner;

	CHECK(len >= ETH_LEN + VLAN_LEN, "%s: tagged runt of %u bytes sent", p->name, len);
	vid = be16_at(f + 14) & 0xfff;
	inner = be16_at(f + 16);
	CHECK(vid != 0 && vid != 4095, "%s: sent with VLAN %u", p->name, vid);
	CHECK(inner != 0x8100 && inner != 0x88a8, "%s: sent with two tags", p->name);
	ifp = fwd_iface_by_vlan(p->idx, (uint16_t)vid);
	CHECK(ifp != NULL, "%s: sent on VLAN %u, which has no interface", p->name, vid);
	return ifp->id;
}

static inline void check_l3_frame(const struct fwd_port *p, const uint8_t *f, unsigned len,
                                  unsigned end_max, const uint8_t *in, size_t in_len)
{
	uint16_t id = p->idx; /* the interface it leaves by: the port, or the tag's VLAN */
	unsigned type;

	CHECK(len >= ETH_LEN, "%s: runt of %u bytes sent", p->name, len);
	CHECK(memcmp(f + 6, p->mac.addr_bytes, 6) == 0, "%s: source MAC not the port's", p->name);
	type = be16_at(f + 12);
	if (type == 0x8100) {
		id = check_vlan_tag(p, f, len);
		/* the rest as the untagged frame (its VLAN's MTU is at most the port's) */
		static uint8_t untagged[RTE_MBUF_DEFAULT_DATAROOM + 64];
		CHECK(len - VLAN_LEN <= sizeof(untagged), "%s: %u bytes tagged", p->name, len);
		memcpy(untagged, f, 12);
		memcpy(untagged + 12, f + 12 + VLAN_LEN, len - 12 - VLAN_LEN);
		f = untagged;
		len -= VLAN_LEN;
		type = be16_at(f + 12);
	}
	if (type == 0x0800)
		check_ip4_frame(p, f, len, end_max);
	else if (type == 0x0806)
		check_arp_frame(p, id, f, len);
	else if (type == 0x86dd)
		check_ip6_frame(p, f, len, in, in_len);
	else
		CHECK(false, "%s: ethertype 0x%04x sent", p->name, type);
}

/* A slow-protocols frame fwd sends on a bond's member (IEEE 802.3 annex 57A,
 * 802.1AX 6.4.2, 6.5.3): a LACPDU or a marker response, whole (124 bytes
 * with the Ethernet header), from the member's own MAC, to the slow
 * protocols group address, version 1. */
static inline void check_slow_frame(const struct fwd_port *p, const uint8_t *f, unsigned len)
{
	static const uint8_t slow[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x02 };

	CHECK(p->member != FWD_MEMBER_NONE, "%s: slow protocols frame on no bond member", p->name);
	CHECK(len >= ETH_LEN + 110, "%s: slow protocols frame of %u bytes", p->name, len);
	CHECK(memcmp(f, slow, 6) == 0, "%s: slow protocols frame not to 01:80:c2:00:00:02",
	      p->name);
	CHECK(memcmp(f + 6, p->mac.addr_bytes, 6) == 0, "%s: LACPDU source not the member's",
	      p->name);
	CHECK((f[ETH_LEN] == 1 && f[ETH_LEN + 2] == 1 && f[ETH_LEN + 3] == 20) ||
	              (f[ETH_LEN] == 2 && f[ETH_LEN + 2] == 2 && f[ETH_LEN + 3] == 16),
	      "%s: slow protocols frame neither a LACPDU nor a marker response", p->name);
	CHECK(f[ETH_LEN + 1] == 1, "%s: LACP version %u sent", p->name, f[ETH_LEN + 1]);
}

/* Copy m's bytes (any segments) into buf; returns the length. */
static inline unsigned frame_bytes(const struct rte_mbuf *m, uint8_t *buf, unsigned cap)
{
	unsigned len = 0;

	CHECK(rte_pktmbuf_pkt_len(m) <= cap, "frame of %u bytes sent", rte_pktmbuf_pkt_len(m));
	for (const struct rte_mbuf *s = m; s != NULL; s = s->next) {
		memcpy(buf + len, rte_pktmbuf_mtod(s, const void *), s->data_len);
		len += s->data_len;
	}
	CHECK(len == rte_pktmbuf_pkt_len(m), "pkt_len %u, segments hold %u", m->pkt_len, len);
	return len;
}

#endif
