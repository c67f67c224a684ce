/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECMP next-hop groups (nexthop/nhgroup.c) under routes on the real RIB,
 * FIB, next hops and neighbour tables (the neighbour harness: p0
 * 10.0.0.1/24, p1 172.16.0.1/16): one group per member set, shared and
 * counted, members picked by hash and skipped when failed, released with
 * the last route. Forwarding through a group: output_test.c; the
 * reverse-path filter over one: ip4_input_test.c; FPM's groups: fpm_test.c.
 */
#include "neigh_harness.h"

#include "l3/l3.h"

static uint8_t nh_type(uint32_t ip)
{
	return nh_table[fib4_lookup(ip4_fibs[0], ip)].type;
}

static int add_line(const char *line)
{
	struct l3_route r;
	char err[256];
	int rc = l3_route_parse_line(line, &r, err, sizeof(err));

	r.origin = FWD_ORIGIN_RPC;
	return rc < 0 ? rc : l3_route_add(&r, err, sizeof(err));
}

/* ECMP groups: shared by member set, counted, skipped members, released. */
static void test_ecmp_groups(void **state)
{
	const struct fwd_prefix a = { .family = AF_INET, .len = 16, .v4 = IP(10, 50, 0, 0) };
	const struct fwd_prefix b = { .family = AF_INET, .len = 16, .v4 = IP(10, 51, 0, 0) };
	uint32_t m[FWD_ECMP_MAX], used = nh_groups_used();
	char err[256];

	(void)state;
	assert_int_equal(add_line("10.50.0.0/16 via 10.0.0.2 via 172.16.0.2"), 0);
	assert_int_equal(add_line("10.51.0.0/16 via 172.16.0.2 via 10.0.0.2"), 0);
	uint32_t g = fib4_lookup(ip4_fibs[0], IP(10, 50, 1, 1));
	assert_int_equal(nh_table[g].type, NH_GROUP);
	assert_int_equal(fib4_lookup(ip4_fibs[0], IP(10, 51, 1, 1)), g); /* one group, shared */
	assert_int_equal(nh_groups_used(), used + 1);
	assert_int_equal(nh_group_members(g, m), 2);
	assert_true(nh_uses_iface(g, 0) && nh_uses_iface(g, 1) && !nh_uses_iface(g, 2));
	/* the hash spreads; a failed member is skipped, one flow stays put */
	unsigned on[2] = { 0, 0 };
	for (uint32_t h = 0; h < 1000; h++)
		on[nh_group_pick(nh_table, &nh_table[g], h * 2654435761u) == m[1]]++;
	assert_true(on[0] > 300 && on[1] > 300);
	nh_set_failed(m[0], true);
	for (uint32_t h = 0; h < 100; h++)
		assert_int_equal(nh_group_pick(nh_table, &nh_table[g], h * 2654435761u), m[1]);
	nh_set_failed(m[1], true); /* all failed: the hashed member still */
	assert_int_equal(nh_group_pick(nh_table, &nh_table[g], 7),
	                 nh_group_pick(nh_table, &nh_table[g], 7));
	nh_set_failed(m[0], false);
	nh_set_failed(m[1], false);
	/* refusals */
	assert_int_equal(add_line("10.52.0.0/16 via 10.0.0.2 via 10.0.0.2"), -EINVAL);
	assert_int_equal(add_line("10.52.0.0/16 via 10.0.0.2 via 192.0.2.9"), -ENETUNREACH);
	assert_int_equal(add_line("10.52.0.0/16 via 10.0.0.2 via 2001:db8::1"), -EINVAL);
	/* the group goes with its last route */
	assert_int_equal(l3_route_del(0, &a, err, sizeof(err)), 0);
	assert_int_equal(nh_groups_used(), used + 1);
	assert_int_equal(l3_route_del(0, &b, err, sizeof(err)), 0);
	assert_int_equal(nh_groups_used(), used);
	/* route types without a gateway */
	assert_int_equal(add_line("10.53.0.0/16 unreachable"), 0);
	assert_int_equal(nh_type(IP(10, 53, 0, 1)), NH_UNREACHABLE);
	assert_int_equal(add_line("10.54.0.0/16 prohibit"), 0);
	assert_int_equal(nh_type(IP(10, 54, 0, 1)), NH_PROHIBIT);
	assert_int_equal(add_line("10.55.0.0/16 dev p1"), 0);
	assert_int_equal(fib4_lookup(ip4_fibs[0], IP(10, 55, 0, 1)), NH_IDX_CONNECTED + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HARNESS_TEST(test_ecmp_groups),
	};

	return cmocka_run_group_tests(tests, harness_group_setup, harness_group_teardown);
}
