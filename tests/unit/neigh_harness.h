/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Harness for the neighbour unit tests: a test EAL and mbuf pool, the real
 * FIB, next hops, RIB and addresses on two fake l3 ports, and the neighbour
 * module with a fake clock, its frames captured instead of sent and ICMP
 * errors recorded. Each test starts from fresh tables and must end with
 * every mbuf back in the pool.
 *
 *   p0  02:00:00:00:00:01  10.0.0.1/24
 *   p1  02:00:00:00:00:02  172.16.0.1/16
 */
#ifndef NEIGH_HARNESS_H
#define NEIGH_HARNESS_H

#include <errno.h> /* program_invocation_short_name */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <rte_arp.h>
#include <rte_eal.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_mempool.h>

#include "core/daemon.h"
#include "core/punt.h"
#include "ip4/addr.h"
#include "ip4/arp.h"
#include "ip4/ip4.h"
#include "nexthop/nexthop.h"
#include "nexthop/neigh_priv.h"
#include "port/port.h"
#include "core/counters.h"

#define IP(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))
#define P0_IP          IP(10, 0, 0, 1)
#define P1_IP          IP(172, 16, 0, 1)
#define TEST_NEXTHOPS  4096
#define TEST_TIMEOUT_S 30
#define CAPTURE_MAX    64

static const struct rte_ether_addr P0_MAC = { { 0x02, 0, 0, 0, 0, 0x01 } };
static const struct rte_ether_addr P1_MAC = { { 0x02, 0, 0, 0, 0, 0x02 } };
static const struct rte_ether_addr MAC_A = { { 0x02, 0xaa, 0, 0, 0, 0x0a } };
static const struct rte_ether_addr MAC_B = { { 0x02, 0xbb, 0, 0, 0, 0x0b } };
static const struct rte_ether_addr BCAST = { { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } };
static const struct rte_ether_addr ZERO_MAC;

static struct rte_mempool *pool;
static uint64_t fake_now = 1000000;

/* What the module sent, in order; beyond CAPTURE_MAX only counted. */
static struct {
	struct rte_mbuf *m;
	uint16_t port;
} sent[CAPTURE_MAX];
static unsigned n_sent, n_sent_total;
static bool tx_refuse;

static struct icmp_call {
	uint8_t type, code, in_port;
	uint16_t ip_id;
} icmps[CAPTURE_MAX];
static unsigned n_icmp;

static inline uint64_t clock_hook(void)
{
	return fake_now;
}

static inline int tx_hook(struct rte_mbuf *m, uint16_t port)
{
	if (tx_refuse) { /* as fwd_control_tx does with a full ring */
		fwd_control_drop(m, port, FWD_DROP_TX_FULL);
		return -ENOBUFS;
	}
	n_sent_total++;
	if (n_sent == CAPTURE_MAX) {
		rte_pktmbuf_free(m);
		return 0;
	}
	sent[n_sent].m = m;
	sent[n_sent++].port = port;
	return 0;
}

static inline void icmp_hook(const struct rte_mbuf *m, uint8_t type, uint8_t code, uint32_t aux,
                             uint16_t in_port)
{
	const struct rte_ipv4_hdr *ip =
	        rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);

	(void)aux;
	if (n_icmp < CAPTURE_MAX)
		icmps[n_icmp] =
		        (struct icmp_call){ type, code, in_port, rte_be_to_cpu_16(ip->packet_id) };
	n_icmp++;
}

/* The IPv4 resolver's ICMP host unreachable, recorded instead of sent. */
static inline void unreachable_hook(const struct rte_mbuf *m, uint16_t in_port)
{
	icmp_hook(m, 3, 1, 0, in_port);
}

static inline void sent_clear(void)
{
	for (unsigned i = 0; i < n_sent; i++)
		rte_pktmbuf_free(sent[i].m);
	n_sent = n_sent_total = 0;
	n_icmp = 0;
}

/* Advance the clock in the daemon's 100 ms ticks. */
static inline void advance(uint64_t ms)
{
	uint64_t end = fake_now + ms;

	while (fake_now < end) {
		fake_now = RTE_MIN(fake_now + 100, end);
		neigh_tick();
	}
}

static inline uint64_t drops(uint16_t port, enum fwd_drop_reason r)
{
	return fwd_control_ctrs(port)->drop[r];
}

static inline void set_port(uint8_t i, const char *name, const struct rte_ether_addr *mac)
{
	memset(&fwd_ports[i], 0, sizeof(fwd_ports[i]));
	fwd_ports[i].idx = i;
	fwd_ports[i].mode = FWD_MODE_L3;
	fwd_ports[i].mtu = 1500;
	fwd_ports[i].mac = *mac;
	fwd_ports[i].admin_up = 1;
	snprintf(fwd_ports[i].name, sizeof(fwd_ports[i].name), "%s", name);
}

/* cmocka group fixtures: one test EAL (its file prefix named after the
 * test program) and pool for the whole file. */
static inline int harness_group_setup(void **state)
{
	static const struct rte_mbuf_dynfield desc = {
		.name = "fwd_punt_meta",
		.size = sizeof(struct fwd_punt_meta),
		.align = __alignof__(struct fwd_punt_meta),
	};
	char pfx[64];
	char *argv[] = { "neigh_test",
		         "--no-huge",
		         "-m",
		         "512",
		         "--no-pci",
		         "--no-shconf",
		         "--log-level=lib.eal:error",
		         "-l",
		         "0",
		         pfx,
		         NULL };

	(void)state;
	snprintf(pfx, sizeof(pfx), "--file-prefix=%s%d", program_invocation_short_name,
	         (int)getpid());
	if (rte_eal_init((int)RTE_DIM(argv) - 1, argv) < 0)
		return -1;
	pool = rte_pktmbuf_pool_create("neigh_test", 8191, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
	                               SOCKET_ID_ANY);
	fwd_punt_meta_offset = rte_mbuf_dynfield_register(&desc);
	if (pool == NULL || fwd_punt_meta_offset < 0)
		return -1;
	fwd.pool = pool;
	return 0;
}

static inline int harness_group_teardown(void **state)
{
	(void)state;
	rte_mempool_free(pool);
	fwd.pool = NULL;
	rte_eal_cleanup();
	return 0;
}

/* a test with fresh tables, checked for leaked mbufs afterwards */
#define HARNESS_TEST(fn) cmocka_unit_test_setup_teardown(fn, harness_setup, harness_teardown)

static inline int harness_setup(void **state)
{
	struct fwd_ip4_prefix a0 = { P0_IP, 24 }, a1 = { P1_IP, 16 };
	char err[128];

	(void)state;
	set_port(0, "p0", &P0_MAC);
	set_port(1, "p1", &P1_MAC);
	fwd_n_ports = 2;
	fake_now = 1000000;
	tx_refuse = false;
	sent_clear();
	for (unsigned p = 0; p < FWD_MAX_PORTS; p++)
		memset(fwd_control_ctrs((uint8_t)p), 0, sizeof(struct fwd_port_ctrs));
	for (struct fwd_counter *c = fwd_counters(); c != NULL; c = c->next)
		c->value = c->base = 0;
	ip4_fibs[0] = fib4_create(256, NULL, SOCKET_ID_ANY);
	assert_non_null(ip4_fibs[0]);
	assert_int_equal(nh_init(TEST_NEXTHOPS, SOCKET_ID_ANY), 0);
	rib4_init(&ip4_ribs[0], ip4_fibs[0]);
	memset(ip4_addrs, 0, sizeof(ip4_addrs));
	assert_int_equal(neigh_module_init(TEST_NEXTHOPS, TEST_TIMEOUT_S), 0);
	neigh_hooks.now_ms = clock_hook;
	neigh_hooks.tx = tx_hook;
	assert_int_equal(arp_init(), 0);
	neigh_resolver(AF_INET)->unreachable = unreachable_hook;
	assert_int_equal(addr4_add(0, &a0, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	assert_int_equal(addr4_add(1, &a1, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	return 0;
}

/* The daemon's order: ip4 goes first, then the neighbour tables. */
static inline int harness_teardown(void **state)
{
	(void)state;
	arp_fini();
	rib4_clear(&ip4_ribs[0]);
	fib4_free(ip4_fibs[0]);
	ip4_fibs[0] = NULL;
	nh_fini();
	memset(ip4_addrs, 0, sizeof(ip4_addrs));
	neigh_module_fini();
	sent_clear();
	assert_int_equal(neigh_held_total(), 0);
	assert_int_equal(rte_mempool_in_use_count(pool), 0); /* every mbuf accounted for */
	return 0;
}

/* ------------------------------------------------------------------ frames */

static inline struct rte_mbuf *mk_arp(uint16_t op, const struct rte_ether_addr *eth_dst,
                                      const struct rte_ether_addr *sha, uint32_t sip,
                                      const struct rte_ether_addr *tha, uint32_t tip)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	struct rte_ether_hdr *eth;
	struct rte_arp_hdr *arp;

	assert_non_null(m);
	eth = (struct rte_ether_hdr *)rte_pktmbuf_append(m, sizeof(*eth) + sizeof(*arp));
	arp = (struct rte_arp_hdr *)(eth + 1);
	eth->dst_addr = *eth_dst;
	eth->src_addr = *sha;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP);
	arp->arp_hardware = rte_cpu_to_be_16(RTE_ARP_HRD_ETHER);
	arp->arp_protocol = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	arp->arp_hlen = 6;
	arp->arp_plen = 4;
	arp->arp_opcode = rte_cpu_to_be_16(op);
	arp->arp_data.arp_sha = *sha;
	arp->arp_data.arp_sip = rte_cpu_to_be_32(sip);
	arp->arp_data.arp_tha = *tha;
	arp->arp_data.arp_tip = rte_cpu_to_be_32(tip);
	return m;
}

/* A routed packet as a worker punts it: the received link header, then IPv4. */
static inline struct rte_mbuf *mk_ip(uint32_t dst, uint16_t id)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;

	assert_non_null(m);
	eth = (struct rte_ether_hdr *)rte_pktmbuf_append(m, sizeof(*eth) + sizeof(*ip) + 8);
	if (eth == NULL) { /* also tells an optimising compiler that the memset has room */
		fail();
		return NULL;
	}
	memset(eth, 0, sizeof(*eth) + sizeof(*ip) + 8);
	ip = (struct rte_ipv4_hdr *)(eth + 1);
	eth->dst_addr = P1_MAC;
	eth->src_addr = MAC_B;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16(sizeof(*ip) + 8);
	ip->packet_id = rte_cpu_to_be_16(id);
	ip->time_to_live = 63;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(IP(172, 16, 9, 9));
	ip->dst_addr = rte_cpu_to_be_32(dst);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	return m;
}

static inline void punt(void (*fn)(struct rte_mbuf *, const struct fwd_punt_meta *),
                        struct rte_mbuf *m, uint8_t reason, uint16_t in, uint16_t out, uint32_t aux)
{
	struct fwd_punt_meta *meta = fwd_punt_meta(m);

	meta->reason = reason;
	meta->in_port = in;
	meta->out_port = out;
	meta->drop = FWD_PUNT_NO_DROP;
	meta->aux = aux;
	fn(m, meta);
}

static inline void arp_in(uint16_t port, struct rte_mbuf *m)
{
	punt(arp_input, m, FWD_PUNT_ARP, port, port, 0);
}

static inline void glean_punt(struct rte_mbuf *m, const struct fwd_punt_meta *meta)
{
	neigh_glean(m, meta->in_port, meta->out_port, fwd_ip_v4(meta->aux));
}

static inline void glean(uint16_t in, uint16_t out, uint32_t dst, uint16_t id)
{
	punt(glean_punt, mk_ip(dst, id), FWD_PUNT_GLEAN, in, out, dst);
}

/* A packet routed to next hop nh as a worker punts it, with its generation. */
static inline void resolve_gen(uint16_t in, uint32_t nh, uint32_t gen, uint32_t dst, uint16_t id)
{
	punt(neigh_punt_resolve, mk_ip(dst, id), FWD_PUNT_RESOLVE, in, nh_table[nh].port,
	     nh_punt_tag(nh, gen));
}

static inline void resolve(uint16_t in, uint32_t nh, uint32_t dst, uint16_t id)
{
	resolve_gen(in, nh, nh_table[nh].gen, dst, id);
}

/* Captured frame i must be exactly this ARP frame on port. */
static inline void assert_arp(unsigned i, uint16_t port, uint16_t op,
                              const struct rte_ether_addr *dst, uint32_t sip,
                              const struct rte_ether_addr *tha, uint32_t tip)
{
	const struct rte_ether_addr *src = port == 0 ? &P0_MAC : &P1_MAC;
	struct rte_mbuf *want = mk_arp(op, dst, src, sip, tha, tip);

	assert_true(i < n_sent);
	assert_int_equal(sent[i].port, port);
	assert_int_equal(sent[i].m->data_len, want->data_len);
	assert_int_equal(sent[i].m->pkt_len, want->pkt_len);
	assert_memory_equal(rte_pktmbuf_mtod(sent[i].m, void *), rte_pktmbuf_mtod(want, void *),
	                    want->data_len);
	rte_pktmbuf_free(want);
}

/* Captured frame i must be IPv4 packet id to dst MAC mac on port. */
static inline void assert_ip_sent(unsigned i, uint16_t port, const struct rte_ether_addr *mac,
                                  uint16_t id)
{
	const struct rte_ether_hdr *eth;
	const struct rte_ipv4_hdr *ip;

	assert_true(i < n_sent);
	assert_int_equal(sent[i].port, port);
	eth = rte_pktmbuf_mtod(sent[i].m, const struct rte_ether_hdr *);
	ip = (const struct rte_ipv4_hdr *)(eth + 1);
	assert_memory_equal(&eth->dst_addr, mac, 6);
	assert_memory_equal(&eth->src_addr, port == 0 ? &P0_MAC : &P1_MAC, 6);
	assert_int_equal(eth->ether_type, rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4));
	assert_int_equal(rte_be_to_cpu_16(ip->packet_id), id);
}

static inline enum neigh_state state_of(uint32_t ip, uint16_t port)
{
	struct neigh *n = neigh_lookup(fwd_ip_v4(ip), port);

	assert_non_null(n);
	return n->state;
}

#endif
