/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The bridge datapath on a fake worker: frames go through bridge_input and
 * land in the worker's per-port tx buffers (never flushed here), learn notes
 * in the ring, which bridge_poll drains into the FDB.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/iface.h"

#include "core/worker.h"
#include "l2/bridge.h"
#include "l2_test_util.h"

/* The interface of port i as the worker hands it to an input, with what the
 * test set in the port table. */
static const struct fwd_iface *port_iface(unsigned i)
{
	fwd_iface_port_sync((uint8_t)i);
	return &fwd_ifaces[i];
}

#define A     "02:00:00:00:00:0a"
#define B     "02:00:00:00:00:0b"
#define C     "02:00:00:00:00:0c"
#define BCAST "ff:ff:ff:ff:ff:ff"

static const char cfg_yaml[] = "ports:\n"
                               "  - { name: p0, device: net_null0, mode: bridge, bridge: br0 }\n"
                               "  - { name: p1, device: net_null1, mode: bridge, bridge: br0 }\n"
                               "  - { name: p2, device: net_null2, mode: bridge, bridge: br0 }\n"
                               "  - { name: p3, device: net_null3 }\n"
                               "bridges: [ { name: br0, mac_aging_s: 300, fdb_max: 16 } ]\n";

static struct fwd_config *cfg;
static struct fwd_worker *w;
static struct bridge *br;

static int setup(void **state)
{
	(void)state;
	cfg = config_from(cfg_yaml);
	ports_from(cfg);
	w = rte_zmalloc("worker", sizeof(*w), RTE_CACHE_LINE_SIZE);
	assert_non_null(w);
	fake_now = 1000;
	memset(bridge_wstats, 0, sizeof(bridge_wstats)); /* notes an earlier test sent */
	assert_int_equal(bridge_module_init(cfg), 0);
	br = bridge_by_name("br0");
	return br == NULL ? -1 : 0;
}

static void tx_clear(void)
{
	for (unsigned p = 0; p < FWD_MAX_PORTS; p++) {
		rte_pktmbuf_free_bulk(w->tx[p].pkts, w->tx[p].n);
		w->tx[p].n = 0;
		w->tx[p].bytes = 0;
	}
}

static int teardown(void **state)
{
	(void)state;
	tx_clear();
	bridge_module_fini();
	rte_free(w);
	fwd_config_free(cfg);
	/* every mbuf and clone came back */
	assert_int_equal(rte_mempool_avail_count(fwd.pool), POOL_SIZE);
	return 0;
}

static struct rte_mbuf *frame(const char *src, const char *dst, uint16_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(fwd.pool);
	struct rte_ether_hdr *eth;

	assert_non_null(m);
	eth = (struct rte_ether_hdr *)rte_pktmbuf_append(m, len);
	assert_non_null(eth);
	memset(eth, 0, len);
	if (len >= RTE_ETHER_HDR_LEN) {
		eth->src_addr = mac_of(src);
		eth->dst_addr = mac_of(dst);
		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	}
	return m;
}

/* One frame in on port `in`; the clock moves on so notes are not deduplicated. */
static void input(uint8_t in, const char *src, const char *dst)
{
	struct rte_mbuf *m = frame(src, dst, 64);

	fake_now += 100;
	bridge_input(w, port_iface(in), &m, 1);
}

static unsigned sent(uint8_t port)
{
	return w->tx[port].n;
}

static uint64_t dropped(uint8_t port, enum fwd_drop_reason r)
{
	return w->stats.port[port].drop[r];
}

static uint8_t fdb_port(const char *mac)
{
	struct rte_ether_addr m = mac_of(mac);
	const struct fdb_entry *e = fdb_lookup(&br->fdb, &m);

	return e == NULL ? 0xff : e->port;
}

static void test_flood_learn_forward(void **state)
{
	struct bridge_ctrs c;

	(void)state;
	input(0, A, BCAST); /* broadcast: every other member, never back to p0 */
	assert_int_equal(sent(0), 0);
	assert_int_equal(sent(1), 1);
	assert_int_equal(sent(2), 1);
	assert_int_equal(sent(3), 0);                                             /* not a member */
	assert_ptr_equal(w->tx[1].pkts[0]->buf_addr, w->tx[2].pkts[0]->buf_addr); /* a clone */
	assert_int_equal(w->stats.port[0].rx_bytes, 64); /* the input counts the bytes */
	assert_int_equal(w->tx[1].bytes, 64);
	assert_int_equal(w->tx[2].bytes, 64);
	assert_int_equal(fdb_port(A), 0xff); /* learning is the control thread's */
	assert_int_equal(bridge_poll(fake_now), 1);
	assert_int_equal(fdb_port(A), 0);
	tx_clear();

	input(1, B, A); /* known unicast: one port */
	assert_int_equal(sent(0), 1);
	assert_int_equal(sent(2), 0);
	input(2, C, B); /* B not learned yet: unknown unicast floods */
	assert_int_equal(sent(0), 2);
	assert_int_equal(sent(1), 1);
	assert_int_equal(bridge_poll(fake_now), 2);
	tx_clear();
	input(0, A, C);
	assert_int_equal(sent(2), 1);
	assert_int_equal(sent(1), 0);
	bridge_counters(br, &c);
	assert_int_equal(c.flooded, 2);
	assert_int_equal(c.learned, 3);
}

static void test_same_port_and_bad_frames(void **state)
{
	struct rte_mbuf *m[3];

	(void)state;
	input(0, A, BCAST);
	bridge_poll(fake_now);
	tx_clear();
	input(0, C, A); /* A lives behind p0: back out of p0 never */
	assert_int_equal(dropped(0, FWD_DROP_SAME_PORT), 1);
	input(1, "03:00:00:00:00:01", A); /* group source */
	input(1, "00:00:00:00:00:00", A);
	assert_int_equal(dropped(1, FWD_DROP_BAD_SRC_MAC), 2);
	input(1, B, "01:80:c2:00:00:00"); /* STP and friends are not relayed */
	input(1, B, "01:80:c2:00:00:0e");
	assert_int_equal(dropped(1, FWD_DROP_L2_RESERVED), 2);
	m[0] = frame(B, A, 10); /* runt */
	m[1] = frame(B, A, 64);
	m[2] = frame(B, "01:00:5e:00:00:01", 64); /* multicast floods */
	bridge_input(w, port_iface(1), m, 3);
	assert_int_equal(dropped(1, FWD_DROP_BAD_HEADER), 1);
	assert_int_equal(sent(0), 2);
	assert_int_equal(sent(2), 1);
	assert_int_equal(sent(1), 0);
}

static void test_port_down_and_alone(void **state)
{
	(void)state;
	fwd_ports[2].admin_up = 0;
	input(0, A, BCAST);
	assert_int_equal(sent(1), 1);
	assert_int_equal(sent(2), 0);
	fwd_ports[1].admin_up = 0;
	input(0, A, BCAST); /* nobody else up */
	assert_int_equal(dropped(0, FWD_DROP_NO_MEMBER), 1);
	assert_int_equal(sent(1), 1);
	/* what was learned on a port that went down is forgotten */
	input(1, B, A);
	bridge_poll(fake_now);
	assert_int_equal(fdb_port(B), 1);
	bridge_age(fake_now);
	assert_int_equal(fdb_port(B), 0xff);
	assert_int_equal(fdb_port(A), 0);
}

static void test_move(void **state)
{
	struct bridge_ctrs c;

	(void)state;
	input(0, A, BCAST);
	input(1, B, A);
	bridge_poll(fake_now);
	tx_clear();
	input(2, A, B); /* A shows up behind p2 */
	assert_int_equal(sent(1), 1);
	assert_int_equal(bridge_poll(fake_now), 1);
	assert_int_equal(fdb_port(A), 2);
	input(1, B, A);
	assert_int_equal(sent(2), 1);
	assert_int_equal(sent(0), 0);
	bridge_counters(br, &c);
	assert_int_equal(c.moved, 1);
}

static void test_notes_limited(void **state)
{
	struct rte_mbuf *m[64];
	char mac[32];

	(void)state;
	/* 64 frames from one unknown MAC: one note */
	for (unsigned i = 0; i < 64; i++)
		m[i] = frame(A, BCAST, 64);
	bridge_input(w, port_iface(0), m, 64);
	assert_int_equal(bridge_poll(fake_now), 1);
	tx_clear();
	/* 64 unknown MACs in one burst: a few notes, the rest ask again later */
	for (unsigned i = 0; i < 64; i++) {
		snprintf(mac, sizeof(mac), "02:00:00:00:01:%02x", i);
		m[i] = frame(mac, A, 64);
	}
	bridge_input(w, port_iface(1), m, 64);
	assert_int_equal(sent(0), 64);
	assert_in_range(bridge_poll(fake_now), 1, 16);
}

static void test_full(void **state)
{
	struct rte_mbuf *m[32];
	struct bridge_ctrs c;
	char mac[32];

	(void)state;
	for (unsigned round = 0; round < 4; round++) {
		for (unsigned i = 0; i < 8; i++) {
			snprintf(mac, sizeof(mac), "02:00:00:00:%02x:%02x", round, i);
			m[i] = frame(mac, BCAST, 64);
		}
		fake_now += 100;
		bridge_input(w, port_iface(0), m, 8);
		bridge_poll(fake_now);
		tx_clear();
	}
	bridge_counters(br, &c);
	assert_int_equal(br->fdb.n_live, 16);
	assert_true(br->fdb.full);
	assert_int_equal(c.learned, 16);
	/* rounds 2 and 3: the workers know it is full; they count and do not ask */
	assert_int_equal(c.fdb_full, 16);
	input(0, C, BCAST);
	assert_int_equal(bridge_poll(fake_now), 0);
	bridge_counters(br, &c);
	assert_int_equal(c.fdb_full, 17);
	assert_int_equal(sent(1), 1); /* forwarded all the same */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_flood_learn_forward, setup, teardown),
		cmocka_unit_test_setup_teardown(test_same_port_and_bad_frames, setup, teardown),
		cmocka_unit_test_setup_teardown(test_port_down_and_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_move, setup, teardown),
		cmocka_unit_test_setup_teardown(test_notes_limited, setup, teardown),
		cmocka_unit_test_setup_teardown(test_full, setup, teardown),
	};

	return cmocka_run_group_tests(tests, l2_setup, l2_teardown);
}
