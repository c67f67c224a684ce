/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Router Advertisements (ip6/ndp_ra.c): content, schedule, answers to RS at
 * most once per 3 s, the last one when ra is turned off.
 */
#include "ndp_harness.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		NDP_TEST(test_ra_content),
		NDP_TEST(test_ra_schedule),
		NDP_TEST(test_rs_rate_limited),
		NDP_TEST(test_ra_final),
	};
	return cmocka_run_group_tests(tests, harness_group_setup, harness_group_teardown);
}
