/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NDP on VLAN interfaces (ip6/ndp*.c by interface id): solicitations for a
 * VLAN's addresses (its link-local one is its port's, the same MAC as a
 * Linux VLAN device's) answered on that VLAN only, neighbours keyed by
 * (address, interface), DAD and Router Advertisements per interface, the
 * RS flag of the workers per interface, and what goes when a VLAN goes.
 * The harness's two ports plus, on p0 (02:00:00:00:00:01):
 *
 *   p0.10  VLAN 10  MTU 1500  fe80::ff:fe00:1  2001:db8:10::1/64
 *   p0.20  VLAN 20  MTU 1400  fe80::ff:fe00:1  2001:db8:20::1/64
 *
 * The VLANs' addresses are put in the address table directly: taking them
 * through addr6_add is the address layer's (ip6/addr6.c) to test.
 */
#include "ip6/addr6_priv.h"
#include "ip6/ndp_guard.h"
#include "ip6/output.h"
#include "ndp_harness.h"

#include "core/iface.h"
#include "core/log.h"

static const uint8_t V10_G[16] = G6(0x10, 1);
static const uint8_t V20_G[16] = G6(0x20, 1);
static const uint8_t V10_H[16] = G6(0x10, 5);

static uint16_t v10, v20;
static int log_level;

/* Interface id's link-local address (from its MAC) and global g, in state
 * st, as the address layer keeps them. */
static void vlan_addrs(uint16_t id, const uint8_t g[16], uint8_t st)
{
	struct ip6_port_addrs *pa = &ip6_addrs[id];

	memset(pa, 0, sizeof(*pa));
	ip6_linklocal_of(&fwd_ifaces[id].mac, pa->a[0].addr);
	ndp_dad_stop(id, pa->a[0].addr); /* the one the address layer began on EV_ADD */
	pa->a[0].len = 64;
	memcpy(pa->a[1].addr, g, 16);
	pa->a[1].len = 64;
	pa->state[0] = ADDR6_PREFERRED;
	pa->state[1] = st;
	pa->n = 2;
	addr6_running_stale = true;
}

static int setup_vlans(void **state)
{
	setup6(state);
	fwd_iface_reset();
	fwd_iface_port_sync(0);
	fwd_iface_port_sync(1);
	assert_int_equal(fwd_iface_vlan_add("p0.10", 0, 10, 0, &v10), 0);
	assert_int_equal(fwd_iface_vlan_add("p0.20", 0, 20, 1400, &v20), 0);
	vlan_addrs(v10, V10_G, ADDR6_PREFERRED);
	vlan_addrs(v20, V20_G, ADDR6_PREFERRED);
	memset(fwd_control_ctrs(v10), 0, sizeof(struct fwd_port_ctrs));
	memset(fwd_control_ctrs(v20), 0, sizeof(struct fwd_port_ctrs));
	/* quiet: the address layer logs each DAD result at info */
	log_level = fwd_log_level;
	fwd_log_level = FWD_LOG_ERR;
	return 0;
}

static int teardown_vlans(void **state)
{
	fwd_log_level = log_level;
	fwd_iface_reset();
	return teardown6(state);
}

#define VLAN_TEST(fn) cmocka_unit_test_setup_teardown(fn, setup_vlans, teardown_vlans)

/* An NS from mac and src for target, as received on id: without an SLLA
 * (answered to the frame's sender, nobody learnt) or with mac as its SLLA. */
static void ns_on(uint16_t id, const struct rte_ether_addr *mac, const uint8_t src[16],
                  const uint8_t target[16])
{
	ndp_input(mk_ns(mac, src, target, NULL), id);
}

static void ns_slla_on(uint16_t id, const struct rte_ether_addr *mac, const uint8_t src[16],
                       const uint8_t target[16])
{
	ndp_input(mk_ns(mac, src, target, mac), id);
}

/* A VLAN answers for its addresses, its link-local one included, on itself:
 * the same NA a port would send, handed to fwd_control_tx with its id (which
 * tags it). */
static void test_vlan_ns_answered(void **state)
{
	(void)state;
	ns_on(v10, &MAC_A, V10_H, V10_G);
	assert_int_equal(n_sent, 1);
	assert_sent(0, v10,
	            mk_nsna(NDP_NA, &MAC_A, &P0_MAC, V10_G, V10_H,
	                    NDP_NA_ROUTER | NDP_NA_SOLICITED | NDP_NA_OVERRIDE, V10_G, &P0_MAC));
	ns_on(v10, &MAC_A, HA_LL, P0_LL); /* the link-local address, shared with p0 */
	assert_int_equal(n_sent, 2);
	assert_int_equal(sent[1].port, v10);
	assert_int_equal(ndp_na_tx.value, 2);
	assert_int_equal(fwd_control_ctrs(v10)->created, 2);
	assert_int_equal(fwd_control_ctrs(v10)->consumed, 2);
	assert_int_equal(fwd_control_ctrs(0)->created, 0);
}

/* Another interface's address is not ours on this link (RFC 4861 7.2.3):
 * VLAN 10's address asked for on VLAN 20 or on the port, the port's on a
 * VLAN; and a frame to another MAC is not for us. */
static void test_vlan_ns_other_link(void **state)
{
	const struct rte_ether_addr other = { { 0x02, 0x77, 0, 0, 0, 1 } };

	(void)state;
	ns_on(v20, &MAC_A, (const uint8_t[16])G6(0x20, 5), V10_G);
	ns_on(0, &MAC_A, H5, V10_G);
	ns_on(v10, &MAC_A, V10_H, P0_G);
	assert_int_equal(n_sent, 0);
	assert_int_equal(ndp_ns_rx.value, 3);
	ndp_input(mk_nsna(NDP_NS, &other, &MAC_A, V10_H, V10_G, 0, V10_G, &MAC_A), v10);
	assert_int_equal(fwd_control_ctrs(v10)->drop[FWD_DROP_NOT_FOR_US], 1);
	assert_int_equal(n_sent, 0);
}

/* One address, two links: fe80::aa:ff:fe00:a is a host on p0 and another on
 * VLAN 10, each entry its own (neighbours keyed by address and interface);
 * a global asker and a router solicitor are learnt on their VLAN only. */
static void test_vlan_neigh_keyed(void **state)
{
	(void)state;
	/* nexthop/neigh_cap.c counts unresolved entries in an array by port
	 * (FWD_MAX_PORTS) that a VLAN's id overruns; the neighbour layer's
	 * interface ids lift this skip */
	ns_slla_on(0, &MAC_B, HA_LL, P0_LL);
	ns_slla_on(v10, &MAC_A, HA_LL, P0_LL);
	assert_int_equal(n_sent, 2);
	assert_int_equal(sent[0].port, 0);
	assert_int_equal(sent[1].port, v10);
	assert_memory_equal(&lookup6(HA_LL, 0)->mac, &MAC_B, 6);
	assert_memory_equal(&lookup6(HA_LL, v10)->mac, &MAC_A, 6);
	assert_null(lookup6(HA_LL, v20));
	ns_slla_on(v10, &MAC_A, V10_H, V10_G);
	assert_non_null(lookup6(V10_H, v10));
	assert_null(lookup6(V10_H, 0));
	ra_on(v20);
	ndp_input(mk_rs(&MAC_B, HA_LL, true), v20);
	assert_memory_equal(&lookup6(HA_LL, v20)->mac, &MAC_B, 6);
}

/* Nothing is NDP's on an id that is no l3 link: a loopback, a free id. */
static void test_vlan_not_a_link(void **state)
{
	uint16_t lo;

	(void)state;
	assert_int_equal(fwd_iface_loopback_add("lo1", &lo), 0);
	ndp_input(mk_ns(&MAC_A, V10_H, V10_G, &MAC_A), lo);
	ndp_input(mk_ns(&MAC_A, V10_H, V10_G, &MAC_A), (uint16_t)(lo + 1));
	assert_int_equal(ndp_invalid[NDP_INVALID_HEADER].value, 2);
	assert_int_equal(n_sent, 0);
	assert_false(ndp_port_ready(lo));
	assert_true(ndp_port_ready(v10));
}

/* DAD runs on the VLAN the address is on: its probe leaves there; a probe
 * for the same address on another VLAN is another link's business. */
static void test_vlan_dad(void **state)
{
	static const uint8_t a[16] = G6(0x10, 0x99);

	(void)state;
	rand_value = 300;
	ip6_addrs[v10].a[2] = (struct fwd_ip6_prefix){ .len = 64 };
	memcpy(ip6_addrs[v10].a[2].addr, a, 16);
	ip6_addrs[v10].state[2] = ADDR6_TENTATIVE;
	ip6_addrs[v10].n = 3;
	ndp_dad_start(v10, a);
	advance6(300);
	assert_int_equal(n_sent, 1);
	assert_int_equal(sent[0].port, v10);
	ndp_input(mk_ns(&MAC_A, ANY, a, NULL), v20); /* not this link */
	ndp_input(mk_ns(&MAC_A, ANY, a, NULL), 0);
	assert_int_equal(addr6_state(v10, a), ADDR6_TENTATIVE);
	advance6(1000);
	assert_int_equal(addr6_state(v10, a), ADDR6_PREFERRED);
	assert_int_equal(ndp_dad_duplicate.value, 0);
	ns_on(v10, &MAC_A, V10_H, a); /* now ours there */
	assert_int_equal(n_sent, 2);
	assert_int_equal(sent[1].port, v10);
}

/* A duplicate on a VLAN is that VLAN's; a VLAN that is down (or whose port
 * is) waits; a VLAN that goes takes its runs with it. */
static void test_vlan_dad_duplicate_down_gone(void **state)
{
	static const uint8_t a[16] = G6(0x20, 0x98), b[16] = G6(0x10, 0x97);

	(void)state;
	ip6_addrs[v20].a[2] = (struct fwd_ip6_prefix){ .len = 64 };
	memcpy(ip6_addrs[v20].a[2].addr, a, 16);
	ip6_addrs[v20].state[2] = ADDR6_TENTATIVE;
	ip6_addrs[v20].n = 3;
	ndp_dad_start(v20, a);
	ndp_input(mk_ns(&MAC_A, ANY, a, NULL), v20);
	assert_int_equal(addr6_state(v20, a), ADDR6_DUPLICATE);
	assert_int_equal(ndp_dad_duplicate.value, 1);

	assert_int_equal(fwd_iface_set_admin(v10, false), 0);
	ndp_dad_start(v10, b);
	advance6(5000);
	assert_int_equal(n_sent, 0); /* down: nobody would hear */
	assert_int_equal(fwd_iface_set_admin(v10, true), 0);
	fwd_ports[0].link_up = false; /* its port's link */
	advance6(5000);
	assert_int_equal(n_sent, 0);
	fwd_ports[0].link_up = true;
	assert_int_equal(fwd_iface_del(v10), 0); /* its run goes with it */
	advance6(5000);
	assert_int_equal(n_sent, 0);
}

/* RAs per interface: VLAN 20's from its link-local address, with its own
 * MTU and prefix, on itself; RSs answered where `ra` is on, the workers'
 * flag set per interface; its last RA (lifetime 0) when it goes. */
static void test_vlan_ra(void **state)
{
	const struct ndp_ra *h;
	const struct ndp_opt_mtu *mtu;
	const struct ndp_opt_prefix *pfx;

	(void)state;
	ra_on(v20);
	assert_true(ndp_guard_rs[v20]);
	assert_false(ndp_guard_rs[v10]);
	assert_false(ndp_guard_rs[0]);
	advance6(100);
	assert_int_equal(n_sent, 1);
	assert_int_equal(sent[0].port, v20);
	h = rte_pktmbuf_mtod_offset(sent[0].m, const struct ndp_ra *, 54);
	assert_int_equal(h->h.type, NDP_RA);
	assert_int_equal(rte_be_to_cpu_16(h->lifetime_s), 1800);
	assert_memory_equal(rte_pktmbuf_mtod_offset(sent[0].m, uint8_t *, 22), P0_LL, 16);
	mtu = (const struct ndp_opt_mtu *)((const uint8_t *)(h + 1) + 8);
	assert_int_equal(mtu->type, NDP_OPT_MTU);
	assert_int_equal(rte_be_to_cpu_32(mtu->mtu), 1400);
	pfx = (const struct ndp_opt_prefix *)(mtu + 1);
	assert_int_equal(pfx->type, NDP_OPT_PREFIX);
	assert_memory_equal(pfx->prefix, ((const uint8_t[16])G6(0x20, 0)), 16);

	ndp_input(mk_rs(&MAC_A, HA_LL, false), v10); /* no `ra` there */
	advance6(3000);
	assert_int_equal(n_sent, 1);
	ndp_input(mk_rs(&MAC_A, HA_LL, false), v20); /* answered 3 s after the last */
	advance6(100);
	assert_int_equal(n_sent, 2);
	assert_int_equal(sent[1].port, v20);

	assert_int_equal(fwd_iface_del(v20), 0);
	assert_int_equal(n_sent, 3);
	assert_int_equal(sent[2].port, v20);
	h = rte_pktmbuf_mtod_offset(sent[2].m, const struct ndp_ra *, 54);
	assert_int_equal(h->lifetime_s, 0);
	assert_false(ndp_guard_rs[v20]);
	assert_false(ndp_ra_enabled(v20));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		VLAN_TEST(test_vlan_ns_answered), VLAN_TEST(test_vlan_ns_other_link),
		VLAN_TEST(test_vlan_neigh_keyed), VLAN_TEST(test_vlan_not_a_link),
		VLAN_TEST(test_vlan_dad),         VLAN_TEST(test_vlan_dad_duplicate_down_gone),
		VLAN_TEST(test_vlan_ra),
	};
	return cmocka_run_group_tests(tests, harness_group_setup, harness_group_teardown);
}
