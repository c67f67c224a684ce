/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The interface table (core/iface.h): ports as interfaces 0..n-1, VLAN and
 * loopback add/del/lookup, the limits (names, VIDs, MTUs, 4094 VLANs on one
 * port, the table full), the delete hooks' order; and the (port, VLAN)
 * demux of one frame (untagged, priority-tagged, unknown VID, 802.1ad,
 * truncated tag, a tag the PMD stripped vs one in the frame) and tagging;
 * the worker's demux of a mixed burst (fwd_vlan_rx: order kept within an
 * interface, each frame counted once, a burst of one VLAN one run on the rx
 * array itself); fwd_control_tx on a VLAN (tagged, on its port) and on a
 * loopback (nowhere).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <rte_malloc.h>
#include <rte_ring.h>

#include "core/daemon.h"
#include "core/drop.h"
#include "core/iface.h"
#include "core/ports.h"
#include "core/punt.h"
#include "core/worker.h"
#include "iface_test_util.h"
#include "test_eal.h"

static struct rte_mempool *pool;

static void test_ports_are_ifaces(void **state)
{
	(void)state;
	two_ports();
	assert_int_equal(fwd_iface_count(), 2);
	assert_ptr_equal(fwd_iface_by_name("p1"), &fwd_ifaces[1]);
	assert_int_equal(fwd_ifaces[1].type, FWD_IFACE_PORT);
	assert_int_equal(fwd_ifaces[1].port, 1);
	assert_null(fwd_iface_get(2));
	assert_null(fwd_iface_get(FWD_MAX_IFACES));
	assert_int_equal(fwd_iface_del(0), -EPERM);
}

/* A port counted before its entry is synced (id 0 in a zeroed entry): the
 * walk goes by position and ends. */
static void test_walk_unsynced_port(void **state)
{
	(void)state;
	two_ports();
	memset(&fwd_ifaces[1], 0, sizeof(fwd_ifaces[1]));
	fwd_n_ports = 3;
	assert_null(fwd_iface_by_name("nowhere"));
	assert_ptr_equal(fwd_iface_by_name("p0"), &fwd_ifaces[0]);
	two_ports();
}

static void test_vlan_add_lookup_del(void **state)
{
	uint16_t id, lo;

	(void)state;
	two_ports();
	assert_null(fwd_ports[0].vlan_map);
	assert_int_equal(fwd_iface_vlan_add("p0.100", 0, 100, 0, &id), 0);
	assert_true(id >= FWD_MAX_PORTS);
	assert_non_null(fwd_ports[0].vlan_map);
	assert_ptr_equal(fwd_iface_by_vlan(0, 100), &fwd_ifaces[id]);
	assert_ptr_equal(fwd_iface_by_name("p0.100"), &fwd_ifaces[id]);
	assert_int_equal(fwd_ifaces[id].mtu, 1500);
	assert_int_equal(fwd_ifaces[id].mac48, fwd_ports[0].mac48);
	assert_null(fwd_iface_by_vlan(1, 100));
	assert_int_equal(fwd_iface_loopback_add("lo0", &lo), 0);
	assert_int_equal(fwd_ifaces[lo].type, FWD_IFACE_LOOPBACK);
	assert_int_equal(fwd_ifaces[lo].port, FWD_IFACE_NO_PORT);
	assert_int_equal(fwd_iface_set_admin(lo, false), -EPERM);
	assert_int_equal(fwd_iface_count(), 4);

	/* iteration: ports, then the others by id */
	unsigned n = 0;
	struct fwd_iface *ifp;
	FWD_IFACE_FOREACH(ifp)
	n++;
	assert_int_equal(n, 4);

	assert_int_equal(fwd_iface_del(id), 0);
	assert_null(fwd_iface_by_vlan(0, 100));
	assert_null(fwd_iface_by_name("p0.100"));
	assert_null(fwd_ports[0].vlan_map); /* the last VLAN took the map */
	assert_int_equal(fwd_iface_del(id), -ENODEV);
	assert_int_equal(fwd_iface_count(), 3);
}

static void test_limits(void **state)
{
	(void)state;
	two_ports();
	assert_int_equal(fwd_iface_vlan_add("a", 0, 0, 0, NULL), -EINVAL);
	assert_int_equal(fwd_iface_vlan_add("a", 0, 4095, 0, NULL), -EINVAL);
	assert_int_equal(fwd_iface_vlan_add("a", 5, 10, 0, NULL), -ENODEV);
	assert_int_equal(fwd_iface_vlan_add("a", 0, 10, 1501, NULL), -ERANGE);
	assert_int_equal(fwd_iface_vlan_add("", 0, 10, 0, NULL), -EINVAL);
	assert_int_equal(fwd_iface_vlan_add("0123456789abcdef", 0, 10, 0, NULL), -EINVAL);
	assert_int_equal(fwd_iface_vlan_add("0123456789abcde", 0, 10, 1400, NULL), 0);
	assert_int_equal(fwd_iface_vlan_add("b", 0, 10, 0, NULL), -EEXIST);
	assert_int_equal(fwd_iface_vlan_add("p1", 0, 11, 0, NULL), -EEXIST);
	assert_int_equal(fwd_iface_loopback_add("0123456789abcde", NULL), -EEXIST);
	assert_int_equal(fwd_iface_vlan_add("c", 1, 10, 0, NULL), 0);
	assert_int_equal(fwd_iface_set_mtu(fwd_iface_by_name("c")->id, 1501), -ERANGE);
	assert_int_equal(fwd_iface_set_mtu(fwd_iface_by_name("c")->id, 1280), 0);
	assert_int_equal(fwd_iface_set_mtu(0, 1280), -EPERM);
}

/* 4094 VLANs on one port, then the rest of the table, then full. */
static void test_4094_vlans_and_full(void **state)
{
	char name[FWD_IFNAME_MAX];
	unsigned made = 0;

	(void)state;
	two_ports();
	for (uint16_t v = 1; v <= 4094; v++, made++) {
		snprintf(name, sizeof(name), "p0.%u", v);
		assert_int_equal(fwd_iface_vlan_add(name, 0, v, 0, NULL), 0);
	}
	assert_int_equal(fwd_iface_by_vlan(0, 4094)->vlan, 4094);
	for (uint16_t v = 1; made < FWD_MAX_LOGICAL; v++, made++) {
		snprintf(name, sizeof(name), "p1.%u", v);
		assert_int_equal(fwd_iface_vlan_add(name, 1, v, 0, NULL), 0);
	}
	assert_int_equal(fwd_iface_loopback_add("lo9", NULL), -ENOSPC);
	assert_int_equal(fwd_iface_count(), 2 + FWD_MAX_LOGICAL);
	/* a freed id is taken again */
	assert_int_equal(fwd_iface_del(fwd_iface_by_name("p0.7")->id), 0);
	assert_int_equal(fwd_iface_loopback_add("lo9", NULL), 0);
	fwd_iface_reset();
}

static int order_seen[4], n_seen;

static void hook_a(const struct fwd_iface *ifp, enum fwd_iface_event ev)
{
	(void)ifp;
	(void)ev;
	order_seen[n_seen++] = 30;
}

static void hook_b(const struct fwd_iface *ifp, enum fwd_iface_event ev)
{
	/* still mapped while its dependants go */
	assert_ptr_equal(fwd_iface_by_vlan(ifp->port, ifp->vlan), ifp);
	(void)ev;
	order_seen[n_seen++] = 10;
}

static void test_del_hooks_in_order(void **state)
{
	uint16_t id;

	(void)state;
	two_ports();
	assert_int_equal(fwd_iface_hook_add(FWD_IFACE_EV_DEL, 30, hook_a), 0);
	assert_int_equal(fwd_iface_hook_add(FWD_IFACE_EV_DEL, 10, hook_b), 0);
	assert_int_equal(fwd_iface_vlan_add("v", 1, 5, 0, &id), 0);
	n_seen = 0;
	assert_int_equal(fwd_iface_del(id), 0);
	assert_int_equal(n_seen, 2);
	assert_int_equal(order_seen[0], 10);
	assert_int_equal(order_seen[1], 30);
}

/* A frame: dst, src, then `tags` 802.1Q tags of vid (tpid each), then IPv4. */
static struct rte_mbuf *frame(uint16_t tpid, uint16_t vid, unsigned len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, 64);

	memset(p, 0, 64);
	for (unsigned i = 0; i < 12; i++)
		p[i] = (uint8_t)(i + 1);
	p[12] = (uint8_t)(tpid >> 8);
	p[13] = (uint8_t)tpid;
	p[14] = (uint8_t)(vid >> 8);
	p[15] = (uint8_t)vid;
	p[16] = 0x08;
	p[17] = 0x00;
	rte_pktmbuf_trim(m, (uint16_t)(64 - len));
	return m;
}

static void test_demux(void **state)
{
	uint16_t id;
	uint8_t why = 0;
	const struct fwd_port *p = &fwd_ports[0];
	struct rte_mbuf *m;

	(void)state;
	two_ports();
	assert_int_equal(fwd_iface_vlan_add("p0.100", 0, 100, 0, &id), 0);
	/* in the frame: stripped in software, MACs moved up */
	m = frame(0x8100, 100, 64);
	assert_int_equal(fwd_vlan_demux(p, p->vlan_map, m, &why), id);
	assert_int_equal(m->pkt_len, 60);
	assert_int_equal(rte_pktmbuf_mtod(m, uint8_t *)[0], 1);
	assert_int_equal(rte_pktmbuf_mtod(m, uint8_t *)[11], 12);
	assert_int_equal(rte_pktmbuf_mtod(m, uint8_t *)[12], 0x08);
	rte_pktmbuf_free(m);
	/* priority-tagged (VID 0, PCP 5): the port's */
	m = frame(0x8100, 0xa000, 64);
	assert_int_equal(fwd_vlan_demux(p, p->vlan_map, m, &why), 0);
	assert_int_equal(m->pkt_len, 60);
	rte_pktmbuf_free(m);
	/* untagged: untouched */
	m = frame(0x0800, 0x4500, 64);
	assert_int_equal(fwd_vlan_demux(p, p->vlan_map, m, &why), 0);
	assert_int_equal(m->pkt_len, 64);
	rte_pktmbuf_free(m);
	/* unknown VID, 802.1ad, a truncated tag */
	m = frame(0x8100, 101, 64);
	assert_int_equal(fwd_vlan_demux(p, p->vlan_map, m, &why), FWD_IFACE_NONE);
	assert_int_equal(why, FWD_DROP_VLAN_UNKNOWN);
	rte_pktmbuf_free(m);
	m = frame(0x88a8, 100, 64);
	why = 0;
	assert_int_equal(fwd_vlan_demux(p, p->vlan_map, m, &why), FWD_IFACE_NONE);
	assert_int_equal(why, FWD_DROP_VLAN_UNKNOWN);
	rte_pktmbuf_free(m);
	m = frame(0x8100, 100, 16);
	assert_int_equal(fwd_vlan_demux(p, p->vlan_map, m, &why), FWD_IFACE_NONE);
	assert_int_equal(why, FWD_DROP_TRUNCATED);
	rte_pktmbuf_free(m);
	/* stripped by the PMD (af_packet from the kernel's auxdata, a NIC's
	 * VLAN_STRIP): the frame is untagged, the VID in the mbuf */
	m = frame(0x0800, 0x4500, 64);
	m->vlan_tci = 0x2000 | 100;
	m->ol_flags |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	assert_int_equal(fwd_vlan_demux(p, p->vlan_map, m, &why), id);
	assert_int_equal(m->pkt_len, 64);
	assert_false(m->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED);
	rte_pktmbuf_free(m);
}

static void test_tag(void **state)
{
	struct rte_mbuf *m = frame(0x0800, 0x4500, 64);
	uint8_t *p;

	(void)state;
	assert_int_equal(fwd_vlan_tag(m, 300, false), 0);
	p = rte_pktmbuf_mtod(m, uint8_t *);
	assert_int_equal(m->pkt_len, 68);
	assert_int_equal(p[0], 1);
	assert_int_equal(p[11], 12);
	assert_int_equal(p[12], 0x81);
	assert_int_equal(p[13], 0x00);
	assert_int_equal(p[14] << 8 | p[15], 300);
	assert_int_equal(p[16], 0x08);
	assert_int_equal(p[17], 0x00);
	assert_int_equal(p[18], 0x45);
	rte_pktmbuf_free(m);
	m = frame(0x0800, 0x4500, 64);
	assert_int_equal(fwd_vlan_tag(m, 300, true), 0);
	assert_int_equal(m->pkt_len, 64);
	assert_int_equal(m->vlan_tci, 300);
	assert_true(m->ol_flags & RTE_MBUF_F_TX_VLAN);
	rte_pktmbuf_free(m);
}

/* What the fake inputs saw: interface id and the frame's marker byte. */
static uint16_t seen_if[64];
static uint8_t seen_mark[64];
static unsigned n_in, n_calls;
static struct rte_mbuf **seen_array; /* the last call's */

static void fake_input(struct fwd_worker *w, const struct fwd_iface *in, struct rte_mbuf **pkts,
                       uint16_t n)
{
	(void)w;
	n_calls++;
	seen_array = pkts;
	for (uint16_t i = 0; i < n; i++) {
		seen_if[n_in] = in->id;
		seen_mark[n_in++] = rte_pktmbuf_mtod(pkts[i], uint8_t *)[20];
		rte_pktmbuf_free(pkts[i]);
	}
}

/* The input of a VLAN's frames with their tag kept: the marker 4 bytes on. */
static void fake_tagged_input(struct fwd_worker *w, const struct fwd_iface *in,
                              struct rte_mbuf **pkts, uint16_t n)
{
	(void)w;
	n_calls++;
	for (uint16_t i = 0; i < n; i++) {
		const uint8_t *d = rte_pktmbuf_mtod(pkts[i], const uint8_t *);

		assert_int_equal(d[12], 0x81);
		assert_int_equal(d[13], 0x00);
		seen_if[n_in] = in->id;
		seen_mark[n_in++] = d[24];
		rte_pktmbuf_free(pkts[i]);
	}
}

static struct rte_mbuf *marked(uint16_t tpid, uint16_t vid, uint8_t mark)
{
	struct rte_mbuf *m = frame(tpid, vid, 64);

	rte_pktmbuf_mtod(m, uint8_t *)[tpid == 0x0800 ? 20 : 24] = mark;
	return m;
}

static void test_worker_demux_burst(void **state)
{
	struct fwd_worker *w = rte_zmalloc("w", sizeof(*w), RTE_CACHE_LINE_SIZE);
	struct rte_mbuf *pkts[8];
	uint16_t a, b;

	(void)state;
	assert_non_null(w);
	two_ports();
	assert_int_equal(fwd_iface_vlan_add("p0.10", 0, 10, 0, &a), 0);
	assert_int_equal(fwd_iface_vlan_add("p0.20", 0, 20, 0, &b), 0);
	fwd_worker_set_input(FWD_MODE_L3, fake_input);
	fwd_worker_set_vlan_input(FWD_MODE_L3, fake_input);
	fwd_worker_set_vlan_tagged_input(FWD_MODE_L3, NULL); /* tags stripped */
	pkts[0] = marked(0x8100, 10, 1);
	pkts[1] = marked(0x8100, 20, 2);
	pkts[2] = marked(0x8100, 10, 3);
	pkts[3] = marked(0x0800, 0x4500, 4);
	pkts[4] = marked(0x8100, 99, 5); /* unknown */
	pkts[5] = marked(0x8100, 10, 6);
	pkts[6] = marked(0x8100, 10, 7);
	pkts[7] = marked(0x8100, 0, 8); /* priority-tagged */
	n_in = n_calls = 0;
	fwd_vlan_rx(w, &fwd_ports[0], pkts, 8);
	/* each interface sees its frames in order; runs of one go together */
	const uint16_t want_if[] = { a, b, a, 0, a, a, 0 };
	const uint8_t want_mark[] = { 1, 2, 3, 4, 6, 7, 8 };
	assert_int_equal(n_in, 7);
	assert_memory_equal(seen_if, want_if, sizeof(want_if));
	assert_memory_equal(seen_mark, want_mark, sizeof(want_mark));
	assert_int_equal(n_calls, 6); /* [a] [b] [a] [p0] [a a] [p0] */
	/* counted once: the VLAN's on it, the rest on the port */
	assert_int_equal(w->stats.port[a].rx_pkts, 4);
	assert_int_equal(w->stats.port[b].rx_pkts, 1);
	assert_int_equal(w->stats.port[0].rx_pkts, 3);
	assert_int_equal(w->stats.port[0].drop[FWD_DROP_VLAN_UNKNOWN], 1);
	/* a VLAN down: its frames dropped on it */
	assert_int_equal(fwd_iface_set_admin(b, false), 0);
	pkts[0] = marked(0x8100, 20, 9);
	fwd_vlan_rx(w, &fwd_ports[0], pkts, 1);
	assert_int_equal(w->stats.port[b].drop[FWD_DROP_PORT_DOWN], 1);
	/* a burst of one VLAN: one run, handed on in the rx array itself */
	for (uint8_t i = 0; i < 8; i++)
		pkts[i] = marked(0x8100, 10, (uint8_t)(20 + i));
	n_in = n_calls = 0;
	fwd_vlan_rx(w, &fwd_ports[0], pkts, 8);
	assert_int_equal(n_calls, 1);
	assert_int_equal(n_in, 8);
	assert_ptr_equal(seen_array, pkts);
	assert_int_equal(seen_if[7], a);
	assert_int_equal(seen_mark[7], 27);
	/* one unknown in the middle: still one run, the rest moved down */
	for (uint8_t i = 0; i < 8; i++)
		pkts[i] = marked(0x8100, i == 3 ? 99 : 10, (uint8_t)(30 + i));
	n_in = n_calls = 0;
	fwd_vlan_rx(w, &fwd_ports[0], pkts, 8);
	assert_int_equal(n_calls, 1);
	assert_int_equal(n_in, 7);
	assert_int_equal(seen_mark[3], 34);
	fwd_worker_set_vlan_input(FWD_MODE_L3, NULL);
	rte_free(w);
}

/* With an input for tagged frames, a VLAN's frames keep their tag (runs
 * split where the tag's place changes); the port's priority-tagged frames,
 * a VLAN that filters its input and unknown VLANs still lose it. */
static void test_worker_demux_tagged(void **state)
{
	struct fwd_worker *w = rte_zmalloc("w", sizeof(*w), RTE_CACHE_LINE_SIZE);
	struct rte_mbuf *pkts[6];
	uint16_t a, b;

	(void)state;
	assert_non_null(w);
	two_ports();
	assert_int_equal(fwd_iface_vlan_add("p0.10", 0, 10, 0, &a), 0);
	assert_int_equal(fwd_iface_vlan_add("p0.20", 0, 20, 0, &b), 0);
	fwd_worker_set_input(FWD_MODE_L3, fake_input);
	fwd_worker_set_vlan_input(FWD_MODE_L3, fake_input);
	fwd_worker_set_vlan_tagged_input(FWD_MODE_L3, fake_tagged_input);
	pkts[0] = marked(0x8100, 10, 1);
	pkts[1] = marked(0x8100, 10, 2);
	pkts[2] = marked(0x8100, 0, 3);  /* priority-tagged: the port's, stripped */
	pkts[3] = marked(0x8100, 99, 4); /* unknown */
	pkts[4] = marked(0x8100, 20, 5);
	pkts[5] = marked(0x0800, 0x4500, 6);
	n_in = n_calls = 0;
	fwd_vlan_rx(w, &fwd_ports[0], pkts, 6);
	const uint16_t want_if[] = { a, a, 0, b, 0 };
	const uint8_t want_mark[] = { 1, 2, 3, 5, 6 };
	assert_int_equal(n_in, 5);
	assert_int_equal(n_calls, 4); /* [a a] [p0] [b] [p0] */
	assert_memory_equal(seen_if, want_if, sizeof(want_if));
	assert_memory_equal(seen_mark, want_mark, sizeof(want_mark));
	assert_int_equal(w->stats.port[a].rx_pkts, 2);
	assert_int_equal(w->stats.port[0].rx_pkts, 3);
	assert_int_equal(w->stats.port[0].rx_bytes, 64 - 4); /* the unknown, untagged */
	/* a burst of one VLAN (priorities differ): one run, tags kept */
	for (uint8_t i = 0; i < 6; i++)
		pkts[i] = marked(0x8100, (uint16_t)((i & 7) << 13 | 10), (uint8_t)(40 + i));
	n_in = n_calls = 0;
	fwd_vlan_rx(w, &fwd_ports[0], pkts, 6);
	assert_int_equal(n_calls, 1);
	assert_int_equal(n_in, 6);
	assert_int_equal(seen_if[5], a);
	assert_int_equal(seen_mark[5], 45);
	/* ... and one of another VID at its end splits it */
	for (uint8_t i = 0; i < 6; i++)
		pkts[i] = marked(0x8100, i == 5 ? 20 : 10, (uint8_t)(50 + i));
	n_in = n_calls = 0;
	fwd_vlan_rx(w, &fwd_ports[0], pkts, 6);
	assert_int_equal(n_calls, 2);
	assert_int_equal(seen_if[5], b);
	assert_int_equal(seen_mark[5], 55);
	/* a VLAN that filters its input: its frames lose the tag first */
	fwd_ifaces[b].filter = FWD_FILTER_IN;
	fwd_ifaces[b].admin_up = 0;
	pkts[0] = marked(0x8100, 20, 7);
	fwd_vlan_rx(w, &fwd_ports[0], pkts, 1);
	assert_int_equal(w->stats.port[b].drop[FWD_DROP_PORT_DOWN], 1);
	assert_int_equal(w->stats.port[b].rx_bytes, 64 - 4);
	fwd_ifaces[b].filter = 0;
	fwd_worker_set_vlan_input(FWD_MODE_L3, NULL);
	fwd_worker_set_vlan_tagged_input(FWD_MODE_L3, NULL);
	rte_free(w);
}

/* What the control thread sends on a VLAN leaves its port tagged; on a
 * loopback it has nowhere to go. */
static void test_control_tx_tags(void **state)
{
	struct fwd_worker *w = rte_zmalloc("w", sizeof(*w), RTE_CACHE_LINE_SIZE);
	struct rte_mbuf *m;
	void *out;
	uint16_t v, lo;

	(void)state;
	assert_non_null(w);
	two_ports();
	w->tx_ring =
	        rte_ring_create("iface_ctltx", 16, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	assert_non_null(w->tx_ring);
	fwd.workers[0] = w;
	fwd.n_workers = 1;
	assert_int_equal(fwd_iface_vlan_add("p1.300", 1, 300, 0, &v), 0);
	assert_int_equal(fwd_iface_loopback_add("lo0", &lo), 0);
	assert_int_equal(fwd_control_tx(frame(0x0800, 0x4500, 64), v), 0);
	assert_int_equal(rte_ring_dequeue(w->tx_ring, &out), 0);
	m = out;
	assert_int_equal(m->port, 1); /* the parent port's buffer */
	assert_int_equal(m->pkt_len, 68);
	assert_int_equal(rte_pktmbuf_mtod(m, uint8_t *)[12], 0x81);
	assert_int_equal(
	        rte_pktmbuf_mtod(m, uint8_t *)[14] << 8 | rte_pktmbuf_mtod(m, uint8_t *)[15], 300);
	rte_pktmbuf_free(m);
	/* untagged on the port itself */
	assert_int_equal(fwd_control_tx(frame(0x0800, 0x4500, 64), 1), 0);
	assert_int_equal(rte_ring_dequeue(w->tx_ring, &out), 0);
	assert_int_equal(((struct rte_mbuf *)out)->pkt_len, 64);
	rte_pktmbuf_free(out);
	/* a loopback: counted as control_tx on it */
	assert_int_equal(fwd_control_tx(frame(0x0800, 0x4500, 64), lo), -ENODEV);
	assert_int_equal(fwd_control_ctrs(lo)->drop[FWD_DROP_CONTROL_TX], 1);
	assert_int_equal(rte_ring_count(w->tx_ring), 0);
	fwd.n_workers = 0;
	fwd.workers[0] = NULL;
	rte_ring_free(w->tx_ring);
	rte_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ports_are_ifaces),
		cmocka_unit_test(test_walk_unsynced_port),
		cmocka_unit_test(test_vlan_add_lookup_del),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_4094_vlans_and_full),
		cmocka_unit_test(test_del_hooks_in_order),
		cmocka_unit_test(test_demux),
		cmocka_unit_test(test_tag),
		cmocka_unit_test(test_worker_demux_burst),
		cmocka_unit_test(test_worker_demux_tagged),
		cmocka_unit_test(test_control_tx_tags),
	};

	if (test_eal_init("iface_test") < 0)
		return 1;
	pool = test_pool("iface_test", 256, 256);
	if (pool == NULL)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
