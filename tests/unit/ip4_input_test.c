/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The first-octet tables of the IPv4 fast path. ip4_fast tests a packet's
 * source octet against ip4_src_martian and leaves destinations to the FIB,
 * whose reserved entries (rib4_reserved) must cover exactly the octets
 * that ip4_dst_class does not call unicast, which are also those a source
 * may not have.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ip4/ip4.h"
#include "ip4/rib.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_set_for_all),
		cmocka_unit_test(test_classes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
