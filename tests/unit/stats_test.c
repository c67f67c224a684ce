/* SPDX-License-Identifier: BSD-3-Clause */
/* Counter aggregation: per-worker rows summed, clear baselines, rates; the
 * kernel interface whose drops an af_xdp or af_packet port reports. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "port/port.h"
#include "stats/stats.h"
#include "stats/stats_ctl.h"
#include "core/iface.h"

static struct fwd_wstats w0, w1, w2;

static void fill(struct fwd_wstats *w, unsigned port, uint64_t base)
{
	struct fwd_port_ctrs *c = &w->port[port];

	c->rx_pkts = base + 1;
	c->rx_bytes = base + 2;
	c->tx_pkts = base + 3;
	c->tx_bytes = base + 4;
	for (unsigned r = 0; r < FWD_DROP_MAX; r++)
		c->drop[r] = base + r;
}

static void test_sum_over_workers(void **state)
{
	const struct fwd_wstats *ws[] = { &w0, &w1, &w2 };
	struct fwd_port_ctrs sum;

	(void)state;
	memset(&w0, 0, sizeof(w0));
	memset(&w1, 0, sizeof(w1));
	memset(&w2, 0, sizeof(w2));
	fill(&w0, 3, 100);
	fill(&w1, 3, 1000);
	fill(&w2, 3, 10000);
	fill(&w2, 4, 7); /* another port stays out of port 3's sum */
	fwd_stats_sum_port(ws, 3, 3, &sum);
	assert_int_equal(sum.rx_pkts, 11103);
	assert_int_equal(sum.rx_bytes, 11106);
	assert_int_equal(sum.tx_pkts, 11109);
	assert_int_equal(sum.tx_bytes, 11112);
	for (unsigned r = 0; r < FWD_DROP_MAX; r++)
		assert_int_equal(sum.drop[r], 11100 + 3 * r);
	fwd_stats_sum_port(ws, 2, 4, &sum); /* only the first two workers */
	assert_int_equal(sum.rx_pkts, 0);
	fwd_stats_sum_port(ws, 3, 4, &sum);
	assert_int_equal(sum.rx_pkts, 8);
}

static void test_clear_baseline(void **state)
{
	struct fwd_port_ctrs a = { .rx_pkts = 50, .tx_bytes = 9 },
	                     base = { .rx_pkts = 20, .tx_bytes = 9 }, out;

	(void)state;
	a.drop[FWD_DROP_NO_ROUTE] = 7;
	base.drop[FWD_DROP_NO_ROUTE] = 2;
	base.drop[FWD_DROP_MTU] = 5; /* a baseline ahead of the sum reads as 0, not a wrap */
	fwd_stats_sub(&a, &base, &out);
	assert_int_equal(out.rx_pkts, 30);
	assert_int_equal(out.tx_bytes, 0);
	assert_int_equal(out.drop[FWD_DROP_NO_ROUTE], 5);
	assert_int_equal(out.drop[FWD_DROP_MTU], 0);
	assert_int_equal(fwd_stats_drops(&out), 5);
}

static void test_rates(void **state)
{
	struct fwd_port_ctrs prev = { .rx_pkts = 1000, .rx_bytes = 64000, .tx_pkts = 10 },
	                     cur = { .rx_pkts = 3000, .rx_bytes = 192000, .tx_pkts = 5 };
	struct fwd_rates r;

	(void)state;
	fwd_stats_rates(&prev, &cur, 2.0, &r);
	assert_true(r.rx_pps == 1000.0);
	assert_true(r.rx_bps == 512000.0); /* 64000 bytes/s */
	assert_true(r.tx_pps == 0.0);      /* counters cleared in between: no negative rate */
	fwd_stats_rates(&prev, &cur, 0.0, &r);
	assert_true(r.rx_pps == 0.0 && r.rx_bps == 0.0);
}

static void test_drop_names(void **state)
{
	(void)state;
	for (unsigned r = 0; r < FWD_DROP_MAX; r++) {
		assert_non_null(fwd_drop_names[r]);
		for (unsigned q = 0; q < r; q++)
			assert_string_not_equal(fwd_drop_names[r], fwd_drop_names[q]);
	}
	assert_string_equal(fwd_drop_names[FWD_DROP_NO_ROUTE], "no_route");
	assert_string_equal(fwd_drop_names[FWD_DROP_TTL_EXCEEDED], "ttl_exceeded");
}

static const char *kif(const char *driver, const char *device)
{
	static struct fwd_port p;

	memset(&p, 0, sizeof(p));
	snprintf(p.driver, sizeof(p.driver), "%s", driver);
	snprintf(p.device, sizeof(p.device), "%s", device);
	fwd_port_kernel_iface(&p);
	return p.kif;
}

static void test_kernel_iface(void **state)
{
	(void)state;
	assert_string_equal(kif("net_af_xdp", "net_af_xdp0,iface=d1"), "d1");
	assert_string_equal(kif("net_af_packet", "net_af_packet1,iface=veth-a.10,qpairs=3"),
	                    "veth-a.10");
	assert_string_equal(kif("net_af_xdp", "net_af_xdp0,start_queue=0,iface=eth1,busy_budget=0"),
	                    "eth1");
	assert_string_equal(kif("net_pcap", "net_pcap0,iface=eth0"), ""); /* not read by fwd */
	assert_string_equal(kif("net_af_xdp", "net_af_xdp0,iface=0123456789abcdef"), ""); /* > 15 */
	assert_string_equal(kif("net_af_xdp", "net_af_xdp0,iface="), "");
	assert_string_equal(kif("net_af_xdp", "net_af_xdp0"), "");
}

static void test_kernel_rx_dropped(void **state)
{
	struct fwd_port p = { 0 };
	uint64_t v = 7;

	(void)state;
	assert_int_equal(fwd_port_kif_rx_dropped(&p, &v), -ENOENT); /* no interface */
	snprintf(p.kif, sizeof(p.kif), "../../x");
	assert_int_equal(fwd_port_kif_rx_dropped(&p, &v), -ENOENT); /* no path tricks */
	snprintf(p.kif, sizeof(p.kif), "fwdtest-none0");
	assert_int_equal(fwd_port_kif_rx_dropped(&p, &v), -ENOENT);
	assert_int_equal(v, 7);
	snprintf(p.kif, sizeof(p.kif), "lo"); /* every network namespace has one */
	assert_int_equal(fwd_port_kif_rx_dropped(&p, &v), 0);
}

/* The rows `stats` shows: every port, then the VLANs and loopbacks in use. */
static void test_iface_rows(void **state)
{
	unsigned seen[8], n = 0;

	(void)state;
	fwd_n_ports = 2;
	fwd_ifaces[FWD_MAX_PORTS + 1].type = FWD_IFACE_VLAN;
	fwd_ifaces[FWD_MAX_IFACES - 1].type = FWD_IFACE_LOOPBACK;
	for (unsigned id = fwd_stats_first(); id < FWD_MAX_IFACES && n < 8; id = fwd_stats_next(id))
		seen[n++] = id;
	assert_int_equal(n, 4);
	assert_int_equal(seen[0], 0);
	assert_int_equal(seen[1], 1);
	assert_int_equal(seen[2], FWD_MAX_PORTS + 1);
	assert_int_equal(seen[3], FWD_MAX_IFACES - 1);
	fwd_n_ports = 0;
	assert_int_equal(fwd_stats_first(), FWD_MAX_PORTS + 1);
	fwd_ifaces[FWD_MAX_PORTS + 1].type = FWD_IFACE_FREE;
	fwd_ifaces[FWD_MAX_IFACES - 1].type = FWD_IFACE_FREE;
	fwd_n_ports = 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sum_over_workers),
		cmocka_unit_test(test_clear_baseline),
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_drop_names),
		cmocka_unit_test(test_kernel_iface),
		cmocka_unit_test(test_kernel_rx_dropped),
		cmocka_unit_test(test_iface_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
