/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The packet path on arbitrary frames: each goes through the input of its
 * port's mode (l3, xconnect, bridge) on worker 0, which is not launched,
 * exactly as worker_rx hands it over; then the punt ring, the control
 * thread's handlers, its tx ring and the worker's tx buffers are drained.
 *
 * Input: records, each one byte then a frame.
 *   bits 0-2  ingress port index (mod the number of ports: p0..p5)
 *   bits 3-5  copies - 1: a burst of 1..8 identical frames
 *   bit 6     a 2-byte big-endian length follows; another record after the frame
 *   bit 7     the "NIC" checked the IPv4 header checksum (ol_flags good or bad)
 * A frame whose last byte is CHAIN_MARK arrives in two mbuf segments, as a
 * NIC that scatters would give it: the first holds (byte before it) mod
 * length bytes, at least one.
 * Neighbour and FDB state carries over from record to record (ARP learnt,
 * then a routed packet released) and is reset after the whole input.
 *
 * Invariants (abort on violation):
 * - ASan: no access outside a frame; the headroom and the tailroom of each
 *   received mbuf are poisoned while the dataplane handles it (the first
 *   PEEK bytes excepted: the fast path loads them before the length test,
 *   and ip4_burst reads any frame's IPv4 destination for a FIB prefetch,
 *   4 bytes further on in a VLAN's frame that keeps its tag;
 *   and the NH_TAG_LEN bytes before it: a next hop's header is one 16-byte
 *   store at the frame's start - 4, nexthop/nexthop.h nh_hdr_write);
 * - every frame sent is well-formed (packet_check.h); l2 frames unchanged;
 * - counters add up: summed over ports, rx + created == tx + drops +
 *   consumed + held (packets waiting for ARP), and tx is what the ports saw;
 * - the mempool in-use count moves only by the packets held, and is back
 *   where it was once the input is done and the hold queues are flushed.
 */
#include <sanitizer/asan_interface.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_ring.h>

#include "core/punt.h"
#include "core/worker.h"
#include "fuzz_env.h"
#include "ip4/icmp_priv.h"
#include "nexthop/nexthop.h"
#include "ip4/route.h"
#include "l3/l3.h"
#include "l2/bridge.h"
#include "nexthop/neigh_priv.h"
#include "reasm/reasm.h"
#include "packet_check.h"
#include "stats/stats_ctl.h"

/* ip4_fast: MACs, type, version/IHL, total length; ip6_fast: payload
 * length; ip4_prefetch_fib: the byte before the IPv4 destination and its
 * first three (14 + 15 .. 14 + 18; a VLAN's frame with its tag kept:
 * 18 + 15 .. 18 + 18) */
#define PEEK       37u
#define MAX_COPIES 8
#define FRAME_MAX  (RTE_MBUF_DEFAULT_DATAROOM + 64)
#define NO_PORT    0xff

struct acct {
	uint64_t rx, tx, drops, consumed, created, held;
	uint64_t frags; /* fragments to us in reassembly: counted, their mbufs freed */
	unsigned in_use;
};

/* The record being handled, for the tx callbacks. */
static struct {
	uint16_t in; /* ingress port index, NO_PORT while flushing state */
	const uint8_t *frame;
	unsigned len;
	unsigned frag_end;    /* the furthest an IPv4 fragment of this input reaches so
	                       * far: a packet held for ARP leaves with a later record */
	uint64_t seen;        /* frames the ports were asked to send */
	const uint8_t *input; /* the whole input: what a packet relayed can be */
	size_t input_len;
} cur = { .in = NO_PORT };

static struct fwd_worker *w;
static uint64_t fake_tsc;
static uint64_t static_neighs; /* the configured ones: what a reset leaves */

static uint64_t fake_fdb_clock(void)
{
	return fake_tsc;
}

static void check_l2_frame(const struct fwd_port *p, const uint8_t *f, unsigned len)
{
	const struct fwd_port *in = cur.in != NO_PORT ? &fwd_ports[cur.in] : NULL;

	CHECK(in != NULL && in->mode == p->mode, "%s: l2 frame from no l2 input", p->name);
	if (p->mode == FWD_MODE_XCONNECT)
		CHECK(in->peer == p->idx, "%s: cross-connect frame from %s", p->name, in->name);
	else
		CHECK(in != p && in->bridge == p->bridge, "%s: bridged frame from %s", p->name,
		      in->name);
	CHECK(len == cur.len && memcmp(f, cur.frame, len) == 0, "%s: l2 frame changed", p->name);
}

static uint16_t tx_check(uint16_t port_id, uint16_t queue, struct rte_mbuf *pkts[], uint16_t n,
                         void *arg)
{
	const struct fwd_port *p = arg;
	static uint8_t buf[FRAME_MAX];

	(void)port_id, (void)queue;
	for (uint16_t i = 0; i < n; i++) {
		unsigned len = frame_bytes(pkts[i], buf, sizeof(buf));
		/* a tag the NIC would insert (tx offload): the frame on the wire */
		if ((pkts[i]->ol_flags & RTE_MBUF_F_TX_VLAN) && len >= 12 &&
		    len + NH_TAG_LEN <= sizeof(buf)) {
			memmove(buf + 12 + NH_TAG_LEN, buf + 12, len - 12);
			buf[12] = 0x81, buf[13] = 0x00;
			buf[14] = (uint8_t)(pkts[i]->vlan_tci >> 8);
			buf[15] = (uint8_t)pkts[i]->vlan_tci;
			len += NH_TAG_LEN;
		}
		if (p->mode == FWD_MODE_L3)
			check_l3_frame(p, buf, len, cur.frag_end, cur.input, cur.input_len);
		else
			check_l2_frame(p, buf, len);
	}
	cur.seen += n;
	return n;
}

static void acct_read(struct acct *a)
{
	memset(a, 0, sizeof(*a));
	/* every interface: a VLAN's frames count on the VLAN, what it sends on
	 * the VLAN and its port (doc/architecture.md, "Counters"): tx of ports */
	for (int p = fwd_iface_next_id(-1); p >= 0; p = fwd_iface_next_id(p)) {
		struct fwd_port_ctrs c;
		fwd_stats_port_get((unsigned)p, &c);
		a->rx += c.rx_pkts;
		a->tx += p < FWD_MAX_PORTS ? c.tx_pkts : 0;
		a->drops += fwd_stats_drops(&c);
		a->consumed += c.consumed;
		a->created += c.created;
	}
	a->held = neigh_held_total();
	a->frags = reasm_held();
	a->in_use = rte_mempool_in_use_count(fwd.pool);
}

static bool verbose; /* PACKET_FUZZ_VERBOSE=1: one line per record, for triage */

static void acct_print(const char *what, const struct acct *a, const struct acct *b)
{
	fprintf(stderr,
	        "%s: rx %" PRIu64 " created %" PRIu64 " tx %" PRIu64 " drops %" PRIu64
	        " consumed %" PRIu64 " held %" PRIu64 "->%" PRIu64 " in use %u->%u\n",
	        what, b->rx - a->rx, b->created - a->created, b->tx - a->tx, b->drops - a->drops,
	        b->consumed - a->consumed, a->held, b->held, a->in_use, b->in_use);
}

static void acct_check(const struct acct *a, const struct acct *b, uint64_t seen)
{
	if (verbose)
		acct_print(cur.in == NO_PORT ? "reset" : fwd_ports[cur.in].name, a, b);
	uint64_t in = b->rx - a->rx + b->created - a->created + a->held + a->frags;
	uint64_t out = b->tx - a->tx + b->drops - a->drops + b->consumed - a->consumed + b->held +
	               b->frags;

	CHECK(in == out,
	      "rx %" PRIu64 " + created %" PRIu64 " + held before %" PRIu64 " != tx %" PRIu64
	      " + drops %" PRIu64 " + consumed %" PRIu64 " + held %" PRIu64,
	      b->rx - a->rx, b->created - a->created, a->held, b->tx - a->tx, b->drops - a->drops,
	      b->consumed - a->consumed, b->held);
	CHECK(b->tx - a->tx == seen, "tx counted %" PRIu64 ", ports sent %" PRIu64, b->tx - a->tx,
	      seen);
	CHECK(b->in_use + a->held == a->in_use + b->held,
	      "mbufs in use %u -> %u with %" PRIu64 " -> %" PRIu64 " held", a->in_use, b->in_use,
	      a->held, b->held);
}

/* The worker's loop after its rx bursts: punts out, control tx in, tx flushed. */
static void drain(void)
{
	struct rte_mbuf *m;
	unsigned moved;

	do {
		if (w->n_punt != 0)
			fwd_punt_flush(w);
		moved = fwd_punt_drain();
		while (rte_ring_sc_dequeue(w->tx_ring, (void **)&m) == 0) {
			CHECK(m->port < fwd_n_ports, "control tx to port %u", m->port);
			fwd_tx(w, m->port, m);
			moved++;
		}
		for (unsigned p = 0; p < fwd_n_ports; p++)
			if (w->tx[p].n != 0)
				fwd_tx_flush(w, p);
	} while (moved != 0);
}

/* Out of bounds for the dataplane: the buffer around the frame. */
static void poison(struct rte_mbuf *m, bool on)
{
	uint8_t *buf = m->buf_addr, *data = rte_pktmbuf_mtod(m, uint8_t *);
	uint8_t *end = data + RTE_MAX((unsigned)m->data_len, PEEK);

	if (on) {
		if (data - buf > NH_TAG_LEN)
			ASAN_POISON_MEMORY_REGION(buf, data - buf - NH_TAG_LEN);
		ASAN_POISON_MEMORY_REGION(end, buf + m->buf_len - end);
	} else {
		ASAN_UNPOISON_MEMORY_REGION(buf, m->buf_len);
	}
}

/* What a NIC that checks IPv4 header checksums would flag. */
static uint64_t rx_cksum_flags(const uint8_t *f, unsigned len)
{
	unsigned hlen;

	if (len < ETH_LEN + 20 || be16_at(f + 12) != 0x0800 || f[ETH_LEN] >> 4 != 4)
		return 0;
	hlen = (f[ETH_LEN] & 0xf) * 4u;
	if (hlen < 20 || ETH_LEN + hlen > len)
		return 0;
	return check_ip_cksum(f + ETH_LEN, hlen) ? RTE_MBUF_F_RX_IP_CKSUM_GOOD
	                                         : RTE_MBUF_F_RX_IP_CKSUM_BAD;
}

#define CHAIN_MARK 0xc5

static struct rte_mbuf *rx_mbuf(const struct fwd_port *p, const uint8_t *f, unsigned len,
                                bool offload)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(fwd.pool);
	unsigned first = len;

	CHECK(m != NULL, "mempool empty: %u in use", rte_mempool_in_use_count(fwd.pool));
	if (len >= 3 && f[len - 1] == CHAIN_MARK)
		first = RTE_MAX(f[len - 2] % len, 1u);
	memcpy(rte_pktmbuf_append(m, (uint16_t)first), f, first);
	if (first < len) {
		struct rte_mbuf *s = rte_pktmbuf_alloc(fwd.pool);
		CHECK(s != NULL, "mempool empty: %u in use", rte_mempool_in_use_count(fwd.pool));
		memcpy(rte_pktmbuf_append(s, (uint16_t)(len - first)), f + first, len - first);
		CHECK(rte_pktmbuf_chain(m, s) == 0, "chain");
	}
	m->port = p->port_id;
	if (offload)
		m->ol_flags |= rx_cksum_flags(f, len);
	return m;
}

/* As worker_rx: counted, then the mode's input (or a port_down drop); a
 * port with VLANs through the worker's demux, which counts each frame. */
static void rx_burst(const struct fwd_port *p, struct rte_mbuf **pkts, uint16_t n)
{
	if (p->admin_up && p->vlan_map != NULL) {
		fwd_iface_port_sync(p->idx);
		fwd_vlan_rx(w, p, pkts, n);
		return;
	}
	w->stats.port[p->idx].rx_pkts += n;
	if (p->admin_up) {
		fwd_iface_port_sync(p->idx);
		fwd_worker_input(p->mode)(w, &fwd_ifaces[p->idx], pkts, n);
	} else {
		w->stats.port[p->idx].rx_bytes += fwd_pkts_bytes(pkts, n);
		fwd_drop_bulk(w, p->idx, FWD_DROP_PORT_DOWN, pkts, n);
	}
}

static void one_record(uint8_t sel, const uint8_t *f, unsigned len)
{
	const struct fwd_port *p = &fwd_ports[(sel & 7) % fwd_n_ports];
	struct rte_mbuf *pkts[MAX_COPIES];
	uint16_t n = ((sel >> 3) & 7) + 1;
	struct acct a, b;

	len = RTE_MIN(len, (unsigned)rte_pktmbuf_data_room_size(fwd.pool) - RTE_PKTMBUF_HEADROOM);
	cur.in = p->idx;
	cur.frame = f;
	cur.len = len;
	if (len >= ETH_LEN + 20 && be16_at(f + 12) == 0x0800)
		cur.frag_end = RTE_MAX(cur.frag_end, ip_frag_end(f + ETH_LEN));
	cur.seen = 0;
	fake_tsc += bridge_note_gap + 1; /* a new learn note is never a repeat */
	acct_read(&a);
	for (uint16_t i = 0; i < n; i++)
		pkts[i] = rx_mbuf(p, f, len, sel & 0x80);
	for (uint16_t i = 0; i < n; i++)
		poison(pkts[i], true);
	rx_burst(p, pkts, n);
	drain();
	for (uint16_t i = 0; i < n; i++)
		poison(pkts[i], false);
	bridge_poll(fake_tsc);
	acct_read(&b);
	acct_check(&a, &b, cur.seen);
}

/* Back to the configured state: no dynamic neighbours, held packets or FDB entries. */
static void reset(void)
{
	unsigned rounds = 0;
	struct acct a, b;

	cur.in = NO_PORT;
	cur.frag_end = 0;
	cur.seen = 0;
	acct_read(&a);
	/* a flush walks the whole table: only when something was learnt */
	while (neigh_count() != static_neighs || neigh_held_total() != 0) {
		CHECK(rounds++ < 8, "hold queues do not drain: %u held", neigh_held_total());
		neigh_flush(NEIGH_ALL, false);
		drain();
	}
	for (unsigned i = 0; i < FWD_MAX_BRIDGES; i++)
		if (bridge_table[i].used)
			fdb_flush(&bridge_table[i].fdb);
	reasm_flush();
	memset(bridge_wstats[w->index].recent, 0, sizeof(bridge_wstats[w->index].recent));
	nh_reclaim();
	acct_read(&b);
	acct_check(&a, &b, cur.seen);
}

/* A FIFO pool (no per-lcore cache): a freed mbuf comes back only after all
 * the others, so the poison on a buffer never meets a legitimate new owner. */
static void fifo_pool(void)
{
	uint16_t room = rte_pktmbuf_data_room_size(fwd.pool);

	fwd.pool = rte_pktmbuf_pool_create("fuzz_fifo", fwd.pool->size, 0, 0, room,
	                                   (int)rte_socket_id());
	CHECK(fwd.pool != NULL, "fifo pool: %s", rte_strerror(rte_errno));
}

/* No default route, so that some destinations have none (ICMP net unreachable). */
static void routes(void)
{
	struct fwd_ip4_prefix all = { 0, 0 };
	struct l3_route r;
	char err[256];

	CHECK(route4_del(0, &all, err, sizeof(err)) == 0, "route del 0/0: %s", err);
	CHECK(l3_route_parse_line("198.51.100.0/24 via 10.0.1.2", &r, err, sizeof(err)) == 0 &&
	              l3_route_add(&r, err, sizeof(err)) >= 0,
	      "route add: %s", err);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	verbose = getenv("PACKET_FUZZ_VERBOSE") != NULL;
	fuzz_env_up();
	fifo_pool();
	w = fwd.workers[0];
	fdb_clock = fake_fdb_clock;
	icmp4_ratelimit_set(0); /* every error built: the limiter is time, not input */
	routes();
	drain(); /* what start-up queued, unchecked (built before the MACs were fixed) */
	static_neighs = neigh_count();
	for (unsigned i = 0; i < fwd_n_ports; i++)
		CHECK(rte_eth_add_tx_callback(fwd_ports[i].port_id, w->txq, tx_check,
		                              &fwd_ports[i]) != NULL,
		      "tx callback: %s", rte_strerror(rte_errno));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct acct start, end;

	acct_read(&start);
	cur.input = data;
	cur.input_len = size;
	while (size > 0) {
		uint8_t sel = data[0];
		size_t len = size - 1, skip = 1;
		if ((sel & 0x40) && size >= 3) {
			len = RTE_MIN((size_t)be16_at(data + 1), size - 3);
			skip = 3;
		}
		one_record(sel, data + skip, (unsigned)len);
		data += skip + len;
		size -= skip + len;
	}
	reset();
	acct_read(&end);
	CHECK(end.in_use == start.in_use && end.held == 0, "mbufs in use %u -> %u after reset",
	      start.in_use, end.in_use);
	return 0;
}
