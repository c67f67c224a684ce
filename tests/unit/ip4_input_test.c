/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The first-octet tables of the IPv4 fast path. ip4_fast tests a packet's
 * source octet against ip4_dst_class (one table for both addresses), which
 * is right only while the octets a source may not have (ip4_src_martian)
 * are exactly those whose destinations are not routed as unicast.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ip4/ip4.h"

static void test_one_table_for_both(void **state)
{
	(void)state;
	for (unsigned o = 0; o < 256; o++)
		assert_int_equal(ip4_src_martian[o] != 0, ip4_dst_class[o] != IP4_UNICAST);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_table_for_both),
		cmocka_unit_test(test_classes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
