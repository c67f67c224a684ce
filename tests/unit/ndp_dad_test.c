/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DAD of IPv6 addresses (ip6/ndp_dad.c): a duplicate from a probe or an
 * advertisement, preferred after the timer, waiting for the link.
 */
#include "ndp_harness.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		NDP_TEST(test_dad_preferred),
		NDP_TEST(test_dad_duplicate),
		NDP_TEST(test_dad_waits_for_link),
	};
	return cmocka_run_group_tests(tests, harness_group_setup, harness_group_teardown);
}
