/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * VRFs on the real RIB, FIB, next hops and neighbour tables (the neighbour
 * harness: p0 10.0.0.1/24, p1 172.16.0.1/16): the registry's rules, p1
 * moved into VRF blue (what it held goes), the same subnet in both VRFs
 * with routes of their own, neighbours' host routes in their interface's
 * VRF, next_vrf routes (NH_VRF, refused to itself), and what deleting the
 * VRF releases.
 */
#include "neigh_harness.h"

#include "core/iface.h"
#include "core/vrf.h"
#include "ip4/route.h"
#include "ip6/ip6.h"
#include "l3/l3.h"

static uint16_t blue;

static const struct nexthop *nh_in(uint16_t vrf, uint32_t ip)
{
	return &nh_table[fib4_lookup(ip4_fibs[vrf], ip)];
}

static int vrf_setup(void **state)
{
	harness_setup(state);
	fwd_iface_port_sync(0); /* the ids the hooks read */
	fwd_iface_port_sync(1);
	assert_int_equal(fwd_vrf_add("blue", 10, &blue), 0);
	return 0;
}

static int vrf_teardown(void **state)
{
	fwd_vrf_reset();
	return harness_teardown(state);
}

static void test_registry(void **state)
{
	uint16_t id;

	(void)state;
	assert_int_equal(fwd_vrf_by_name("default"), 0);
	assert_int_equal(fwd_vrf_by_table(254), 0);
	assert_int_equal(fwd_vrf_by_name("blue"), blue);
	assert_int_equal(fwd_vrf_by_table(10), blue);
	assert_string_equal(fwd_vrf_name(blue), "blue");
	assert_int_equal(fwd_vrf_add("blue", 11, &id), -EEXIST);
	assert_int_equal(fwd_vrf_add("red", 10, &id), -EEXIST);
	assert_int_equal(fwd_vrf_add("red", 254, &id), -EINVAL);
	assert_int_equal(fwd_vrf_add("", 11, &id), -EINVAL);
	assert_int_equal(fwd_vrf_del(0), -EPERM);
	assert_non_null(ip4_fibs[blue]);
	assert_non_null(ip4_fibs[blue]->small); /* the small layout */
	assert_non_null(ip6_fibs[blue]);
	assert_int_equal(fwd_iface_set_vrf(1, blue), 0);
	assert_int_equal(fwd_vrf_n_ifaces(blue), 1);
	assert_int_equal(fwd_vrf_del(blue), -EBUSY);
	assert_int_equal(fwd_iface_set_vrf(1, 0), 0);
	assert_int_equal(fwd_vrf_del(blue), 0);
	assert_null(ip4_fibs[blue]);
	assert_int_equal(fwd_vrf_by_name("blue"), -1);
}

/* p1 into blue: its address and connected route leave the default VRF;
 * then 10.0.0.1/24 on p1 as on p0, each VRF with its own. */
static void test_overlap(void **state)
{
	struct fwd_ip4_prefix a = { P0_IP, 24 };
	struct route4_req r = { .prefix = { IP(198, 51, 100, 0), 24 },
		                .type = ROUTE4_VIA,
		                .n_via = 1,
		                .via = { IP(10, 0, 0, 2) },
		                .dev = { -1 },
		                .origin = FWD_ORIGIN_RPC };
	char err[128];

	(void)state;
	assert_int_equal(fwd_iface_set_vrf(1, blue), 0);
	assert_int_equal(ip4_addrs[1].n, 0);
	assert_int_equal(nh_in(0, IP(172, 16, 0, 9))->type, NH_NONE);
	assert_int_equal(addr4_add(1, &a, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	assert_true(addr4_is_local(blue, P0_IP));
	assert_int_equal(addr4_port_of(blue, IP(10, 0, 0, 9)), 1);
	assert_int_equal(addr4_port_of(0, IP(10, 0, 0, 9)), 0);
	assert_int_equal(nh_in(blue, IP(10, 0, 0, 9))->port, 1);
	assert_int_equal(nh_in(0, IP(10, 0, 0, 9))->port, 0);
	/* the same route in both VRFs, each by its own p0 or p1 */
	assert_int_equal(route4_add(&r, err, sizeof(err)), 0);
	r.vrf = blue;
	assert_int_equal(route4_add(&r, err, sizeof(err)), 0);
	assert_int_equal(nh_in(0, IP(198, 51, 100, 7))->iface, 0);
	assert_int_equal(nh_in(blue, IP(198, 51, 100, 7))->iface, 1);
	/* a gateway only blue has is not one of the default VRF */
	r.prefix = (struct fwd_ip4_prefix){ IP(203, 0, 113, 0), 24 };
	r.via[0] = IP(172, 16, 0, 2);
	r.vrf = 0;
	assert_int_equal(route4_add(&r, err, sizeof(err)), -ENETUNREACH);
	assert_int_equal(route4_del(blue, &(struct fwd_ip4_prefix){ IP(198, 51, 100, 0), 24 }, err,
	                            sizeof(err)),
	                 0);
	assert_int_equal(nh_in(blue, IP(198, 51, 100, 7))->type, NH_NONE);
	assert_int_equal(nh_in(0, IP(198, 51, 100, 7))->iface, 0);
}

/* A neighbour's /32 goes to the VRF of its interface. */
static void test_neighbour_host_route(void **state)
{
	struct fwd_ip4_prefix a = { IP(192, 0, 2, 1), 24 };
	uint32_t nh;
	char err[128];

	(void)state;
	assert_int_equal(fwd_iface_set_vrf(1, blue), 0);
	assert_int_equal(addr4_add(1, &a, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	assert_int_equal(neigh_ref(fwd_ip_v4(IP(192, 0, 2, 5)), 1, &nh), 0);
	assert_int_equal(fib4_lookup(ip4_fibs[blue], IP(192, 0, 2, 5)), nh);
	assert_int_not_equal(fib4_lookup(ip4_fibs[0], IP(192, 0, 2, 5)), nh);
	neigh_unref(nh);
}

/* next_vrf: an NH_VRF next hop naming the target; not to itself, not to
 * a VRF that is not there; deleting blue releases it. */
static void test_next_vrf(void **state)
{
	struct l3_route r = { .vrf = 0, .type = L3_ROUTE_NEXT_VRF, .origin = FWD_ORIGIN_RPC };
	struct fwd_prefix p;
	char err[128];

	(void)state;
	assert_int_equal(fwd_prefix_parse("198.18.0.0/15", &p, false), 0);
	r.prefix = p;
	r.next_vrf = blue;
	assert_int_equal(l3_route_add(&r, err, sizeof(err)), 0);
	const struct nexthop *nh = nh_in(0, IP(198, 18, 3, 4));
	assert_int_equal(nh->type, NH_VRF);
	assert_int_equal(nh->vrf, blue);
	r.vrf = blue;
	r.next_vrf = blue;
	assert_int_equal(l3_route_add(&r, err, sizeof(err)), -EINVAL);
	r.next_vrf = 77;
	assert_int_equal(l3_route_add(&r, err, sizeof(err)), -EINVAL);
	r.next_vrf = 0;
	assert_int_equal(l3_route_add(&r, err, sizeof(err)), 0); /* blue -> default */
	assert_int_equal(nh_in(blue, IP(198, 18, 3, 4))->vrf, 0);
	assert_int_equal(l3_route_origin(blue, &p), FWD_ORIGIN_RPC);
	assert_int_equal(l3_route_del(0, &p, err, sizeof(err)), 0);
	assert_int_equal(nh_in(0, IP(198, 18, 3, 4))->type, NH_NONE);
	assert_int_equal(fwd_vrf_del(blue), 0); /* its route goes with it */
	assert_int_equal(l3_route_origin(blue, &p), -ENOENT);
}

int main(void)
{
#define VRF_TEST(fn) cmocka_unit_test_setup_teardown(fn, vrf_setup, vrf_teardown)
	const struct CMUnitTest tests[] = {
		VRF_TEST(test_registry),
		VRF_TEST(test_overlap),
		VRF_TEST(test_neighbour_host_route),
		VRF_TEST(test_next_vrf),
	};

	return cmocka_run_group_tests(tests, harness_group_setup, harness_group_teardown);
}
