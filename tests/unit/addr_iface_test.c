/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Addresses keyed by interface id (ip4/addr.h, ip6/addr6.h) beyond the
 * ports, over the neighbour harness (p0 10.0.0.1/24, p1 172.16.0.1/16): a
 * loopback's addresses, of any length, are local and connect nothing;
 * deleting an interface takes its addresses (a VLAN's: addr_vlan_test.c).
 */
#include "neigh_harness.h"

#include "core/iface.h"
#include "ip6/addr6.h"
#include "route/fib6.h"
#include "ip6/ip6.h"

static uint16_t lo;

static uint8_t nh_type(uint32_t ip)
{
	return nh_table[fib4_lookup(ip4_fibs[0], ip)].type;
}

static uint8_t nh6_type(const uint8_t ip[16])
{
	return nh_table[fib6_lookup(ip6_fibs[0], ip)].type;
}

static int setup(void **state)
{
	harness_setup(state);
	fwd_iface_reset();
	fwd_iface_port_sync(0);
	fwd_iface_port_sync(1);
	ip6_fibs[0] = fib6_create(256, NULL, SOCKET_ID_ANY);
	assert_non_null(ip6_fibs[0]);
	rib6_init(&ip6_ribs[0], ip6_fibs[0]);
	memset(ip6_addrs, 0, sizeof(ip6_addrs));
	assert_int_equal(fwd_iface_loopback_add("lo0", &lo), 0);
	assert_true(lo >= FWD_MAX_PORTS);
	return 0;
}

static int teardown(void **state)
{
	if (fwd_iface_get(lo) != NULL)
		assert_int_equal(fwd_iface_del(lo), 0); /* its addresses go through the hook */
	fwd_iface_reset();
	rib6_clear(&ip6_ribs[0]);
	fib6_free(ip6_fibs[0]);
	ip6_fibs[0] = NULL;
	memset(ip6_addrs, 0, sizeof(ip6_addrs));
	return harness_teardown(state);
}

static void test_loopback_v4(void **state)
{
	struct fwd_ip4_prefix host = { IP(192, 0, 2, 1), 32 }, net = { IP(198, 51, 100, 1), 24 },
	                      port_net = { IP(198, 51, 100, 7), 24 };
	char err[128];

	(void)state;
	assert_int_equal(addr4_add(lo, &host, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	assert_int_equal(addr4_add(lo, &net, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	assert_int_equal(nh_type(IP(192, 0, 2, 1)), NH_LOCAL);
	assert_int_equal(nh_type(IP(198, 51, 100, 1)), NH_LOCAL);
	/* no connected route, no directed broadcast: a loopback has no link */
	assert_int_equal(nh_type(IP(198, 51, 100, 2)), NH_NONE);
	assert_int_equal(nh_type(IP(198, 51, 100, 255)), NH_NONE);
	assert_true(addr4_is_local(0, IP(192, 0, 2, 1)));
	assert_int_equal(addr4_port_of(0, IP(192, 0, 2, 1)), lo);
	assert_int_equal(addr4_port_of(0, IP(198, 51, 100, 2)), -1);
	/* the loopback's /24 is not a connected subnet: a port may have it */
	assert_int_equal(addr4_add(1, &port_net, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	assert_int_equal(addr4_port_of(0, IP(198, 51, 100, 2)), 1);
	assert_int_equal(addr4_add(0, &host, FWD_ORIGIN_RPC, err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "lo0"));
	assert_int_equal(addr4_del(lo, &net, err, sizeof(err)), 0);
	assert_int_equal(nh_type(IP(198, 51, 100, 1)), NH_CONNECTED); /* p1's subnet */
}

static void test_loopback_v6(void **state)
{
	struct fwd_ip6_prefix p = { .addr = { 0x20, 0x01, 0x0d, 0xb8, 0xff, [15] = 1 },
		                    .len = 128 };
	uint8_t other[16] = { 0x20, 0x01, 0x0d, 0xb8, 0xff, [15] = 2 };
	char err[128];

	(void)state;
	assert_int_equal(addr6_add(lo, &p, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	assert_int_equal(addr6_state(lo, p.addr), ADDR6_PREFERRED); /* no DAD */
	assert_true(addr6_is_local(0, FWD_IFACE_NONE, p.addr));
	assert_true(addr6_is_local(0, lo, p.addr));
	assert_int_equal(addr6_port_of(0, p.addr), lo);
	assert_int_equal(nh6_type(p.addr), NH_LOCAL);
	p.len = 64;
	memcpy(p.addr, other, 16);
	assert_int_equal(addr6_add(lo, &p, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	other[15] = 3;
	assert_int_equal(nh6_type(other), NH_NONE);
	assert_int_equal(addr6_port_of(0, other), -1);
}

static void test_delete_takes_addresses(void **state)
{
	struct fwd_ip4_prefix host = { IP(192, 0, 2, 1), 32 };
	struct fwd_ip6_prefix p = { .addr = { 0x20, 0x01, 0x0d, 0xb8, 0xff, [15] = 1 },
		                    .len = 128 };
	char err[128];

	(void)state;
	assert_int_equal(addr4_add(lo, &host, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	assert_int_equal(addr6_add(lo, &p, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	assert_int_equal(fwd_iface_del(lo), 0);
	assert_int_equal(ip4_addrs[lo].n, 0);
	assert_int_equal(ip6_addrs[lo].n, 0);
	assert_int_equal(nh_type(IP(192, 0, 2, 1)), NH_NONE);
	assert_int_equal(nh6_type(p.addr), NH_NONE);
	assert_false(addr4_is_local(0, IP(192, 0, 2, 1)));
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_loopback_v4),
		T(test_loopback_v6),
		T(test_delete_takes_addresses),
	};

	return cmocka_run_group_tests(tests, harness_group_setup, harness_group_teardown);
}
