/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control thread's output (ip4_output, ip6_output) against the egress
 * port's MTU: what fits leaves whole; a larger IPv4 packet with DF clear
 * leaves in fragments (also while its neighbour resolves, and an echo
 * reply to a request that came in through a larger MTU); with DF set, or
 * IPv6, it is dropped and counted (`mtu` on the egress port); an ECMP
 * route leads to one of its members; IPv6 on a VLAN interface (its MTU,
 * its counters) and a loopback (no link). The real
 * FIB, neighbour layer and ICMP; frames captured (neigh_harness.h).
 *
 *   p0  10.0.0.1/24 (MTU 1500)   p1  172.16.0.1/16 (MTU 1000 here)
 */
#include <rte_icmp.h>

/* before the harness: rte_ethdev.h's inlines would shadow its `sent` */
#include "ip4/icmp_priv.h"
#include "ip4/output.h"
#include "ip6/input.h"
#include "ip6/output.h"
#include "neigh_harness.h"

#include "core/iface.h"

#define H9  IP(172, 16, 0, 9)
#define H10 IP(172, 16, 0, 10)
#define MTU 1000

static uint64_t counter_of(const char *name)
{
	for (struct fwd_counter *c = fwd_counters(); c != NULL; c = c->next)
		if (strcmp(c->name, name) == 0)
			return c->value;
	fail_msg("no counter %s", name);
	return 0;
}

/* The harness with p1's MTU at 1000 and H9 known on p1 (it asked for us). */
static int setup(void **state)
{
	harness_setup(state);
	fwd_ports[1].mtu = MTU;
	arp_in(1, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_B, H9, &ZERO_MAC, P1_IP));
	assert_int_equal(state_of(H9, 1), NEIGH_STALE);
	sent_clear();
	memset(fwd_control_ctrs(1), 0, sizeof(struct fwd_port_ctrs)); /* the ARP reply */
	return 0;
}

/* IPv4 packet of len bytes (header included) from src to dst, its payload
 * counting up, behind IP4_L2_LEN bytes of link header space. */
static struct rte_mbuf *mk_ip4(uint32_t src, uint32_t dst, unsigned len, uint16_t frag,
                               uint8_t proto)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *p;
	struct rte_ipv4_hdr *ip;

	assert_non_null(m);
	p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(IP4_L2_LEN + len));
	assert_non_null(p);
	memset(p, 0, IP4_L2_LEN);
	ip = (struct rte_ipv4_hdr *)(p + IP4_L2_LEN);
	for (unsigned i = 20; i < len; i++)
		((uint8_t *)ip)[i] = (uint8_t)i;
	ip->version_ihl = 0x45;
	ip->type_of_service = 0;
	ip->total_length = rte_cpu_to_be_16((uint16_t)len);
	ip->packet_id = rte_cpu_to_be_16(0x77);
	ip->fragment_offset = rte_cpu_to_be_16(frag);
	ip->time_to_live = 64;
	ip->next_proto_id = proto;
	ip->src_addr = rte_cpu_to_be_32(src);
	ip->dst_addr = rte_cpu_to_be_32(dst);
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	return m;
}

static const struct rte_ipv4_hdr *sent_ip4(unsigned i)
{
	return rte_pktmbuf_mtod_offset(sent[i].m, const struct rte_ipv4_hdr *, IP4_L2_LEN);
}

/* Captured frames first..first+1 are the two fragments of a 1400-byte
 * packet at MTU 1000 (976 + 404 payload bytes), to MAC_B on p1, whose
 * payload reassembles to orig's. */
static void assert_two_fragments(unsigned first, const uint8_t *orig_payload)
{
	static const unsigned len[2] = { 20 + 976, 20 + 404 };
	static const uint16_t field[2] = { RTE_IPV4_HDR_MF_FLAG, 976 / 8 };

	assert_int_equal(n_sent, first + 2);
	for (unsigned i = 0; i < 2; i++) {
		const struct rte_ipv4_hdr *ip = sent_ip4(first + i);

		assert_ip_sent(first + i, 1, &MAC_B, 0x77);
		assert_int_equal(sent[first + i].m->data_len, IP4_L2_LEN + len[i]);
		assert_true(len[i] <= MTU);
		assert_int_equal(rte_be_to_cpu_16(ip->total_length), len[i]);
		assert_int_equal(rte_be_to_cpu_16(ip->fragment_offset), field[i]);
		assert_int_equal(rte_ipv4_cksum(ip), 0);
		if (orig_payload != NULL)
			assert_memory_equal(ip + 1, orig_payload + 976 * i, len[i] - 20);
	}
}

static void test_fits_leaves_whole(void **state)
{
	(void)state;
	assert_int_equal(ip4_output(mk_ip4(P0_IP, H9, MTU, 0, IPPROTO_UDP)), 0);
	assert_int_equal(n_sent, 1);
	assert_ip_sent(0, 1, &MAC_B, 0x77);
	assert_int_equal(sent[0].m->data_len, IP4_L2_LEN + MTU);
	assert_int_equal(fwd_control_ctrs(1)->created, 1);
	assert_int_equal(counter_of("ip4_output_fragmented"), 0);
}

static void test_too_big_fragmented(void **state)
{
	struct rte_mbuf *m = mk_ip4(P0_IP, H9, 1400, 0, IPPROTO_UDP);
	uint8_t payload[1380];

	(void)state;
	memcpy(payload, rte_pktmbuf_mtod_offset(m, uint8_t *, IP4_L2_LEN + 20), sizeof(payload));
	assert_int_equal(ip4_output(m), 0);
	assert_two_fragments(0, payload);
	assert_int_equal(counter_of("ip4_output_fragmented"), 1);
	/* the fragments are what was made: every packet accounted for */
	assert_int_equal(fwd_control_ctrs(1)->created, 2);
	assert_int_equal(drops(1, FWD_DROP_MTU), 0);
}

static void test_too_big_df_dropped(void **state)
{
	(void)state;
	assert_int_equal(ip4_output(mk_ip4(P0_IP, H9, 1400, RTE_IPV4_HDR_DF_FLAG, IPPROTO_UDP)),
	                 -EMSGSIZE);
	assert_int_equal(n_sent, 0);
	assert_int_equal(drops(1, FWD_DROP_MTU), 1);
	assert_int_equal(fwd_control_ctrs(1)->created, 1);
	assert_int_equal(counter_of("ip4_output_too_big"), 1);
	/* exactly the MTU with DF set is fine */
	assert_int_equal(ip4_output(mk_ip4(P0_IP, H9, MTU, RTE_IPV4_HDR_DF_FLAG, IPPROTO_UDP)), 0);
	assert_int_equal(n_sent, 1);
}

/* Fragmented before it is held: the held pieces leave, each fitting. */
static void test_held_fragments(void **state)
{
	(void)state;
	assert_int_equal(ip4_output(mk_ip4(P0_IP, H10, 1400, 0, IPPROTO_UDP)), 0);
	assert_int_equal(n_sent, 1); /* the ARP request; both fragments held */
	assert_arp(0, 1, RTE_ARP_OP_REQUEST, &BCAST, P1_IP, &ZERO_MAC, H10);
	assert_int_equal(neigh_held_total(), 2);
	arp_in(1, mk_arp(RTE_ARP_OP_REPLY, &P1_MAC, &MAC_B, H10, &P1_MAC, P1_IP));
	assert_two_fragments(1, NULL);
}

/* An echo request of 1400 bytes that came in at p0, from a host the way
 * back to which is p1 (MTU 1000): the reply leaves in two fragments. */
static void test_echo_reply_fragmented(void **state)
{
	struct rte_mbuf *m = mk_ip4(H9, P0_IP, 1400, 0, IPPROTO_ICMP);
	struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, IP4_L2_LEN);
	struct rte_icmp_hdr *icmp = (struct rte_icmp_hdr *)(ip + 1);
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);

	(void)state;
	eth->dst_addr = P0_MAC;
	eth->src_addr = MAC_A;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	icmp->icmp_type = RTE_IP_ICMP_ECHO_REQUEST;
	icmp->icmp_code = 0;
	icmp->icmp_cksum = 0;
	icmp->icmp_cksum = (uint16_t)~rte_raw_cksum(icmp, 1380);
	icmp4_ratelimit_set(0);
	punt(local4_input, m, FWD_PUNT_LOCAL, 0, 0, 0);
	assert_int_equal(n_sent, 2);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(sent[i].port, 1);
		assert_true(sent[i].m->data_len <= IP4_L2_LEN + MTU);
		assert_int_equal(rte_be_to_cpu_32(sent_ip4(i)->dst_addr), H9);
	}
	assert_int_equal(((const uint8_t *)(sent_ip4(0) + 1))[0], RTE_IP_ICMP_ECHO_REPLY);
	assert_int_equal(rte_be_to_cpu_16(sent_ip4(1)->fragment_offset), 976 / 8);
	assert_int_equal(counter_of("icmp_echo_replies_sent"), 1);
}

/* An ECMP route: each packet takes a member (both in use), none is lost
 * as having no route. */
static void test_ecmp_member(void **state)
{
	uint32_t m[2], g;
	struct route4 r = { .type = ROUTE4_VIA, .dev = ROUTE4_DEV_ANY, .via = H9 };
	struct route4 old;
	bool had_old;
	unsigned on[2] = { 0, 0 };

	(void)state;
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, IP(10, 0, 0, 5), &ZERO_MAC, P0_IP));
	sent_clear();
	assert_int_equal(neigh_ref(fwd_ip_v4(H9), 1, &m[0]), 0);
	assert_int_equal(neigh_ref(fwd_ip_v4(IP(10, 0, 0, 5)), 0, &m[1]), 0);
	assert_int_equal(nh_group_get(m, 2, &g), 0);
	r.nh = g;
	assert_int_equal(rib4_set_route(&ip4_ribs[0], IP(198, 51, 100, 0), 24, &r, &old, &had_old),
	                 0);
	for (unsigned i = 1; i <= 16; i++)
		assert_int_equal(
		        ip4_output(mk_ip4(P0_IP, IP(198, 51, 100, i), 100, 0, IPPROTO_UDP)), 0);
	assert_int_equal(n_sent, 16);
	for (unsigned i = 0; i < n_sent; i++)
		on[sent[i].port]++;
	assert_true(on[0] > 0 && on[1] > 0);
	assert_int_equal(counter_of("control_output_no_route"), 0);
}

/* An IPv6 packet of len bytes (header included) from fe80::1 to ff02::1,
 * next header proto, behind IP6_L2_LEN bytes of link header space. */
static struct rte_mbuf *mk_group6(unsigned len, uint8_t proto)
{
	static const uint8_t all_nodes[16] = { 0xff, 0x02, [15] = 1 };
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(IP6_L2_LEN + len));
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(p + IP6_L2_LEN);

	memset(p, 0, IP6_L2_LEN + len);
	ip->vtc_flow = rte_cpu_to_be_32(UINT32_C(6) << 28);
	ip->payload_len = rte_cpu_to_be_16((uint16_t)(len - 40));
	ip->proto = proto;
	ip->hop_limits = 1;
	ip->src_addr[0] = 0xfe, ip->src_addr[1] = 0x80, ip->src_addr[15] = 1;
	memcpy(ip->dst_addr, all_nodes, 16);
	return m;
}

/* IPv6: the router's own packets too big for the link are fragmented
 * (frag6.c); one it cannot split (a hop-by-hop header) is a counted drop. */
static void test_ip6_too_big(void **state)
{
	(void)state;
	fwd_ports[1].mtu = 1280;
	for (unsigned k = 0; k < 3; k++) {
		struct rte_mbuf *m =
		        mk_group6(k == 0 ? 1280 : 1281, k == 2 ? IPPROTO_HOPOPTS : IPPROTO_UDP);

		assert_int_equal(ip6_output(m, 1), k == 2 ? -EMSGSIZE : 0);
	}
	/* 1280 whole, 1281 in two fragments (each met a ring-less control tx
	 * here), 1281 behind a hop-by-hop header dropped */
	assert_int_equal(drops(1, FWD_DROP_MTU), 1);
	assert_int_equal(drops(1, FWD_DROP_CONTROL_TX) + drops(0, FWD_DROP_CONTROL_TX), 3);
	assert_int_equal(counter_of("ip6_output_too_big"), 2);
	assert_int_equal(counter_of("ip6_output_fragmented"), 1);
	assert_int_equal(fwd_control_ctrs(1)->created, 4);
}

static uint16_t vlan, lo;

static int setup_vlan(void **state)
{
	setup(state);
	fwd_iface_reset();
	fwd_iface_port_sync(0);
	fwd_iface_port_sync(1);
	assert_int_equal(fwd_iface_vlan_add("p0.10", 0, 10, 1300, &vlan), 0);
	assert_int_equal(fwd_iface_loopback_add("lo1", &lo), 0);
	memset(fwd_control_ctrs(vlan), 0, sizeof(struct fwd_port_ctrs));
	return 0;
}

static int teardown_vlan(void **state)
{
	fwd_iface_reset();
	return harness_teardown(state);
}

/* A VLAN (p0.10, MTU 1300 below p0's 1500): a packet to a group sent on
 * it is counted there and fragmented by its MTU; without workers,
 * fwd_control_tx counts what it was handed as control_tx drops of the
 * interface it was handed for. A loopback or a free id is no link. */
static void test_ip6_vlan_mtu(void **state)
{
	uint64_t fragmented = counter_of("ip6_output_fragmented");

	(void)state;
	assert_true(ip6_link_l3(vlan));
	assert_int_equal(ip6_link_mtu(vlan), 1300);
	assert_memory_equal(ip6_link_mac(vlan), &P0_MAC, 6);
	assert_int_equal(ip6_output(mk_group6(1300, IPPROTO_UDP), vlan), 0); /* fits */
	assert_int_equal(ip6_output(mk_group6(1301, IPPROTO_UDP), vlan), 0); /* two fragments */
	assert_int_equal(counter_of("ip6_output_fragmented"), fragmented + 1);
	assert_int_equal(fwd_control_ctrs(vlan)->created, 3);
	assert_int_equal(drops(vlan, FWD_DROP_CONTROL_TX), 3);
	assert_int_equal(fwd_control_ctrs(0)->created, 0);
	assert_int_equal(ip6_output(mk_group6(1301, IPPROTO_UDP), 0),
	                 0); /* the port's MTU: whole */
	assert_int_equal(fwd_control_ctrs(0)->created, 1);
}

static void test_ip6_loopback_no_link(void **state)
{
	uint64_t no_route = counter_of("ip6_output_no_route");

	(void)state;
	assert_false(ip6_link_l3(lo));
	assert_false(ip6_link_l3((uint16_t)(lo + 1))); /* a free id */
	assert_int_equal(ip6_output(mk_group6(100, IPPROTO_UDP), lo), -EHOSTUNREACH);
	assert_int_equal(ip6_output(mk_group6(100, IPPROTO_UDP), (uint16_t)(lo + 1)),
	                 -EHOSTUNREACH);
	assert_int_equal(counter_of("ip6_output_no_route"), no_route + 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fits_leaves_whole, setup, harness_teardown),
		cmocka_unit_test_setup_teardown(test_too_big_fragmented, setup, harness_teardown),
		cmocka_unit_test_setup_teardown(test_too_big_df_dropped, setup, harness_teardown),
		cmocka_unit_test_setup_teardown(test_held_fragments, setup, harness_teardown),
		cmocka_unit_test_setup_teardown(test_echo_reply_fragmented, setup,
		                                harness_teardown),
		cmocka_unit_test_setup_teardown(test_ecmp_member, setup, harness_teardown),
		cmocka_unit_test_setup_teardown(test_ip6_too_big, setup, harness_teardown),
		cmocka_unit_test_setup_teardown(test_ip6_vlan_mtu, setup_vlan, teardown_vlan),
		cmocka_unit_test_setup_teardown(test_ip6_loopback_no_link, setup_vlan,
		                                teardown_vlan),
	};

	return cmocka_run_group_tests(tests, harness_group_setup, harness_group_teardown);
}
