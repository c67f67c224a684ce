/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the packet fuzzer asserts about every frame a port sends, written
 * apart from the code under test (its own checksum, its own parsing): an
 * l3 port sends well-formed IPv4 or ARP from its own MAC, within its MTU;
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

#include "ip4/addr.h"
#include "port/port.h"

#define CHECK(cond, ...)                                                         \
	do {                                                                     \
		if (!(cond)) {                                                   \
			fprintf(stderr, "packet_fuzz: invariant: " __VA_ARGS__); \
			fputc('\n', stderr);                                     \
			abort();                                                 \
		}                                                                \
	} while (0)

#define ETH_LEN 14u
#define ARP_LEN 28u

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

static inline bool port_has_addr(uint8_t port, uint32_t ip)
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

static inline void check_arp_frame(const struct fwd_port *p, const uint8_t *f, unsigned len)
{
	const uint8_t *a = f + ETH_LEN;
	unsigned op;

	CHECK(len >= ETH_LEN + ARP_LEN, "%s: ARP frame of %u bytes", p->name, len);
	op = be16_at(a + 6);
	CHECK(be16_at(a) == 1 && be16_at(a + 2) == 0x0800 && a[4] == 6 && a[5] == 4,
	      "%s: ARP hardware/protocol fields", p->name);
	CHECK(op == 1 || op == 2, "%s: ARP op %u", p->name, op);
	CHECK(memcmp(a + 8, p->mac.addr_bytes, 6) == 0, "%s: ARP sender is not us", p->name);
	CHECK(port_has_addr(p->idx, be32_at(a + 14)), "%s: ARP from an address not ours", p->name);
	CHECK(op == 1 || mac_is_unicast(f), "%s: ARP reply to a group MAC", p->name);
}

/* A frame leaving l3 port p; end_max as for check_ip4_frame. */
static inline void check_l3_frame(const struct fwd_port *p, const uint8_t *f, unsigned len,
                                  unsigned end_max)
{
	unsigned type;

	CHECK(len >= ETH_LEN, "%s: runt of %u bytes sent", p->name, len);
	CHECK(memcmp(f + 6, p->mac.addr_bytes, 6) == 0, "%s: source MAC not the port's", p->name);
	type = be16_at(f + 12);
	if (type == 0x0800)
		check_ip4_frame(p, f, len, end_max);
	else if (type == 0x0806)
		check_arp_frame(p, f, len);
	else
		CHECK(false, "%s: ethertype 0x%04x sent", p->name, type);
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
