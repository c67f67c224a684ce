/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NDP (ip6/ndp.c, ndp_input.c, ndp_tx.c): answers to solicitations (byte
 * for byte, as Linux sends them), what advertisements may change
 * (unsolicited ones never create an entry), resolution of held packets,
 * every refused message counted by reason; then random frames. DAD is
 * tested in ndp_dad_test.c, Router Advertisements in ndp_ra_test.c.
 */
#include "ndp_harness.h"

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
	assert_int_equal(nh_addr(n->nh)->family, AF_INET6); /* the header it writes says IPv6 */
	assert_true(n->in_rib);                             /* its /128 */
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
	assert_int_equal(neigh_unresolved(AF_INET6, NEIGH_ALL), NEIGH_UNRESOLVED_MAX);
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
	assert_int_equal(neigh_unresolved(AF_INET, NEIGH_ALL), 20);
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
	neigh_flush(NEIGH_ALL, true);
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
		NDP_TEST(test_linux_host_frames),
		NDP_TEST(test_counters_listed),
		NDP_TEST(test_random_frames),
	};
	return cmocka_run_group_tests(tests, harness_group_setup, harness_group_teardown);
}
