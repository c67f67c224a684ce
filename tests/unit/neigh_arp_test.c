/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ARP input: replies to requests for our addresses (byte for byte), RFC 826
 * merge, gratuitous ARP (updates, never creates), locktime, RFC 5227 probes,
 * requests from senders off the port's subnets (answered, not learnt),
 * address conflicts, and every malformed or foreign frame dropped and
 * counted with nothing learnt; then random frames.
 */
#include <stdlib.h>

#include "neigh_harness.h"

#define H5 IP(10, 0, 0, 5)
#define H6 IP(10, 0, 0, 6)

static void test_request_for_us_answered(void **state)
{
	struct neigh *n;

	(void)state;
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, H5, &ZERO_MAC, P0_IP));
	assert_int_equal(n_sent, 1);
	assert_arp(0, 0, RTE_ARP_OP_REPLY, &MAC_A, P0_IP, &MAC_A, H5);
	assert_int_equal(arp_req_rcvd.value, 1);
	assert_int_equal(arp_rep_sent.value, 1);
	/* the asker is learnt (RFC 826: we will talk back to it), stale: a
	 * request claims an address, only an answer to us proves it (Linux) */
	n = neigh_lookup(fwd_ip_v4(H5), 0);
	assert_non_null(n);
	assert_int_equal(n->state, NEIGH_STALE);
	assert_memory_equal(&n->mac, &MAC_A, 6);
	assert_int_equal(nh_table[n->nh].type, NH_FWD);
	assert_int_equal(fib4_lookup(ip4_fibs[0], H5), n->nh);

	/* unicast to our MAC works too; a request on p1 for p0's address does not */
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &P0_MAC, &MAC_A, H5, &ZERO_MAC, P0_IP));
	assert_int_equal(n_sent, 2);
	arp_in(1, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_B, IP(172, 16, 0, 9), &ZERO_MAC, P0_IP));
	assert_int_equal(n_sent, 2);
	assert_null(neigh_lookup(fwd_ip_v4(IP(172, 16, 0, 9)), 1));
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

	/* an existing entry is updated by anything its owner says (after the locktime) */
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, H5, &ZERO_MAC, P0_IP));
	sent_clear();
	advance(NEIGH_LOCKTIME_MS);
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_B, H5, &ZERO_MAC, IP(10, 0, 0, 7)));
	n = neigh_lookup(fwd_ip_v4(H5), 0);
	assert_memory_equal(&n->mac, &MAC_B, 6);
	assert_memory_equal(nh_dst_mac(&nh_table[n->nh]), &MAC_B, 6);
	assert_int_equal(n_sent, 0);
	assert_int_equal(arp_gratuitous.value, 0);
}

/* Linux with arp_accept=0: a gratuitous ARP creates nothing. */
static void test_gratuitous_creates_nothing(void **state)
{
	(void)state;
	for (unsigned i = 0; i < 200; i++) {
		uint32_t ip = IP(172, 16, 1 + i / 100, 1 + i % 100);
		arp_in(1, mk_arp(i % 2 ? RTE_ARP_OP_REPLY : RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, ip,
		                 &ZERO_MAC, ip));
	}
	assert_int_equal(neigh_count(), 0);
	assert_int_equal(arp_gratuitous_ignored.value, 200);
	assert_int_equal(arp_gratuitous.value, 0);
	assert_int_equal(n_sent, 0); /* not a question to us */
	assert_int_equal(fwd_control_ctrs(1)->consumed, 200);
}

static void test_gratuitous(void **state)
{
	struct neigh *n;

	(void)state;
	/* an entry that exists (the host asked for us) is refreshed by a gratuitous reply */
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, H5, &ZERO_MAC, P0_IP));
	n = neigh_lookup(fwd_ip_v4(H5), 0);
	assert_non_null(n);
	sent_clear();
	advance(NEIGH_LOCKTIME_MS);
	arp_in(0, mk_arp(RTE_ARP_OP_REPLY, &BCAST, &MAC_B, H5, &BCAST, H5));
	assert_int_equal(n->state, NEIGH_REACHABLE);
	assert_memory_equal(&n->mac, &MAC_B, 6);
	assert_memory_equal(nh_dst_mac(&nh_table[n->nh]), &MAC_B, 6);
	assert_int_equal(arp_gratuitous.value, 1);
	assert_int_equal(arp_gratuitous_ignored.value, 0);
	assert_int_equal(n_sent, 0);

	/* it also completes a resolution in progress and releases what was held */
	glean(1, 0, IP(10, 0, 0, 6), 42);
	sent_clear();
	arp_in(0,
	       mk_arp(RTE_ARP_OP_REPLY, &BCAST, &MAC_A, IP(10, 0, 0, 6), &BCAST, IP(10, 0, 0, 6)));
	assert_int_equal(state_of(IP(10, 0, 0, 6), 0), NEIGH_REACHABLE);
	assert_int_equal(n_sent, 1);
	assert_ip_sent(0, 0, &MAC_A, 42);
}

/* A request for us creates a stale entry, forwarding already, probed after
 * NEIGH_DELAY_MS: an answer makes it reachable, silence removes it. */
static void test_request_creates_stale(void **state)
{
	struct neigh *n;

	(void)state;
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, H5, &ZERO_MAC, P0_IP));
	n = neigh_lookup(fwd_ip_v4(H5), 0);
	assert_non_null(n);
	assert_int_equal(n->state, NEIGH_STALE);
	assert_int_equal(nh_table[n->nh].type, NH_FWD);
	assert_memory_equal(nh_dst_mac(&nh_table[n->nh]), &MAC_A, 6);
	assert_int_equal(n_sent, 1); /* our reply */
	advance(NEIGH_DELAY_MS - 100);
	assert_int_equal(n_sent, 1);
	advance(100);
	assert_int_equal(n_sent, 2);
	assert_arp(1, 0, RTE_ARP_OP_REQUEST, &MAC_A, P0_IP, &ZERO_MAC, H5);
	arp_in(0, mk_arp(RTE_ARP_OP_REPLY, &P0_MAC, &MAC_A, H5, &P0_MAC, P0_IP));
	assert_int_equal(n->state, NEIGH_REACHABLE);

	/* an asker that never answers (a spoofed sender, say) goes after its probes */
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_B, H6, &ZERO_MAC, P0_IP));
	assert_int_equal(state_of(H6, 0), NEIGH_STALE);
	advance(NEIGH_DELAY_MS + NEIGH_MAX_PROBES * NEIGH_RETRANS_MS);
	assert_null(neigh_lookup(fwd_ip_v4(H6), 0));
	assert_int_equal(state_of(H5, 0), NEIGH_REACHABLE);
}

/* A learnt MAC changes at most once per NEIGH_LOCKTIME_MS; the same MAC is
 * always accepted. */
static void test_locktime(void **state)
{
	struct neigh *n;

	(void)state;
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, H5, &ZERO_MAC, P0_IP));
	n = neigh_lookup(fwd_ip_v4(H5), 0);
	advance(500);
	arp_in(0, mk_arp(RTE_ARP_OP_REPLY, &BCAST, &MAC_B, H5, &BCAST, H5));
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_B, H5, &ZERO_MAC, IP(10, 0, 0, 7)));
	assert_memory_equal(&n->mac, &MAC_A, 6);
	assert_memory_equal(nh_dst_mac(&nh_table[n->nh]), &MAC_A, 6);
	assert_int_equal(arp_locktime_ignored.value, 2);
	assert_int_equal(arp_gratuitous.value, 0);
	arp_in(0, mk_arp(RTE_ARP_OP_REPLY, &P0_MAC, &MAC_A, H5, &P0_MAC, P0_IP));
	assert_int_equal(n->state, NEIGH_REACHABLE); /* a confirmation, not a change */
	assert_int_equal(arp_locktime_ignored.value, 2);

	advance(500); /* a second after it was learnt */
	arp_in(0, mk_arp(RTE_ARP_OP_REPLY, &BCAST, &MAC_B, H5, &BCAST, H5));
	assert_memory_equal(&n->mac, &MAC_B, 6);
	assert_memory_equal(nh_dst_mac(&nh_table[n->nh]), &MAC_B, 6);
	assert_int_equal(arp_gratuitous.value, 1);
	advance(NEIGH_LOCKTIME_MS - 100);
	arp_in(0, mk_arp(RTE_ARP_OP_REPLY, &BCAST, &MAC_A, H5, &BCAST, H5));
	assert_memory_equal(&n->mac, &MAC_B, 6);
	assert_int_equal(arp_locktime_ignored.value, 3);
	advance(100);
	arp_in(0, mk_arp(RTE_ARP_OP_REPLY, &BCAST, &MAC_A, H5, &BCAST, H5));
	assert_memory_equal(&n->mac, &MAC_A, 6);
	assert_int_equal(arp_locktime_ignored.value, 3);
	assert_int_equal(fwd_control_ctrs(0)->consumed, 7);
}

/* RFC 5227: a probe (sender 0.0.0.0) for our address gets a reply to the
 * prober's MAC, as Linux sends it; nothing is learnt from any probe. */
static void test_probe_answered_not_learnt(void **state)
{
	(void)state;
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, 0, &ZERO_MAC, P0_IP));
	assert_int_equal(n_sent, 1);
	assert_arp(0, 0, RTE_ARP_OP_REPLY, &MAC_A, P0_IP, &MAC_A, 0);
	assert_int_equal(arp_rep_sent.value, 1);
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, 0, &ZERO_MAC, H5));
	assert_int_equal(n_sent, 1); /* not our address: not ours to defend */
	assert_int_equal(neigh_count(), 0);
	assert_int_equal(arp_req_rcvd.value, 2);
	assert_int_equal(drops(0, FWD_DROP_ARP_INVALID), 0);
	assert_int_equal(fwd_control_ctrs(0)->consumed, 2);
}

/* A request for our address from outside the port's subnets (a host that
 * asks from its loopback's address, as Linux's arp_announce=0 does) is
 * answered as Linux answers it, and teaches nothing: no entry, no route.
 * Anything else such a sender says is refused. */
static void test_offsubnet_request_answered_not_learnt(void **state)
{
	static const uint32_t senders[] = { IP(10, 7, 0, 5), IP(172, 16, 0, 5),
		                            IP(169, 254, 3, 4) };

	(void)state;
	for (unsigned i = 0; i < RTE_DIM(senders); i++) {
		sent_clear();
		arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, senders[i], &ZERO_MAC, P0_IP));
		assert_int_equal(n_sent, 1);
		assert_arp(0, 0, RTE_ARP_OP_REPLY, &MAC_A, P0_IP, &MAC_A, senders[i]);
		assert_null(neigh_lookup(fwd_ip_v4(senders[i]), 0));
		assert_int_not_equal(fib4_lookup(ip4_fibs[0], senders[i]),
		                     fib4_lookup(ip4_fibs[0], IP(10, 0, 0, 9)));
	}
	assert_int_equal(neigh_count(), 0);
	assert_int_equal(arp_offsubnet.value, 3);
	assert_int_equal(arp_rep_sent.value, 3);
	assert_int_equal(drops(0, FWD_DROP_ARP_INVALID), 0);
	sent_clear();

	/* a request for another address, a reply, a request on p1 for p0's
	 * address: refused, nothing sent, nothing learnt */
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, IP(10, 7, 0, 5), &ZERO_MAC,
	                 IP(10, 0, 0, 7)));
	arp_in(0, mk_arp(RTE_ARP_OP_REPLY, &P0_MAC, &MAC_A, IP(10, 7, 0, 5), &P0_MAC, P0_IP));
	arp_in(1, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, IP(10, 7, 0, 5), &ZERO_MAC, P0_IP));
	assert_int_equal(drops(0, FWD_DROP_ARP_INVALID), 2);
	assert_int_equal(drops(1, FWD_DROP_ARP_INVALID), 1);
	/* a sender inside the port's subnet that cannot be a host there (the
	 * subnet's own address) is no off-subnet sender */
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, IP(10, 0, 0, 0), &ZERO_MAC, P0_IP));
	assert_int_equal(drops(0, FWD_DROP_ARP_INVALID), 3);
	assert_int_equal(n_sent, 0);
	assert_int_equal(neigh_count(), 0);
	assert_int_equal(arp_offsubnet.value, 3);
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

/* Stop capturing: how many captured lines contain what. */
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

/* Another host claiming our address: counted every time, logged once a
 * minute per address, never learnt or answered. */
static void test_conflict_counted_logged_once(void **state)
{
	(void)state;
	log_capture();
	for (unsigned i = 0; i < 5; i++)
		arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, P0_IP, &ZERO_MAC, P0_IP));
	arp_in(0, mk_arp(RTE_ARP_OP_REPLY, &P0_MAC, &MAC_A, P0_IP, &P0_MAC, P0_IP));
	arp_in(1, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_B, P1_IP, &ZERO_MAC, IP(172, 16, 0, 9)));
	assert_int_equal(log_count("claims our address"), 2);
	assert_int_equal(arp_conflicts.value, 7);
	assert_int_equal(neigh_count(), 0);
	assert_int_equal(n_sent, 0);
	assert_int_equal(drops(0, FWD_DROP_ARP_INVALID) + drops(1, FWD_DROP_ARP_INVALID), 0);

	log_capture();
	advance(NEIGH_CONFLICT_LOG_MS - 100);
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, P0_IP, &ZERO_MAC, P0_IP));
	assert_int_equal(log_count("claims our address"), 0);
	log_capture();
	advance(100);
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, P0_IP, &ZERO_MAC, P0_IP));
	assert_int_equal(log_count("02:aa:00:00:00:0a on p0 claims our address 10.0.0.1"), 1);
	assert_int_equal(arp_conflicts.value, 9);
}

struct bad_case {
	const char *what;
	int field; /* which part to break */
	uint32_t value;
};

enum { F_LEN, F_HTYPE, F_PTYPE, F_HLEN, F_PLEN, F_OP, F_SHA, F_SIP, F_SIP0_REPLY };

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
	{ "reply from 0.0.0.0", F_SIP0_REPLY, 0 },
	{ "sender 127.0.0.1", F_SIP, IP(127, 0, 0, 1) },
	{ "sender 224.0.0.1", F_SIP, IP(224, 0, 0, 1) },
	{ "sender 240.0.0.1", F_SIP, IP(240, 0, 0, 1) },
	{ "sender 255.255.255.255", F_SIP, IP(255, 255, 255, 255) },
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
	uint32_t sip = c->field == F_SIP || c->field == F_SIP0_REPLY ? c->value : H5;
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
	case F_SIP0_REPLY: /* only a request (a probe) may come from 0.0.0.0 */
		arp->arp_opcode = rte_cpu_to_be_16(RTE_ARP_OP_REPLY);
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
	assert_int_equal(arp_req_rcvd.value, 0);
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
	valid = (unsigned)(arp_req_rcvd.value + arp_rep_rcvd.value);
	assert_int_equal(valid + drops(0, FWD_DROP_ARP_INVALID) + drops(1, FWD_DROP_ARP_INVALID) +
	                         drops(2, FWD_DROP_ARP_INVALID) + drops(0, FWD_DROP_NOT_FOR_US) +
	                         drops(1, FWD_DROP_NOT_FOR_US) + drops(2, FWD_DROP_NOT_FOR_US),
	                 20000);
	assert_true(valid > 0);
	neigh_flush(NEIGH_ALL, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HARNESS_TEST(test_request_for_us_answered),
		HARNESS_TEST(test_merge_rules),
		HARNESS_TEST(test_gratuitous_creates_nothing),
		HARNESS_TEST(test_gratuitous),
		HARNESS_TEST(test_request_creates_stale),
		HARNESS_TEST(test_locktime),
		HARNESS_TEST(test_probe_answered_not_learnt),
		HARNESS_TEST(test_offsubnet_request_answered_not_learnt),
		HARNESS_TEST(test_conflict_counted_logged_once),
		HARNESS_TEST(test_invalid_frames_counted),
		HARNESS_TEST(test_random_frames),
	};
	return cmocka_run_group_tests(tests, harness_group_setup, harness_group_teardown);
}
