/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Next hops on VLAN interfaces (nexthop/nexthop.h, nexthop/nh_iface.c):
 * the 16-byte header an entry holds (tag and TCI), nh_l2_write's frames,
 * a port's MAC change and a VLAN's MTU change reaching the VLAN's entries,
 * the VLAN's counted connected entry, and neighbours keyed by (address,
 * interface) whose held packets leave tagged on the port.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/daemon.h"
#include "core/iface.h"
#include "nexthop/neigh_priv.h"
#include "nexthop/nexthop.h"
#include "port/port.h"
#include "test_eal.h"

static const struct rte_ether_addr P0_MAC = { { 0x02, 0, 0, 0, 0, 0x01 } };
static const struct rte_ether_addr P0_MAC2 = { { 0x02, 0, 0, 0, 0, 0x09 } };
static const struct rte_ether_addr GW_MAC = { { 0x02, 0xaa, 0, 0, 0, 0x0a } };
static struct rte_mempool *pool;
static struct rte_mbuf *sent[8];
static uint16_t sent_port[8];
static unsigned n_sent;
static uint16_t v10;

static int tx_hook(struct rte_mbuf *m, uint16_t port)
{
	assert_true(n_sent < RTE_DIM(sent));
	sent_port[n_sent] = port;
	sent[n_sent++] = m;
	return 0;
}

static uint64_t now_hook(void)
{
	return 1000000;
}

static int setup(void **state)
{
	(void)state;
	memset(&fwd_ports[0], 0, sizeof(fwd_ports[0]));
	fwd_ports[0].mode = FWD_MODE_L3;
	fwd_ports[0].mtu = 1500;
	fwd_ports[0].mac = P0_MAC;
	fwd_ports[0].admin_up = 1;
	snprintf(fwd_ports[0].name, sizeof(fwd_ports[0].name), "p0");
	fwd_n_ports = 1;
	fwd_iface_port_sync(0);
	assert_int_equal(fwd_iface_vlan_add("p0.10", 0, 10, 1400, &v10), 0);
	assert_int_equal(nh_init(256, SOCKET_ID_ANY), 0);
	assert_int_equal(neigh_module_init(256, 30), 0);
	neigh_hooks.tx = tx_hook;
	neigh_hooks.now_ms = now_hook;
	n_sent = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	neigh_module_fini();
	nh_fini();
	fwd_iface_reset();
	for (unsigned i = 0; i < n_sent; i++)
		rte_pktmbuf_free(sent[i]);
	assert_int_equal(rte_mempool_in_use_count(pool), 0);
	return 0;
}

static uint32_t entry(uint16_t iface)
{
	struct fwd_ip a = fwd_ip_v4(0x0a000a02);
	uint32_t idx;

	assert_int_equal(nh_alloc(&a, iface, &idx), 0);
	nh_set_l2(idx, &GW_MAC);
	return idx;
}

static void test_header(void **state)
{
	const uint8_t tagged[16] = { 0x02, 0xaa, 0, 0,    0,    0x0a, 0x02, 0,
		                     0,    0,    0, 0x01, 0x81, 0,    0,    10 };
	const uint8_t plain[12] = { 0x02, 0xaa, 0, 0, 0, 0x0a, 0x02, 0, 0, 0, 0, 0x01 };
	const struct nexthop *v = &nh_table[entry(v10)], *p = &nh_table[entry(0)];

	(void)state;
	assert_int_equal(v->type, NH_FWD);
	assert_int_equal(v->iface, v10);
	assert_int_equal(v->port, 0);
	assert_int_equal(v->tag, 4);
	assert_int_equal(v->mtu, 1400); /* the VLAN's, the tag not counted */
	assert_int_equal(v->fwd_len, 1414);
	assert_memory_equal(v->hdr, tagged, 16);
	assert_memory_equal(nh_dst_mac(v), &GW_MAC, 6);
	assert_int_equal(p->tag, 0);
	assert_int_equal(p->iface, 0);
	assert_memory_equal(&p->hdr[4], plain, 12);
	assert_memory_equal(nh_dst_mac(p), &GW_MAC, 6);
}

static void test_l2_write(void **state)
{
	const struct nexthop *v = &nh_table[entry(v10)], *p = &nh_table[entry(0)];
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *d;

	(void)state;
	assert_non_null(rte_pktmbuf_append(m, 40));
	assert_int_equal(nh_l2_write(v, m, RTE_BE16(RTE_ETHER_TYPE_IPV4)), 0);
	d = rte_pktmbuf_mtod(m, uint8_t *);
	assert_int_equal(m->pkt_len, 44);
	assert_memory_equal(d, v->hdr, 16);
	assert_int_equal(d[16], 0x08);
	assert_int_equal(d[17], 0x00);
	rte_pktmbuf_reset(m);
	assert_non_null(rte_pktmbuf_append(m, 40));
	assert_int_equal(nh_l2_write(p, m, RTE_BE16(RTE_ETHER_TYPE_IPV6)), 0);
	d = rte_pktmbuf_mtod(m, uint8_t *);
	assert_int_equal(m->pkt_len, 40);
	assert_memory_equal(d, &p->hdr[4], 12);
	assert_int_equal(d[12], 0x86);
	/* no headroom for the tag: refused, the frame untouched */
	rte_pktmbuf_reset(m);
	m->data_off = 2;
	assert_non_null(rte_pktmbuf_append(m, 40));
	assert_int_equal(nh_l2_write(v, m, RTE_BE16(RTE_ETHER_TYPE_IPV4)), -ENOBUFS);
	assert_int_equal(m->pkt_len, 40);
	rte_pktmbuf_free(m);
}

/* A port's new MAC reaches its VLAN's entries; a VLAN's MTU its own. */
static void test_updates(void **state)
{
	uint32_t vi = entry(v10), pi = entry(0);

	(void)state;
	fwd_ports[0].mac = P0_MAC2;
	fwd_iface_port_sync(0);
	nh_iface_update(0);
	assert_int_equal(nh_table[vi].type, NH_FWD);
	assert_memory_equal(&nh_table[vi].hdr[6], &P0_MAC2, 6);
	assert_memory_equal(&nh_table[pi].hdr[10], &P0_MAC2, 6);
	assert_memory_equal(nh_dst_mac(&nh_table[vi]), &GW_MAC, 6);
	assert_int_equal(fwd_iface_set_mtu(v10, 1300), 0); /* the change hook */
	assert_int_equal(nh_table[vi].mtu, 1300);
	assert_int_equal(nh_table[vi].fwd_len, 1314);
	assert_int_equal(nh_table[pi].mtu, 1500);
}

static void test_connected(void **state)
{
	uint32_t a, b, c;
	uint16_t lo;

	(void)state;
	assert_int_equal(nh_connected_ref(0, &a), 0);
	assert_int_equal(a, NH_IDX_CONNECTED + 0);
	assert_int_equal(nh_connected_ref(v10, &a), 0);
	assert_int_equal(nh_connected_ref(v10, &b), 0);
	assert_int_equal(a, b);
	assert_true(a >= NH_FIRST_DYNAMIC);
	assert_int_equal(nh_table[a].type, NH_CONNECTED);
	assert_int_equal(nh_table[a].iface, v10);
	assert_int_equal(nh_table[a].tag, 4);
	assert_true(nh_rpf_pass(nh_table, &nh_table[a], v10, true));
	assert_false(nh_rpf_pass(nh_table, &nh_table[a], 0, true));
	/* a route dev on the VLAN holds it too */
	assert_int_equal(nh_route_fixed(NH_CONNECTED, v10, &c), 0);
	assert_int_equal(c, a);
	nh_route_fixed_put(c);
	nh_connected_unref(v10);
	assert_int_equal(nh_table[a].type, NH_CONNECTED);
	nh_connected_unref(v10); /* the last subnet went */
	nh_reclaim();
	assert_int_equal(nh_table[a].type, NH_NONE);
	assert_int_equal(fwd_iface_loopback_add("lo1", &lo), 0);
	assert_int_equal(nh_connected_ref(lo, &a), -ENODEV);
}

/* (address, interface) keys: the same address on the port and on its
 * VLAN are two neighbours; the VLAN's held packet leaves tagged. */
static void test_neigh_on_vlan(void **state)
{
	struct fwd_ip a = fwd_ip_v4(0x0a000a02);
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint32_t np, nv;
	const uint8_t *d;

	(void)state;
	assert_int_equal(neigh_ref(a, 0, &np), 0);
	assert_int_equal(neigh_ref(a, v10, &nv), 0);
	assert_int_not_equal(np, nv);
	assert_int_equal(nh_table[nv].iface, v10);
	assert_int_equal(neigh_unresolved(AF_INET, v10), 1);
	assert_int_equal(neigh_ref(a, 4000, &nv), -EINVAL); /* no such interface */
	assert_int_equal(neigh_ref(a, v10, &nv), 0);
	assert_non_null(rte_pktmbuf_append(m, 60));
	neigh_output(m, nv); /* held: incomplete */
	assert_int_equal(n_sent, 0);
	neigh_confirm(neigh_by_nh(nv), &GW_MAC);
	assert_int_equal(n_sent, 1);
	assert_int_equal(sent_port[0], 0); /* the physical port, tagged already */
	d = rte_pktmbuf_mtod(sent[0], const uint8_t *);
	assert_int_equal(sent[0]->pkt_len, 64);
	assert_memory_equal(d, nh_table[nv].hdr, 16);
	assert_int_equal(d[16], 0x08);
	assert_int_equal(neigh_flush(v10, true), 1); /* referenced: reset, counted */
	neigh_unref(nv);
	neigh_unref(nv);
	neigh_unref(np);
}

static int group_setup(void **state)
{
	(void)state;
	if (test_eal_init("nhvlan") < 0 || (pool = test_pool("nhvlan", 63, 2048)) == NULL)
		return -1;
	fwd.pool = pool;
	return 0;
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_header),    T(test_l2_write),      T(test_updates),
		T(test_connected), T(test_neigh_on_vlan),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
