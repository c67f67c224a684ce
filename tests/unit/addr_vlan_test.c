/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Addresses of VLAN interfaces (ip4/addr.h, ip6/addr6.h) over the neighbour
 * harness (p0 10.0.0.1/24, p1 172.16.0.1/16), with the address layer's
 * route hooks recorded instead of routed: a VLAN's subnet is connected on
 * the VLAN (connected_add names its id), the same rules as a port's refuse
 * an overlap either way, an l3 VLAN has its port's link-local address, and
 * its addresses go with it when it is deleted or joins a bridge.
 */
#include "neigh_harness.h"

#include "core/iface.h"
#include "ip6/addr6.h"
#include "route/fib6.h"
#include "ip6/ip6.h"

static struct {
	unsigned adds, dels;
	uint16_t last_id;
	struct fwd_ip4_prefix last4;
	struct fwd_ip6_prefix last6;
} rec;

static int conn4_add(const struct fwd_ip4_prefix *s, uint16_t id)
{
	rec.adds++;
	rec.last_id = id;
	rec.last4 = *s;
	return 0;
}

static void conn4_del(const struct fwd_ip4_prefix *s, uint16_t port)
{
	(void)port;
	rec.dels++;
	rec.last4 = *s;
}

static int conn6_add(const struct fwd_ip6_prefix *s, uint16_t id)
{
	rec.adds++;
	rec.last_id = id;
	rec.last6 = *s;
	return 0;
}

static void conn6_del(const struct fwd_ip6_prefix *s, uint16_t port)
{
	(void)port;
	rec.dels++;
	rec.last6 = *s;
}

static unsigned no_prune(void)
{
	return 0;
}

static const struct addr4_route_hooks hooks4 = { conn4_add, conn4_del, no_prune };
static const struct addr6_route_hooks hooks6 = { conn6_add, conn6_del, no_prune };

static uint16_t v;

static int group_setup(void **state)
{
	addr4_set_route_hooks(&hooks4);
	addr6_set_route_hooks(&hooks6);
	return harness_group_setup(state);
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
	memset(&rec, 0, sizeof(rec));
	assert_int_equal(fwd_iface_vlan_add("p0.100", 0, 100, 0, &v), 0);
	return 0;
}

static int teardown(void **state)
{
	if (fwd_iface_get(v) != NULL)
		assert_int_equal(fwd_iface_del(v), 0);
	fwd_iface_reset();
	rib6_clear(&ip6_ribs[0]);
	fib6_free(ip6_fibs[0]);
	ip6_fibs[0] = NULL;
	memset(ip6_addrs, 0, sizeof(ip6_addrs));
	return harness_teardown(state);
}

static void test_v4_connected_on_vlan(void **state)
{
	struct fwd_ip4_prefix a = { IP(10, 100, 0, 1), 24 };
	char err[128];

	(void)state;
	assert_int_equal(addr4_add(v, &a, FWD_ORIGIN_CONFIG, err, sizeof(err)), 0);
	assert_int_equal(rec.last_id, v);
	assert_int_equal(rec.last4.addr, IP(10, 100, 0, 0));
	assert_int_equal(rec.last4.len, 24);
	assert_true(addr4_is_local(0, IP(10, 100, 0, 1)));
	assert_true(addr4_is_bcast(0, IP(10, 100, 0, 255)));
	assert_int_equal(addr4_port_of(0, IP(10, 100, 0, 9)), v);
	assert_true(addr4_on_port(v, IP(10, 100, 0, 9)));
	assert_false(addr4_on_port(0, IP(10, 100, 0, 9)));
	assert_int_equal(addr4_source(v, IP(10, 100, 0, 9)), IP(10, 100, 0, 1));
	assert_int_equal(addr4_view_index(addr4_running(), "p0.100"), v);
	assert_int_equal(addr4_del(v, &a, err, sizeof(err)), 0);
	assert_int_equal(rec.dels, 1);
	assert_false(addr4_is_local(0, IP(10, 100, 0, 1)));
}

static void test_v4_overlap_refused(void **state)
{
	struct fwd_ip4_prefix a = { IP(10, 100, 0, 1), 24 }, on_p0 = { IP(10, 0, 0, 2), 24 },
	                      on_p1 = { IP(10, 100, 0, 7), 24 }, own = { IP(10, 100, 0, 1), 16 };
	uint16_t w;
	char err[128];

	(void)state;
	/* a port's subnet on a VLAN, a VLAN's on a port or another VLAN */
	assert_int_equal(addr4_add(v, &on_p0, FWD_ORIGIN_RPC, err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "subnet 10.0.0.0/24 is already connected on port p0"));
	assert_int_equal(addr4_add(v, &a, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	assert_int_equal(addr4_add(1, &on_p1, FWD_ORIGIN_RPC, err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "already connected on interface p0.100"));
	assert_int_equal(fwd_iface_vlan_add("p1.5", 1, 5, 0, &w), 0);
	assert_int_equal(addr4_add(w, &on_p1, FWD_ORIGIN_RPC, err, sizeof(err)), -EEXIST);
	assert_int_equal(addr4_add(w, &own, FWD_ORIGIN_RPC, err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "address 10.100.0.1 is already configured (on interface "
	                            "p0.100)"));
	assert_int_equal(ip4_addrs[w].n, 0);
	assert_int_equal(fwd_iface_del(w), 0);
}

/* what leaves l3 (a bridge member) or goes takes its addresses, as Linux */
static void test_bridge_mode_and_delete_take_addresses(void **state)
{
	struct fwd_ip4_prefix a = { IP(10, 100, 0, 1), 24 };
	struct fwd_ip6_prefix p = { .addr = { 0x20, 0x01, 0x0d, 0xb8, 1, 0, [15] = 1 }, .len = 64 };
	char err[128];

	(void)state;
	assert_int_equal(addr4_add(v, &a, FWD_ORIGIN_CONFIG, err, sizeof(err)), 0);
	assert_int_equal(addr6_add(v, &p, FWD_ORIGIN_CONFIG, err, sizeof(err)), 0);
	assert_int_equal(fwd_iface_set_mode(v, FWD_MODE_BRIDGE, 0), 0);
	assert_int_equal(ip4_addrs[v].n, 0);
	assert_int_equal(ip6_addrs[v].n, 0); /* the link-local too */
	assert_int_equal(rec.dels, 2);
	assert_false(addr4_is_local(0, IP(10, 100, 0, 1)));
	/* back to l3: the link-local comes back, the rest is the config's to add */
	assert_int_equal(fwd_iface_set_mode(v, FWD_MODE_L3, 0), 0);
	assert_int_equal(ip6_addrs[v].n, 1);
	assert_int_equal(addr4_add(v, &a, FWD_ORIGIN_CONFIG, err, sizeof(err)), 0);
	assert_int_equal(fwd_iface_del(v), 0);
	assert_int_equal(ip4_addrs[v].n, 0);
	assert_int_equal(ip6_addrs[v].n, 0);
	assert_int_equal(rec.dels, 3);
}

static void test_v6_linklocal_and_prefix(void **state)
{
	struct fwd_ip6_prefix p = { .addr = { 0x20, 0x01, 0x0d, 0xb8, 1, 0, [15] = 1 }, .len = 64 },
	                      q = p;
	uint8_t ll[16], host[16] = { 0x20, 0x01, 0x0d, 0xb8, 1, 0, [15] = 9 }, src[16];
	char err[128];

	(void)state;
	/* made in l3 mode: its port's link-local (the same MAC), first */
	ip6_linklocal_of(&P0_MAC, ll);
	assert_int_equal(ip6_addrs[v].n, 1);
	assert_memory_equal(ip6_addrs[v].a[0].addr, ll, 16);
	assert_int_equal(addr6_add(v, &p, FWD_ORIGIN_CONFIG, err, sizeof(err)), 0);
	assert_int_equal(rec.last_id, v);
	assert_int_equal(addr6_state(v, p.addr), ADDR6_TENTATIVE);
	addr6_dad_done(v, p.addr, false);
	assert_int_equal(addr6_state(v, p.addr), ADDR6_PREFERRED);
	assert_true(addr6_is_local(0, v, p.addr));
	assert_int_equal(addr6_port_of(0, host), v);
	assert_true(addr6_on_port(v, host));
	assert_true(addr6_source(v, host, src));
	assert_memory_equal(src, p.addr, 16);
	/* the same prefix on a port is refused, and the other way round */
	assert_int_equal(addr6_port_up(1), 0);
	q.addr[15] = 2;
	assert_int_equal(addr6_add(1, &q, FWD_ORIGIN_RPC, err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "is already connected on interface p0.100"));
	assert_int_equal(addr6_del(v, &ip6_addrs[v].a[0], err, sizeof(err)), -EINVAL);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_v4_connected_on_vlan),
		T(test_v4_overlap_refused),
		T(test_bridge_mode_and_delete_take_addresses),
		T(test_v6_linklocal_and_prefix),
	};

	return cmocka_run_group_tests(tests, group_setup, harness_group_teardown);
}
