/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NDP: answers to solicitations (byte for byte, as Linux sends them), what
 * advertisements may change (unsolicited ones never create an entry),
 * resolution of held packets, every refused message counted by reason,
 * DAD (a duplicate from a probe or an advertisement, preferred after the
 * timer), Router Advertisements (content, schedule, answers to RS at most
 * once per 3 s, the last one); then random frames.
 *
 *   p0  02:00:00:00:00:01  fe80::ff:fe00:1  2001:db8:1::1/64
 *   p1  02:00:00:00:00:02  fe80::ff:fe00:2  2001:db8:2::1/64
 */
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

static uint64_t rand_hook(void)
{
	return rand_value;
}

static unsigned n_unreach6;

static void unreachable6_hook(const struct rte_mbuf *m, uint8_t in_port)
{
	(void)m;
	(void)in_port;
	n_unreach6++;
}

/* Both clocks: the neighbour layer's and NDP's, in 100 ms ticks. */
static void advance6(uint64_t ms)
{
	uint64_t end = fake_now + ms;

	while (fake_now < end) {
		fake_now = RTE_MIN(fake_now + 100, end);
		neigh_tick();
		ndp_tick();
	}
}

static void counters_clear(void)
{
	for (unsigned p = 0; p < FWD_MAX_PORTS; p++)
		memset(fwd_control_ctrs((uint8_t)p), 0, sizeof(struct fwd_port_ctrs));
	for (struct fwd_counter *c = fwd_counters(); c != NULL; c = c->next)
		c->value = c->base = 0;
}

static void add6(uint8_t port, const uint8_t a[16], uint8_t len)
{
	struct fwd_ip6_prefix p = { .len = len };
	char err[128];

	memcpy(p.addr, a, 16);
	assert_int_equal(addr6_add(port, &p, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
}

/* The harness, then IPv6 on both ports, their DAD done. */
static int setup6(void **state)
{
	harness_setup(state);
	fwd_ports[0].link_up = fwd_ports[1].link_up = true;
	ip6_fib = fib6_create(256, NULL, SOCKET_ID_ANY);
	assert_non_null(ip6_fib);
	rib6_init(&ip6_rib, ip6_fib);
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

static int teardown6(void **state)
{
	addr6_port_down(0);
	addr6_port_down(1);
	ndp_module_fini();
	ndp_random = rte_rand;
	rib6_clear(&ip6_rib);
	fib6_free(ip6_fib);
	ip6_fib = NULL;
	memset(ip6_addrs, 0, sizeof(ip6_addrs));
	return harness_teardown(state);
}

#define NDP_TEST(fn) cmocka_unit_test_setup_teardown(fn, setup6, teardown6)

/* ------------------------------------------------------------------ frames */

/* The ICMPv6 checksum, written here rather than taken from DPDK. */
static void cksum6(uint8_t *ip)
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
static struct rte_mbuf *mk_icmp6(const struct rte_ether_addr *eth_dst,
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

static unsigned put_lla(uint8_t *p, uint8_t type, const struct rte_ether_addr *mac)
{
	p[0] = type;
	p[1] = 1;
	memcpy(p + 2, mac, 6);
	return 8;
}

/* NS or NA for target, with a link-layer address option when mac. */
static struct rte_mbuf *mk_nsna(uint8_t type, const struct rte_ether_addr *eth_dst,
                                const struct rte_ether_addr *eth_src, const uint8_t src[16],
                                const uint8_t dst[16], uint8_t flags, const uint8_t target[16],
                                const struct rte_ether_addr *mac)
{
	uint8_t b[32] = { type, 0, 0, 0, flags };
	unsigned len = 24;

	memcpy(b + 8, target, 16);
	if (mac != NULL)
		len += put_lla(b + 24, type == NDP_NA ? NDP_OPT_TLLA : NDP_OPT_SLLA, mac);
	return mk_icmp6(eth_dst, eth_src, src, dst, b, len);
}

/* An NS to target's solicited-node group. */
static struct rte_mbuf *mk_ns(const struct rte_ether_addr *eth_src, const uint8_t src[16],
                              const uint8_t target[16], const struct rte_ether_addr *slla)
{
	struct rte_ether_addr group;
	uint8_t dst[16];

	ip6_solicited_node(target, dst);
	ip6_mcast_mac(dst, &group);
	return mk_nsna(NDP_NS, &group, eth_src, src, dst, 0, target, slla);
}

/* An NA from target at mac (also its TLLA) to dst on p0. */
static struct rte_mbuf *mk_na(const struct rte_ether_addr *mac, const uint8_t target[16],
                              const uint8_t dst[16], uint8_t flags)
{
	struct rte_ether_addr eth_dst = P0_MAC;

	if (ip6_is_multicast(dst))
		ip6_mcast_mac(dst, &eth_dst);
	return mk_nsna(NDP_NA, &eth_dst, mac, target, dst, flags, target, mac);
}

static struct rte_mbuf *mk_rs(const struct rte_ether_addr *mac, const uint8_t src[16], bool slla)
{
	static const struct rte_ether_addr all_routers = { { 0x33, 0x33, 0, 0, 0, 2 } };
	uint8_t b[16] = { NDP_RS };

	return mk_icmp6(&all_routers, mac, src, ALL_ROUTERS, b,
	                8 + (slla ? put_lla(b + 8, NDP_OPT_SLLA, mac) : 0));
}

/* A routed packet as a worker punts it; its flow label says which. */
static struct rte_mbuf *mk_ip6(const uint8_t dst[16], uint16_t id)
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

static void glean6(uint8_t in, uint8_t out, const uint8_t dst[16], uint16_t id)
{
	struct fwd_ip a = { .family = AF_INET6 };

	memcpy(a.v6, dst, 16);
	neigh_glean(mk_ip6(dst, id), in, out, a);
}

static struct neigh *lookup6(const uint8_t a[16], uint8_t port)
{
	struct fwd_ip ip = { .family = AF_INET6 };

	memcpy(ip.v6, a, 16);
	return neigh_lookup(ip, port);
}

/* Captured frame i must be exactly want (which is freed). */
static void assert_sent(unsigned i, uint8_t port, struct rte_mbuf *want)
{
	assert_true(i < n_sent);
	assert_int_equal(sent[i].port, port);
	assert_int_equal(sent[i].m->data_len, want->data_len);
	assert_int_equal(sent[i].m->pkt_len, want->pkt_len);
	assert_memory_equal(rte_pktmbuf_mtod(sent[i].m, void *), rte_pktmbuf_mtod(want, void *),
	                    want->data_len);
	rte_pktmbuf_free(want);
}

static void assert_sent_bytes(unsigned i, uint8_t port, const uint8_t *b, size_t len)
{
	assert_true(i < n_sent);
	assert_int_equal(sent[i].port, port);
	assert_int_equal(sent[i].m->data_len, len);
	assert_memory_equal(rte_pktmbuf_mtod(sent[i].m, void *), b, len);
}

/* Our NS from src for target: multicast, or unicast to mac. */
static struct rte_mbuf *our_ns(const uint8_t src[16], const uint8_t target[16],
                               const struct rte_ether_addr *mac)
{
	bool any = ip6_is_unspecified(src);

	if (mac == NULL)
		return mk_ns(&P0_MAC, src, target, any ? NULL : &P0_MAC);
	return mk_nsna(NDP_NS, mac, &P0_MAC, src, target, 0, target, &P0_MAC);
}

static void in0(struct rte_mbuf *m)
{
	ndp_input(m, 0);
}

/* ports[].ra turned on, as ip6_config does it */
static void ra_on(uint8_t port)
{
	ip6_addrs[port].ra = true;
	ndp_port_changed(port, true);
}

/* ------------------------------------------------------- solicitations */

/* An NS for our address: the NA Linux sends, byte for byte (Router,
 * Solicited, Override; TLLA; checksum), and the asker learnt, stale. */
static void test_ns_answered_exact(void **state)
{
	struct neigh *n;

	(void)state;
	in0(mk_ns(&MAC_A, H5, P0_G, &MAC_A));
	assert_int_equal(n_sent, 1);
	assert_sent_bytes(0, 0, linux_na, sizeof(linux_na));
	assert_int_equal(ndp_ns_rx.value, 1);
	assert_int_equal(ndp_na_tx.value, 1);
	n = lookup6(H5, 0);
	assert_non_null(n);
	assert_int_equal(n->state, NEIGH_STALE);
	assert_memory_equal(&n->mac, &MAC_A, 6);
	assert_int_equal(nh_table[n->nh].type, NH_FWD);
	assert_int_equal(nh_table[n->nh].l2.ether_type, rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6));
	assert_true(n->in_rib); /* its /128 */
	assert_int_equal(fwd_control_ctrs(0)->consumed, 1);
	assert_int_equal(fwd_control_ctrs(0)->created, 1);

	/* someone else's DAD probe for our address: defended to all nodes, as Linux */
	in0(mk_ns(&MAC_B, ANY, P0_G, NULL));
	assert_int_equal(n_sent, 2);
	assert_sent_bytes(1, 0, linux_dad_na, sizeof(linux_dad_na));
	assert_int_equal(ndp_dad_duplicate.value, 0);
}

/* Our link-local address too; a unicast probe without SLLA is answered to
 * the frame's sender and learns nothing; not on another port, not for a
 * host's address. */
static void test_ns_linklocal_unicast_foreign(void **state)
{
	(void)state;
	in0(mk_ns(&MAC_A, HA_LL, P0_LL, &MAC_A));
	assert_int_equal(n_sent, 1);
	assert_sent(0, 0, mk_nsna(NDP_NA, &MAC_A, &P0_MAC, P0_LL, HA_LL, 0xe0, P0_LL, &P0_MAC));
	assert_non_null(lookup6(HA_LL, 0));
	assert_false(lookup6(HA_LL, 0)->in_rib); /* link-local: never a FIB entry */

	in0(mk_nsna(NDP_NS, &P0_MAC, &MAC_B, H6, P0_G, 0, P0_G, NULL));
	assert_int_equal(n_sent, 2);
	assert_sent(1, 0, mk_nsna(NDP_NA, &MAC_B, &P0_MAC, P0_G, H6, 0xe0, P0_G, &P0_MAC));
	assert_null(lookup6(H6, 0));

	ndp_input(mk_ns(&MAC_B, (const uint8_t[16])G6(2, 9), P0_G, &MAC_B), 1); /* p0's, on p1 */
	in0(mk_ns(&MAC_B, H6, H5, &MAC_B)); /* a host's address */
	assert_int_equal(n_sent, 2);
	assert_null(lookup6(H6, 0));
	assert_int_equal(ndp_ns_rx.value, 4);
	assert_int_equal(drops(0, FWD_DROP_NDP_INVALID) + drops(1, FWD_DROP_NDP_INVALID), 0);
}

/* A host that asks for us is learnt stale, probed after NEIGH_DELAY_MS
 * (unicast, from our address on its prefix, with our SLLA); its solicited
 * answer makes it reachable. */
static void test_ns_creates_stale(void **state)
{
	struct neigh *n;

	(void)state;
	in0(mk_ns(&MAC_A, H5, P0_G, &MAC_A));
	n = lookup6(H5, 0);
	assert_int_equal(n->state, NEIGH_STALE);
	advance6(NEIGH_DELAY_MS - 100);
	assert_int_equal(n_sent, 1);
	advance6(100);
	assert_int_equal(n_sent, 2);
	assert_sent(1, 0, our_ns(P0_G, H5, &MAC_A));
	in0(mk_na(&MAC_A, H5, P0_G, NDP_NA_SOLICITED | NDP_NA_OVERRIDE));
	assert_int_equal(n->state, NEIGH_REACHABLE);
	assert_int_equal(ndp_na_rx.value, 1);
}

/* ------------------------------------------------------- advertisements */

/* Linux's default (accept_untracked_na 0): an unsolicited NA creates nothing. */
static void test_unsolicited_na_ignored(void **state)
{
	(void)state;
	for (unsigned i = 0; i < 100; i++) {
		uint8_t h[16] = G6(1, 0);

		h[14] = (uint8_t)(i >> 8);
		h[15] = (uint8_t)(10 + i);
		in0(mk_na(&MAC_A, h, ALL_NODES, NDP_NA_OVERRIDE));
	}
	/* a solicited-looking answer to a question we never asked: nothing either */
	in0(mk_na(&MAC_A, H5, P0_G, NDP_NA_SOLICITED | NDP_NA_OVERRIDE));
	assert_int_equal(neigh_count(), 0);
	assert_int_equal(ndp_na_ignored.value, 101);
	assert_int_equal(ndp_na_rx.value, 101);
	assert_int_equal(n_sent, 0);
	assert_int_equal(fwd_control_ctrs(0)->consumed, 101);
}

/* A packet to an unknown host on p0: multicast NS from our address on its
 * prefix; the solicited NA resolves it and the held packet leaves. */
static void test_solicited_na_resolves(void **state)
{
	struct neigh *n;
	const uint8_t *p;

	(void)state;
	glean6(1, 0, H7, 42);
	n = lookup6(H7, 0);
	assert_non_null(n);
	assert_int_equal(n->state, NEIGH_INCOMPLETE);
	assert_int_equal(n_sent, 1);
	assert_sent(0, 0, our_ns(P0_G, H7, NULL));
	assert_int_equal(ndp_ns_tx.value, 1);

	in0(mk_na(&MAC_B, H7, P0_G, NDP_NA_SOLICITED | NDP_NA_OVERRIDE));
	assert_int_equal(n->state, NEIGH_REACHABLE);
	assert_int_equal(n_sent, 2);
	p = rte_pktmbuf_mtod(sent[1].m, const uint8_t *);
	assert_memory_equal(p, &MAC_B, 6);
	assert_memory_equal(p + 6, &P0_MAC, 6);
	assert_int_equal(p[12] << 8 | p[13], RTE_ETHER_TYPE_IPV6);
	assert_int_equal(p[16] << 8 | p[17], 42);

	/* an unsolicited NA with Override may move it, after the locktime */
	advance6(NEIGH_LOCKTIME_MS);
	in0(mk_na(&MAC_A, H7, ALL_NODES, NDP_NA_OVERRIDE));
	assert_memory_equal(&n->mac, &MAC_A, 6);
	assert_int_equal(ndp_na_unsolicited_updated.value, 1);
	/* without Override it never replaces a known address (RFC 4861 7.2.5) */
	advance6(NEIGH_LOCKTIME_MS);
	in0(mk_na(&MAC_B, H7, ALL_NODES, 0));
	assert_memory_equal(&n->mac, &MAC_A, 6);
}

/* An overriding NA within a second of the last MAC move is ignored, as
 * ARP's locktime (stricter than Linux's NDP), and counted; the first move
 * after the MAC was learnt is taken at once (RFC 4861 7.2.5). */
static void test_na_locktime(void **state)
{
	struct neigh *n;

	(void)state;
	glean6(1, 0, H7, 1);
	n = lookup6(H7, 0);
	in0(mk_na(&MAC_B, H7, P0_G, NDP_NA_SOLICITED | NDP_NA_OVERRIDE));
	assert_memory_equal(&n->mac, &MAC_B, 6);
	advance6(1); /* the learnt MAC moves at once, the first time */
	in0(mk_na(&MAC_A, H7, ALL_NODES, NDP_NA_OVERRIDE));
	assert_memory_equal(&n->mac, &MAC_A, 6);
	assert_int_equal(ndp_na_unsolicited_updated.value, 1);
	/* a flip back at once: refused, solicited or not */
	in0(mk_na(&MAC_B, H7, ALL_NODES, NDP_NA_OVERRIDE));
	in0(mk_na(&MAC_B, H7, P0_G, NDP_NA_SOLICITED | NDP_NA_OVERRIDE));
	assert_memory_equal(&n->mac, &MAC_A, 6);
	assert_int_equal(ndp_locktime_ignored.value, 2);
	assert_int_equal(ndp_na_unsolicited_updated.value, 1);
	/* the same MAC still confirms */
	in0(mk_na(&MAC_A, H7, P0_G, NDP_NA_SOLICITED | NDP_NA_OVERRIDE));
	assert_int_equal(n->state, NEIGH_REACHABLE);
	/* after the locktime it moves, once */
	advance6(NEIGH_LOCKTIME_MS);
	in0(mk_na(&MAC_B, H7, ALL_NODES, NDP_NA_OVERRIDE));
	in0(mk_na(&MAC_A, H7, ALL_NODES, NDP_NA_OVERRIDE));
	assert_memory_equal(&n->mac, &MAC_B, 6);
	assert_int_equal(ndp_na_unsolicited_updated.value, 2);
	assert_int_equal(ndp_locktime_ignored.value, 3);
}

/* Resolving for traffic: a pool per family, half of it per port. An IPv6
 * scan through p0 takes p0's share, then one through p1 the rest of the
 * family's pool; IPv6 on p1 resolves meanwhile, IPv4 on both ports after. */
static void test_unresolved_caps(void **state)
{
	const unsigned half = NEIGH_UNRESOLVED_MAX / 2;
	unsigned v4 = 0;

	(void)state;
	for (unsigned net = 1; net <= 2; net++)
		for (unsigned i = 0; i < half + 5; i++) {
			uint8_t h[16] = G6(net, 0);
			h[13] = 1; /* never our ::1 */
			h[14] = (uint8_t)(i >> 8);
			h[15] = (uint8_t)i;
			glean6(net == 1 ? 1 : 0, (uint8_t)(net - 1), h, 1);
			if (net == 1 && i == half + 4) { /* p0 full, p1 still resolves */
				assert_int_equal(neigh_unresolved(AF_INET6, 0), half);
				assert_int_equal(neigh_unresolved_port_full.value, 5);
				assert_int_equal(neigh_unresolved_full.value, 0);
			}
		}
	assert_int_equal(neigh_unresolved(AF_INET6, FWD_MAX_PORTS), NEIGH_UNRESOLVED_MAX);
	/* p1's last five found the family's pool full */
	assert_int_equal(neigh_unresolved_full.value, 5);
	assert_int_equal(neigh_unresolved(AF_INET6, 1), half);
	for (unsigned i = 0; i < 10; i++) {
		glean(1, 0, IP(10, 0, 0, 100 + i), 1);
		glean(0, 1, IP(172, 16, 3, 100 + i), 1);
	}
	for (unsigned i = 0; i < 10; i++) {
		v4 += neigh_lookup(fwd_ip_v4(IP(10, 0, 0, 100 + i)), 0) != NULL;
		v4 += neigh_lookup(fwd_ip_v4(IP(172, 16, 3, 100 + i)), 1) != NULL;
	}
	printf("# IPv6 pool full: %u of 20 new IPv4 neighbours resolving\n", v4);
	assert_int_equal(v4, 20);
	assert_int_equal(neigh_unresolved(AF_INET, FWD_MAX_PORTS), 20);
	advance6(6000);
	assert_int_equal(neigh_count(), 0);
}

/* Unanswered: the held packets' senders are told. */
static void test_unanswered_unreachable(void **state)
{
	(void)state;
	glean6(1, 0, H7, 1);
	glean6(1, 0, H7, 2);
	advance6(NEIGH_MAX_PROBES * NEIGH_RETRANS_MS);
	assert_int_equal(n_sent, NEIGH_MAX_PROBES);
	assert_int_equal(n_unreach6, 2);
}

static FILE *log_file;
static int saved_stderr = -1;

static void log_capture(void)
{
	fflush(stderr);
	log_file = tmpfile();
	assert_non_null(log_file);
	saved_stderr = dup(2);
	assert_true(dup2(fileno(log_file), 2) == 2);
}

static unsigned log_count(const char *what)
{
	char line[512];
	unsigned n = 0;

	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	rewind(log_file);
	while (fgets(line, sizeof(line), log_file) != NULL)
		n += strstr(line, what) != NULL;
	fclose(log_file);
	return n;
}

/* Another host advertising an address we use, or asking from it: counted
 * every time, logged once a minute, nothing learnt or answered. */
static void test_conflict(void **state)
{
	(void)state;
	log_capture();
	for (unsigned i = 0; i < 3; i++)
		in0(mk_na(&MAC_A, P0_G, ALL_NODES, NDP_NA_OVERRIDE));
	in0(mk_ns(&MAC_A, P0_LL, H5, &MAC_A));
	assert_int_equal(log_count("02:aa:00:00:00:0a on p0 claims our address 2001:db8:1::1"), 1);
	assert_int_equal(ndp_conflicts.value, 4);
	assert_int_equal(neigh_count(), 0);
	assert_int_equal(n_sent, 0);
	assert_int_equal(addr6_state(0, P0_G), ADDR6_PREFERRED);
}

/* RAs and Redirects from others: counted, ignored (we are a router). */
static void test_ra_redirect_ignored(void **state)
{
	uint8_t ra[16] = { NDP_RA, 0, 0, 0, 64, 0, 0x07, 0x08 };
	uint8_t redirect[40] = { NDP_REDIRECT };

	(void)state;
	memcpy(redirect + 8, H6, 16);
	memcpy(redirect + 24, H7, 16);
	in0(mk_icmp6(&P0_MAC, &MAC_A, HA_LL, ALL_NODES, ra, sizeof(ra)));
	in0(mk_icmp6(&P0_MAC, &MAC_A, HA_LL, P0_G, redirect, sizeof(redirect)));
	assert_int_equal(ndp_ra_rx.value, 1);
	assert_int_equal(ndp_redirect_rx.value, 1);
	assert_int_equal(neigh_count(), 0);
	assert_int_equal(n_sent, 0);
	assert_int_equal(fwd_control_ctrs(0)->consumed, 2);
}

/* ---------------------------------------------------------------- invalid */

enum bad_field {
	B_HOP,
	B_CKSUM,
	B_CODE,
	B_OPT_ZERO,
	B_OPT_PAST,
	B_OPT_LEN2,
	B_TARGET_MC,
	B_SLLA_MC,
	B_SLLA_OURS,
	B_ETH_SRC_MC,
	B_SRC_MC,
	B_SRC_LOOP,
	B_DAD_SLLA,
	B_DAD_DST,
	B_NA_ANY,
	B_NA_SOLICITED_MC,
	B_SHORT,
	B_PLEN_BIG,
	B_NEXT_HDR,
	B_VERSION,
	B_RA_GLOBAL,
	B_DST_OTHER,
	B_DST_SITE,
	B_RS_ANY_SLLA,
	B_ECHO,
	B_RUNT,
	B_REDIRECT_SHORT,
};

static const struct bad_case {
	const char *what;
	enum bad_field field;
	enum ndp_invalid reason;
} bad_cases[] = {
	{ "hop limit 254", B_HOP, NDP_INVALID_HOP_LIMIT },
	{ "bad checksum", B_CKSUM, NDP_INVALID_CHECKSUM },
	{ "code 1", B_CODE, NDP_INVALID_CODE },
	{ "option length 0", B_OPT_ZERO, NDP_INVALID_OPTION },
	{ "option past the end", B_OPT_PAST, NDP_INVALID_OPTION },
	{ "SLLA of 16 bytes", B_OPT_LEN2, NDP_INVALID_OPTION },
	{ "multicast target", B_TARGET_MC, NDP_INVALID_TARGET },
	{ "multicast SLLA", B_SLLA_MC, NDP_INVALID_LLADDR },
	{ "our MAC as SLLA", B_SLLA_OURS, NDP_INVALID_LLADDR },
	{ "multicast Ethernet source", B_ETH_SRC_MC, NDP_INVALID_LLADDR },
	{ "multicast source", B_SRC_MC, NDP_INVALID_SOURCE },
	{ "loopback source", B_SRC_LOOP, NDP_INVALID_SOURCE },
	{ "DAD probe with SLLA", B_DAD_SLLA, NDP_INVALID_OPTION },
	{ "DAD probe to all nodes", B_DAD_DST, NDP_INVALID_DEST },
	{ "NA from ::", B_NA_ANY, NDP_INVALID_SOURCE },
	{ "NA to all nodes, Solicited", B_NA_SOLICITED_MC, NDP_INVALID_SOLICITED },
	{ "NS of 20 bytes", B_SHORT, NDP_INVALID_LENGTH },
	{ "payload length past the frame", B_PLEN_BIG, NDP_INVALID_HEADER },
	{ "next header UDP", B_NEXT_HDR, NDP_INVALID_HEADER },
	{ "IP version 4", B_VERSION, NDP_INVALID_HEADER },
	{ "RA from a global address", B_RA_GLOBAL, NDP_INVALID_SOURCE },
	{ "to a host's address", B_DST_OTHER, NDP_INVALID_DEST },
	{ "to a site-scope group", B_DST_SITE, NDP_INVALID_DEST },
	{ "RS from :: with SLLA", B_RS_ANY_SLLA, NDP_INVALID_OPTION },
	{ "echo request", B_ECHO, NDP_INVALID_HEADER },
	{ "runt", B_RUNT, NDP_INVALID_HEADER },
	{ "Redirect of 32 bytes", B_REDIRECT_SHORT, NDP_INVALID_LENGTH },
};

/* The NS for P0_G from H5 at MAC_A, broken in one way. */
static struct rte_mbuf *mk_bad(enum bad_field f)
{
	static const struct rte_ether_addr mc = { { 0x01, 0, 0x5e, 0, 0, 1 } };
	static const uint8_t loop[16] = { [15] = 1 }, site[16] = { 0xff, 0x05, [15] = 2 };
	uint8_t mc_target[16] = { 0xff, 0x02, [15] = 1 }, b[48] = { NDP_NS };
	struct rte_mbuf *m;
	uint8_t *p;

	memcpy(b + 8, P0_G, 16);
	switch (f) {
	case B_OPT_ZERO: /* an SLLA, then an option of length 0 */
		put_lla(b + 24, NDP_OPT_SLLA, &MAC_A);
		b[33] = 0;
		b[32] = 14;
		return mk_icmp6(&P0_MAC, &MAC_A, H5, P0_G, b, 40);
	case B_OPT_PAST:
		b[24] = 14;
		b[25] = 2;
		return mk_icmp6(&P0_MAC, &MAC_A, H5, P0_G, b, 32);
	case B_OPT_LEN2:
		b[24] = NDP_OPT_SLLA;
		b[25] = 2;
		memcpy(b + 26, &MAC_A, 6);
		return mk_icmp6(&P0_MAC, &MAC_A, H5, P0_G, b, 40);
	case B_TARGET_MC:
		return mk_nsna(NDP_NS, &P0_MAC, &MAC_A, H5, P0_G, 0, mc_target, &MAC_A);
	case B_SLLA_MC:
		return mk_ns(&MAC_A, H5, P0_G, &mc);
	case B_SLLA_OURS:
		return mk_ns(&MAC_A, H5, P0_G, &P1_MAC);
	case B_ETH_SRC_MC:
		return mk_ns(&mc, H5, P0_G, &MAC_A);
	case B_SRC_MC:
		return mk_ns(&MAC_A, ALL_NODES, P0_G, &MAC_A);
	case B_SRC_LOOP:
		return mk_ns(&MAC_A, loop, P0_G, &MAC_A);
	case B_DAD_SLLA:
		return mk_ns(&MAC_A, ANY, P0_G, &MAC_A);
	case B_DAD_DST:
		return mk_nsna(NDP_NS, &BCAST, &MAC_A, ANY, ALL_NODES, 0, P0_G, NULL);
	case B_NA_ANY:
		return mk_nsna(NDP_NA, &P0_MAC, &MAC_A, ANY, P0_G, 0, H5, &MAC_A);
	case B_NA_SOLICITED_MC:
		return mk_na(&MAC_A, H5, ALL_NODES, NDP_NA_SOLICITED);
	case B_SHORT:
		return mk_icmp6(&P0_MAC, &MAC_A, H5, P0_G, b, 20);
	case B_RA_GLOBAL:
		b[0] = NDP_RA;
		return mk_icmp6(&P0_MAC, &MAC_A, H5, P0_G, b, 16);
	case B_DST_OTHER:
		return mk_nsna(NDP_NS, &P0_MAC, &MAC_A, H5, H6, 0, P0_G, &MAC_A);
	case B_DST_SITE:
		return mk_nsna(NDP_NS, &P0_MAC, &MAC_A, H5, site, 0, P0_G, &MAC_A);
	case B_RS_ANY_SLLA:
		return mk_rs(&MAC_A, ANY, true);
	case B_ECHO:
		b[0] = 128;
		return mk_icmp6(&P0_MAC, &MAC_A, H5, P0_G, b, 24);
	case B_REDIRECT_SHORT:
		b[0] = NDP_REDIRECT;
		return mk_icmp6(&P0_MAC, &MAC_A, HA_LL, P0_G, b, 32);
	default:
		break;
	}
	m = mk_ns(&MAC_A, H5, P0_G, &MAC_A);
	p = rte_pktmbuf_mtod(m, uint8_t *);
	switch (f) {
	case B_HOP:
		p[21] = 254;
		break;
	case B_CKSUM:
		p[56] ^= 1;
		return m;
	case B_CODE:
		p[55] = 1;
		break;
	case B_PLEN_BIG:
		p[19] += 8;
		return m;
	case B_NEXT_HDR:
		p[20] = IPPROTO_UDP;
		break;
	case B_VERSION:
		p[14] = 0x40;
		break;
	case B_RUNT:
		rte_pktmbuf_trim(m, (uint16_t)(m->data_len - 50));
		return m;
	default:
		break;
	}
	cksum6(p + 14);
	return m;
}

/* Each refused message: one ndp_invalid drop and its reason's counter,
 * nothing learnt, nothing sent. */
static void test_invalid_counted(void **state)
{
	(void)state;
	for (size_t i = 0; i < RTE_DIM(bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];

		in0(mk_bad(c->field));
		if (drops(0, FWD_DROP_NDP_INVALID) != i + 1)
			fail_msg("%s: not counted as ndp_invalid", c->what);
		if (ndp_invalid[c->reason].value != 1)
			fail_msg("%s: %s is %" PRIu64, c->what, ndp_invalid[c->reason].name,
			         ndp_invalid[c->reason].value);
		ndp_invalid[c->reason].value = 0;
		if (neigh_count() != 0 || n_sent != 0)
			fail_msg("%s: learnt or answered", c->what);
	}
	/* unicast to another MAC: not ours to look at */
	in0(mk_nsna(NDP_NS, &MAC_B, &MAC_A, H5, P0_G, 0, P0_G, &MAC_A));
	assert_int_equal(drops(0, FWD_DROP_NOT_FOR_US), 1);
	/* to a group but another group's MAC */
	in0(mk_nsna(NDP_NS, &BCAST, &MAC_A, H5, ALL_NODES, 0, P0_G, &MAC_A));
	assert_int_equal(drops(0, FWD_DROP_NOT_FOR_US), 2);
	/* an in_port out of range from a confused caller */
	ndp_input(mk_ns(&MAC_A, H5, P0_G, &MAC_A), 9);
	assert_int_equal(ndp_ns_rx.value, 0);
	assert_int_equal(n_sent, 0);
}

/* ------------------------------------------------------------------- DAD */

/* A new address: one probe from :: to its group (after the random delay),
 * not answered for while tentative; preferred a second later. */
static void test_dad_preferred(void **state)
{
	static const uint8_t a[16] = G6(1, 0x99);

	(void)state;
	rand_value = 700;
	add6(0, a, 64);
	assert_int_equal(addr6_state(0, a), ADDR6_TENTATIVE);
	advance6(600);
	assert_int_equal(n_sent, 0);
	advance6(100);
	assert_int_equal(n_sent, 1);
	assert_sent(0, 0, our_ns(ANY, a, NULL));
	in0(mk_ns(&MAC_A, H5, a, &MAC_A)); /* an NS from a host: not answered, no DAD failure */
	assert_int_equal(n_sent, 1);
	advance6(900);
	assert_int_equal(addr6_state(0, a), ADDR6_TENTATIVE);
	advance6(100);
	assert_int_equal(addr6_state(0, a), ADDR6_PREFERRED);
	assert_int_equal(ndp_ns_tx.value, 1);
	assert_int_equal(ndp_dad_duplicate.value, 0);
	in0(mk_ns(&MAC_A, H5, a, &MAC_A));
	assert_int_equal(n_sent, 2); /* now ours: answered */
}

/* Nobody can object while the link is down: DAD waits, then starts over
 * with its delay once the link is up; a due RA waits too. */
static void test_dad_waits_for_link(void **state)
{
	static const uint8_t a[16] = G6(1, 0x96);

	(void)state;
	rand_value = 500;
	ra_on(0);
	fwd_ports[0].link_up = false;
	add6(0, a, 64);
	advance6(10000);
	assert_int_equal(n_sent, 0);
	assert_int_equal(addr6_state(0, a), ADDR6_TENTATIVE);
	fwd_ports[0].link_up = true;
	advance6(400);
	assert_int_equal(n_sent, 1); /* the RA that was due */
	advance6(100);
	assert_int_equal(n_sent, 2); /* the probe, after its delay */
	assert_sent(1, 0, our_ns(ANY, a, NULL));
	fwd_ports[0].link_up = false; /* and lost, while waiting for objections */
	advance6(1000);
	fwd_ports[0].link_up = true;
	advance6(500);
	assert_int_equal(n_sent, 3); /* probed again */
	advance6(900);
	assert_int_equal(addr6_state(0, a), ADDR6_TENTATIVE);
	advance6(100);
	assert_int_equal(addr6_state(0, a), ADDR6_PREFERRED);
}

/* Another host probing for our tentative address, or advertising it: a duplicate. */
static void test_dad_duplicate(void **state)
{
	static const uint8_t a[16] = G6(1, 0x98), b[16] = G6(1, 0x97);

	(void)state;
	add6(0, a, 64);
	add6(0, b, 64);
	in0(mk_ns(&MAC_A, ANY, a, NULL));
	assert_int_equal(addr6_state(0, a), ADDR6_DUPLICATE);
	in0(mk_na(&MAC_B, b, ALL_NODES, NDP_NA_OVERRIDE));
	assert_int_equal(addr6_state(0, b), ADDR6_DUPLICATE);
	assert_int_equal(ndp_dad_duplicate.value, 2);
	advance6(3000); /* their runs stopped: no probe sent, nothing changes */
	assert_int_equal(n_sent, 0);
	assert_int_equal(addr6_state(0, a), ADDR6_DUPLICATE);
	in0(mk_ns(&MAC_A, H5, a, &MAC_A)); /* never ours: not answered */
	assert_int_equal(n_sent, 0);

	/* an address removed while tentative stops its run */
	add6(1, (const uint8_t[16])G6(2, 9), 64);
	ndp_dad_stop(1, (const uint8_t[16])G6(2, 9));
	advance6(3000);
	assert_int_equal(n_sent, 0);
}

/* ------------------------------------------------------------------- RAs */

/* ra: true with two /64 prefixes (a /48 is not advertised): the RA bytes
 * a Linux host configures itself from. */
static void test_ra_content(void **state)
{
	static const uint8_t a[16] = G6(0xa, 1);
	static const uint8_t ula[16] = { 0xfd, 0x00, 0, 1, [15] = 1 };

	(void)state;
	add6(0, a, 64);
	add6(0, ula, 48);
	advance6(1100);
	sent_clear();
	ra_on(0);
	advance6(100);
	assert_int_equal(n_sent, 1);
	assert_sent_bytes(0, 0, ra_golden, sizeof(ra_golden));
	assert_int_equal(ndp_ra_tx.value, 1);
}

/* The first three at most 16 s apart, then every 200-600 s; none before the
 * link-local address is preferred. */
static void test_ra_schedule(void **state)
{
	(void)state;
	ra_on(0);
	advance6(100);
	assert_int_equal(ndp_ra_tx.value, 1);
	advance6(16000);
	assert_int_equal(ndp_ra_tx.value, 2);
	advance6(16000);
	assert_int_equal(ndp_ra_tx.value, 3);
	advance6(199900);
	assert_int_equal(ndp_ra_tx.value, 3);
	advance6(100);
	assert_int_equal(ndp_ra_tx.value, 4);
	rand_value = 400000;
	advance6(200000);
	assert_int_equal(ndp_ra_tx.value, 5);
	advance6(599900);
	assert_int_equal(ndp_ra_tx.value, 5);
	advance6(100);
	assert_int_equal(ndp_ra_tx.value, 6);
	assert_int_equal(n_sent, 6);

	/* p1's link-local address lost DAD: it has no source for an RA */
	ip6_addrs[1].state[0] = ADDR6_DUPLICATE;
	ra_on(1);
	advance6(20000);
	assert_int_equal(ndp_ra_tx.value, 6);
}

/* RSes: answered after 0-0.5 s, but never two multicast RAs within 3 s. */
static void test_rs_rate_limited(void **state)
{
	(void)state;
	in0(mk_rs(&MAC_A, HA_LL, true)); /* ra off: ignored, the asker not learnt */
	advance6(1000);
	assert_int_equal(n_sent, 0);
	assert_int_equal(neigh_count(), 0);
	ra_on(0);
	advance6(100);
	assert_int_equal(ndp_ra_tx.value, 1);
	advance6(900);
	rand_value = 300;
	for (unsigned i = 0; i < 5; i++) {
		in0(mk_rs(&MAC_A, HA_LL, true));
		advance6(100);
	}
	/* the asker with an SLLA is learnt, as one that asked for us */
	assert_non_null(lookup6(HA_LL, 0));
	assert_memory_equal(&lookup6(HA_LL, 0)->mac, &MAC_A, 6);
	in0(mk_rs(&MAC_B, ANY, false));
	assert_int_equal(ndp_rs_rx.value, 7);
	assert_int_equal(ndp_ra_tx.value, 1);
	advance6(1800); /* 3 s after the last RA, plus the delay */
	assert_int_equal(ndp_ra_tx.value, 1);
	advance6(100);
	assert_int_equal(ndp_ra_tx.value, 2);
	advance6(10000);
	assert_int_equal(ndp_ra_tx.value, 2);
	/* the asker was learnt, stale (an RS is no proof of reachability):
	 * probed, and gone when it did not answer */
	assert_true(ndp_ns_tx.value > 0);
	assert_null(lookup6(HA_LL, 0));
	/* long after the last RA: 0.3 s */
	in0(mk_rs(&MAC_A, HA_LL, true));
	advance6(200);
	assert_int_equal(ndp_ra_tx.value, 2);
	advance6(100);
	assert_int_equal(ndp_ra_tx.value, 3);
	assert_int_equal(ndp_ra_tx.value, 3);
}

/* ra turned off: one last RA with router lifetime 0, then silence. */
static void test_ra_final(void **state)
{
	const uint8_t *ra;

	(void)state;
	ra_on(0);
	advance6(100);
	ip6_addrs[0].ra = false;
	ndp_port_changed(0, false);
	assert_int_equal(n_sent, 2);
	ra = rte_pktmbuf_mtod_offset(sent[1].m, const uint8_t *, 54);
	assert_int_equal(ra[0], NDP_RA);
	assert_int_equal(ra[6] << 8 | ra[7], 0);
	in0(mk_rs(&MAC_A, HA_LL, true));
	advance6(700000);
	assert_int_equal(n_sent, 2);
	ndp_port_changed(0, false); /* already off: nothing */
	assert_int_equal(n_sent, 2);
}

static struct rte_mbuf *mk_raw(const uint8_t *b, size_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	void *p;

	assert_non_null(m);
	p = rte_pktmbuf_append(m, (uint16_t)len);
	assert_non_null(p);
	memcpy(p, b, len);
	return m;
}

/* A Linux host coming up: its DAD probe is valid and not ours (its nonce
 * option ignored), its NS for our link-local address answered and the
 * host learnt, its RS answered on a port with ra: true. */
static void test_linux_host_frames(void **state)
{
	(void)state;
	ra_on(0);
	advance6(3000);
	sent_clear();
	in0(mk_raw(linux_dad_ns, sizeof(linux_dad_ns)));
	assert_int_equal(n_sent, 0);
	in0(mk_raw(linux_ns, sizeof(linux_ns)));
	assert_int_equal(n_sent, 1);
	assert_sent(0, 0, mk_nsna(NDP_NA, &MAC_A, &P0_MAC, P0_LL, HA_LL, 0xe0, P0_LL, &P0_MAC));
	assert_non_null(lookup6(HA_LL, 0));
	in0(mk_raw(linux_rs, sizeof(linux_rs)));
	advance6(500);
	assert_int_equal(n_sent, 2);
	assert_int_equal(ndp_ns_rx.value + ndp_rs_rx.value, 3);
	assert_int_equal(drops(0, FWD_DROP_NDP_INVALID), 0);
}

/* The counters are global ones: `fwdctl stats` and the metrics endpoint
 * list them by name with the ARP ones. */
static void test_counters_listed(void **state)
{
	static const char *const names[] = {
		"ndp_ns_rx",
		"ndp_na_rx",
		"ndp_ns_tx",
		"ndp_na_tx",
		"ndp_rs_rx",
		"ndp_ra_tx",
		"ndp_dad_duplicate",
		"ndp_invalid_checksum",
		"ndp_address_conflicts",
	};

	(void)state;
	for (size_t i = 0; i < RTE_DIM(names); i++) {
		const struct fwd_counter *c = fwd_counters();

		while (c != NULL && strcmp(c->name, names[i]) != 0)
			c = c->next;
		if (c == NULL)
			fail_msg("%s not registered", names[i]);
	}
}

/* Random frames, some of them nearly valid: no crash, no leak, each one
 * either a counted drop or a valid message. */
static void test_random_frames(void **state)
{
	uint64_t valid, dropped = 0;

	(void)state;
	srand(4321);
	ra_on(0);
	for (unsigned i = 0; i < 20000; i++) {
		struct rte_mbuf *m = i % 3 == 0   ? mk_ns(&MAC_A, H5, P0_G, &MAC_A)
		                     : i % 3 == 1 ? mk_na(&MAC_A, H5, P0_G, NDP_NA_SOLICITED)
		                                  : mk_rs(&MAC_A, HA_LL, true);
		uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
		unsigned flips = 1 + (unsigned)rand() % 4;

		for (unsigned f = 0; f < flips; f++)
			p[(unsigned)rand() % m->data_len] = (uint8_t)rand();
		if (rand() % 2 == 0) /* a correct checksum over the damage */
			cksum6(p + 14);
		if (rand() % 4 == 0)
			rte_pktmbuf_trim(m, (uint16_t)((unsigned)rand() % m->data_len));
		ndp_input(m, (uint8_t)(rand() % 3));
		advance6(rand() % 8 == 0 ? 100 : 0);
		sent_clear();
	}
	valid = ndp_ns_rx.value + ndp_na_rx.value + ndp_rs_rx.value + ndp_ra_rx.value +
	        ndp_redirect_rx.value;
	for (uint8_t p = 0; p < 3; p++)
		dropped += drops(p, FWD_DROP_NDP_INVALID) + drops(p, FWD_DROP_NOT_FOR_US);
	assert_int_equal(valid + dropped, 20000);
	assert_true(valid > 0);
	neigh_flush(FWD_MAX_PORTS, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NDP_TEST(test_ns_answered_exact),
		NDP_TEST(test_ns_linklocal_unicast_foreign),
		NDP_TEST(test_ns_creates_stale),
		NDP_TEST(test_unsolicited_na_ignored),
		NDP_TEST(test_solicited_na_resolves),
		NDP_TEST(test_na_locktime),
		NDP_TEST(test_unresolved_caps),
		NDP_TEST(test_unanswered_unreachable),
		NDP_TEST(test_conflict),
		NDP_TEST(test_ra_redirect_ignored),
		NDP_TEST(test_invalid_counted),
		NDP_TEST(test_dad_preferred),
		NDP_TEST(test_dad_duplicate),
		NDP_TEST(test_dad_waits_for_link),
		NDP_TEST(test_ra_content),
		NDP_TEST(test_ra_schedule),
		NDP_TEST(test_rs_rate_limited),
		NDP_TEST(test_ra_final),
		NDP_TEST(test_linux_host_frames),
		NDP_TEST(test_counters_listed),
		NDP_TEST(test_random_frames),
	};
	return cmocka_run_group_tests(tests, harness_group_setup, harness_group_teardown);
}
