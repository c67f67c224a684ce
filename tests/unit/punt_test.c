/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The slow path's hand-overs with two fake workers (no lcores launched):
 * the punt policer (a bucket per reason, NDP apart from LOCAL6 in buckets
 * per port and kind, policed_* drops, ARP's ring drained first and never
 * crowded out of the shared ring; a VLAN's NDP charged to its port's
 * buckets, counted on the VLAN) and fwd_control_tx's order (one worker's
 * ring per port).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <event2/event.h>
#include <rte_malloc.h>
#include <rte_ring.h>

#include "core/daemon.h"
#include "core/iface.h"
#include "core/ports.h"
#include "core/punt.h"
#include "core/worker.h"
#include "test_eal.h"

static struct rte_mempool *pool;
static unsigned handled[FWD_PUNT_MAX];

static void count_handler(struct rte_mbuf *m, const struct fwd_punt_meta *meta)
{
	handled[meta->reason]++;
	rte_pktmbuf_free(m);
}

/* A frame: IPv6 with next header nh and first payload byte type. */
static struct rte_mbuf *frame(uint8_t nh, uint8_t type)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *p;

	assert_non_null(m);
	p = (uint8_t *)rte_pktmbuf_append(m, 14 + 40 + 8);
	memset(p, 0, 14 + 40 + 8);
	p[12] = 0x86;
	p[13] = 0xdd;
	p[14 + 6] = nh;
	p[14 + 40] = type;
	return m;
}

static void punt_n(struct fwd_worker *w, enum fwd_punt_reason r, unsigned n, uint8_t nh,
                   uint8_t type)
{
	for (unsigned i = 0; i < n; i++)
		fwd_punt(w, frame(nh, type), r, 0, 0, 0, FWD_PUNT_NO_DROP);
	fwd_punt_flush(w);
}

static uint64_t drops_on(uint16_t port, enum fwd_drop_reason r)
{
	return fwd.workers[0]->stats.port[port].drop[r] + fwd.workers[1]->stats.port[port].drop[r];
}

static uint64_t drops(enum fwd_drop_reason r)
{
	return drops_on(0, r);
}

/* n LOCAL6 punts on port that the IPv6 input tagged with NDP kind nd. */
static void punt_nd(struct fwd_worker *w, uint16_t port, enum fwd_punt_nd nd, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		fwd_punt(w, frame(58, 135), FWD_PUNT_LOCAL6, port, port, nd, FWD_PUNT_NO_DROP);
	fwd_punt_flush(w);
}

static int setup(void **state)
{
	(void)state;
	fwd.evbase = event_base_new();
	fwd.n_workers = 2;
	fwd_n_ports = 4;
	for (unsigned i = 0; i < 2; i++) {
		char name[16];

		fwd.workers[i] = rte_zmalloc("w", sizeof(struct fwd_worker), RTE_CACHE_LINE_SIZE);
		if (fwd.workers[i] == NULL)
			return -1;
		snprintf(name, sizeof(name), "tx%u", i);
		fwd.workers[i]->tx_ring = rte_ring_create(name, 64, SOCKET_ID_ANY, RING_F_SP_ENQ);
		if (fwd.workers[i]->tx_ring == NULL)
			return -1;
	}
	return fwd_punt_init();
}

static void reset(const uint32_t rates[FWD_PUNT_CLASS_MAX])
{
	fwd_punt_rates_set(rates);
	while (fwd_punt_drain() != 0)
		;
	memset(handled, 0, sizeof(handled));
	for (unsigned i = 0; i < 2; i++) {
		memset(&fwd.workers[i]->stats, 0, sizeof(fwd.workers[i]->stats));
		memset(fwd.workers[i]->punt_bkt, 0, sizeof(fwd.workers[i]->punt_bkt));
		memset(fwd.workers[i]->punt_nd, 0, sizeof(fwd.workers[i]->punt_nd));
		memset(fwd.workers[i]->punt_lacp, 0, sizeof(fwd.workers[i]->punt_lacp));
	}
	for (unsigned r = 0; r < FWD_PUNT_MAX; r++)
		fwd_punt_register(r, count_handler);
}

/* Over its rate, a reason is policed (its own counter); others are not. */
static void test_policer_per_reason(void **state)
{
	/* 2/s over two workers: 1/s each (no refill while the test runs), a
	 * burst of 64 */
	const uint32_t rates[FWD_PUNT_CLASS_MAX] = { 2, 2, 2, 2 };
	struct fwd_worker *w = fwd.workers[0];

	(void)state;
	reset(rates);
	punt_n(w, FWD_PUNT_TTL, 200, 0, 0);
	assert_int_equal(drops(FWD_DROP_POLICED_TTL), 200 - 64);
	punt_n(w, FWD_PUNT_NO_ROUTE, 10, 0, 0); /* a bucket of its own */
	assert_int_equal(drops(FWD_DROP_POLICED_NO_ROUTE), 0);
	punt_n(fwd.workers[1], FWD_PUNT_TTL, 10, 0, 0); /* and per worker */
	assert_int_equal(drops(FWD_DROP_POLICED_TTL), 200 - 64);
	while (fwd_punt_drain() != 0)
		;
	assert_int_equal(handled[FWD_PUNT_TTL], 64 + 10);
	assert_int_equal(handled[FWD_PUNT_NO_ROUTE], 10);
}

/* NDP punted as LOCAL6 (tagged by the IPv6 input) has buckets of its own,
 * per port and kind, and goes to address resolution's ring; other LOCAL6,
 * ICMPv6 included, does not touch them. */
static void test_policer_ndp(void **state)
{
	const uint32_t rates[FWD_PUNT_CLASS_MAX] = { 2, 2, 2, 2 };
	struct fwd_worker *w = fwd.workers[0];

	(void)state;
	reset(rates);
	punt_n(w, FWD_PUNT_LOCAL6, 100, 17, 0); /* UDP: LOCAL6's bucket */
	punt_n(w, FWD_PUNT_LOCAL6, 1, 58, 135); /* NDP the input did not tag: LOCAL6 */
	assert_int_equal(drops(FWD_DROP_POLICED_LOCAL6), 100 - 64 + 1);
	punt_nd(w, 0, FWD_PUNT_ND_NS, 100); /* a flood of solicitations on p0 */
	assert_int_equal(drops(FWD_DROP_POLICED_NS), 100 - 64);
	punt_nd(w, 0, FWD_PUNT_ND_NA, 50); /* advertisements: a bucket of their own */
	punt_nd(w, 1, FWD_PUNT_ND_NS, 50); /* another port's solicitations too */
	punt_nd(w, 1, FWD_PUNT_ND_NA, 50);
	assert_int_equal(drops(FWD_DROP_POLICED_NA), 0);
	assert_int_equal(drops_on(1, FWD_DROP_POLICED_NS) + drops_on(1, FWD_DROP_POLICED_NA), 0);
	assert_int_equal(drops(FWD_DROP_POLICED_NS), 100 - 64);
	punt_nd(w, 0, FWD_PUNT_ND_NA, 50); /* 100 in all: 36 over */
	assert_int_equal(drops(FWD_DROP_POLICED_NA), 36);
	punt_nd(w, 0, FWD_PUNT_ND_OTHER, 100); /* Router Solicitations: policed_ndp */
	assert_int_equal(drops(FWD_DROP_POLICED_NDP), 100 - 64);
	assert_int_equal(drops(FWD_DROP_POLICED_LOCAL6), 100 - 64 + 1);
	/* all of it to the address resolution ring, which one tick drains first */
	while (fwd_punt_drain() != 0)
		;
	assert_int_equal(handled[FWD_PUNT_LOCAL6], 64 + 64 + 64 + 50 + 50 + 64);
}

/* The Router Solicitations' bucket holds FWD_PUNT_RS_RATE a second at most,
 * whatever punt_rate_nd says; solicitations keep punt_rate_nd per port. */
static void test_policer_rs_rate(void **state)
{
	const uint32_t rates[FWD_PUNT_CLASS_MAX] = { 0, 200000, 0, 0 };
	struct fwd_worker *w = fwd.workers[0];

	(void)state;
	reset(rates);
	/* 100,000 a second per worker: a burst of 5,000; RS: 50 a second, a burst of 64 */
	punt_nd(w, 0, FWD_PUNT_ND_OTHER, 200);
	assert_int_equal(drops(FWD_DROP_POLICED_NDP), 200 - 64);
	for (unsigned i = 0; i < 10; i++)
		punt_nd(w, 0, FWD_PUNT_ND_NS, 200);
	assert_int_equal(drops(FWD_DROP_POLICED_NS), 0);
	while (fwd_punt_drain() != 0)
		;
}

/* A full shared ring does not keep ARP out; ARP is handed over first. */
static void test_arp_ring_apart(void **state)
{
	const uint32_t rates[FWD_PUNT_CLASS_MAX] = { 0, 0, 0, 0 }; /* not policed */
	struct fwd_worker *w = fwd.workers[0];
	unsigned n;

	(void)state;
	reset(rates);
	for (unsigned i = 0; i < 9; i++)
		punt_n(w, FWD_PUNT_NO_ROUTE, 512, 0, 0);
	assert_true(drops(FWD_DROP_PUNT_FULL) > 0);
	punt_n(w, FWD_PUNT_ARP, 10, 0, 0);
	assert_int_equal(drops(FWD_DROP_POLICED_ARP), 0);
	n = fwd_punt_drain(); /* one tick */
	assert_true(n > 10);
	assert_int_equal(handled[FWD_PUNT_ARP], 10);
	while (fwd_punt_drain() != 0)
		;
}

/* NDP arriving on VLANs is policed by the buckets of the physical port
 * (a trunk's VLANs share its budget) and counted on each VLAN interface;
 * another port keeps its own. A full punt ring counts on the interface. */
static void test_policer_vlan_port(void **state)
{
	const uint32_t rates[FWD_PUNT_CLASS_MAX] = { 2, 2, 2, 2 };
	struct fwd_worker *w = fwd.workers[0];
	uint16_t v10, v20, v30;

	(void)state;
	reset(rates);
	for (unsigned i = 0; i < fwd_n_ports; i++) { /* as port/ sets them up */
		snprintf(fwd_ports[i].name, sizeof(fwd_ports[i].name), "p%u", i);
		fwd_ports[i].idx = (uint8_t)i;
		fwd_ports[i].mtu = 1500;
		fwd_iface_port_sync((uint8_t)i);
	}
	assert_int_equal(fwd_iface_vlan_add("p1.10", 1, 10, 0, &v10), 0);
	assert_int_equal(fwd_iface_vlan_add("p1.20", 1, 20, 0, &v20), 0);
	assert_int_equal(fwd_iface_vlan_add("p2.10", 2, 10, 0, &v30), 0);
	assert_true(v10 >= FWD_MAX_PORTS && v20 >= FWD_MAX_PORTS && v30 >= FWD_MAX_PORTS);
	punt_nd(w, v10, FWD_PUNT_ND_NS, 40);
	punt_nd(w, v20, FWD_PUNT_ND_NS, 40); /* 80 on port 1's bucket of 64 */
	assert_int_equal(drops_on(v10, FWD_DROP_POLICED_NS), 0);
	assert_int_equal(drops_on(v20, FWD_DROP_POLICED_NS), 80 - 64);
	punt_nd(w, 1, FWD_PUNT_ND_NS, 1); /* the port itself: the same bucket */
	assert_int_equal(drops_on(1, FWD_DROP_POLICED_NS), 1);
	punt_nd(w, v30, FWD_PUNT_ND_NS, 10); /* VLAN 10 of another port: its own */
	assert_int_equal(drops_on(v30, FWD_DROP_POLICED_NS), 0);
	assert_int_equal(drops_on(0, FWD_DROP_POLICED_NS), 0); /* nothing charged to port 0 */
	while (fwd_punt_drain() != 0)
		;
	assert_int_equal(handled[FWD_PUNT_LOCAL6], 64 + 10);
	fwd_iface_reset();
}

/* n LACP punts arrived on member port `port`. */
static void punt_lacp(struct fwd_worker *w, uint16_t port, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		fwd_punt(w, frame(0, 0), FWD_PUNT_LACP, port, port, 0, FWD_PUNT_NO_DROP);
	fwd_punt_flush(w);
}

/* LACP is policed per member port at punt_rate_lacp (policed_lacp), apart
 * from every other reason, and rides the ring served first: a full shared
 * ring does not keep a member's heartbeat out. */
static void test_policer_lacp(void **state)
{
	const uint32_t rates[FWD_PUNT_CLASS_MAX] = { 0, 0, 0, 0, 10 }; /* burst: 64 */
	struct fwd_worker *w = fwd.workers[0];

	(void)state;
	reset(rates);
	for (unsigned i = 0; i < 9; i++)
		punt_n(w, FWD_PUNT_NO_ROUTE, 512, 0, 0);
	assert_true(drops(FWD_DROP_PUNT_FULL) > 0);
	punt_lacp(w, 0, 100); /* a flood on member 0 */
	assert_int_equal(drops(FWD_DROP_POLICED_LACP), 100 - 64);
	punt_lacp(w, 1, 10); /* member 1 keeps its own */
	assert_int_equal(drops_on(1, FWD_DROP_POLICED_LACP), 0);
	assert_int_equal(fwd_punt_drain(), 64 + 10 + 16 * 64); /* one tick: LACP first */
	assert_int_equal(handled[FWD_PUNT_LACP], 64 + 10);
	while (fwd_punt_drain() != 0)
		;
}

/* Packets the control thread sends on a port leave by one worker, in order. */
static void test_control_tx_order(void **state)
{
	struct rte_mbuf *m;

	(void)state;
	for (unsigned i = 0; i < 16; i++) {
		m = rte_pktmbuf_alloc(pool);
		assert_non_null(m);
		*(uint32_t *)rte_pktmbuf_append(m, 4) = i;
		assert_int_equal(fwd_control_tx(m, 1), 0);
	}
	for (unsigned i = 0; i < 2; i++) {
		struct rte_ring *r = fwd.workers[i]->tx_ring;
		unsigned count = rte_ring_count(r), next = 0;

		assert_true(count == 0 || count == 16);
		while (rte_ring_dequeue(r, (void **)&m) == 0) {
			assert_int_equal(*rte_pktmbuf_mtod(m, uint32_t *), next++);
			rte_pktmbuf_free(m);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policer_per_reason), cmocka_unit_test(test_policer_ndp),
		cmocka_unit_test(test_policer_rs_rate),    cmocka_unit_test(test_arp_ring_apart),
		cmocka_unit_test(test_policer_vlan_port),  cmocka_unit_test(test_control_tx_order),
		cmocka_unit_test(test_policer_lacp),
	};

	if (test_eal_init("punt") < 0)
		return 1;
	pool = test_pool("punt_test", 8192, 256);
	if (pool == NULL)
		return 1;
	return cmocka_run_group_tests(tests, setup, NULL);
}
