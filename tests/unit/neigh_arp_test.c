/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ARP input: replies to requests for our addresses (byte for byte), RFC 826
 * merge and gratuitous learning, and every malformed or foreign frame
 * dropped and counted with nothing learnt; then random frames.
 */
#include <stdlib.h>

#include "neigh_harness.h"

#define H5 IP(10, 0, 0, 5)

static void test_request_for_us_answered(void **state)
{
	struct neigh *n;

	(void)state;
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, H5, &ZERO_MAC, P0_IP));
	assert_int_equal(n_sent, 1);
	assert_arp(0, 0, RTE_ARP_OP_REPLY, &MAC_A, P0_IP, &MAC_A, H5);
	assert_int_equal(neigh_arp_req_rcvd.value, 1);
	assert_int_equal(neigh_arp_rep_sent.value, 1);
	/* the asker is learnt (RFC 826: we will talk back to it) */
	n = neigh_lookup(H5, 0);
	assert_non_null(n);
	assert_int_equal(n->state, NEIGH_REACHABLE);
	assert_memory_equal(&n->mac, &MAC_A, 6);
	assert_int_equal(nh4_table[n->nh].type, NH4_FWD);
	assert_int_equal(fib4_lookup(ip4_fib, H5), n->nh);

	/* unicast to our MAC works too; a request on p1 for p0's address does not */
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &P0_MAC, &MAC_A, H5, &ZERO_MAC, P0_IP));
	assert_int_equal(n_sent, 2);
	arp_in(1, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_B, IP(172, 16, 0, 9), &ZERO_MAC, P0_IP));
	assert_int_equal(n_sent, 2);
	assert_null(neigh_lookup(IP(172, 16, 0, 9), 1));
}

static void test_merge_rules(void **state)
{
	struct neigh *n;

	(void)state;
	/* neither for us nor gratuitous: nothing learnt, nothing sent */
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, H5, &ZERO_MAC, IP(10, 0, 0, 7)));
	arp_in(0, mk_arp(RTE_ARP_OP_REPLY, &P0_MAC, &MAC_A, H5, &P0_MAC, P0_IP));
	assert_int_equal(neigh_count(), 0);
	assert_int_equal(n_sent, 0);

	/* an existing entry is updated by anything its owner says */
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, H5, &ZERO_MAC, P0_IP));
	sent_clear();
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_B, H5, &ZERO_MAC, IP(10, 0, 0, 7)));
	n = neigh_lookup(H5, 0);
	assert_memory_equal(&n->mac, &MAC_B, 6);
	assert_memory_equal(&nh4_table[n->nh].l2.dst_addr, &MAC_B, 6);
	assert_int_equal(n_sent, 0);
	assert_int_equal(neigh_gratuitous.value, 0);
}

static void test_gratuitous(void **state)
{
	struct neigh *n;

	(void)state;
	/* learnt from a gratuitous request, refreshed by a gratuitous reply */
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, H5, &ZERO_MAC, H5));
	n = neigh_lookup(H5, 0);
	assert_non_null(n);
	assert_int_equal(n->state, NEIGH_REACHABLE);
	assert_int_equal(neigh_gratuitous.value, 1);
	assert_int_equal(n_sent, 0); /* not a question to us */
	arp_in(0, mk_arp(RTE_ARP_OP_REPLY, &BCAST, &MAC_B, H5, &BCAST, H5));
	assert_memory_equal(&n->mac, &MAC_B, 6);
	assert_memory_equal(&nh4_table[n->nh].l2.dst_addr, &MAC_B, 6);
	assert_int_equal(neigh_gratuitous.value, 2);

	/* it also completes a resolution in progress and releases what was held */
	glean(1, 0, IP(10, 0, 0, 6), 42);
	sent_clear();
	arp_in(0,
	       mk_arp(RTE_ARP_OP_REPLY, &BCAST, &MAC_A, IP(10, 0, 0, 6), &BCAST, IP(10, 0, 0, 6)));
	assert_int_equal(state_of(IP(10, 0, 0, 6), 0), NEIGH_REACHABLE);
	assert_int_equal(n_sent, 1);
	assert_ip_sent(0, 0, &MAC_A, 42);
}

struct bad_case {
	const char *what;
	int field; /* which part to break */
	uint32_t value;
};

enum { F_LEN, F_HTYPE, F_PTYPE, F_HLEN, F_PLEN, F_OP, F_SHA, F_SIP, F_DST };

static const struct bad_case bad_cases[] = {
	{ "41 bytes", F_LEN, 41 },
	{ "14 bytes", F_LEN, 14 },
	{ "htype 6", F_HTYPE, 6 },
	{ "ptype IPv6", F_PTYPE, 0x86dd },
	{ "hlen 8", F_HLEN, 8 },
	{ "plen 16", F_PLEN, 16 },
	{ "op 0", F_OP, 0 },
	{ "op 3 (RARP)", F_OP, 3 },
	{ "sender MAC broadcast", F_SHA, 0 },
	{ "sender MAC multicast", F_SHA, 1 },
	{ "sender MAC zero", F_SHA, 2 },
	{ "sender MAC ours", F_SHA, 3 },
	{ "sender MAC of our other port", F_SHA, 4 },
	{ "sender 0.0.0.0", F_SIP, IP(0, 0, 0, 0) },
	{ "sender 127.0.0.1", F_SIP, IP(127, 0, 0, 1) },
	{ "sender 224.0.0.1", F_SIP, IP(224, 0, 0, 1) },
	{ "sender 240.0.0.1", F_SIP, IP(240, 0, 0, 1) },
	{ "sender 255.255.255.255", F_SIP, IP(255, 255, 255, 255) },
	{ "sender off-subnet", F_SIP, IP(10, 0, 1, 5) },
	{ "sender on the other port's subnet", F_SIP, IP(172, 16, 0, 5) },
	{ "sender is our address", F_SIP, P0_IP },
	{ "sender is the subnet broadcast", F_SIP, IP(10, 0, 0, 255) },
	{ "sender is the subnet address", F_SIP, IP(10, 0, 0, 0) },
};

static struct rte_mbuf *mk_bad(const struct bad_case *c)
{
	static const struct rte_ether_addr shas[] = {
		{ { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } },
		{ { 0x01, 0x00, 0x5e, 0, 0, 1 } },
		{ { 0, 0, 0, 0, 0, 0 } },
		{ { 0x02, 0, 0, 0, 0, 0x01 } },
		{ { 0x02, 0, 0, 0, 0, 0x02 } },
	};
	uint32_t sip = c->field == F_SIP ? c->value : H5;
	const struct rte_ether_addr *sha = c->field == F_SHA ? &shas[c->value] : &MAC_A;
	struct rte_mbuf *m = mk_arp(RTE_ARP_OP_REQUEST, &BCAST, sha, sip, &ZERO_MAC, P0_IP);
	struct rte_arp_hdr *arp = rte_pktmbuf_mtod_offset(m, struct rte_arp_hdr *, 14);

	switch (c->field) {
	case F_LEN:
		rte_pktmbuf_trim(m, (uint16_t)(m->data_len - c->value));
		break;
	case F_HTYPE:
		arp->arp_hardware = rte_cpu_to_be_16((uint16_t)c->value);
		break;
	case F_PTYPE:
		arp->arp_protocol = rte_cpu_to_be_16((uint16_t)c->value);
		break;
	case F_HLEN:
		arp->arp_hlen = (uint8_t)c->value;
		break;
	case F_PLEN:
		arp->arp_plen = (uint8_t)c->value;
		break;
	case F_OP:
		arp->arp_opcode = rte_cpu_to_be_16((uint16_t)c->value);
		break;
	default:
		break;
	}
	return m;
}

static void test_invalid_frames_counted(void **state)
{
	(void)state;
	for (size_t i = 0; i < RTE_DIM(bad_cases); i++) {
		arp_in(0, mk_bad(&bad_cases[i]));
		if (drops(0, FWD_DROP_ARP_INVALID) != i + 1)
			fail_msg("%s: not counted as arp_invalid", bad_cases[i].what);
		if (neigh_count() != 0 || n_sent != 0)
			fail_msg("%s: learnt or answered", bad_cases[i].what);
	}
	/* unicast to another MAC: not ours to look at */
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &MAC_B, &MAC_A, H5, &ZERO_MAC, P0_IP));
	assert_int_equal(drops(0, FWD_DROP_NOT_FOR_US), 1);
	/* and an in_port out of range from a confused punt */
	arp_in(9, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, H5, &ZERO_MAC, P0_IP));
	assert_int_equal(neigh_count(), 0);
	assert_int_equal(n_sent, 0);
	assert_int_equal(neigh_arp_req_rcvd.value, 0);
}

/* Random frames, some of them nearly valid: no crash, no leak, each one
 * either counted as a drop or taken as a valid request/reply. */
static void test_random_frames(void **state)
{
	unsigned valid = 0;

	(void)state;
	srand(1234);
	for (unsigned i = 0; i < 20000; i++) {
		struct rte_mbuf *m =
		        mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, H5, &ZERO_MAC, P0_IP);
		uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
		unsigned flips = 1 + (unsigned)rand() % 4;

		for (unsigned f = 0; f < flips; f++)
			p[(unsigned)rand() % m->data_len] = (uint8_t)rand();
		if (rand() % 4 == 0)
			rte_pktmbuf_trim(m, (uint16_t)((unsigned)rand() % m->data_len));
		arp_in((uint8_t)(rand() % 3), m);
		sent_clear();
	}
	valid = (unsigned)(neigh_arp_req_rcvd.value + neigh_arp_rep_rcvd.value);
	assert_int_equal(valid + drops(0, FWD_DROP_ARP_INVALID) + drops(1, FWD_DROP_ARP_INVALID) +
	                         drops(2, FWD_DROP_ARP_INVALID) + drops(0, FWD_DROP_NOT_FOR_US) +
	                         drops(1, FWD_DROP_NOT_FOR_US) + drops(2, FWD_DROP_NOT_FOR_US),
	                 20000);
	assert_true(valid > 0);
	neigh_flush(FWD_MAX_PORTS, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HARNESS_TEST(test_request_for_us_answered),
		HARNESS_TEST(test_merge_rules),
		HARNESS_TEST(test_gratuitous),
		HARNESS_TEST(test_invalid_frames_counted),
		HARNESS_TEST(test_random_frames),
	};
	return cmocka_run_group_tests(tests, harness_group_setup, harness_group_teardown);
}
