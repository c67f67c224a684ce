/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 input of l3 ports (ip6/input.c, input_slow.c) on a fake worker:
 * what it forwards (into the tx buffers, rewritten), what it punts (the
 * reason, the drop the punt carries, the error asked for), and that every
 * frame it refuses moves exactly one drop counter, the right one; NDP sorted
 * before the policer (what fwd ignores dropped, the rest tagged with its
 * port's bucket). Then the l3 input's hand-over of a burst's IPv6 frames.
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
#include "ip4/fib.h"
#include "ip4/ip4.h"
#include "ip6/icmp6.h"
#include "ip6/input.h"
#include "ip6/ip6.h"
#include "ip6/ndp_guard.h"
#include "nexthop/nexthop.h"
#include "port/port.h"
#include "test_eal.h"
#include "ip6_pkt.h"

/* The interface of port i as the worker hands it to an input, with what the
 * test set in the port table. */
static const struct fwd_iface *port_iface(unsigned i)
{
	fwd_iface_port_sync((uint8_t)i);
	return &fwd_ifaces[i];
}

#define ASKER "2001:db8:1::2"

static const uint8_t gw_mac[6] = { 0x02, 0, 0, 0, 0, 0x22 };
static struct fwd_worker *w;
static uint32_t gw, gw2, pend;
static unsigned pool_in_use;

/* What one frame did to the worker. */
struct snap {
	uint64_t drop[FWD_DROP_MAX];
	uint64_t rx_bytes;
	unsigned punts;
	unsigned tx[3];
};

static void snap(struct snap *s)
{
	memcpy(s->drop, w->stats.port[0].drop, sizeof(s->drop));
	s->rx_bytes = w->stats.port[0].rx_bytes;
	s->punts = w->n_punt;
	for (unsigned p = 0; p < 3; p++)
		s->tx[p] = w->tx[p].n;
}

static uint64_t drops_moved(const struct snap *a, const struct snap *b)
{
	uint64_t n = 0;

	for (unsigned r = 0; r < FWD_DROP_MAX; r++)
		n += b->drop[r] - a->drop[r];
	return n;
}

/* Hand t, received on port 0, to the IPv6 input; returns its frame length. */
static unsigned input(const struct t6 *t, struct snap *before, struct snap *after)
{
	struct rte_mbuf *m = t6_build(t);
	unsigned len = m->pkt_len;

	snap(before);
	fwd_ip6_input(w, port_iface(0), &m, 1);
	snap(after);
	assert_int_equal(after->rx_bytes - before->rx_bytes, len);
	return len;
}

static void expect_drop(const struct t6 *t, enum fwd_drop_reason r)
{
	struct snap a, b;

	input(t, &a, &b);
	assert_int_equal(drops_moved(&a, &b), 1);
	assert_int_equal(b.drop[r] - a.drop[r], 1);
	assert_int_equal(b.punts, a.punts);
	assert_memory_equal(a.tx, b.tx, sizeof(a.tx));
}

/* t is punted for reason (out_port, aux), carrying drop reason `drop`. */
static const struct fwd_punt_meta *expect_punt(const struct t6 *t, enum fwd_punt_reason reason,
                                               uint16_t out_port, uint32_t aux, uint8_t drop)
{
	const struct fwd_punt_meta *meta;
	struct snap a, b;

	input(t, &a, &b);
	assert_int_equal(drops_moved(&a, &b), 0); /* counted when the punt is handed over */
	assert_int_equal(b.punts, a.punts + 1);
	assert_memory_equal(a.tx, b.tx, sizeof(a.tx));
	meta = fwd_punt_meta(w->punt[w->n_punt - 1]);
	assert_int_equal(meta->reason, reason);
	assert_int_equal(meta->in_port, 0);
	assert_int_equal(meta->out_port, out_port);
	assert_int_equal(meta->aux, aux);
	assert_int_equal(meta->drop, drop);
	return meta;
}

static void expect_error(const struct t6 *t, uint8_t type, uint8_t code, uint16_t param,
                         enum fwd_drop_reason r)
{
	expect_punt(t, FWD_PUNT_ICMP6, 0, icmp6_punt_aux(type, code, param), (uint8_t)r);
}

/* The hop limit of punted packet i (from the end). */
static uint8_t punted_hlim(unsigned back)
{
	return rte_pktmbuf_mtod(w->punt[w->n_punt - back], uint8_t *)[L2 + 7];
}

static uint8_t udp8[8] = { 0x9c, 0x40, 0x82, 0x9a, 0, 8, 0, 0 };

static struct t6 pkt(const char *src, const char *dst)
{
	return (struct t6){ .hlim = 64, .nh = 17, .src = src, .dst = dst, .l4 = udp8, .l4len = 8 };
}

static void test_forward(void **state)
{
	struct t6 t = pkt(ASKER, "2001:db8:20::7");
	struct snap a, b;
	const uint8_t *f;
	unsigned len;

	(void)state;
	len = input(&t, &a, &b);
	assert_int_equal(drops_moved(&a, &b), 0);
	assert_int_equal(b.tx[1], a.tx[1] + 1);
	assert_int_equal(w->tx[1].bytes, len);
	f = rte_pktmbuf_mtod(w->tx[1].pkts[0], const uint8_t *);
	assert_memory_equal(f, gw_mac, 6);
	assert_memory_equal(f + 6, fwd_ports[1].mac.addr_bytes, 6);
	assert_int_equal(f[L2 + 7], 63);
	/* Ethernet padding: counted in, trimmed off */
	t = pkt(ASKER, "2001:db8:30::7");
	t.pad = 6;
	len = input(&t, &a, &b);
	assert_int_equal(b.tx[2], a.tx[2] + 1);
	assert_int_equal(w->tx[2].pkts[0]->pkt_len, len - 6);
	assert_int_equal(w->tx[2].pkts[0]->data_len, len - 6);
	/* a site-local source (fec0::/10) goes the slow way, and is forwarded */
	t = pkt("fec0::1", "2001:db8:20::8");
	input(&t, &a, &b);
	assert_int_equal(b.tx[1], a.tx[1] + 1);
	assert_int_equal(rte_pktmbuf_mtod(w->tx[1].pkts[1], uint8_t *)[L2 + 7], 63);
}

static void test_burst(void **state)
{
	static const char *const dsts[] = { "2001:db8:20::1", "2001:db8:20::2", "2001:db8:30::3",
		                            "2001:db8:99::4", "2001:db8:20::5", "2001:db8:30::6" };
	struct rte_mbuf *pkts[RTE_DIM(dsts)];
	struct t6 t;

	(void)state;
	for (unsigned i = 0; i < RTE_DIM(dsts); i++) {
		t = pkt(ASKER, dsts[i]);
		pkts[i] = t6_build(&t);
	}
	fwd_ip6_input(w, port_iface(0), pkts, RTE_DIM(pkts));
	assert_int_equal(w->tx[1].n, 3);
	assert_int_equal(w->tx[2].n, 2);
	assert_int_equal(w->n_punt, 1); /* no route */
	assert_ptr_equal(w->tx[1].pkts[0], pkts[0]);
	assert_ptr_equal(w->tx[1].pkts[1], pkts[1]);
	assert_ptr_equal(w->tx[1].pkts[2], pkts[4]);
	assert_ptr_equal(w->tx[2].pkts[0], pkts[2]);
	assert_ptr_equal(w->tx[2].pkts[1], pkts[5]);
	assert_int_equal(w->tx_dirty, 0x6);
}

static void test_drops(void **state)
{
	static const uint8_t other_mac[6] = { 0x02, 0, 0, 0, 0x09, 0x09 };
	struct t6 t;

	(void)state;
	t = pkt(ASKER, "2001:db8:20::7");
	t.eth_dst = other_mac;
	expect_drop(&t, FWD_DROP_NOT_FOR_US);
	t = pkt(ASKER, "2001:db8:20::7");
	t.plen_adjust = 1; /* past the frame: cut short on the way */
	expect_drop(&t, FWD_DROP_TRUNCATED);
	static const char *const bad_src[] = { "ff02::1", "::1", "::ffff:10.1.2.3" };
	for (unsigned i = 0; i < RTE_DIM(bad_src); i++) {
		t = pkt(bad_src[i], "2001:db8:20::7");
		expect_drop(&t, FWD_DROP_BAD_ADDRESS);
	}
	t = pkt(ASKER, "::1");
	expect_drop(&t, FWD_DROP_BAD_ADDRESS);
	t = pkt(ASKER, "::");
	expect_drop(&t, FWD_DROP_BAD_ADDRESS);
	t = pkt("::", "2001:db8:20::7"); /* nobody's packet to forward */
	expect_drop(&t, FWD_DROP_BAD_ADDRESS);
	static const char *const bad_groups[] = { "ff00::5", "ff01::1", "ff11::1" };
	for (unsigned i = 0; i < RTE_DIM(bad_groups); i++) { /* scopes 0 and 1 */
		t = pkt(ASKER, bad_groups[i]);
		expect_drop(&t, FWD_DROP_BAD_ADDRESS);
		t.eth_dst = mac_group;
		expect_drop(&t, FWD_DROP_BAD_ADDRESS);
	}
	t = pkt(ASKER, "fe80::5"); /* a link-local address not ours */
	expect_drop(&t, FWD_DROP_SCOPE);
	t = pkt(ASKER, "2001:db8:66::1");
	expect_drop(&t, FWD_DROP_BLACKHOLE);
}

static void test_bad_frames(void **state)
{
	struct t6 t = pkt(ASKER, "2001:db8:20::7");
	struct rte_mbuf *m;
	struct snap a, b;

	(void)state;
	/* version 4 in an IPv6 frame; a frame shorter than the header; a frame
	 * shorter than an Ethernet header */
	static const unsigned cut[] = { 0, 53, 10 };
	for (unsigned i = 0; i < RTE_DIM(cut); i++) {
		m = t6_build(&t);
		if (cut[i] == 0)
			rte_pktmbuf_mtod(m, uint8_t *)[L2] = 0x40;
		else
			rte_pktmbuf_trim(m, (uint16_t)(m->data_len - cut[i]));
		snap(&a);
		fwd_ip6_input(w, port_iface(0), &m, 1);
		snap(&b);
		assert_int_equal(drops_moved(&a, &b), 1);
		assert_int_equal(b.drop[FWD_DROP_BAD_HEADER], a.drop[FWD_DROP_BAD_HEADER] + 1);
	}
}

static void test_errors(void **state)
{
	static uint8_t big[1300];
	struct t6 t;

	(void)state;
	t = pkt(ASKER, "2001:db9::1");
	expect_error(&t, ICMP6_DST_UNREACH, ICMP6_DST_UNREACH_NOROUTE, 0, FWD_DROP_NO_ROUTE);
	t = pkt(ASKER, "2001:db8:20::7");
	t.hlim = 1;
	expect_error(&t, ICMP6_TIME_EXCEEDED, 0, 0, FWD_DROP_TTL_EXCEEDED);
	t.hlim = 0;
	expect_error(&t, ICMP6_TIME_EXCEEDED, 0, 0, FWD_DROP_TTL_EXCEEDED);
	/* Linux's order: the hop limit first, then the source */
	t.src = "fe80::99";
	expect_error(&t, ICMP6_TIME_EXCEEDED, 0, 0, FWD_DROP_TTL_EXCEEDED);
	t.hlim = 64;
	expect_error(&t, ICMP6_DST_UNREACH, ICMP6_DST_UNREACH_BEYONDSCOPE, 0, FWD_DROP_SCOPE);
	/* larger than p1's 1280: too big, with that MTU; p2 takes it */
	t = pkt(ASKER, "2001:db8:20::7");
	t.l4 = big;
	t.l4len = 1241;
	expect_error(&t, ICMP6_PACKET_TOO_BIG, 0, 1280, FWD_DROP_MTU);
	t.l4len = 1240;
	struct snap a, b;
	input(&t, &a, &b);
	assert_int_equal(b.tx[1], a.tx[1] + 1);
	t = pkt(ASKER, "2001:db8:30::7");
	t.l4 = big;
	t.l4len = sizeof(big);
	input(&t, &a, &b);
	assert_int_equal(b.tx[2], a.tx[2] + 1);
}

static void test_punts(void **state)
{
	static const uint8_t hbh[8] = { 17, 0, 1, 4, 0, 0, 0, 0 };
	const struct fwd_punt_meta *meta;
	struct t6 t;

	(void)state;
	/* hop-by-hop: to the control thread with the hop limit as it came */
	t = pkt(ASKER, "2001:db8:20::7");
	t.nh = 0;
	t.ext = hbh;
	t.extlen = sizeof(hbh);
	expect_punt(&t, FWD_PUNT_HBH6, 1, 0, FWD_PUNT_NO_DROP);
	assert_int_equal(punted_hlim(1), 64);
	/* a neighbour resolving: hop limit down, its index and generation */
	t = pkt(ASKER, "2001:db8:21::7");
	meta = expect_punt(&t, FWD_PUNT_RESOLVE, 1, nh_punt_tag(pend, nh_table[pend].gen),
	                   FWD_PUNT_NO_DROP);
	assert_int_equal(nh_punt_idx(meta->aux), pend);
	assert_int_equal(punted_hlim(1), 63);
	/* a host on a connected prefix: glean */
	t = pkt(ASKER, "2001:db8:2::9");
	expect_punt(&t, FWD_PUNT_GLEAN6, 1, 0, FWD_PUNT_NO_DROP);
	assert_int_equal(punted_hlim(1), 63);
}

static void test_local(void **state)
{
	static const uint8_t hbh[8] = { 58, 0, 5, 2, 0, 0, 1, 0 };
	static const char *const ours[] = { "2001:db8:1::1", "fe80::1", "ff02::1", "ff05::2" };
	static const uint8_t other_mac[6] = { 0x02, 0, 0, 0, 0x09, 0x09 };
	struct t6 t;

	(void)state;
	for (unsigned i = 0; i < RTE_DIM(ours); i++) {
		t = pkt(ASKER, ours[i]);
		t.hlim = 1; /* no matter for us */
		expect_punt(&t, FWD_PUNT_LOCAL6, 0, 0, FWD_PUNT_NO_DROP);
		t.eth_dst = mac_group;
		expect_punt(&t, FWD_PUNT_LOCAL6, 0, 0, FWD_PUNT_NO_DROP);
	}
	/* a group frame to somebody else's unicast address */
	t = pkt(ASKER, "2001:db8:20::7");
	t.eth_dst = mac_group;
	expect_drop(&t, FWD_DROP_NOT_FOR_US);
	/* to us with a hop-by-hop header, or from :: (DAD) or a link-local address */
	t = pkt("::", "ff02::1:ff00:1");
	t.eth_dst = mac_group;
	t.nh = 0;
	t.ext = hbh;
	t.extlen = sizeof(hbh);
	expect_punt(&t, FWD_PUNT_LOCAL6, 0, 0, FWD_PUNT_NO_DROP);
	t = pkt("fe80::99", "2001:db8:1::1");
	expect_punt(&t, FWD_PUNT_LOCAL6, 0, 0, FWD_PUNT_NO_DROP);
	/* a multicast destination in a frame to another MAC: not ours */
	t = pkt(ASKER, "ff02::1");
	t.eth_dst = other_mac;
	expect_drop(&t, FWD_DROP_NOT_FOR_US);
}

static uint8_t nd_body[24];

/* An NDP message of type from src to dst (a group: to its MAC), with
 * target (NS, NA) when not NULL. */
static struct t6 nd(const char *src, const char *dst, uint8_t type, const char *target)
{
	memset(nd_body, 0, sizeof(nd_body));
	nd_body[0] = type;
	if (target != NULL)
		memcpy(nd_body + 8, a6(target), 16);
	return (struct t6){ .hlim = 255,
		            .nh = 58,
		            .src = src,
		            .dst = dst,
		            .l4 = nd_body,
		            .l4len = sizeof(nd_body),
		            .eth_dst = dst[0] == 'f' && dst[1] == 'f' ? mac_group : NULL };
}

/* NDP to us, sorted before the policer (ip6/ndp_guard.h). */
static void test_ndp_sorted(void **state)
{
	struct t6 t;

	(void)state;
	/* solicitations for our addresses, global and link-local: NS bucket */
	t = nd(ASKER, "ff02::1:ff00:1", 135, "2001:db8:1::1");
	expect_punt(&t, FWD_PUNT_LOCAL6, 0, FWD_PUNT_ND_NS, FWD_PUNT_NO_DROP);
	t = nd("fe80::99", "fe80::1", 135, "fe80::1");
	expect_punt(&t, FWD_PUNT_LOCAL6, 0, FWD_PUNT_ND_NS, FWD_PUNT_NO_DROP);
	/* for another host's address: ignored */
	t = nd(ASKER, "ff02::1:ff00:7", 135, "2001:db8:1::7");
	expect_drop(&t, FWD_DROP_NDP_IGNORED);
	/* a hop limit other than 255 (RFC 4861 7.1): invalid, whatever it
	 * asks or announces, before the guard looks at its target */
	t = nd(ASKER, "ff02::1:ff00:1", 135, "2001:db8:1::1");
	t.hlim = 254;
	expect_drop(&t, FWD_DROP_NDP_INVALID);
	t = nd("fe80::99", "ff02::1", 136, "2001:db8:1::77");
	t.hlim = 64;
	expect_drop(&t, FWD_DROP_NDP_INVALID);
	/* a DAD probe (from ::) for what may be a tentative address of ours
	 * (its last 16 bits are one of ours'); from a host, not ours: ignored */
	t = nd("::", "ff02::1:ff00:1", 135, "2001:db8:5::1");
	expect_punt(&t, FWD_PUNT_LOCAL6, 0, FWD_PUNT_ND_NS, FWD_PUNT_NO_DROP);
	t = nd(ASKER, "ff02::1:ff00:1", 135, "2001:db8:5::1");
	expect_drop(&t, FWD_DROP_NDP_IGNORED);
	/* an advertisement for a target nobody solicited: ignored; for one we
	 * did (ndp_solicit marks it), or one of ours (a conflict): NA bucket */
	t = nd("fe80::99", "ff02::1", 136, "2001:db8:1::77");
	expect_drop(&t, FWD_DROP_NDP_IGNORED);
	ndp_guard_mark(a6("2001:db8:1::77"));
	expect_punt(&t, FWD_PUNT_LOCAL6, 0, FWD_PUNT_ND_NA, FWD_PUNT_NO_DROP);
	t = nd("fe80::99", "ff02::1", 136, "2001:db8:1::1");
	expect_punt(&t, FWD_PUNT_LOCAL6, 0, FWD_PUNT_ND_NA, FWD_PUNT_NO_DROP);
	/* the mark fades when the neighbour table (empty here) no longer has it */
	ndp_guard_sync(NDP_GUARD_SYNC_MS * 5);
	t = nd("fe80::99", "ff02::1", 136, "2001:db8:1::77");
	expect_drop(&t, FWD_DROP_NDP_IGNORED);
	/* Router Solicitations only on a port that advertises */
	t = nd("fe80::99", "ff02::2", 133, NULL);
	expect_drop(&t, FWD_DROP_NDP_IGNORED);
	ndp_guard_rs_set(0, true);
	expect_punt(&t, FWD_PUNT_LOCAL6, 0, FWD_PUNT_ND_OTHER, FWD_PUNT_NO_DROP);
	ndp_guard_rs_set(0, false);
	/* Router Advertisements and Redirects: we are a router */
	t = nd("fe80::99", "ff02::1", 134, NULL);
	expect_drop(&t, FWD_DROP_NDP_IGNORED);
	t = nd("fe80::99", "fe80::1", 137, NULL);
	expect_drop(&t, FWD_DROP_NDP_IGNORED);
	/* a solicitation too short to hold its target: the control thread says why */
	t = nd(ASKER, "ff02::1:ff00:1", 135, NULL);
	t.l4len = 8;
	expect_punt(&t, FWD_PUNT_LOCAL6, 0, FWD_PUNT_ND_NS, FWD_PUNT_NO_DROP);
	/* other ICMPv6 (an echo request): LOCAL6's own bucket */
	t = nd(ASKER, "2001:db8:1::1", 128, NULL);
	expect_punt(&t, FWD_PUNT_LOCAL6, 0, FWD_PUNT_ND_NONE, FWD_PUNT_NO_DROP);
	ndp_guard_reset();
}

/* An IPv4 frame to 10.9.9.9 (no route), for the l3 input. gcc -O3 (not the
 * sanitizer build) takes the mbuf's buffer for an object of size 0. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
static struct rte_mbuf *ip4_frame(void)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *p;
	struct rte_ipv4_hdr *ip;

	assert_non_null(m);
	p = (uint8_t *)rte_pktmbuf_append(m, L2 + 28);
	assert_non_null(p);
	ip = (struct rte_ipv4_hdr *)(p + L2);
	memset(p, 0, L2 + 28);
	memcpy(p, mac_ours, 6);
	p[12] = 0x08;
	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16(28);
	ip->time_to_live = 64;
	ip->next_proto_id = 17;
	ip->src_addr = rte_cpu_to_be_32(0x0a000102);
	ip->dst_addr = rte_cpu_to_be_32(0x0a090909);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	return m;
}
#pragma GCC diagnostic pop

static void test_l3_handoff(void **state)
{
	fwd_input_fn l3 = fwd_worker_input(FWD_MODE_L3);
	struct rte_mbuf *pkts[4];
	struct t6 t = pkt(ASKER, "2001:db8:20::7");
	uint64_t unsupported = w->stats.port[0].drop[FWD_DROP_UNSUPPORTED];

	(void)state;
	assert_non_null(l3);
	pkts[0] = t6_build(&t);
	pkts[1] = ip4_frame();
	pkts[2] = t6_build(&t);
	pkts[3] = ip4_frame();
	l3(w, port_iface(0), pkts, 4);
	assert_int_equal(w->tx[1].n, 2); /* the IPv6 ones, forwarded */
	assert_int_equal(w->n_punt, 2);  /* the IPv4 ones: no route */
	/* without an IPv6 input, IPv6 is a frame the l3 input does not handle */
	ip6_input_fini();
	pkts[0] = t6_build(&t);
	l3(w, port_iface(0), pkts, 1);
	assert_int_equal(w->stats.port[0].drop[FWD_DROP_UNSUPPORTED], unsupported + 1);
	ip6_input_init();
}

static void test_sources(void **state)
{
	struct t6 t = pkt("2001:db8:1::1", "2001:db8:20::7");
	struct snap a, b;

	(void)state;
	/* one of ours from outside, to be forwarded or to us */
	expect_drop(&t, FWD_DROP_OWN_SOURCE);
	t.dst = "2001:db8:1::1";
	expect_drop(&t, FWD_DROP_OWN_SOURCE);
	/* the same last 16 bits, not ours: forwarded */
	t = pkt("2001:db8:9::1", "2001:db8:20::7");
	input(&t, &a, &b);
	assert_int_equal(b.tx[1], a.tx[1] + 1);
}

static void test_rpf(void **state)
{
	struct t6 t = pkt(ASKER, "2001:db8:20::7");
	struct snap a, b;

	(void)state;
	fwd_ports[0].rpf = FWD_RPF_STRICT;
	input(&t, &a, &b); /* connected on p0 */
	assert_int_equal(b.tx[1], a.tx[1] + 1);
	t.src = "2001:db8:30::9"; /* routed out of p2 */
	expect_drop(&t, FWD_DROP_RPF);
	fwd_ports[0].rpf = FWD_RPF_LOOSE;
	input(&t, &a, &b);
	assert_int_equal(b.tx[1], a.tx[1] + 1);
	t.src = "2001:db8:77::9"; /* no route */
	expect_drop(&t, FWD_DROP_RPF);
	t.src = "2001:db8:66::9"; /* blackhole */
	expect_drop(&t, FWD_DROP_RPF);
	fwd_ports[0].rpf = FWD_RPF_OFF;
	input(&t, &a, &b);
	assert_int_equal(b.tx[1], a.tx[1] + 1);
}

static void test_multi_seg(void **state)
{
	struct t6 t = pkt(ASKER, "2001:db8:20::7");
	struct rte_mbuf *m = t6_build(&t), *s = rte_pktmbuf_alloc(pool);
	uint64_t before = w->stats.port[0].drop[FWD_DROP_MULTI_SEG];

	(void)state;
	assert_non_null(s);
	memcpy(rte_pktmbuf_append(s, 4), rte_pktmbuf_mtod_offset(m, uint8_t *, m->data_len - 4), 4);
	rte_pktmbuf_trim(m, 4);
	assert_int_equal(rte_pktmbuf_chain(m, s), 0);
	fwd_ip6_input(w, port_iface(0), &m, 1);
	assert_int_equal(w->stats.port[0].drop[FWD_DROP_MULTI_SEG], before + 1);
	assert_int_equal(w->tx[1].n, 0);
}

static int setup(void **state)
{
	(void)state;
	pool_in_use = rte_mempool_in_use_count(pool);
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
	assert_int_equal(rte_mempool_in_use_count(pool), pool_in_use);
	return 0;
}

static uint32_t neighbour(const char *addr, uint16_t p, bool resolved);
static void route(const char *prefix, uint8_t len, uint32_t nh);

/* Frame i of port 2's tx buffer: gw_mac, port 2's, then 0x8100 and vid
 * when tagged (vid >= 0), IPv6, hop limit 63. */
static void assert_out2(unsigned i, int vid, unsigned len)
{
	const struct rte_mbuf *m = w->tx[2].pkts[i];
	const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
	unsigned l2 = vid < 0 ? L2 : L2 + 4;
	const uint8_t tag[4] = { 0x81, 0x00, (uint8_t)((unsigned)vid >> 8), (uint8_t)vid };

	assert_memory_equal(f, gw_mac, 6);
	assert_memory_equal(f + 6, fwd_ports[2].mac.addr_bytes, 6);
	if (vid >= 0)
		assert_memory_equal(f + 12, tag, 4);
	assert_int_equal(f[l2 - 2], 0x86);
	assert_int_equal(f[l2 - 1], 0xdd);
	assert_int_equal(m->pkt_len, len + l2 - L2);
	assert_int_equal(f[l2 + 7], 63);
}

/* Routes via neighbours on VLAN 300 of port 2: untagged in -> tagged out
 * (fast path and slow path), VLAN 100 of port 0 -> VLAN 300 and -> port 2
 * untagged; an unresolved one is punted for the VLAN, not its port. */
static void test_vlan_egress(void **state)
{
	struct t6 t = pkt(ASKER, "2001:db8:77::7");
	struct rte_mbuf *m;
	uint16_t v100, v300;
	struct snap a, b;
	unsigned len;

	(void)state;
	for (unsigned i = 0; i < 3; i++)
		port_iface(i); /* every port in the table: the name lookup walks them */
	assert_int_equal(fwd_iface_vlan_add("p0.100", 0, 100, 0, &v100), 0);
	assert_int_equal(fwd_iface_vlan_add("p2.300", 2, 300, 0, &v300), 0);
	route("2001:db8:77::", 48, neighbour("2001:db8:300::2", v300, true));
	route("2001:db8:78::", 48, neighbour("2001:db8:300::3", v300, false));
	len = input(&t, &a, &b);
	assert_int_equal(b.tx[2], a.tx[2] + 1);
	assert_out2(0, 300, len);
	assert_int_equal(w->tx[2].bytes, len + 4);
	assert_int_equal(w->stats.port[v300].tx_pkts, 1);
	assert_int_equal(w->stats.port[v300].tx_bytes, len + 4);
	/* a site-local source: the slow path tags it too */
	t = pkt("fec0::1", "2001:db8:77::8");
	len = input(&t, &a, &b);
	assert_out2(1, 300, len);
	assert_int_equal(w->stats.port[v300].tx_pkts, 2);
	/* from VLAN 100 (untagged by the demux): to VLAN 300, and to port 2 */
	t = pkt(ASKER, "2001:db8:77::9");
	m = t6_build(&t);
	fwd_ip6_input(w, &fwd_ifaces[v100], &m, 1);
	assert_out2(2, 300, len);
	t = pkt(ASKER, "2001:db8:30::9");
	m = t6_build(&t);
	fwd_ip6_input(w, &fwd_ifaces[v100], &m, 1);
	assert_out2(3, -1, len);
	assert_int_equal(w->stats.port[v100].rx_bytes, 2 * len);
	/* unresolved: punted with the VLAN as the egress interface */
	t = pkt(ASKER, "2001:db8:78::1");
	input(&t, &a, &b);
	assert_int_equal(b.punts, a.punts + 1);
	assert_int_equal(fwd_punt_meta(w->punt[w->n_punt - 1])->out_port, v300);
	fwd_iface_reset();
}

static void port(unsigned i, uint16_t mtu)
{
	struct fwd_port *p = &fwd_ports[i];

	memset(p, 0, sizeof(*p));
	p->idx = (uint8_t)i;
	p->mode = FWD_MODE_L3;
	p->mtu = mtu;
	p->admin_up = 1;
	memcpy(p->mac.addr_bytes, mac_ours, 6);
	p->mac.addr_bytes[4] = (uint8_t)(i + 1);
	memcpy(&p->mac48, &p->mac, sizeof(p->mac));
	snprintf(p->name, sizeof(p->name), "p%u", i);
}

static uint32_t neighbour(const char *addr, uint16_t p, bool resolved)
{
	struct fwd_ip a = fwd_ip_v6(a6(addr));
	struct rte_ether_addr mac;
	uint32_t idx;

	assert_int_equal(nh_alloc(&a, p, &idx), 0);
	memcpy(mac.addr_bytes, gw_mac, 6);
	if (resolved)
		nh_set_l2(idx, &mac);
	return idx;
}

static void route(const char *prefix, uint8_t len, uint32_t nh)
{
	assert_int_equal(fib6_add(ip6_fibs[0], a6(prefix), len, nh), 0);
}

static int group_setup(void **state)
{
	static const struct rte_mbuf_dynfield punt_field = {
		.name = "fwd_punt_meta",
		.size = sizeof(struct fwd_punt_meta),
		.align = __alignof__(struct fwd_punt_meta),
	};

	(void)state;
	if (test_eal_init("ip6in") < 0 || (pool = test_pool("ip6in", 511, 2048)) == NULL)
		return -1;
	fwd.pool = pool;
	fwd_punt_meta_offset = rte_mbuf_dynfield_register(&punt_field);
	port(0, 1500);
	port(1, 1280);
	port(2, 1500);
	fwd_n_ports = 3;
	w = rte_zmalloc("worker", sizeof(*w), RTE_CACHE_LINE_SIZE);
	ip6_fibs[0] = fib6_create(64, NULL, SOCKET_ID_ANY);
	ip4_fibs[0] = fib4_create(16, NULL, SOCKET_ID_ANY);
	if (fwd_punt_meta_offset < 0 || w == NULL || ip6_fibs[0] == NULL || ip4_fibs[0] == NULL ||
	    nh_init(64, SOCKET_ID_ANY) < 0)
		return -1;
	gw = neighbour("2001:db8:2::2", 1, true);
	pend = neighbour("2001:db8:2::3", 1, false);
	gw2 = neighbour("2001:db8:3::2", 2, true);
	/* what the RIB makes (ip6/rib6.h): reserved ranges, ours, connected, routes */
	route("ff00::", 8, NH_IDX_RESERVED);
	route("fe80::", 10, NH_IDX_RESERVED);
	route("::", 128, NH_IDX_RESERVED);
	route("::1", 128, NH_IDX_RESERVED);
	route("fe80::1", 128, NH_IDX_LOCAL);
	route("2001:db8:1::1", 128, NH_IDX_LOCAL);
	route("2001:db8:1::", 64, NH_IDX_CONNECTED + 0);
	route("2001:db8:2::", 64, NH_IDX_CONNECTED + 1);
	route("2001:db8:20::", 48, gw);
	route("2001:db8:21::", 48, pend);
	route("2001:db8:30::", 48, gw2);
	route("fec0::", 10, gw);
	route("2001:db8:66::", 48, NH_IDX_BLACKHOLE);
	ip6_src_watch[ip6_src_watch_idx(a6("2001:db8:1::1"))] = 1; /* addr6.c's, for ours */
	ip6_input_init();
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	ip6_input_fini();
	nh_fini();
	fib6_free(ip6_fibs[0]);
	fib4_free(ip4_fibs[0]);
	ip6_fibs[0] = NULL;
	ip4_fibs[0] = NULL;
	rte_free(w);
	fwd_n_ports = 0;
	rte_mempool_free(pool);
	rte_eal_cleanup();
	return 0;
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_forward),     T(test_burst), T(test_drops),     T(test_bad_frames),
		T(test_errors),      T(test_punts), T(test_local),     T(test_l3_handoff),
		T(test_sources),     T(test_rpf),   T(test_multi_seg), T(test_ndp_sorted),
		T(test_vlan_egress),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
