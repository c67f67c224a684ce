/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The reverse-path filter (ports[].rpf, l3/rpf.c; RFC 3704): nh_rpf_pass
 * (nexthop/nexthop.h), which both input paths call, over every type of next
 * hop a source's route may have, strict and loose, ECMP groups included.
 * The same filter on packets through the input paths: test_rpf in
 * ip4_input_test.c and ip6_input_test.c; the config check (l3 ports only):
 * config_test.c (rpf_not_l3.yaml, rpf_bad_value.yaml).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/config.h"
#include "nexthop/nexthop.h"

enum {
	I_NONE,
	I_LOCAL,
	I_FWD0,
	I_PENDING1,
	I_CONN1,
	I_BLACKHOLE,
	I_RESERVED,
	I_UNREACH,
	I_PROHIBIT,
	I_GROUP01,
	I_VLAN40, /* on VLAN interface 40, over port 0 */
	I_N
};

static struct nexthop tbl[I_N];
static struct nh_group groups[1];

static int setup(void **state)
{
	(void)state;
	tbl[I_NONE].type = NH_NONE;
	tbl[I_LOCAL].type = NH_LOCAL;
	tbl[I_FWD0] = (struct nexthop){ .type = NH_FWD, .port = 0, .iface = 0 };
	tbl[I_PENDING1] = (struct nexthop){ .type = NH_PENDING, .port = 1, .iface = 1 };
	tbl[I_CONN1] = (struct nexthop){ .type = NH_CONNECTED, .port = 1, .iface = 1 };
	tbl[I_VLAN40] = (struct nexthop){ .type = NH_FWD, .port = 0, .iface = 40, .tag = 4 };
	tbl[I_BLACKHOLE].type = NH_BLACKHOLE;
	tbl[I_RESERVED].type = NH_RESERVED;
	tbl[I_UNREACH].type = NH_UNREACHABLE;
	tbl[I_PROHIBIT].type = NH_PROHIBIT;
	tbl[I_GROUP01] = (struct nexthop){ .type = NH_GROUP, .grp = 0 };
	groups[0] = (struct nh_group){ .n = 2, .m = { I_FWD0, I_PENDING1 } };
	nh_groups = groups;
	return 0;
}

static bool pass(unsigned idx, uint16_t in, enum fwd_rpf mode)
{
	return nh_rpf_pass(tbl, &tbl[idx], in, mode == FWD_RPF_STRICT);
}

/* Strict: the route to the source leaves by the port the packet came in
 * by; for a group, by any member's port. */
static void test_strict(void **state)
{
	(void)state;
	assert_true(pass(I_FWD0, 0, FWD_RPF_STRICT));
	assert_false(pass(I_FWD0, 1, FWD_RPF_STRICT));
	assert_true(pass(I_PENDING1, 1, FWD_RPF_STRICT));
	assert_false(pass(I_PENDING1, 0, FWD_RPF_STRICT));
	assert_true(pass(I_CONN1, 1, FWD_RPF_STRICT));
	assert_false(pass(I_CONN1, 0, FWD_RPF_STRICT));
	assert_true(pass(I_GROUP01, 0, FWD_RPF_STRICT));
	assert_true(pass(I_GROUP01, 1, FWD_RPF_STRICT));
	assert_false(pass(I_GROUP01, 2, FWD_RPF_STRICT));
	/* a VLAN is an interface of its own: its port is not it */
	assert_true(pass(I_VLAN40, 40, FWD_RPF_STRICT));
	assert_false(pass(I_VLAN40, 0, FWD_RPF_STRICT));
	assert_true(pass(I_VLAN40, 0, FWD_RPF_LOOSE));
}

/* Loose: any route that forwards, whatever its port. */
static void test_loose(void **state)
{
	(void)state;
	for (uint16_t in = 0; in < 3; in++) {
		assert_true(pass(I_FWD0, in, FWD_RPF_LOOSE));
		assert_true(pass(I_PENDING1, in, FWD_RPF_LOOSE));
		assert_true(pass(I_CONN1, in, FWD_RPF_LOOSE));
		assert_true(pass(I_GROUP01, in, FWD_RPF_LOOSE));
	}
}

/* No route, our own address, reserved ranges and routes that drop never
 * pass, in either mode. */
static void test_never(void **state)
{
	static const unsigned never[] = { I_NONE,     I_LOCAL,   I_BLACKHOLE,
		                          I_RESERVED, I_UNREACH, I_PROHIBIT };

	(void)state;
	for (unsigned i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		for (uint16_t in = 0; in < 2; in++) {
			assert_false(pass(never[i], in, FWD_RPF_STRICT));
			assert_false(pass(never[i], in, FWD_RPF_LOOSE));
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strict),
		cmocka_unit_test(test_loose),
		cmocka_unit_test(test_never),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
