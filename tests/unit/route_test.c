/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Addresses, connected routes and static routes on top of the real RIB,
 * FIB, next hops and neighbour tables (the neighbour harness: p0 10.0.0.1/24,
 * p1 172.16.0.1/16): what each address puts in the FIB, which gateways are
 * accepted, what removing an address takes with it, and the `route load`
 * line parser (ECMP groups: nhgroup_test.c); then, with IPv6 on p0
 * (2001:db8:1::1/64), a sliced write (`route load`) that replaces a short
 * prefix, checked entry by entry at every step, and neighbour host routes
 * against routes in the IPv6 FIB.
 */
#include "neigh_harness.h"

#include "core/iface.h"
#include "ip4/route.h"
#include "ip6/addr6.h"
#include "ip6/ip6.h"
#include "ip6/ndp_priv.h"
#include "ip6/route6.h"
#include "l3/l3.h"

static uint8_t nh_type(uint32_t ip)
{
	return nh_table[fib4_lookup(ip4_fibs[0], ip)].type;
}

static struct rib4_node *route_of(uint32_t addr, uint8_t len)
{
	struct rib4_node *n = rib4_find(&ip4_ribs[0], addr, len);

	return n != NULL && (n->src & RIB4_SRC_ROUTE) ? n : NULL;
}

static int add_via(uint32_t addr, uint8_t len, uint32_t via, int dev, bool replace, char *err)
{
	struct route4_req r = { .prefix = { addr, len },
		                .type = ROUTE4_VIA,
		                .n_via = 1,
		                .via = { via },
		                .dev = { dev },
		                .origin = FWD_ORIGIN_RPC,
		                .replace = replace };

	return route4_add(&r, err, 128);
}

static void test_addresses_make_connected_and_local(void **state)
{
	(void)state;
	assert_non_null(route_of(IP(10, 0, 0, 0), 24));
	assert_int_equal(route_of(IP(10, 0, 0, 0), 24)->route.type, ROUTE4_CONNECTED);
	assert_int_equal(route_of(IP(172, 16, 0, 0), 16)->route.dev, 1);
	assert_int_equal(nh_type(P0_IP), NH_LOCAL);
	assert_int_equal(nh_type(IP(10, 0, 0, 255)), NH_LOCAL); /* directed broadcast */
	assert_int_equal(nh_type(IP(172, 16, 255, 255)), NH_LOCAL);
	assert_int_equal(nh_type(IP(10, 0, 0, 77)), NH_CONNECTED);
	assert_int_equal(nh_table[fib4_lookup(ip4_fibs[0], IP(172, 16, 9, 9))].port, 1);
	assert_int_equal(nh_type(IP(192, 0, 2, 1)), NH_NONE);
	assert_true(addr4_is_local(0, P1_IP));
	assert_int_equal(addr4_port_of(0, IP(172, 16, 3, 3)), 1);
	assert_int_equal(addr4_port_of(0, IP(192, 0, 2, 1)), -1);
	assert_int_equal(addr4_source(0, IP(192, 0, 2, 1)), P0_IP);
}

static void test_address_refusals(void **state)
{
	struct fwd_ip4_prefix dup = { P0_IP, 24 }, net = { IP(10, 0, 0, 0), 24 },
	                      other = { IP(10, 0, 0, 9), 24 }, mcast = { IP(224, 0, 0, 1), 24 };
	char err[128];

	(void)state;
	assert_int_equal(addr4_add(1, &dup, FWD_ORIGIN_RPC, err, sizeof(err)), -EEXIST);
	assert_int_equal(addr4_add(0, &net, FWD_ORIGIN_RPC, err, sizeof(err)), -EINVAL);
	assert_int_equal(addr4_add(0, &mcast, FWD_ORIGIN_RPC, err, sizeof(err)), -EINVAL);
	/* the same subnet on another port would make the connected route ambiguous */
	assert_int_equal(addr4_add(1, &other, FWD_ORIGIN_RPC, err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "already connected on port p0"));
	assert_int_equal(addr4_del(1, &dup, err, sizeof(err)), -ESRCH);
}

static void test_gateways(void **state)
{
	char err[128];

	(void)state;
	assert_int_equal(add_via(IP(198, 51, 100, 0), 24, IP(10, 0, 0, 2), -1, false, err), 0);
	assert_int_equal(route_of(IP(198, 51, 100, 0), 24)->route.via, IP(10, 0, 0, 2));
	/* a gateway no connected subnet holds, or held by the wrong port, or ourselves */
	assert_int_equal(add_via(IP(203, 0, 113, 0), 24, IP(192, 0, 2, 1), -1, false, err),
	                 -ENETUNREACH);
	assert_string_equal(err, "gateway 192.0.2.1 is not on a connected subnet");
	assert_int_equal(add_via(IP(203, 0, 113, 0), 24, IP(10, 0, 0, 2), 1, false, err),
	                 -ENETUNREACH);
	assert_int_equal(add_via(IP(203, 0, 113, 0), 24, P0_IP, -1, false, err), -EINVAL);
	/* an existing prefix: refused, unless replaced */
	assert_int_equal(add_via(IP(198, 51, 100, 0), 24, IP(10, 0, 0, 3), -1, false, err),
	                 -EEXIST);
	assert_int_equal(add_via(IP(198, 51, 100, 0), 24, IP(10, 0, 0, 3), -1, true, err), 1);
	assert_int_equal(route_of(IP(198, 51, 100, 0), 24)->route.via, IP(10, 0, 0, 3));
	/* connected routes belong to their address */
	assert_int_equal(add_via(IP(10, 0, 0, 0), 24, IP(172, 16, 0, 2), -1, true, err), -EEXIST);
	struct fwd_ip4_prefix conn = { IP(10, 0, 0, 0), 24 };
	assert_int_equal(route4_del(0, &conn, err, sizeof(err)), -EINVAL);
	struct route4_req bh = { .prefix = { IP(100, 64, 0, 0), 10 },
		                 .type = ROUTE4_BLACKHOLE,
		                 .dev = { -1 } };
	assert_int_equal(route4_add(&bh, err, sizeof(err)), 0);
	assert_int_equal(nh_type(IP(100, 64, 1, 1)), NH_BLACKHOLE);
}

static void test_address_removal_prunes(void **state)
{
	struct fwd_ip4_prefix a0 = { P0_IP, 24 }, a0b = { IP(10, 0, 0, 200), 24 };
	char err[128];

	(void)state;
	assert_int_equal(add_via(IP(198, 51, 100, 0), 24, IP(10, 0, 0, 2), -1, false, err), 0);
	assert_int_equal(add_via(IP(198, 18, 0, 0), 15, IP(172, 16, 0, 2), -1, false, err), 0);
	/* a second address on the same subnet keeps the subnet when the first goes */
	assert_int_equal(addr4_add(0, &a0b, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	assert_int_equal(addr4_del(0, &a0, err, sizeof(err)), 0);
	assert_non_null(route_of(IP(10, 0, 0, 0), 24));
	assert_int_equal(nh_type(P0_IP), NH_CONNECTED);
	assert_int_equal(nh_type(IP(10, 0, 0, 255)), NH_LOCAL);
	assert_non_null(route_of(IP(198, 51, 100, 0), 24));
	/* the last one takes the subnet, its broadcast and the routes via it */
	assert_int_equal(addr4_del(0, &a0b, err, sizeof(err)), 0);
	assert_null(route_of(IP(10, 0, 0, 0), 24));
	assert_null(route_of(IP(198, 51, 100, 0), 24));
	assert_int_equal(nh_type(IP(198, 51, 100, 1)), NH_NONE);
	assert_int_equal(nh_type(IP(10, 0, 0, 255)), NH_NONE);
	assert_non_null(route_of(IP(198, 18, 0, 0), 15)); /* other port: untouched */
	assert_null(neigh_lookup(fwd_ip_v4(IP(10, 0, 0, 2)), 0));
}

static void test_parse_line(void **state)
{
	struct l3_route r;
	char err[128];

	(void)state;
	assert_int_equal(l3_route_parse_line("10.1.0.0/16 via 10.0.0.2", &r, err, sizeof(err)), 0);
	assert_int_equal(r.prefix.v4, IP(10, 1, 0, 0));
	assert_int_equal(r.nh[0].via.v4, IP(10, 0, 0, 2));
	assert_int_equal(r.nh[0].dev, -1);
	assert_int_equal(l3_route_parse_line("1.0.0.0/8 via 172.16.0.9 dev p1 # c", &r, err, 128),
	                 0);
	assert_int_equal(r.nh[0].dev, 1);
	assert_int_equal(l3_route_parse_line("0.0.0.0/0 blackhole", &r, err, sizeof(err)), 0);
	assert_int_equal(r.type, L3_ROUTE_BLACKHOLE);
	assert_int_equal(l3_route_parse_line("   # only a comment", &r, err, sizeof(err)), 1);
	assert_int_equal(l3_route_parse_line("", &r, err, sizeof(err)), 1);
	assert_int_equal(l3_route_parse_line("10.1.0.1/16 via 10.0.0.2", &r, err, 128), -EINVAL);
	assert_int_equal(l3_route_parse_line("10.1.0.0/16 via", &r, err, sizeof(err)), -EINVAL);
	assert_int_equal(l3_route_parse_line("10.1.0.0/16 via 10.0.0.2 dev p9", &r, err, 128),
	                 -ENODEV);
	assert_int_equal(l3_route_parse_line("10.1.0.0/16 to 10.0.0.2", &r, err, 128), -EINVAL);
	/* dev names an interface: a VLAN's id, never a loopback (no link) */
	uint16_t vlan, lo;
	fwd_iface_port_sync(0); /* as port/ does */
	fwd_iface_port_sync(1);
	assert_int_equal(fwd_iface_vlan_add("p0.100", 0, 100, 0, &vlan), 0);
	assert_int_equal(fwd_iface_loopback_add("lo0", &lo), 0);
	assert_int_equal(l3_route_parse_line("10.9.0.0/16 via 10.9.0.2 dev p0.100", &r, err, 128),
	                 0);
	assert_int_equal(r.nh[0].dev, vlan);
	assert_int_equal(l3_route_parse_line("10.8.0.0/16 dev p0.100", &r, err, 128), 0);
	assert_int_equal(r.nh[0].dev, vlan);
	assert_int_equal(r.nh[0].via.family, 0);
	assert_int_equal(l3_route_parse_line("10.8.0.0/16 dev lo0", &r, err, 128), -ENODEV);
	assert_string_equal(err, "no such port or VLAN interface: lo0");
	assert_int_equal(l3_iface_id("p1"), 1);
	assert_int_equal(l3_iface_id("p0.100"), vlan);
	assert_int_equal(l3_iface_id("p0.77"), -1);
	fwd_iface_reset();
	/* IPv6 lines */
	assert_int_equal(l3_route_parse_line("2001:db8:2::/48 via fe80::1 dev p1", &r, err, 128),
	                 0);
	assert_int_equal(r.prefix.family, AF_INET6);
	assert_int_equal(r.prefix.len, 48);
	assert_int_equal(r.nh[0].via.family, AF_INET6);
	assert_int_equal(r.nh[0].dev, 1);
	assert_int_equal(l3_route_parse_line("::/0 blackhole", &r, err, sizeof(err)), 0);
	assert_int_equal(l3_route_parse_line("2001:db8:2::1/48 via fe80::1", &r, err, 128),
	                 -EINVAL);
	assert_int_equal(l3_route_parse_line("2001:db8::/129 via fe80::1", &r, err, 128), -EINVAL);
}

static struct {
	unsigned n;
	struct fwd_prefix p;
	uint8_t origin;
} heard;

static void hook(uint16_t vrf, const struct fwd_prefix *p, uint8_t origin)
{
	(void)vrf;
	heard.n++;
	heard.p = *p;
	heard.origin = origin;
}

/* A routing daemon's route (FPM) gives way to fwd's own on the same prefix,
 * and the removed-route hook hears every route that leaves the FIB. */
static void test_precedence_and_hook(void **state)
{
	struct l3_route bgp = { .prefix = { .family = AF_INET, .len = 16, .v4 = IP(10, 1, 0, 0) },
		                .type = L3_ROUTE_VIA,
		                .origin = FWD_ORIGIN_BGP,
		                .replace = true,
		                .n_nh = 1,
		                .nh[0] = { { .family = AF_INET, .v4 = IP(10, 0, 0, 2) }, -1 } };
	struct l3_route own = bgp;
	struct fwd_prefix conn = { .family = AF_INET, .len = 24, .v4 = IP(10, 0, 0, 0) };
	struct fwd_prefix local = { .family = AF_INET, .len = 32, .v4 = P0_IP };
	char err[128];

	(void)state;
	l3_route_set_removed_hook(hook);
	memset(&heard, 0, sizeof(heard));
	assert_int_equal(l3_route_origin(0, &conn), FWD_ORIGIN_ADDRESS);
	assert_int_equal(l3_route_origin(0, &local), FWD_ORIGIN_ADDRESS);
	assert_int_equal(l3_route_origin(0, &bgp.prefix), -ENOENT);
	assert_int_equal(l3_route_add(&bgp, err, sizeof(err)), 0);
	assert_int_equal(l3_route_origin(0, &bgp.prefix), FWD_ORIGIN_BGP);
	assert_int_equal(heard.n, 0);
	/* fwdctl's add needs no replace over it, and the hook hears bgp's went */
	own.origin = FWD_ORIGIN_RPC;
	own.replace = false;
	own.nh[0].via.v4 = IP(10, 0, 0, 3);
	assert_int_equal(l3_route_add(&own, err, sizeof(err)), 1);
	assert_int_equal(l3_route_origin(0, &bgp.prefix), FWD_ORIGIN_RPC);
	assert_int_equal(heard.n, 1);
	assert_int_equal(heard.origin, FWD_ORIGIN_BGP);
	assert_int_equal(fwd_prefix_cmp(&heard.p, &bgp.prefix), 0);
	/* but not the other way round, and not fwdctl over fwdctl */
	bgp.replace = false;
	assert_int_equal(l3_route_add(&bgp, err, sizeof(err)), -EEXIST);
	assert_int_equal(l3_route_add(&own, err, sizeof(err)), -EEXIST);
	assert_int_equal(heard.n, 1);
	/* a delete is heard with the origin of what went */
	assert_int_equal(l3_route_del(0, &bgp.prefix, err, sizeof(err)), 0);
	assert_int_equal(heard.n, 2);
	assert_int_equal(heard.origin, FWD_ORIGIN_RPC);
	assert_int_equal(l3_route_del(0, &bgp.prefix, err, sizeof(err)), -ESRCH);
	assert_int_equal(heard.n, 2);
	l3_route_set_removed_hook(NULL);
}

/* ------------------------------------------------------ sliced writes */

static const uint8_t P0_G6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1, [15] = 1 };

/* IPv6 as the daemon has it over the harness: a FIB with n_host groups for
 * neighbours' /128s besides n routes' ones, 2001:db8:1::1/64 on p0. */
static void ip6_up(uint32_t n, uint32_t n_host)
{
	struct fwd_ip6_prefix p = { .len = 64 };
	char err[128];

	ip6_fibs[0] = fib6_create_pools(n, n_host, NULL, SOCKET_ID_ANY);
	assert_non_null(ip6_fibs[0]);
	rib6_init(&ip6_ribs[0], ip6_fibs[0]);
	memset(ip6_addrs, 0, sizeof(ip6_addrs));
	ndp_module_init();
	assert_int_equal(addr6_port_up(0), 0);
	memcpy(p.addr, P0_G6, 16);
	assert_int_equal(addr6_add(0, &p, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
}

static void ip6_down(void)
{
	neigh_flush(NEIGH_ALL, true); /* their host routes go before the FIB */
	addr6_port_down(0);
	ndp_module_fini();
	rib6_clear(&ip6_ribs[0]);
	fib6_free(ip6_fibs[0]);
	ip6_fibs[0] = NULL;
	memset(ip6_addrs, 0, sizeof(ip6_addrs));
}

/* Every first-level entry in [first, end) that a route holds leads to a
 * live next hop of one of the gateways, as a worker would read it now (the
 * others: reserved ranges, our subnets); returns how many lead to gw_old. */
static uint32_t entries_live(uint32_t (*lookup)(uint32_t top), uint32_t first, uint32_t end,
                             const struct fwd_ip *gw_old, const struct fwd_ip *gw_new)
{
	uint32_t on_old = 0;

	for (uint32_t i = first; i < end; i++) {
		uint32_t nh = lookup(i);
		const struct fwd_ip *a = nh_addr(nh);
		if (nh != NH_IDX_NONE && nh < NH_FIRST_DYNAMIC)
			continue;
		if (nh_table[nh].type != NH_PENDING ||
		    (!fwd_ip_eq(a, gw_old) && !fwd_ip_eq(a, gw_new)))
			fail_msg("entry %#x: next hop %u of type %u", i, nh, nh_table[nh].type);
		on_old += fwd_ip_eq(a, gw_old);
	}
	return on_old;
}

static uint32_t lookup4_top(uint32_t top)
{
	return fib4_lookup(ip4_fibs[0], top << 8 | 3);
}

static uint32_t lookup6_top(uint32_t top)
{
	uint8_t a[16] = { (uint8_t)(top >> 16), (uint8_t)(top >> 8), (uint8_t)top, [15] = 3 };

	return fib6_lookup(ip6_fibs[0], a);
}

/* Step a sliced write to its end as `route load` does, the neighbour tick's
 * reclaim between slices, and check every entry of the /1 at every step. */
static void sliced_write_check(bool v6, const struct fwd_ip *gw_old, const struct fwd_ip *gw_new)
{
	uint32_t (*lookup)(uint32_t) = v6 ? lookup6_top : lookup4_top, steps = 0, first_old = 0;

	do {
		nh_reclaim();
		uint32_t on_old = entries_live(lookup, 1u << 23, 1u << 24, gw_old, gw_new);
		if (steps++ == 0)
			first_old = on_old;
		if (v6)
			fib6_set_budget(ip6_fibs[0], 1 << 21);
		else
			fib4_set_budget(ip4_fibs[0], 1 << 21);
	} while (v6 ? fib6_step(ip6_fibs[0]) : fib4_step(ip4_fibs[0]));
	if (v6)
		fib6_set_budget(ip6_fibs[0], FIB6_NO_BUDGET);
	else
		fib4_set_budget(ip4_fibs[0], FIB4_NO_BUDGET);
	nh_reclaim();
	assert_true(steps >= 3 && first_old > 1u << 21);
	assert_int_equal(entries_live(lookup, 1u << 23, 1u << 24, gw_old, gw_new), 0);
	/* the old gateway's next hop went once the write was complete */
	assert_null(neigh_lookup(*gw_old, 0));
}

/* 128.0.0.0/1 replaced under `route load`'s budget: entries the write has
 * not reached keep the old next hop, which stays until the write is done. */
static void test_sliced_replace4(void **state)
{
	const struct fwd_ip g2 = fwd_ip_v4(IP(10, 0, 0, 2)), g3 = fwd_ip_v4(IP(10, 0, 0, 3));
	char err[128];

	(void)state;
	assert_int_equal(add_via(IP(128, 0, 0, 0), 1, IP(10, 0, 0, 2), -1, false, err), 0);
	fib4_set_budget(ip4_fibs[0], 1 << 21);
	assert_int_equal(add_via(IP(128, 0, 0, 0), 1, IP(10, 0, 0, 3), -1, true, err), 1);
	assert_true(fib4_pending(ip4_fibs[0]));
	sliced_write_check(false, &g2, &g3);
}

static void test_sliced_replace6(void **state)
{
	struct fwd_ip g2 = { .family = AF_INET6 }, g3 = { .family = AF_INET6 };
	struct route6_req r = { .prefix = { { 0x80 }, 1 },
		                .type = ROUTE6_VIA,
		                .n_via = 1,
		                .dev = { -1 },
		                .origin = FWD_ORIGIN_LOAD,
		                .replace = true };
	char err[128];

	(void)state;
	ip6_up(256, 0);
	memcpy(g2.v6, P0_G6, 16);
	memcpy(g3.v6, P0_G6, 16);
	g2.v6[15] = 2;
	g3.v6[15] = 3;
	memcpy(r.via[0], g2.v6, 16);
	assert_int_equal(route6_add(&r, err, sizeof(err)), 0);
	fib6_set_budget(ip6_fibs[0], 1 << 21);
	memcpy(r.via[0], g3.v6, 16);
	assert_int_equal(route6_add(&r, err, sizeof(err)), 1);
	assert_true(fib6_pending(ip6_fibs[0]));
	sliced_write_check(true, &g2, &g3);
	ip6_down();
}

/* ------------------------------------------- neighbour host routes (IPv6) */

#define FLOOD_HOSTS 2000

/* The i-th host of a scan of p0's /64: a random interface identifier. */
static struct fwd_ip scan_host(unsigned i)
{
	struct fwd_ip a = { .family = AF_INET6 };
	uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull;

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	memcpy(a.v6, P0_G6, 8);
	memcpy(&a.v6[8], &x, 8);
	return a;
}

/* Neighbours of the scan that exist, and of those how many have their /128. */
static unsigned scan_count(unsigned *in_fib)
{
	unsigned n = 0;

	*in_fib = 0;
	for (unsigned i = 0; i < FLOOD_HOSTS; i++) {
		struct fwd_ip a = scan_host(i);
		struct neigh *nb = neigh_lookup(a, 0);
		n += nb != NULL;
		*in_fib += nb != NULL && fib6_lookup(ip6_fibs[0], a.v6) == nb->nh;
	}
	return n;
}

static int add6_line(const char *line, uint8_t origin)
{
	struct l3_route r;
	char err[256];
	int rc = l3_route_parse_line(line, &r, err, sizeof(err));

	r.origin = origin;
	return rc < 0 ? rc : l3_route_add(&r, err, sizeof(err));
}

/*
 * An on-link host answers the router's solicitations for every address of
 * a scan of its /64 through the router (each a glean, then its solicited
 * NA: FLOOD_HOSTS resolved neighbours); then fwdctl adds a /48 and FPM a
 * /56. Groups: n routes' ones, n_host for neighbours' /128s.
 */
static void scan_then_routes(uint32_t n, uint32_t n_host, int *rc48, int *rc_fpm)
{
	unsigned in_fib;

	ip6_up(n, n_host);
	for (unsigned i = 0; i < FLOOD_HOSTS; i++) {
		struct fwd_ip a = scan_host(i);
		assert_non_null(neigh_new_resolving(a, 0));
		neigh_heard_advert(a, 0, &MAC_A, true, false);
		sent_clear();
	}
	assert_int_equal(scan_count(&in_fib), FLOOD_HOSTS);
	*rc48 = add6_line("2001:db9:1::/48 via 2001:db8:1::2", FWD_ORIGIN_RPC);
	*rc_fpm = add6_line("2001:dba:2::/56 via 2001:db8:1::3", FWD_ORIGIN_BGP);
	print_message("fib6_tbl8s %u, fib6_neigh_tbl8s %u: %u of %u neighbours with a /128, "
	              "groups used %u (neighbours' pool %u); route add /48: %s, FPM /56: %s\n",
	              n, n_host, in_fib, FLOOD_HOSTS, fib6_tbl8_used(ip6_fibs[0]),
	              fib6_host_tbl8_used(ip6_fibs[0]), *rc48 < 0 ? strerror(-*rc48) : "added",
	              *rc_fpm < 0 ? strerror(-*rc_fpm) : "added");
}

/* Before: one pool, which the neighbours empty, and routes are refused. */
static void test_neigh_hosts_shared_pool(void **state)
{
	int rc48, rc_fpm;

	(void)state;
	scan_then_routes(2048, 0, &rc48, &rc_fpm);
	assert_true(rc48 == -ENOSPC || rc_fpm == -ENOSPC);
	ip6_down();
}

static unsigned room_hook_calls;

static void room_hook(void)
{
	room_hook_calls++;
}

static void room_ticks(void)
{
	for (unsigned i = 0; i <= IP6_ROOM_TICKS; i++) {
		fib6_reclaim(ip6_fibs[0]);
		ip6_fib_room_check();
	}
}

/* After: neighbours take their own pool, routes keep theirs; what was
 * refused for room is placed when room comes back. */
static void test_neigh_hosts_own_pool(void **state)
{
	unsigned in_fib, n;
	int rc48, rc_fpm;

	(void)state;
	scan_then_routes(1024, 1024, &rc48, &rc_fpm);
	assert_int_equal(rc48, 0);
	assert_int_equal(rc_fpm, 0);
	scan_count(&in_fib);
	assert_true(in_fib > 100 && in_fib < FLOOD_HOSTS);
	assert_true(ip6_fibs[0]->refused[FIB6_POOL_HOSTS] > 0);
	assert_true(fib6_host_tbl8_used(ip6_fibs[0]) > 1000);
	assert_true(fib6_tbl8_used(ip6_fibs[0]) - fib6_host_tbl8_used(ip6_fibs[0]) < 32);
	/* fewer neighbours: those left without a /128 get it on the next tick */
	neigh_set_max(100);
	room_ticks();
	n = scan_count(&in_fib);
	assert_int_equal(n, 100);
	assert_int_equal(in_fib, 100);
	/* routes refused for room: the hook hears when some comes back */
	l3_addr_set_changed_hook(room_hook);
	room_hook_calls = 0;
	char line[64];
	unsigned k = 0;
	do
		snprintf(line, sizeof(line), "2001:dc0:%x::/64 blackhole", k);
	while (add6_line(line, FWD_ORIGIN_BGP) == 0 && ++k < 4096);
	room_ticks();
	assert_int_equal(room_hook_calls, 0); /* nothing freed yet */
	struct fwd_prefix p;
	assert_int_equal(fwd_prefix_parse("2001:dc0:1::/64", &p, false), 0);
	char err[128];
	assert_int_equal(l3_route_del(0, &p, err, sizeof(err)), 0);
	room_ticks();
	assert_int_equal(room_hook_calls, 1);
	assert_int_equal(add6_line(line, FWD_ORIGIN_BGP), 0);
	l3_addr_set_changed_hook(NULL);
	ip6_down();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HARNESS_TEST(test_addresses_make_connected_and_local),
		HARNESS_TEST(test_address_refusals),
		HARNESS_TEST(test_gateways),
		HARNESS_TEST(test_address_removal_prunes),
		HARNESS_TEST(test_parse_line),
		HARNESS_TEST(test_precedence_and_hook),
		HARNESS_TEST(test_sliced_replace4),
		HARNESS_TEST(test_sliced_replace6),
		HARNESS_TEST(test_neigh_hosts_shared_pool),
		HARNESS_TEST(test_neigh_hosts_own_pool),
	};

	return cmocka_run_group_tests(tests, harness_group_setup, harness_group_teardown);
}
