/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The NDP fixture of the unit tests that drive ip6/ndp*.c
 * (neigh_ndp_test.c, ndp_dad_test.c, ndp_ra_test.c): neigh_harness.h with
 * IPv6 on both ports, their DAD done, and builders of NDP frames.
 *
 *   p0  02:00:00:00:00:01  fe80::ff:fe00:1  2001:db8:1::1/64
 *   p1  02:00:00:00:00:02  fe80::ff:fe00:2  2001:db8:2::1/64
 */
#ifndef FWD_TEST_NDP_HARNESS_H
#define FWD_TEST_NDP_HARNESS_H

#include <inttypes.h>
#include <stdlib.h>

#include <rte_ip.h>

#include "neigh_harness.h"
#include "ip6/addr6.h"
#include "ip6/ip6.h"
#include "ip6/ndp.h"
#include "ip6/ndp_priv.h"

#define G6(net, host)                                           \
	{                                                       \
		0x20, 0x01, 0x0d, 0xb8, 0, (net), [15] = (host) \
	}

static const uint8_t P0_G[16] = G6(1, 1);
static const uint8_t P1_G[16] = G6(2, 1);
static const uint8_t P0_LL[16] = { 0xfe, 0x80, [11] = 0xff, [12] = 0xfe, [15] = 1 };
static const uint8_t H5[16] = G6(1, 5);
static const uint8_t H6[16] = G6(1, 6);
static const uint8_t H7[16] = G6(1, 7);
static const uint8_t HA_LL[16] = { 0xfe, 0x80, [9] = 0xaa, [11] = 0xff, [12] = 0xfe, [15] = 10 };
static const uint8_t ANY[16];
static const uint8_t ALL_NODES[16] = { 0xff, 0x02, [15] = 1 };
static const uint8_t ALL_ROUTERS[16] = { 0xff, 0x02, [15] = 2 };

/* Frames captured from Linux 6.18 (forwarding=1, 02:00:00:00:00:01 with
 * 2001:db8:1::1/64) answering, on a veth: an NS from 2001:db8:1::5 at
 * 02:aa:00:00:00:0a to the solicited-node group with its SLLA; a DAD
 * probe from :: for 2001:db8:1::1. */
static const uint8_t linux_na[] = {
	0x02, 0xaa, 0x00, 0x00, 0x00, 0x0a, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x86, 0xdd, 0x60,
	0x00, 0x00, 0x00, 0x00, 0x20, 0x3a, 0xff, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x88, 0x00, 0x0a, 0x6d, 0xe0, 0x00,
	0x00, 0x00, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x01, 0x02, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
};

static const uint8_t linux_dad_na[] = {
	0x33, 0x33, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x86, 0xdd, 0x60,
	0x00, 0x00, 0x00, 0x00, 0x20, 0x3a, 0xff, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x88, 0x00, 0x79, 0x28, 0xa0, 0x00,
	0x00, 0x00, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x01, 0x02, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
};

/* What a Linux 6.18 host (02:aa:00:00:00:0a) sends when its link comes up
 * and it talks to us: its DAD probe (with a nonce option, RFC 7527), an NS
 * for our link-local address, an RS. */
static const uint8_t linux_dad_ns[] = {
	0x33, 0x33, 0xff, 0x00, 0x00, 0x0a, 0x02, 0xaa, 0x00, 0x00, 0x00, 0x0a, 0x86, 0xdd, 0x60,
	0x00, 0x00, 0x00, 0x00, 0x20, 0x3a, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x01, 0xff, 0x00, 0x00, 0x0a, 0x87, 0x00, 0x3f, 0x47, 0x00, 0x00,
	0x00, 0x00, 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xaa, 0x00, 0xff, 0xfe,
	0x00, 0x00, 0x0a, 0x0e, 0x01, 0xf7, 0xc4, 0xdd, 0xfc, 0x59, 0x57,
};

static const uint8_t linux_ns[] = {
	0x33, 0x33, 0xff, 0x00, 0x00, 0x01, 0x02, 0xaa, 0x00, 0x00, 0x00, 0x0a, 0x86, 0xdd, 0x60,
	0x00, 0x00, 0x00, 0x00, 0x20, 0x3a, 0xff, 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0xaa, 0x00, 0xff, 0xfe, 0x00, 0x00, 0x0a, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x01, 0xff, 0x00, 0x00, 0x01, 0x87, 0x00, 0x7b, 0x33, 0x00, 0x00,
	0x00, 0x00, 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xfe,
	0x00, 0x00, 0x01, 0x01, 0x01, 0x02, 0xaa, 0x00, 0x00, 0x00, 0x0a,
};

static const uint8_t linux_rs[] = {
	0x33, 0x33, 0x00, 0x00, 0x00, 0x02, 0x02, 0xaa, 0x00, 0x00, 0x00, 0x0a, 0x86, 0xdd,
	0x60, 0x00, 0x00, 0x00, 0x00, 0x10, 0x3a, 0xff, 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0xaa, 0x00, 0xff, 0xfe, 0x00, 0x00, 0x0a, 0xff, 0x02, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x85, 0x00,
	0x79, 0xc6, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0x02, 0xaa, 0x00, 0x00, 0x00, 0x0a,
};

/* The RA of p0 with 2001:db8:1::1/64, 2001:db8:a::1/64 and fd00:1::1/48,
 * checksummed by a separate implementation; a Linux 6.18 host that receives
 * it configures 2001:db8:1:0:aa:ff:fe00:a and 2001:db8:a:0:aa:ff:fe00:a
 * (valid 2592000 s, preferred 604800 s) and a default route via
 * fe80::ff:fe00:1 (expires 1800 s, hoplimit 64). */
static const uint8_t ra_golden[] = {
	0x33, 0x33, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x86, 0xdd, 0x60,
	0x00, 0x00, 0x00, 0x00, 0x60, 0x3a, 0xff, 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0xff, 0xfe, 0x00, 0x00, 0x01, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x86, 0x00, 0xb5, 0x90, 0x40, 0x00,
	0x07, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0x02, 0x00, 0x00,
	0x00, 0x00, 0x01, 0x05, 0x01, 0x00, 0x00, 0x00, 0x00, 0x05, 0xdc, 0x03, 0x04, 0x40, 0xc0,
	0x00, 0x27, 0x8d, 0x00, 0x00, 0x09, 0x3a, 0x80, 0x00, 0x00, 0x00, 0x00, 0x20, 0x01, 0x0d,
	0xb8, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x04,
	0x40, 0xc0, 0x00, 0x27, 0x8d, 0x00, 0x00, 0x09, 0x3a, 0x80, 0x00, 0x00, 0x00, 0x00, 0x20,
	0x01, 0x0d, 0xb8, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static uint64_t rand_value;

static inline uint64_t rand_hook(void)
{
	return rand_value;
}

static unsigned n_unreach6;

static inline void unreachable6_hook(const struct rte_mbuf *m, uint16_t in_port)
{
	(void)m;
	(void)in_port;
	n_unreach6++;
}

/* Both clocks: the neighbour layer's and NDP's, in 100 ms ticks. */
static inline void advance6(uint64_t ms)
{
	uint64_t end = fake_now + ms;

	while (fake_now < end) {
		fake_now = RTE_MIN(fake_now + 100, end);
		neigh_tick();
		ndp_tick();
	}
}

static inline void counters_clear(void)
{
	for (unsigned p = 0; p < FWD_MAX_PORTS; p++)
		memset(fwd_control_ctrs((uint8_t)p), 0, sizeof(struct fwd_port_ctrs));
	for (struct fwd_counter *c = fwd_counters(); c != NULL; c = c->next)
		c->value = c->base = 0;
}

static inline void add6(uint16_t port, const uint8_t a[16], uint8_t len)
{
	struct fwd_ip6_prefix p = { .len = len };
	char err[128];

	memcpy(p.addr, a, 16);
	assert_int_equal(addr6_add(port, &p, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
}

/* The harness, then IPv6 on both ports, their DAD done. */
static inline int setup6(void **state)
{
	harness_setup(state);
	fwd_ports[0].link_up = fwd_ports[1].link_up = true;
	ip6_fibs[0] = fib6_create(256, NULL, SOCKET_ID_ANY);
	assert_non_null(ip6_fibs[0]);
	rib6_init(&ip6_ribs[0], ip6_fibs[0]);
	memset(ip6_addrs, 0, sizeof(ip6_addrs));
	ndp_module_init();
	ndp_random = rand_hook;
	rand_value = 0;
	n_unreach6 = 0;
	neigh_resolver(AF_INET6)->unreachable = unreachable6_hook;
	assert_int_equal(addr6_port_up(0), 0);
	assert_int_equal(addr6_port_up(1), 0);
	add6(0, P0_G, 64);
	add6(1, P1_G, 64);
	advance6(1100);
	assert_int_equal(addr6_state(0, P0_LL), ADDR6_PREFERRED);
	assert_int_equal(addr6_state(1, P1_G), ADDR6_PREFERRED);
	sent_clear();
	counters_clear();
	return 0;
}

static inline int teardown6(void **state)
{
	addr6_port_down(0);
	addr6_port_down(1);
	ndp_module_fini();
	ndp_random = rte_rand;
	rib6_clear(&ip6_ribs[0]);
	fib6_free(ip6_fibs[0]);
	ip6_fibs[0] = NULL;
	memset(ip6_addrs, 0, sizeof(ip6_addrs));
	return harness_teardown(state);
}

#define NDP_TEST(fn) cmocka_unit_test_setup_teardown(fn, setup6, teardown6)

/* ------------------------------------------------------------------ frames */

/* The ICMPv6 checksum, written here rather than taken from DPDK. */
static inline void cksum6(uint8_t *ip)
{
	unsigned len = (unsigned)ip[4] << 8 | ip[5];
	uint8_t *l4 = ip + 40;
	uint32_t s = len + IPPROTO_ICMPV6;

	l4[2] = l4[3] = 0;
	for (unsigned i = 8; i < 40; i += 2)
		s += (uint32_t)ip[i] << 8 | ip[i + 1];
	for (unsigned i = 0; i < len; i += 2)
		s += (uint32_t)l4[i] << 8 | (i + 1 < len ? l4[i + 1] : 0);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	l4[2] = (uint8_t)(~s >> 8);
	l4[3] = (uint8_t)~s;
}

/* Ethernet, IPv6 (hop limit 255) and the ICMPv6 message body of len bytes. */
static inline struct rte_mbuf *mk_icmp6(const struct rte_ether_addr *eth_dst,
                                        const struct rte_ether_addr *eth_src, const uint8_t src[16],
                                        const uint8_t dst[16], const uint8_t *body, unsigned len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *p;

	assert_non_null(m);
	p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(54 + len));
	if (p == NULL) {
		fail();
		return NULL;
	}
	memcpy(p, eth_dst, 6);
	memcpy(p + 6, eth_src, 6);
	p[12] = 0x86;
	p[13] = 0xdd;
	memset(p + 14, 0, 40);
	p[14] = 0x60;
	p[18] = (uint8_t)(len >> 8);
	p[19] = (uint8_t)len;
	p[20] = IPPROTO_ICMPV6;
	p[21] = 255;
	memcpy(p + 22, src, 16);
	memcpy(p + 38, dst, 16);
	memcpy(p + 54, body, len);
	cksum6(p + 14);
	return m;
}

static inline unsigned put_lla(uint8_t *p, uint8_t type, const struct rte_ether_addr *mac)
{
	p[0] = type;
	p[1] = 1;
	memcpy(p + 2, mac, 6);
	return 8;
}

/* NS or NA for target, with a link-layer address option when mac. */
static inline struct rte_mbuf *mk_nsna(uint8_t type, const struct rte_ether_addr *eth_dst,
                                       const struct rte_ether_addr *eth_src, const uint8_t src[16],
                                       const uint8_t dst[16], uint8_t flags,
                                       const uint8_t target[16], const struct rte_ether_addr *mac)
{
	uint8_t b[32] = { type, 0, 0, 0, flags };
	unsigned len = 24;

	memcpy(b + 8, target, 16);
	if (mac != NULL)
		len += put_lla(b + 24, type == NDP_NA ? NDP_OPT_TLLA : NDP_OPT_SLLA, mac);
	return mk_icmp6(eth_dst, eth_src, src, dst, b, len);
}

/* An NS to target's solicited-node group. */
static inline struct rte_mbuf *mk_ns(const struct rte_ether_addr *eth_src, const uint8_t src[16],
                                     const uint8_t target[16], const struct rte_ether_addr *slla)
{
	struct rte_ether_addr group;
	uint8_t dst[16];

	ip6_solicited_node(target, dst);
	ip6_mcast_mac(dst, &group);
	return mk_nsna(NDP_NS, &group, eth_src, src, dst, 0, target, slla);
}

/* An NA from target at mac (also its TLLA) to dst on p0. */
static inline struct rte_mbuf *mk_na(const struct rte_ether_addr *mac, const uint8_t target[16],
                                     const uint8_t dst[16], uint8_t flags)
{
	struct rte_ether_addr eth_dst = P0_MAC;

	if (ip6_is_multicast(dst))
		ip6_mcast_mac(dst, &eth_dst);
	return mk_nsna(NDP_NA, &eth_dst, mac, target, dst, flags, target, mac);
}

static inline struct rte_mbuf *mk_rs(const struct rte_ether_addr *mac, const uint8_t src[16],
                                     bool slla)
{
	static const struct rte_ether_addr all_routers = { { 0x33, 0x33, 0, 0, 0, 2 } };
	uint8_t b[16] = { NDP_RS };

	return mk_icmp6(&all_routers, mac, src, ALL_ROUTERS, b,
	                8 + (slla ? put_lla(b + 8, NDP_OPT_SLLA, mac) : 0));
}

/* A routed packet as a worker punts it; its flow label says which. */
static inline struct rte_mbuf *mk_ip6(const uint8_t dst[16], uint16_t id)
{
	uint8_t body[8] = { 0 };
	struct rte_mbuf *m = mk_icmp6(&P1_MAC, &MAC_B, P1_G, dst, body, sizeof(body));
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);

	p[20] = IPPROTO_UDP;
	p[21] = 63;
	p[16] = (uint8_t)(id >> 8);
	p[17] = (uint8_t)id;
	return m;
}

static inline void glean6(uint16_t in, uint16_t out, const uint8_t dst[16], uint16_t id)
{
	struct fwd_ip a = { .family = AF_INET6 };

	memcpy(a.v6, dst, 16);
	neigh_glean(mk_ip6(dst, id), in, out, a);
}

static inline struct neigh *lookup6(const uint8_t a[16], uint16_t port)
{
	struct fwd_ip ip = { .family = AF_INET6 };

	memcpy(ip.v6, a, 16);
	return neigh_lookup(ip, port);
}

/* Captured frame i must be exactly want (which is freed). */
static inline void assert_sent(unsigned i, uint16_t port, struct rte_mbuf *want)
{
	assert_true(i < n_sent);
	assert_int_equal(sent[i].port, port);
	assert_int_equal(sent[i].m->data_len, want->data_len);
	assert_int_equal(sent[i].m->pkt_len, want->pkt_len);
	assert_memory_equal(rte_pktmbuf_mtod(sent[i].m, void *), rte_pktmbuf_mtod(want, void *),
	                    want->data_len);
	rte_pktmbuf_free(want);
}

static inline void assert_sent_bytes(unsigned i, uint16_t port, const uint8_t *b, size_t len)
{
	assert_true(i < n_sent);
	assert_int_equal(sent[i].port, port);
	assert_int_equal(sent[i].m->data_len, len);
	assert_memory_equal(rte_pktmbuf_mtod(sent[i].m, void *), b, len);
}

/* Our NS from src for target: multicast, or unicast to mac. */
static inline struct rte_mbuf *our_ns(const uint8_t src[16], const uint8_t target[16],
                                      const struct rte_ether_addr *mac)
{
	bool any = ip6_is_unspecified(src);

	if (mac == NULL)
		return mk_ns(&P0_MAC, src, target, any ? NULL : &P0_MAC);
	return mk_nsna(NDP_NS, mac, &P0_MAC, src, target, 0, target, &P0_MAC);
}

static inline void in0(struct rte_mbuf *m)
{
	ndp_input(m, 0);
}

/* ports[].ra turned on, as ip6_config does it */
static inline void ra_on(uint16_t port)
{
	ip6_addrs[port].ra = true;
	ndp_port_changed(port, true);
}

#endif
