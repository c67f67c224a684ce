/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Neighbour state machine with a fake clock: resolution, retries, failure,
 * hold queues, aging and probes, static entries, flush, references, the
 * cap on unused dynamic entries and their LRU eviction.
 * Frames are compared byte for byte. ARP input checks: neigh_arp_test.c.
 */
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "neigh_harness.h"

#define H5 IP(10, 0, 0, 5)
#define H9 IP(10, 0, 0, 9)

/* A host on p0 that asked for us (stale) and answered us (reachable with
 * MAC_A); frames cleared. */
static void learn_h5(void)
{
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, H5, &ZERO_MAC, P0_IP));
	assert_int_equal(state_of(H5, 0), NEIGH_STALE);
	arp_in(0, mk_arp(RTE_ARP_OP_REPLY, &P0_MAC, &MAC_A, H5, &P0_MAC, P0_IP));
	assert_int_equal(state_of(H5, 0), NEIGH_REACHABLE);
	sent_clear();
}

/* A host on p1 asks for our address there: a new stale entry. */
static void ask_p1(uint32_t ip)
{
	arp_in(1, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_B, ip, &ZERO_MAC, P1_IP));
}

static void test_resolve_retries_then_fail(void **state)
{
	uint32_t nh;

	(void)state;
	assert_int_equal(neigh_ref(fwd_ip_v4(H9), 0, &nh), 0);
	assert_int_equal(state_of(H9, 0), NEIGH_INCOMPLETE);
	assert_int_equal(nh_table[nh].type, NH_PENDING);
	assert_int_equal(fib4_lookup(ip4_fibs[0], H9), nh); /* the host route points at it */
	assert_int_equal(n_sent, 1);
	assert_arp(0, 0, RTE_ARP_OP_REQUEST, &BCAST, P0_IP, &ZERO_MAC, H9);

	advance(900);
	assert_int_equal(n_sent, 1);
	advance(100);
	assert_int_equal(n_sent, 2);
	assert_arp(1, 0, RTE_ARP_OP_REQUEST, &BCAST, P0_IP, &ZERO_MAC, H9);
	resolve(1, nh, H9, 1);
	resolve(1, nh, H9, 2);
	assert_int_equal(neigh_lookup(fwd_ip_v4(H9), 0)->n_held, 2);
	advance(1000);
	assert_int_equal(n_sent, 3);
	assert_int_equal(arp_req_sent.value, 3);

	/* no answer to the third: failed, held packets get host unreachable */
	advance(1000);
	assert_int_equal(n_sent, 3);
	assert_int_equal(state_of(H9, 0), NEIGH_FAILED);
	assert_int_equal(neigh_failures.value, 1);
	assert_int_equal(n_icmp, 2);
	assert_int_equal(icmps[0].type, 3);
	assert_int_equal(icmps[0].code, 1);
	assert_int_equal(icmps[0].in_port, 1);
	assert_int_equal(icmps[0].ip_id, 1);
	assert_int_equal(icmps[1].ip_id, 2);
	assert_int_equal(drops(1, FWD_DROP_NO_NEIGHBOUR), 2);

	/* within the failed window: dropped at once, no new request */
	resolve(1, nh, H9, 3);
	advance(NEIGH_FAILED_MS - 100);
	resolve(1, nh, H9, 4);
	assert_int_equal(drops(1, FWD_DROP_NO_NEIGHBOUR), 4);
	assert_int_equal(n_icmp, 4);
	assert_int_equal(n_sent, 3);

	/* after it, a route still uses it: the next packet starts over */
	advance(100);
	assert_int_equal(state_of(H9, 0), NEIGH_FAILED);
	resolve(1, nh, H9, 5);
	assert_int_equal(state_of(H9, 0), NEIGH_INCOMPLETE);
	assert_int_equal(n_sent, 4);
	assert_int_equal(neigh_lookup(fwd_ip_v4(H9), 0)->n_held, 1);

	/* the route goes: it fails once more and is deleted */
	neigh_unref(nh);
	advance(3000);
	assert_int_equal(state_of(H9, 0), NEIGH_FAILED);
	advance(3000);
	assert_null(neigh_lookup(fwd_ip_v4(H9), 0));
	assert_int_equal(neigh_count(), 0);
	assert_int_equal(fib4_lookup(ip4_fibs[0], H9), NH_IDX_CONNECTED + 0);
	assert_int_equal(neigh_failures.value, 2);
	assert_int_equal(drops(1, FWD_DROP_NO_NEIGHBOUR), 5);
}

static void test_glean_hold_release_in_order(void **state)
{
	uint32_t nh;

	(void)state;
	for (uint16_t id = 1; id <= 3; id++)
		glean(1, 0, H5, id);
	assert_int_equal(n_sent, 1); /* one request, not one per packet */
	assert_arp(0, 0, RTE_ARP_OP_REQUEST, &BCAST, P0_IP, &ZERO_MAC, H5);
	assert_int_equal(neigh_lookup(fwd_ip_v4(H5), 0)->n_held, 3);
	nh = neigh_lookup(fwd_ip_v4(H5), 0)->nh;

	arp_in(0, mk_arp(RTE_ARP_OP_REPLY, &P0_MAC, &MAC_A, H5, &P0_MAC, P0_IP));
	assert_int_equal(state_of(H5, 0), NEIGH_REACHABLE);
	assert_int_equal(nh_table[nh].type, NH_FWD);
	assert_memory_equal(nh_dst_mac(&nh_table[nh]), &MAC_A, 6);
	assert_int_equal(n_sent, 4);
	for (unsigned i = 0; i < 3; i++)
		assert_ip_sent(1 + i, 0, &MAC_A, (uint16_t)(1 + i));
	assert_int_equal(neigh_lookup(fwd_ip_v4(H5), 0)->n_held, 0);
	assert_int_equal(arp_rep_rcvd.value, 1);

	/* late punts for a resolved neighbour go straight out */
	resolve(1, nh, H5, 9);
	assert_int_equal(n_sent, 5);
	assert_ip_sent(4, 0, &MAC_A, 9);
}

static void test_hold_limits(void **state)
{
	/* the harness's pool of 8191 mbufs: a quarter may be held */
	unsigned cap = neigh_hold_cap(), hosts = cap / NEIGH_HOLD_MAX + 4;

	(void)state;
	assert_int_equal(cap, 8191 / 4);
	for (uint16_t id = 0; id < NEIGH_HOLD_MAX + 4; id++)
		glean(1, 0, H5, id);
	assert_int_equal(neigh_lookup(fwd_ip_v4(H5), 0)->n_held, NEIGH_HOLD_MAX);
	assert_int_equal(drops(1, FWD_DROP_HOLD_FULL), 4);

	/* the global cap: many hosts each with a full queue */
	for (unsigned h = 0; h < hosts; h++)
		for (uint16_t id = 0; id < NEIGH_HOLD_MAX; id++)
			glean(0, 1, IP(172, 16, 1 + h / 200, 1 + h % 200), id);
	assert_int_equal(neigh_held_total(), cap);
	assert_int_equal(drops(0, FWD_DROP_HOLD_FULL), (hosts + 1) * NEIGH_HOLD_MAX - cap);

	/* all fail: every held packet is dropped and the pool refills */
	advance(3000);
	assert_int_equal(neigh_held_total(), 0);
	assert_int_equal(n_icmp, cap);
	assert_int_equal(drops(0, FWD_DROP_NO_NEIGHBOUR) + drops(1, FWD_DROP_NO_NEIGHBOUR), cap);
	advance(3000);
	assert_int_equal(neigh_count(), 0);
}

static void test_glean_cap_and_bad_targets(void **state)
{
	(void)state;
	/* one port may take half of its family's pool */
	for (unsigned h = 0; h < NEIGH_UNRESOLVED_MAX / 2 + 10; h++)
		glean(0, 1, IP(172, 16, 1 + h / 200, 1 + h % 200), 1);
	assert_int_equal(neigh_count(), NEIGH_UNRESOLVED_MAX / 2);
	assert_int_equal(neigh_unresolved_port_full.value, 10);
	assert_int_equal(neigh_table_full.value, 10);
	assert_int_equal(drops(0, FWD_DROP_NO_NEIGHBOUR), 10);
	assert_int_equal(n_sent_total, NEIGH_UNRESOLVED_MAX / 2);
	advance(6000);
	assert_int_equal(neigh_count(), 0);
	sent_clear();

	/* never ARP for our own address, a broadcast, the network, or off-subnet */
	glean(1, 0, P0_IP, 1);
	glean(1, 0, IP(10, 0, 0, 255), 2);
	glean(1, 0, IP(10, 0, 0, 0), 3);
	glean(1, 0, IP(10, 0, 1, 5), 4);
	glean(1, 7, H5, 5);
	assert_int_equal(neigh_count(), 0);
	assert_int_equal(n_sent, 0);
	assert_int_equal(drops(1, FWD_DROP_NO_NEIGHBOUR), 5);

	/* a punt for a next hop that is no neighbour */
	punt(neigh_punt_resolve, mk_ip(H5, 1), FWD_PUNT_RESOLVE, 1, 0, NH_FIRST_DYNAMIC + 5);
	punt(neigh_punt_resolve, mk_ip(H5, 1), FWD_PUNT_RESOLVE, 1, 0, UINT32_MAX);
	assert_int_equal(drops(1, FWD_DROP_NO_NEIGHBOUR), 7);
}

static void test_stale_probe_answered(void **state)
{
	struct neigh *n;

	(void)state;
	learn_h5();
	n = neigh_lookup(fwd_ip_v4(H5), 0);
	advance(TEST_TIMEOUT_S * 1000 - 100);
	assert_int_equal(n->state, NEIGH_REACHABLE);
	assert_int_equal(n_sent, 0);
	advance(100);
	assert_int_equal(n->state, NEIGH_STALE);
	assert_int_equal(nh_table[n->nh].type, NH_FWD); /* still forwarding */
	assert_int_equal(n_sent, 1);
	assert_arp(0, 0, RTE_ARP_OP_REQUEST, &MAC_A, P0_IP, &ZERO_MAC, H5);
	advance(1000);
	assert_int_equal(n_sent, 2);
	assert_arp(1, 0, RTE_ARP_OP_REQUEST, &MAC_A, P0_IP, &ZERO_MAC, H5);

	arp_in(0, mk_arp(RTE_ARP_OP_REPLY, &P0_MAC, &MAC_A, H5, &P0_MAC, P0_IP));
	assert_int_equal(n->state, NEIGH_REACHABLE);
	advance(5000);
	assert_int_equal(n_sent, 2);
	assert_int_equal(neigh_aged_out.value, 0);
}

static void test_stale_unanswered(void **state)
{
	uint32_t nh;

	(void)state;
	learn_h5();
	advance(TEST_TIMEOUT_S * 1000 + 2000);
	assert_int_equal(state_of(H5, 0), NEIGH_STALE);
	assert_int_equal(n_sent, 3);
	advance(1000);
	assert_null(neigh_lookup(fwd_ip_v4(H5), 0)); /* unused: gone */
	assert_int_equal(neigh_aged_out.value, 1);
	assert_int_equal(fib4_lookup(ip4_fibs[0], H5), NH_IDX_CONNECTED + 0);

	/* used by a route: failed instead, the next hop stops forwarding */
	learn_h5();
	assert_int_equal(neigh_ref(fwd_ip_v4(H5), 0, &nh), 0);
	assert_int_equal(n_sent, 0); /* known already: no request */
	advance(TEST_TIMEOUT_S * 1000 + 3000);
	assert_int_equal(state_of(H5, 0), NEIGH_FAILED);
	assert_int_equal(nh_table[nh].type, NH_PENDING);
	assert_int_equal(neigh_aged_out.value, 2);
	neigh_unref(nh);
	advance(3000);
	assert_null(neigh_lookup(fwd_ip_v4(H5), 0));
}

static void test_static_entries(void **state)
{
	struct rte_ether_addr mcast = { { 0x01, 0, 0x5e, 0, 0, 1 } };
	char err[128] = "";
	uint32_t nh;

	(void)state;
	learn_h5();
	assert_int_equal(
	        neigh_add_static(fwd_ip_v4(H5), 0, &MAC_B, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	assert_int_equal(state_of(H5, 0), NEIGH_PERMANENT);
	nh = neigh_lookup(fwd_ip_v4(H5), 0)->nh;
	assert_memory_equal(nh_dst_mac(&nh_table[nh]), &MAC_B, 6);
	/* ARP never overrides it, and it never ages */
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, H5, &ZERO_MAC, H5));
	advance(10 * TEST_TIMEOUT_S * 1000);
	assert_int_equal(state_of(H5, 0), NEIGH_PERMANENT);
	assert_memory_equal(nh_dst_mac(&nh_table[nh]), &MAC_B, 6);
	assert_int_equal(n_sent, 0);

	assert_int_equal(neigh_add_static(fwd_ip_v4(IP(10, 9, 9, 9)), 0, &MAC_A, FWD_ORIGIN_RPC,
	                                  err, sizeof(err)),
	                 -EINVAL);
	assert_string_equal(err, "10.9.9.9 is not on a connected subnet of p0");
	assert_int_equal(
	        neigh_add_static(fwd_ip_v4(P0_IP), 0, &MAC_A, FWD_ORIGIN_RPC, err, sizeof(err)),
	        -EINVAL);
	assert_string_equal(err, "10.0.0.1 is one of our own addresses (on port p0)");
	assert_int_equal(
	        neigh_add_static(fwd_ip_v4(H9), 0, &mcast, FWD_ORIGIN_RPC, err, sizeof(err)),
	        -EINVAL);
	assert_int_equal(neigh_add_static(fwd_ip_v4(IP(10, 0, 0, 255)), 0, &MAC_A, FWD_ORIGIN_RPC,
	                                  err, sizeof(err)),
	                 -EINVAL);
	assert_int_equal(neigh_del(fwd_ip_v4(H9), 0), -ENOENT);

	/* del of a static entry a route uses: back to resolving */
	assert_int_equal(neigh_ref(fwd_ip_v4(H5), 0, &nh), 0);
	assert_int_equal(neigh_del(fwd_ip_v4(H5), 0), 0);
	assert_int_equal(state_of(H5, 0), NEIGH_INCOMPLETE);
	assert_int_equal(nh_table[nh].type, NH_PENDING);
	assert_arp(0, 0, RTE_ARP_OP_REQUEST, &BCAST, P0_IP, &ZERO_MAC, H5);
	/* its last route gone, resolving for no packet: it goes with it */
	neigh_unref(nh);
	assert_null(neigh_lookup(fwd_ip_v4(H5), 0));
	assert_int_equal(neigh_del(fwd_ip_v4(H5), 0), -ENOENT);
}

static void test_static_resolves_held(void **state)
{
	char err[128];

	(void)state;
	glean(1, 0, H5, 7);
	assert_int_equal(
	        neigh_add_static(fwd_ip_v4(H5), 0, &MAC_B, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	assert_int_equal(n_sent, 2);
	assert_ip_sent(1, 0, &MAC_B, 7);
	advance(10000); /* the resolution timer is gone */
	assert_int_equal(n_sent, 2);
}

static void test_flush_and_port_change(void **state)
{
	struct fwd_ip4_prefix a1 = { P1_IP, 16 };
	char err[128];
	uint32_t nh;

	(void)state;
	learn_h5();
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_B, H9, &ZERO_MAC, P0_IP));
	arp_in(1, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_B, IP(172, 16, 3, 3), &ZERO_MAC, P1_IP));
	assert_int_equal(neigh_add_static(fwd_ip_v4(IP(10, 0, 0, 50)), 0, &MAC_A, FWD_ORIGIN_RPC,
	                                  err, sizeof(err)),
	                 0);
	assert_int_equal(neigh_ref(fwd_ip_v4(H9), 0, &nh), 0);
	sent_clear();
	assert_int_equal(neigh_count(), 4);

	assert_int_equal(neigh_flush(0, false), 2);
	assert_null(neigh_lookup(fwd_ip_v4(H5), 0));
	assert_int_equal(state_of(H9, 0), NEIGH_INCOMPLETE); /* a route uses it */
	assert_int_equal(state_of(IP(10, 0, 0, 50), 0), NEIGH_PERMANENT);
	assert_int_equal(state_of(IP(172, 16, 3, 3), 1), NEIGH_STALE);
	assert_int_equal(n_sent, 1);

	/* p1's address goes: its neighbours go with it */
	assert_int_equal(addr4_del(1, &a1, err, sizeof(err)), 0);
	assert_null(neigh_lookup(fwd_ip_v4(IP(172, 16, 3, 3)), 1));
	assert_int_equal(neigh_count(), 2);
	assert_int_equal(neigh_flush(NEIGH_ALL, true), 2);
	neigh_unref(nh);
	advance(6000);
	assert_int_equal(neigh_count(), 0);
}

static void test_output_from_control(void **state)
{
	struct rte_mbuf *m;

	(void)state;
	learn_h5();
	neigh_output(mk_ip(H5, 1), neigh_lookup(fwd_ip_v4(H5), 0)->nh);
	assert_int_equal(n_sent, 1);
	assert_ip_sent(0, 0, &MAC_A, 1);

	/* to an unknown host: held, then sent; or, unanswered, dropped without ICMP */
	neigh_output_glean(mk_ip(IP(10, 0, 0, 6), 2), 0, fwd_ip_v4(IP(10, 0, 0, 6)));
	arp_in(0, mk_arp(RTE_ARP_OP_REPLY, &P0_MAC, &MAC_B, IP(10, 0, 0, 6), &P0_MAC, P0_IP));
	assert_int_equal(n_sent, 3);
	assert_ip_sent(2, 0, &MAC_B, 2);
	neigh_output_glean(mk_ip(H9, 3), 0, fwd_ip_v4(H9));
	advance(3000);
	assert_int_equal(n_icmp, 0);
	assert_int_equal(drops(0, FWD_DROP_NO_NEIGHBOUR), 1);
	neigh_output(mk_ip(H9, 4), NH_FIRST_DYNAMIC + 100);
	assert_int_equal(drops(0, FWD_DROP_NO_NEIGHBOUR), 2);

	/* a worker's tx ring full: counted on the egress port */
	tx_refuse = true;
	m = mk_ip(H5, 5);
	neigh_output(m, neigh_lookup(fwd_ip_v4(H5), 0)->nh);
	assert_int_equal(drops(0, FWD_DROP_TX_FULL), 1);
	tx_refuse = false;
}

static void test_describe_and_names(void **state)
{
	struct rte_ether_addr mac;
	enum neigh_state st;

	(void)state;
	learn_h5();
	assert_int_equal(neigh_describe(neigh_lookup(fwd_ip_v4(H5), 0)->nh, &st, &mac), 0);
	assert_int_equal(st, NEIGH_REACHABLE);
	assert_memory_equal(&mac, &MAC_A, 6);
	assert_int_equal(neigh_describe(NH_FIRST_DYNAMIC + 99, &st, &mac), -ENOENT);
	assert_int_equal(neigh_describe(UINT32_MAX, &st, &mac), -ENOENT);
	assert_string_equal(neigh_state_name(NEIGH_INCOMPLETE), "incomplete");
	assert_string_equal(neigh_state_name(NEIGH_REACHABLE), "reachable");
	assert_string_equal(neigh_state_name(NEIGH_STALE), "stale");
	assert_string_equal(neigh_state_name(NEIGH_FAILED), "failed");
	assert_string_equal(neigh_state_name(NEIGH_PERMANENT), "permanent");
	neigh_unref(UINT32_MAX); /* harmless */
	neigh_unref(NH_FIRST_DYNAMIC + 99);
}

/* neigh_max caps the dynamic entries no route uses: a new one evicts the
 * least recently used or confirmed of them; static entries and routes'
 * gateways neither count nor go. */
static void test_cap_evicts_lru_unused(void **state)
{
	uint32_t S = IP(10, 0, 0, 50), nh;
	char err[128];

	(void)state;
	neigh_set_max(4);
	assert_int_equal(
	        neigh_add_static(fwd_ip_v4(S), 0, &MAC_A, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	assert_int_equal(neigh_ref(fwd_ip_v4(H9), 0, &nh), 0);
	for (unsigned i = 1; i <= 4; i++)
		ask_p1(IP(172, 16, 0, 10 + i));
	assert_int_equal(neigh_count(), 6);
	assert_int_equal(neigh_lru_count(AF_INET), 4);
	assert_int_equal(neigh_evicted.value, 0);

	/* .11 is used (a packet for it) and .13 confirmed: .12 then .14 go */
	resolve(0, neigh_lookup(fwd_ip_v4(IP(172, 16, 0, 11)), 1)->nh, IP(172, 16, 0, 11), 1);
	arp_in(1, mk_arp(RTE_ARP_OP_REPLY, &P1_MAC, &MAC_B, IP(172, 16, 0, 13), &P1_MAC, P1_IP));
	ask_p1(IP(172, 16, 0, 15));
	assert_null(neigh_lookup(fwd_ip_v4(IP(172, 16, 0, 12)), 1));
	ask_p1(IP(172, 16, 0, 16));
	assert_null(neigh_lookup(fwd_ip_v4(IP(172, 16, 0, 14)), 1));
	assert_int_equal(state_of(IP(172, 16, 0, 11), 1), NEIGH_STALE);
	assert_int_equal(state_of(IP(172, 16, 0, 13), 1), NEIGH_REACHABLE);
	assert_int_equal(neigh_evicted.value, 2);

	/* a flood churns the unused entries only */
	for (unsigned i = 0; i < 1000; i++)
		ask_p1(IP(172, 16, 1 + i / 200, 1 + i % 200));
	assert_int_equal(neigh_count(), 6);
	assert_int_equal(neigh_evicted.value, 1002);
	assert_int_equal(state_of(S, 0), NEIGH_PERMANENT);
	assert_int_equal(state_of(H9, 0), NEIGH_INCOMPLETE);
	assert_int_equal(neigh_table_full.value, 0);

	/* the route goes: its gateway (answered meanwhile; one still resolving
	 * for no packet would go with it) joins the unused ones, newest; the
	 * next new entry brings them back to the cap, evicting the two oldest */
	arp_in(0, mk_arp(RTE_ARP_OP_REPLY, &P0_MAC, &MAC_B, H9, &P0_MAC, P0_IP));
	neigh_unref(nh);
	assert_int_equal(neigh_lru_count(AF_INET), 5);
	ask_p1(IP(172, 16, 9, 9));
	assert_int_equal(neigh_lru_count(AF_INET), 4);
	assert_null(neigh_lookup(fwd_ip_v4(IP(172, 16, 5, 197)), 1));
	assert_null(neigh_lookup(fwd_ip_v4(IP(172, 16, 5, 198)), 1));
	assert_int_equal(state_of(H9, 0), NEIGH_REACHABLE);
	/* a lower cap applies at once, the most recent stay */
	neigh_set_max(1);
	assert_int_equal(neigh_count(), 2);
	assert_null(neigh_lookup(fwd_ip_v4(H9), 0));
	assert_int_equal(state_of(IP(172, 16, 9, 9), 1), NEIGH_STALE);
	neigh_flush(NEIGH_ALL, true);
	advance(6000);
	sent_clear();
}

/* A packet punted for a next hop whose neighbour has gone, or whose index
 * now belongs to another neighbour, is dropped and counted: it must not
 * leave with the other's MAC. */
static void test_stale_punt_dropped(void **state)
{
	uint32_t nh, gen, other = 0;

	(void)state;
	assert_int_equal(neigh_ref(fwd_ip_v4(H9), 0, &nh), 0);
	gen = nh_table[nh].gen;
	neigh_unref(nh); /* resolving for no packet: it goes */
	assert_null(neigh_lookup(fwd_ip_v4(H9), 0));
	resolve_gen(1, nh, gen, H9, 1);
	assert_int_equal(neigh_stale_punts.value, 1);
	assert_int_equal(drops(1, FWD_DROP_NO_NEIGHBOUR), 1);

	/* the index goes round the free ring and comes back to another neighbour */
	nh_reclaim();
	for (unsigned i = 0; i < TEST_NEXTHOPS && other != nh; i++)
		assert_int_equal(
		        neigh_ref(fwd_ip_v4(IP(172, 16, 1 + i / 250, 1 + i % 250)), 1, &other), 0);
	assert_int_equal(other, nh);
	assert_int_not_equal(nh_table[nh].gen, gen);
	arp_in(1, mk_arp(RTE_ARP_OP_REPLY, &P1_MAC, &MAC_A, nh_addr(nh)->v4, &P1_MAC, P1_IP));
	assert_int_equal(nh_table[nh].type, NH_FWD);
	sent_clear();
	resolve_gen(0, nh, gen, H9, 2); /* routed before, to H9 */
	assert_int_equal(neigh_stale_punts.value, 2);
	assert_int_equal(n_sent, 0);
	resolve(0, nh, nh_addr(nh)->v4, 3); /* routed now, to the new owner */
	assert_int_equal(n_sent, 1);
	assert_ip_sent(0, 1, &MAC_A, 3);
	sent_clear();
}

/* A full next-hop table: a route's gateway takes an unused entry's next
 * hop; with none unused, nothing is created and that is counted. */
static void test_full_table_makes_room(void **state)
{
	unsigned room = TEST_NEXTHOPS - NH_FIRST_DYNAMIC;
	uint32_t nh, first = IP(172, 16, 1, 0);

	(void)state;
	for (unsigned i = 0; i < room; i++)
		ask_p1(first + i);
	sent_clear();
	assert_int_equal(neigh_count(), room);
	assert_int_equal(neigh_ref(fwd_ip_v4(H9), 0, &nh), 0); /* route add via 10.0.0.9 */
	assert_int_equal(neigh_count(), room);
	assert_null(neigh_lookup(fwd_ip_v4(first), 1));
	assert_int_equal(neigh_evicted.value, 1);
	neigh_unref(nh);
	neigh_flush(NEIGH_ALL, false);
	advance(6000);
	sent_clear();

	/* every next hop held by a route: nothing to evict */
	for (unsigned i = 0; i < room; i++)
		assert_int_equal(neigh_ref(fwd_ip_v4(first + i), 1, &nh), 0);
	sent_clear();
	assert_int_equal(neigh_ref(fwd_ip_v4(H9), 0, &nh), -ENOSPC);
	ask_p1(IP(172, 16, 200, 1));
	assert_null(neigh_lookup(fwd_ip_v4(IP(172, 16, 200, 1)), 1));
	assert_int_equal(neigh_table_full.value, 2);
	for (unsigned i = 0; i < room; i++)
		neigh_unref(neigh_lookup(fwd_ip_v4(first + i), 1)->nh);
	neigh_flush(NEIGH_ALL, true);
	advance(6000);
	sent_clear();
}

/* A neighbour flipping its MAC costs no blocking wait: the entry leaves
 * the fast path at once and takes its new MAC after a grace period nobody
 * waits for; packets meanwhile wait in its hold queue and go out with the
 * new MAC. */
static void test_mac_flip_no_wait(void **state)
{
	size_t sz = rte_rcu_qsbr_get_memsize(1);
	struct rte_rcu_qsbr *v = rte_zmalloc("rcu", sz, RTE_CACHE_LINE_SIZE);
	uint64_t waits = nh_rcu_waits.value;
	uint32_t nh;

	(void)state;
	assert_non_null(v);
	assert_int_equal(rte_rcu_qsbr_init(v, 1), 0);
	assert_int_equal(rte_rcu_qsbr_thread_register(v, 0), 0);
	rte_rcu_qsbr_thread_online(v, 0); /* a worker, between two quiescent states */
	fwd.rcu = v;
	learn_h5(); /* the first MAC: nothing could read the entry before */
	nh = neigh_lookup(fwd_ip_v4(H5), 0)->nh;
	assert_int_equal(nh_table[nh].type, NH_FWD);
	for (unsigned i = 0; i < 1000; i++) {
		const struct rte_ether_addr *mac = i % 2 ? &MAC_A : &MAC_B;
		fake_now += NEIGH_LOCKTIME_MS;
		arp_in(0, mk_arp(RTE_ARP_OP_REPLY, &P0_MAC, mac, H5, &P0_MAC, P0_IP));
		assert_int_equal(nh_table[nh].type, NH_PENDING); /* out of the fast path */
		assert_true(nh_l2_waiting(nh));
		neigh_tick(); /* the worker has not passed a quiescent state: no change */
		assert_true(nh_l2_waiting(nh));
		if (i == 999) { /* a packet meanwhile is held, not sent with the old MAC */
			resolve(1, nh, H5, 7);
			assert_int_equal(n_sent, 0);
			assert_int_equal(neigh_lookup(fwd_ip_v4(H5), 0)->n_held, 1);
		}
		rte_rcu_qsbr_quiescent(v, 0);
		neigh_tick();
		assert_int_equal(nh_table[nh].type, NH_FWD);
		assert_memory_equal(nh_dst_mac(&nh_table[nh]), mac, 6);
	}
	assert_int_equal(n_sent, 1); /* the held packet, with the last MAC */
	assert_memory_equal(rte_pktmbuf_mtod(sent[0].m, uint8_t *), &MAC_A, 6);
	assert_int_equal(nh_rcu_waits.value, waits);
	fwd.rcu = NULL;
	rte_free(v);
}

/* A flood of new entries (requests for our address from 2,000 senders)
 * through a table capped at 64: of 16 reachable hosts, the 8 that workers
 * forward to (nh_mark_used, as the fast path does for every packet) stay;
 * the 8 that carry nothing go with the flood's oldest. */
static void test_flood_spares_used(void **state)
{
	uint32_t nh[16];
	unsigned kept_used = 0, kept_idle = 0;

	(void)state;
	neigh_set_max(64);
	for (unsigned i = 0; i < 16; i++) {
		uint32_t ip = IP(172, 16, 0, 10 + i);
		ask_p1(ip);
		arp_in(1, mk_arp(RTE_ARP_OP_REPLY, &P1_MAC, &MAC_B, ip, &P1_MAC, P1_IP));
		assert_int_equal(state_of(ip, 1), NEIGH_REACHABLE);
		nh[i] = neigh_lookup(fwd_ip_v4(ip), 1)->nh;
	}
	for (unsigned round = 0; round < 20; round++) {
		for (unsigned i = 0; i < 8; i++) /* a worker's packets to the first 8 */
			nh_mark_used(&nh_table[nh[i]], nh_use_epoch);
		for (unsigned k = 0; k < 100; k++) {
			unsigned f = round * 100 + k;
			ask_p1(IP(172, 16, 1 + f / 200, 1 + f % 200));
		}
		advance(100);
	}
	for (unsigned i = 0; i < 16; i++) {
		struct neigh *n = neigh_lookup(fwd_ip_v4(IP(172, 16, 0, 10 + i)), 1);
		if (i < 8)
			kept_used += n != NULL && n->nh == nh[i] && n->state == NEIGH_REACHABLE;
		else
			kept_idle += n != NULL;
	}
	printf("# after 2000 new entries into 64: %u of 8 used and %u of 8 idle neighbours kept\n",
	       kept_used, kept_idle);
	assert_int_equal(kept_used, 8);
	assert_int_equal(kept_idle, 0);
	assert_int_equal(neigh_lru_count(AF_INET), 64);
	assert_true(neigh_evicted.value >= 2000 + 16 - 64);
	sent_clear();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HARNESS_TEST(test_resolve_retries_then_fail),
		HARNESS_TEST(test_glean_hold_release_in_order),
		HARNESS_TEST(test_hold_limits),
		HARNESS_TEST(test_glean_cap_and_bad_targets),
		HARNESS_TEST(test_stale_probe_answered),
		HARNESS_TEST(test_stale_unanswered),
		HARNESS_TEST(test_static_entries),
		HARNESS_TEST(test_static_resolves_held),
		HARNESS_TEST(test_flush_and_port_change),
		HARNESS_TEST(test_output_from_control),
		HARNESS_TEST(test_describe_and_names),
		HARNESS_TEST(test_cap_evicts_lru_unused),
		HARNESS_TEST(test_stale_punt_dropped),
		HARNESS_TEST(test_full_table_makes_room),
		HARNESS_TEST(test_mac_flip_no_wait),
		HARNESS_TEST(test_flood_spares_used),
	};
	return cmocka_run_group_tests(tests, harness_group_setup, harness_group_teardown);
}
