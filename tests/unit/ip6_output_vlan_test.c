/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip6_output on VLAN interfaces: a packet to a group leaves the VLAN it is
 * sent on, counted there and checked against the VLAN's own MTU (below its
 * port's: fragmented as its source would, frag6.c); a loopback is no link.
 * The real FIB and neighbour layer (neigh_harness.h); without workers,
 * fwd_control_tx counts what it was handed as control_tx drops of the
 * interface it was handed for.
 *
 *   p0  MTU 1500   p0.10 (VLAN 10 of p0) MTU 1300   lo1
 */
#include "ip6/input.h"
#include "ip6/output.h"
#include "neigh_harness.h"

#include "core/iface.h"

static uint16_t vlan, lo;

static uint64_t counter_of(const char *name)
{
	for (struct fwd_counter *c = fwd_counters(); c != NULL; c = c->next)
		if (strcmp(c->name, name) == 0)
			return c->value;
	fail_msg("no counter %s", name);
	return 0;
}

static int setup(void **state)
{
	harness_setup(state);
	fwd_iface_reset();
	fwd_iface_port_sync(0);
	fwd_iface_port_sync(1);
	assert_int_equal(fwd_iface_vlan_add("p0.10", 0, 10, 1300, &vlan), 0);
	assert_int_equal(fwd_iface_loopback_add("lo1", &lo), 0);
	memset(fwd_control_ctrs(vlan), 0, sizeof(struct fwd_port_ctrs));
	return 0;
}

static int teardown(void **state)
{
	fwd_iface_reset();
	return harness_teardown(state);
}

/* A UDP packet of len bytes (header included) from fe80::1 to ff02::1. */
static struct rte_mbuf *mk_group6(unsigned len)
{
	static const uint8_t all_nodes[16] = { 0xff, 0x02, [15] = 1 };
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(IP6_L2_LEN + len));
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(p + IP6_L2_LEN);

	memset(p, 0, IP6_L2_LEN + len);
	ip->vtc_flow = rte_cpu_to_be_32(UINT32_C(6) << 28);
	ip->payload_len = rte_cpu_to_be_16((uint16_t)(len - 40));
	ip->proto = IPPROTO_UDP;
	ip->hop_limits = 1;
	ip->src_addr[0] = 0xfe, ip->src_addr[1] = 0x80, ip->src_addr[15] = 1;
	memcpy(ip->dst_addr, all_nodes, 16);
	return m;
}

static void test_vlan_mtu(void **state)
{
	uint64_t fragmented = counter_of("ip6_output_fragmented");

	(void)state;
	assert_true(ip6_link_l3(vlan));
	assert_int_equal(ip6_link_mtu(vlan), 1300);
	assert_memory_equal(ip6_link_mac(vlan), &P0_MAC, 6);
	assert_int_equal(ip6_output(mk_group6(1300), vlan), 0); /* fits */
	assert_int_equal(ip6_output(mk_group6(1301), vlan), 0); /* two fragments */
	assert_int_equal(counter_of("ip6_output_fragmented"), fragmented + 1);
	assert_int_equal(fwd_control_ctrs(vlan)->created, 3);
	assert_int_equal(drops(vlan, FWD_DROP_CONTROL_TX), 3);
	assert_int_equal(fwd_control_ctrs(0)->created, 0);
	assert_int_equal(ip6_output(mk_group6(1301), 0), 0); /* the port's MTU: whole */
	assert_int_equal(fwd_control_ctrs(0)->created, 1);
}

static void test_loopback_no_link(void **state)
{
	uint64_t no_route = counter_of("ip6_output_no_route");

	(void)state;
	assert_false(ip6_link_l3(lo));
	assert_false(ip6_link_l3((uint16_t)(lo + 1))); /* a free id */
	assert_int_equal(ip6_output(mk_group6(100), lo), -EHOSTUNREACH);
	assert_int_equal(ip6_output(mk_group6(100), (uint16_t)(lo + 1)), -EHOSTUNREACH);
	assert_int_equal(counter_of("ip6_output_no_route"), no_route + 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_vlan_mtu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loopback_no_link, setup, teardown),
	};

	return cmocka_run_group_tests(tests, harness_group_setup, harness_group_teardown);
}
