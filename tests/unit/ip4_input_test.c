/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The first-octet tables of the IPv4 fast path. ip4_fast tests a packet's
 * source octet against ip4_src_martian and leaves destinations to the FIB,
 * whose reserved entries (rib4_reserved) must cover exactly the octets
 * that ip4_dst_class does not call unicast, which are also those a source
 * may not have. Then the l3 input on a fake worker: source checks (our
 * addresses, directed broadcasts, 169.254/16), the reverse-path filter,
 * and frames in more than one mbuf segment.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/iface.h"

#include <rte_malloc.h>
#include <rte_mbuf_dyn.h>

#include "core/daemon.h"
#include "core/punt.h"
#include "core/worker.h"
#include "ip4/addr.h"
#include "ip4/cksum.h"
#include "ip4/ip4.h"
#include "ip4/rib.h"
#include "nexthop/nexthop.h"
#include "port/port.h"
#include "test_eal.h"
#include "ip4_pkt.h"

/* The interface of port i as the worker hands it to an input, with what the
 * test set in the port table. */
static const struct fwd_iface *port_iface(unsigned i)
{
	fwd_iface_port_sync((uint8_t)i);
	return &fwd_ifaces[i];
}

static void test_one_set_for_all(void **state)
{
	(void)state;
	for (unsigned o = 0; o < 256; o++) {
		bool reserved = ip4_dst_class[o] != IP4_UNICAST;

		assert_int_equal(ip4_src_martian[o] != 0, reserved);
		assert_int_equal(rib4_is_reserved(o << 24, 8), reserved);
		/* every address of the octet, whatever the prefix length */
		assert_int_equal(rib4_is_reserved((o << 24) | 0xffffff, 32), reserved);
	}
	/* a prefix that only covers a reserved range is not inside it */
	assert_false(rib4_is_reserved(0, 0));
	assert_false(rib4_is_reserved(0xc0000000, 2));
	assert_true(rib4_is_reserved(0xe0000000, 3));
	assert_false(rib4_is_reserved(0xe0000000, 2));
}

static void test_classes(void **state)
{
	(void)state;
	for (unsigned o = 0; o < 256; o++) {
		uint8_t want = IP4_UNICAST;

		if (o == 0 || o == 127 || (o >= 240 && o < 255))
			want = IP4_MARTIAN;
		else if (o >= 224 && o < 240)
			want = IP4_MULTICAST;
		else if (o == 255)
			want = IP4_BCAST_OCTET;
		assert_int_equal(ip4_dst_class[o], want);
	}
}

static struct fwd_worker *w;
static fwd_input_fn l3;

/* What the l3 input did with one frame received on port 0. */
enum fate { FORWARDED, PUNTED, DROPPED };

static enum fate input(struct rte_mbuf *m, enum fwd_drop_reason want_drop)
{
	uint64_t drops[FWD_DROP_MAX], moved = 0;
	unsigned tx = w->tx[1].n + w->tx[0].n, punts = w->n_punt;
	enum fate f;

	memcpy(drops, w->stats.port[0].drop, sizeof(drops));
	l3(w, port_iface(0), &m, 1);
	for (unsigned r = 0; r < FWD_DROP_MAX; r++)
		moved += w->stats.port[0].drop[r] - drops[r];
	f = w->n_punt != punts ? PUNTED : w->tx[1].n + w->tx[0].n != tx ? FORWARDED : DROPPED;
	if (f == DROPPED) {
		assert_int_equal(moved, 1);
		assert_int_equal(w->stats.port[0].drop[want_drop] - drops[want_drop], 1);
	} else {
		assert_int_equal(moved, 0);
	}
	return f;
}

static struct rte_mbuf *pkt(uint32_t src, uint32_t dst)
{
	static const uint8_t udp[8] = { 0x9c, 0x40, 0x82, 0x9a, 0, 8, 0, 0 };
	struct tpkt t = { .ttl = 64, .proto = 17, .src = src, .dst = dst, .l4 = udp, .l4len = 8 };

	return tpkt_build(&t);
}

#define FWD(s, d)     assert_int_equal(input(pkt(s, d), 0), FORWARDED)
#define DROP(s, d, r) assert_int_equal(input(pkt(s, d), r), DROPPED)

static void test_sources(void **state)
{
	(void)state;
	FWD(IP4(10, 0, 1, 2), IP4(10, 20, 0, 7));
	/* ours and our subnet's directed broadcast, from outside */
	DROP(IP4(10, 0, 1, 1), IP4(10, 20, 0, 7), FWD_DROP_OWN_SOURCE);
	DROP(IP4(10, 0, 1, 255), IP4(10, 20, 0, 7), FWD_DROP_OWN_SOURCE);
	DROP(IP4(10, 0, 1, 1), IP4(10, 0, 1, 1), FWD_DROP_OWN_SOURCE);
	/* the same first and last octets, not ours: forwarded (the slow way) */
	FWD(IP4(10, 9, 9, 1), IP4(10, 20, 0, 7));
	FWD(IP4(10, 9, 9, 255), IP4(10, 20, 0, 7));
	/* ... also over an ECMP route: the slow path sends it by the member */
	FWD(IP4(10, 9, 9, 1), IP4(10, 40, 0, 7));
	FWD(IP4(10, 9, 8, 1), IP4(10, 40, 0, 8));
	/* RFC 3927 7: link-local neither from nor to, but to us is delivered */
	DROP(IP4(169, 254, 7, 7), IP4(10, 20, 0, 7), FWD_DROP_LINK_LOCAL);
	DROP(IP4(10, 0, 1, 2), IP4(169, 254, 7, 7), FWD_DROP_LINK_LOCAL);
	assert_int_equal(input(pkt(IP4(169, 254, 7, 7), IP4(10, 0, 1, 1)), 0), PUNTED);
	FWD(IP4(169, 253, 7, 7), IP4(10, 20, 0, 7));
	/* martians as before */
	DROP(IP4(127, 0, 0, 1), IP4(10, 20, 0, 7), FWD_DROP_BAD_ADDRESS);
	/* an address removed is no longer watched */
	ip4_addrs[0].n = 0;
	ip4_src_watch_sync();
	assert_int_equal(ip4_src_watch[ip4_src_watch_idx(rte_cpu_to_be_32(IP4(10, 0, 1, 1)))], 0);
	ip4_addrs[0].n = 1;
	ip4_src_watch_sync();
	assert_int_equal(ip4_src_watch[ip4_src_watch_idx(rte_cpu_to_be_32(IP4(10, 0, 1, 1)))],
	                 IP4_WATCH_OWN);
}

static void test_rpf(void **state)
{
	(void)state;
	fwd_ports[0].rpf = FWD_RPF_STRICT;
	FWD(IP4(10, 0, 1, 2), IP4(10, 20, 0, 7));                 /* connected on p0 */
	FWD(IP4(10, 40, 0, 2), IP4(10, 20, 0, 7));                /* ECMP with a p0 member */
	DROP(IP4(10, 20, 0, 9), IP4(10, 0, 1, 2), FWD_DROP_RPF);  /* routed out of p1 */
	DROP(IP4(192, 0, 2, 1), IP4(10, 20, 0, 7), FWD_DROP_RPF); /* no route */
	DROP(IP4(10, 66, 0, 1), IP4(10, 20, 0, 7), FWD_DROP_RPF); /* blackhole */
	assert_int_equal(input(pkt(IP4(10, 20, 0, 9), IP4(10, 0, 1, 1)), 0), PUNTED); /* to us */
	fwd_ports[0].rpf = FWD_RPF_LOOSE;
	FWD(IP4(10, 20, 0, 9), IP4(10, 20, 0, 7));
	DROP(IP4(192, 0, 2, 1), IP4(10, 20, 0, 7), FWD_DROP_RPF);
	DROP(IP4(10, 66, 0, 1), IP4(10, 20, 0, 7), FWD_DROP_RPF);
	fwd_ports[0].rpf = FWD_RPF_OFF;
	FWD(IP4(192, 0, 2, 1), IP4(10, 20, 0, 7));
}

/* m with its last `tail` bytes moved into a second segment */
static struct rte_mbuf *chained(struct rte_mbuf *m, unsigned tail)
{
	struct rte_mbuf *s = rte_pktmbuf_alloc(pool);

	assert_non_null(s);
	memcpy(rte_pktmbuf_append(s, (uint16_t)tail),
	       rte_pktmbuf_mtod_offset(m, uint8_t *, m->data_len - tail), tail);
	rte_pktmbuf_trim(m, (uint16_t)tail);
	assert_int_equal(rte_pktmbuf_chain(m, s), 0);
	return m;
}

static void test_multi_seg(void **state)
{
	struct rte_mbuf *m;

	(void)state;
	/* the IP length covering both segments */
	assert_int_equal(
	        input(chained(pkt(IP4(10, 0, 1, 2), IP4(10, 20, 0, 7)), 4), FWD_DROP_MULTI_SEG),
	        DROPPED);
	/* an IP length that ends with the first segment: the second is no padding */
	m = chained(pkt(IP4(10, 0, 1, 2), IP4(10, 20, 0, 7)), 4);
	tpkt_ip(m)->total_length = rte_cpu_to_be_16((uint16_t)(m->data_len - L2));
	tpkt_ip(m)->hdr_checksum = 0;
	tpkt_ip(m)->hdr_checksum = ip4_cksum(tpkt_ip(m));
	assert_int_equal(input(m, FWD_DROP_MULTI_SEG), DROPPED);
}

static void test_rx_fit(void **state)
{
	(void)state;
	/* the pool's buffer for an MTU holds its frame, tagged twice */
	for (unsigned mtu = 68; mtu <= 9600; mtu += 1)
		assert_null(fwd_port_rx_problem(mtu + FWD_FRAME_OVERHEAD, fwd_rx_buf_size(mtu), 0,
		                                false));
	assert_int_equal(fwd_rx_buf_size(1500), 2048);
	assert_int_equal(fwd_rx_buf_size(9000), 9216);
	assert_non_null(fwd_port_rx_problem(9026, 9216, 0, true)); /* the device scatters */
	assert_non_null(fwd_port_rx_problem(9300, 9216, 0, false));
	assert_non_null(fwd_port_rx_problem(1526, 2048, 4096, false));
}

/* ------------------------------------------------------------- VLAN egress */

static const uint8_t mac_gw[6] = { 0x02, 0, 0, 0, 0, 0x22 }; /* neighbour()'s */
static uint32_t neighbour(uint32_t addr, uint16_t iface);

/* Frame i of port 1's tx buffer: dst, src, then (tagged) 0x8100 and vid, IPv4. */
static void assert_out(unsigned i, int vid, unsigned ip_len)
{
	struct rte_mbuf *m = w->tx[1].pkts[i];
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	unsigned l2 = vid < 0 ? 14 : 18;
	uint8_t tag[4] = { 0x81, 0x00, (uint8_t)((unsigned)vid >> 8), (uint8_t)vid };

	assert_memory_equal(d, mac_gw, 6);
	assert_memory_equal(d + 6, fwd_ports[1].mac.addr_bytes, 6);
	if (vid >= 0)
		assert_memory_equal(d + 12, tag, 4);
	assert_int_equal(d[l2 - 2], 0x08);
	assert_int_equal(d[l2 - 1], 0x00);
	assert_int_equal(m->pkt_len, l2 + ip_len);
	assert_int_equal(m->data_len, l2 + ip_len);
	assert_int_equal(d[l2 + 8], 63); /* TTL down */
}

/*
 * Routes via a neighbour on VLAN 200 of port 1: untagged in -> tagged out,
 * tagged in (on VLAN 100 of port 0, the demux took the tag) -> untagged
 * out, and VLAN 100 -> VLAN 200; frames of both kinds share port 1's run,
 * whose bytes count the tags, and the VLAN counts its own.
 */
static void test_vlan_egress(void **state)
{
	struct rte_mbuf *b[3];
	uint16_t v100, v200;
	unsigned ip_len;
	uint64_t rx0;

	(void)state;
	port_iface(0);
	port_iface(1);
	assert_int_equal(fwd_iface_vlan_add("p0.100", 0, 100, 0, &v100), 0);
	assert_int_equal(fwd_iface_vlan_add("p1.200", 1, 200, 0, &v200), 0);
	fib4_add(ip4_fibs[0], IP4(10, 77, 0, 0), 16, neighbour(IP4(10, 200, 0, 2), v200));
	assert_int_equal(nh_table[fib4_lookup(ip4_fibs[0], IP4(10, 77, 0, 1))].port, 1);

	b[0] = pkt(IP4(10, 0, 1, 2), IP4(10, 77, 0, 5)); /* to VLAN 200 */
	b[1] = pkt(IP4(10, 0, 1, 2), IP4(10, 20, 0, 7)); /* to port 1, untagged */
	b[2] = pkt(IP4(10, 0, 1, 2), IP4(10, 77, 0, 6));
	ip_len = b[0]->pkt_len - 14;
	rx0 = w->stats.port[0].rx_bytes;
	l3(w, port_iface(0), b, 3);
	assert_int_equal(w->tx[1].n, 3);
	assert_out(0, 200, ip_len);
	assert_out(1, -1, ip_len);
	assert_out(2, 200, ip_len);
	assert_int_equal(w->tx[1].bytes, 3 * (14 + ip_len) + 2 * 4);
	assert_int_equal(w->stats.port[0].rx_bytes - rx0, 3 * (14 + ip_len)); /* no tag in */
	assert_int_equal(w->stats.port[v200].tx_pkts, 2);
	assert_int_equal(w->stats.port[v200].tx_bytes, 2 * (18 + ip_len));

	/* tagged in: VLAN 100's input gets the frame without its tag */
	b[0] = pkt(IP4(10, 0, 1, 2), IP4(10, 20, 0, 7));
	b[1] = pkt(IP4(10, 0, 1, 2), IP4(10, 77, 0, 7));
	l3(w, &fwd_ifaces[v100], b, 2);
	assert_int_equal(w->tx[1].n, 5);
	assert_out(3, -1, ip_len);
	assert_out(4, 200, ip_len);
	assert_int_equal(w->stats.port[v100].rx_bytes, 2 * (14 + ip_len));
	assert_int_equal(w->stats.port[v200].tx_pkts, 3);
	fwd_iface_reset();
}

/* m with an 802.1Q tag of vid after its MACs, as a trunk sends it. */
static struct rte_mbuf *tagged(struct rte_mbuf *m, uint16_t vid)
{
	uint8_t *d = (uint8_t *)rte_pktmbuf_prepend(m, 4);

	memmove(d, d + 4, 12);
	d[12] = 0x81;
	d[13] = 0x00;
	d[14] = (uint8_t)(vid >> 8);
	d[15] = (uint8_t)vid;
	return m;
}

/*
 * The l3 input of a VLAN's frames with their tag kept (the worker's demux
 * leaves it): VLAN 100 -> VLAN 200 leaves where it came in (the tag
 * rewritten, the frame start unmoved), VLAN 100 -> port 1 untagged starts
 * 4 bytes on, and a frame the fast path doubts reaches the slow path
 * without its tag (an own source: dropped as that on VLAN 100).
 */
static void test_vlan_tagged_in(void **state)
{
	fwd_input_fn l3t = fwd_worker_vlan_tagged_input(FWD_MODE_L3);
	struct rte_mbuf *b[3];
	uint16_t v100, v200, off0, off1;
	uint64_t rx0, tx0, txb0, drop0;
	unsigned ip_len;

	(void)state;
	assert_non_null(l3t);
	port_iface(0);
	port_iface(1);
	assert_int_equal(fwd_iface_vlan_add("p0.100", 0, 100, 0, &v100), 0);
	assert_int_equal(fwd_iface_vlan_add("p1.200", 1, 200, 0, &v200), 0);
	fib4_add(ip4_fibs[0], IP4(10, 77, 0, 0), 16, neighbour(IP4(10, 200, 0, 2), v200));

	b[0] = tagged(pkt(IP4(10, 0, 1, 2), IP4(10, 77, 0, 5)), 100);
	b[1] = tagged(pkt(IP4(10, 0, 1, 2), IP4(10, 20, 0, 7)), 100);
	b[2] = tagged(pkt(IP4(10, 0, 1, 1), IP4(10, 20, 0, 7)), 100);
	ip_len = b[0]->pkt_len - 18;
	off0 = b[0]->data_off;
	off1 = b[1]->data_off;
	rx0 = w->stats.port[v100].rx_bytes;
	drop0 = w->stats.port[v100].drop[FWD_DROP_OWN_SOURCE];
	tx0 = w->stats.port[v200].tx_pkts;
	txb0 = w->stats.port[v200].tx_bytes;
	l3t(w, &fwd_ifaces[v100], b, 3);
	assert_int_equal(w->tx[1].n, 2);
	assert_out(0, 200, ip_len);
	assert_out(1, -1, ip_len);
	assert_int_equal(w->tx[1].pkts[0]->data_off, off0);
	assert_int_equal(w->tx[1].pkts[1]->data_off, off1 + 4);
	assert_int_equal(w->tx[1].bytes, 2 * (14 + ip_len) + 4);
	assert_int_equal(w->stats.port[v100].drop[FWD_DROP_OWN_SOURCE] - drop0, 1);
	assert_int_equal(w->stats.port[v100].rx_bytes - rx0, 3 * (14 + ip_len)); /* no tag in */
	assert_int_equal(w->stats.port[v200].tx_pkts - tx0, 1);
	assert_int_equal(w->stats.port[v200].tx_bytes - txb0, 18 + ip_len);
	fwd_iface_reset();
}

/*
 * Port 0 in VRF 7, whose table has the small layout: its own routes decide
 * (10.20/16 a blackhole there, forwarded in the default VRF), a next_vrf
 * default route sends the rest to the default VRF's table, and a next_vrf
 * route found there in turn is a loop, dropped as vrf_loop; tagged frames
 * of an interface in VRF 7 take the same loop.
 */
static void test_vrf(void **state)
{
	uint32_t to_default, to_seven;

	(void)state;
	ip4_fibs[7] = fib4_create_small(16, 1024, NULL, SOCKET_ID_ANY);
	assert_non_null(ip4_fibs[7]);
	fib4_add(ip4_fibs[7], IP4(10, 0, 1, 1), 32, NH_IDX_LOCAL);
	fib4_add(ip4_fibs[7], IP4(10, 20, 0, 0), 16, NH_IDX_BLACKHOLE);
	assert_int_equal(nh_alloc_vrf(0, &to_default), 0);
	assert_int_equal(nh_alloc_vrf(7, &to_seven), 0);
	fib4_add(ip4_fibs[7], 0, 0, to_default);
	fib4_add(ip4_fibs[0], IP4(10, 77, 0, 0), 16, to_seven);
	FWD(IP4(10, 0, 1, 2), IP4(10, 20, 0, 7)); /* the default VRF */
	fwd_ifaces[0].vrf = 7;
	DROP(IP4(10, 0, 1, 2), IP4(10, 20, 0, 7), FWD_DROP_BLACKHOLE);
	FWD(IP4(10, 0, 1, 2), IP4(10, 40, 0, 8)); /* next_vrf: the default's ECMP route */
	DROP(IP4(10, 0, 1, 2), IP4(10, 77, 0, 1), FWD_DROP_VRF_LOOP);
	/* no route in the default VRF either: punted for the ICMP error */
	assert_int_equal(input(pkt(IP4(10, 0, 1, 2), IP4(192, 0, 2, 1)), FWD_DROP_NO_ROUTE),
	                 PUNTED);
	assert_int_equal(input(pkt(IP4(10, 0, 1, 2), IP4(10, 0, 1, 1)), 0), PUNTED);
	fwd_ifaces[0].vrf = FWD_VRF_DEFAULT;
	fib4_del(ip4_fibs[0], IP4(10, 77, 0, 0), 16, -1, 0);
	fib4_free(ip4_fibs[7]);
	ip4_fibs[7] = NULL;
	nh_release(to_default);
	nh_release(to_seven);
}

static int setup(void **state)
{
	(void)state;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (unsigned p = 0; p < FWD_MAX_PORTS; p++) {
		rte_pktmbuf_free_bulk(w->tx[p].pkts, w->tx[p].n);
		w->tx[p].n = 0;
		w->tx[p].bytes = 0;
	}
	w->tx_dirty = 0;
	rte_pktmbuf_free_bulk(w->punt, w->n_punt);
	w->n_punt = 0;
	return 0;
}

static void port(unsigned i)
{
	struct fwd_port *p = &fwd_ports[i];

	memset(p, 0, sizeof(*p));
	p->idx = (uint8_t)i;
	p->mode = FWD_MODE_L3;
	p->mtu = 1500;
	p->admin_up = 1;
	memcpy(p->mac.addr_bytes, mac_ours, 6);
	p->mac.addr_bytes[4] = (uint8_t)(i + 1);
	memcpy(&p->mac48, &p->mac, sizeof(p->mac));
	snprintf(p->name, sizeof(p->name), "p%u", i);
}

static uint32_t neighbour(uint32_t addr, uint16_t p)
{
	static const struct rte_ether_addr mac = { { 0x02, 0, 0, 0, 0, 0x22 } };
	struct fwd_ip a = fwd_ip_v4(addr);
	uint32_t idx;

	assert_int_equal(nh_alloc(&a, p, &idx), 0);
	nh_set_l2(idx, &mac);
	return idx;
}

static int group_setup(void **state)
{
	static const struct rte_mbuf_dynfield punt_field = {
		.name = "fwd_punt_meta",
		.size = sizeof(struct fwd_punt_meta),
		.align = __alignof__(struct fwd_punt_meta),
	};
	uint32_t m[2], grp;

	(void)state;
	if (test_eal_init("ip4in") < 0 || (pool = test_pool("ip4in", 511, 2048)) == NULL)
		return -1;
	fwd.pool = pool;
	fwd_punt_meta_offset = rte_mbuf_dynfield_register(&punt_field);
	port(0);
	port(1);
	/* the MAC the frames are sent to is port 0's */
	fwd_ports[0].mac.addr_bytes[4] = mac_ours[4];
	memcpy(&fwd_ports[0].mac48, &fwd_ports[0].mac, sizeof(fwd_ports[0].mac));
	fwd_n_ports = 2;
	w = rte_zmalloc("worker", sizeof(*w), RTE_CACHE_LINE_SIZE);
	ip4_fibs[0] = fib4_create(64, NULL, SOCKET_ID_ANY);
	if (fwd_punt_meta_offset < 0 || w == NULL || ip4_fibs[0] == NULL ||
	    nh_init(64, SOCKET_ID_ANY) < 0 || nh_groups_init(SOCKET_ID_ANY) < 0)
		return -1;
	rib4_init(&ip4_ribs[0], ip4_fibs[0]); /* the reserved ranges */
	/* port 0: 10.0.1.1/24, its broadcast; port 1 a gateway to 10.20/16 */
	ip4_addrs[0].n = 1;
	ip4_addrs[0].a[0] = (struct fwd_ip4_prefix){ IP4(10, 0, 1, 1), 24 };
	ip4_src_watch_sync();
	fib4_add(ip4_fibs[0], IP4(10, 0, 1, 1), 32, NH_IDX_LOCAL);
	fib4_add(ip4_fibs[0], IP4(10, 0, 1, 255), 32, NH_IDX_LOCAL);
	fib4_add(ip4_fibs[0], IP4(10, 0, 1, 0), 24, NH_IDX_CONNECTED + 0);
	fib4_add(ip4_fibs[0], IP4(10, 20, 0, 0), 16, neighbour(IP4(10, 9, 0, 2), 1));
	fib4_add(ip4_fibs[0], IP4(10, 66, 0, 0), 16, NH_IDX_BLACKHOLE);
	m[0] = neighbour(IP4(10, 0, 1, 9), 0);
	m[1] = neighbour(IP4(10, 9, 0, 3), 1);
	assert_int_equal(nh_group_get(m, 2, &grp), 0);
	fib4_add(ip4_fibs[0], IP4(10, 40, 0, 0), 16, grp);
	l3 = fwd_worker_input(FWD_MODE_L3);
	return l3 != NULL ? 0 : -1;
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_set_for_all),
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_rx_fit),
		T(test_sources),
		T(test_rpf),
		T(test_multi_seg),
		T(test_vlan_egress),
		T(test_vlan_tagged_in),
		T(test_vrf),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
