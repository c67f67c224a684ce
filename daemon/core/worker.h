/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Worker lcores: run-to-completion loops. A worker owns the rx queues
 * assigned to it and tx queue `txq` (= its index) on every port, so no two
 * threads ever touch the same queue. Its state is allocated on its own
 * socket and written by it alone (control reads counters).
 */
#ifndef FWD_WORKER_H
#define FWD_WORKER_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "core/config.h"
#include "core/counters.h"
#include "core/daemon.h"
#include "core/iface.h"
#include "core/ports.h"
#include "core/punt.h"

#define FWD_BURST_MAX 512
#define FWD_MAX_RXQ   64 /* rx queues per worker */
#define FWD_TXBUF_CAP 64 /* mbufs buffered per egress port before a flush */

struct rte_ring;

struct fwd_rxq {
	uint16_t port_id; /* DPDK id */
	uint16_t queue;
	uint8_t port; /* port index */
};

struct fwd_txbuf {
	uint16_t n;
	uint32_t bytes; /* sum of pkt_len of the buffered mbufs */
	struct rte_mbuf *pkts[FWD_TXBUF_CAP];
};

/*
 * Taps: a feature that wants to see a port's packets (capture) sets fwd_tap
 * once, then a port's fwd_tap_dirs bits while it listens; workers offer it
 * every rx burst and every tx flush on that port. Off, the cost is one
 * well-predicted branch on a read-mostly byte per burst. fwd_tap_dirs:
 * written by control, read by workers; the tap's own state must be in place
 * (and a write barrier made) before a bit is set.
 */
#define FWD_TAP_RX 0x1
#define FWD_TAP_TX 0x2

typedef void (*fwd_tap_fn)(unsigned worker, uint8_t port, uint16_t queue, uint8_t dir,
                           struct rte_mbuf *const *pkts, uint16_t n);

extern volatile uint8_t fwd_tap_dirs[FWD_MAX_PORTS];
extern fwd_tap_fn fwd_tap;

static inline void fwd_tap_offer(unsigned worker, uint8_t port, uint16_t queue, uint8_t dir,
                                 struct rte_mbuf *const *pkts, uint16_t n)
{
	if (unlikely(fwd_tap_dirs[port] & dir))
		fwd_tap(worker, port, queue, dir, pkts, n);
}

/*
 * Drop taps: a feature that wants to see dropped packets (capture drops)
 * sets fwd_drop_tap once, then fwd_drop_taps[r] for each reason r it wants;
 * every counted drop of such a reason is offered to it before the mbuf is
 * freed, by the workers and by the control thread (worker index
 * FWD_DROP_TAP_CONTROL). Off, the cost is one well-predicted branch on a
 * read-mostly byte per drop call. Written by control, read by everyone; the
 * tap's state must be in place (and a write barrier made) before a byte is
 * set.
 */
#define FWD_DROP_TAP_CONTROL FWD_MAX_WORKERS

typedef void (*fwd_drop_tap_fn)(unsigned worker, uint16_t iface, enum fwd_drop_reason r,
                                struct rte_mbuf *const *pkts, uint16_t n);

extern volatile uint8_t fwd_drop_taps[FWD_DROP_MAX];
extern fwd_drop_tap_fn fwd_drop_tap;

static inline void fwd_drop_offer(unsigned worker, uint16_t iface, enum fwd_drop_reason r,
                                  struct rte_mbuf *const *pkts, uint16_t n)
{
	if (unlikely(fwd_drop_taps[r]))
		fwd_drop_tap(worker, iface, r, pkts, n);
}

/*
 * Filters: a feature that filters an interface's traffic (acl/) sets
 * fwd_filter once, then the interface's filter bits (struct fwd_iface, and
 * struct fwd_port for a port) while one is attached. Workers offer it every
 * rx run of such an interface before the mode's input (FWD_FILTER_IN; a
 * port with VLANs: after the demux, each interface its own) and every tx
 * burst of a port after the route lookup, before the capture tap
 * (FWD_FILTER_OUT); packets the control thread sends are not offered. The filter keeps what passes
 * at the front of pkts and returns how many; the others it consumed and counted (their rx bytes
 * included on ingress; on egress it takes theirs off *bytes). Off, the cost is one well-predicted
 * branch on a byte the worker reads anyway. The filter's state must be in place before a bit is
 * set.
 */
#define FWD_FILTER_IN  0x1
#define FWD_FILTER_OUT 0x2

struct fwd_worker;
typedef uint16_t (*fwd_filter_fn)(struct fwd_worker *w, uint16_t iface, uint8_t dir,
                                  struct rte_mbuf **pkts, uint16_t n, uint64_t *bytes);

extern fwd_filter_fn fwd_filter;

/*
 * Bonds (bond/, doc/architecture.md "Bonds"): the worker flushes a bond's
 * tx buffer (struct fwd_port.is_bond) through fwd_bond_xmit, which spreads
 * the burst over the members (fwd_tx_burst on each) and counts the bond.
 * Set once by bond/ before workers launch; core stays below bond/.
 */
struct fwd_worker;
typedef void (*fwd_bond_xmit_fn)(struct fwd_worker *w, uint8_t bond, struct rte_mbuf **pkts,
                                 uint16_t n, uint64_t bytes);
extern fwd_bond_xmit_fn fwd_bond_xmit;

struct fwd_worker {
	/* set by control before launch */
	unsigned index;
	unsigned lcore;
	uint16_t txq;
	uint16_t burst;
	uint32_t idle_sleep_us; /* dataplane.idle_sleep_us: 0 = poll without a pause */
	unsigned n_rxq;
	struct fwd_rxq rxq[FWD_MAX_RXQ];
	struct rte_ring *tx_ring;   /* control -> worker: mbufs to send, m->port = port index */
	struct rte_ring *punt_ring; /* worker -> control (shared, multi-producer) */
	volatile bool stop;         /* written by control at shutdown */

	/* worker only */
	struct fwd_wstats stats __rte_cache_aligned;
	uint32_t tx_dirty; /* ports whose tx buffer holds packets */
	struct fwd_txbuf tx[FWD_MAX_PORTS] __rte_cache_aligned;
	uint16_t n_punt;
	struct rte_mbuf *punt[FWD_BURST_MAX];
	/* core/punt.c's policer: a bucket per reason, NDP's per port and kind,
	 * LACP's per port */
	struct fwd_punt_bucket punt_bkt[FWD_PUNT_MAX];
	struct fwd_punt_bucket punt_nd[FWD_MAX_PORTS][FWD_PUNT_ND_MAX];
	struct fwd_punt_bucket punt_lacp[FWD_MAX_PORTS];
} __rte_cache_aligned;

/*
 * A mode's input: handles a burst received on interface `in` (all mbufs
 * consumed; a VLAN's frames untagged). The worker has counted the packets;
 * the input adds their bytes to stats.port[in->id].rx_bytes, in whatever
 * loop it already runs.
 */
typedef void (*fwd_input_fn)(struct fwd_worker *w, const struct fwd_iface *in,
                             struct rte_mbuf **pkts, uint16_t n);

/* Features register the input function of their port mode at startup. */
void fwd_worker_set_input(enum fwd_port_mode mode, fwd_input_fn fn);
/*
 * The input of a mode for the VLAN interfaces (ids from FWD_MAX_PORTS up):
 * a feature registers it once everything it keys by interface takes those
 * ids; until then a VLAN's frames are dropped as unsupported on it.
 */
void fwd_worker_set_vlan_input(enum fwd_port_mode mode, fwd_input_fn fn);
/*
 * The input of a mode for a VLAN's frames that still hold their tag (the
 * demux leaves a tag read from the frame there: the header is 18 bytes,
 * the IP header at 18). Optional: without one, or while the VLAN is down or
 * filters its input, the worker strips the tags and calls the input above.
 * Set after that input: fwd_worker_set_vlan_input forgets it.
 */
void fwd_worker_set_vlan_tagged_input(enum fwd_port_mode mode, fwd_input_fn fn);
fwd_input_fn fwd_worker_vlan_tagged_input(enum fwd_port_mode mode);
bool fwd_worker_has_input(enum fwd_port_mode mode);
/*
 * l3 ports carry IPv4 and IPv6: the l3 input (ip4/input.c) hands the IPv6
 * frames of a burst (ethertype 0x86dd) to the input ip6 registers here;
 * without one they are dropped as unsupported.
 */
void fwd_worker_set_ip6_input(fwd_input_fn fn);
extern fwd_input_fn fwd_ip6_input;

/*
 * The burst of a port with a VLAN map (core/iface.h; the worker's rx calls
 * it, tests drive it): each frame to its interface (fwd_vlan_demux), then
 * runs of one interface to its input, so frames keep their order within an
 * interface. Each frame is counted once: on the port (untagged,
 * priority-tagged, or dropped as vlan_unknown or truncated) or on its VLAN.
 */
void fwd_vlan_rx(struct fwd_worker *w, const struct fwd_port *p, struct rte_mbuf **pkts,
                 uint16_t n);

/*
 * The burst of a bond's member (the worker's rx calls it, the packet fuzzer
 * drives it): counted on the member, slow protocols to the control thread,
 * the rest the bond's input while the member collects.
 */
void fwd_member_rx(struct fwd_worker *w, const struct fwd_port *p, struct rte_mbuf **pkts,
                   uint16_t n);

/* The registered input (the packet fuzzer drives it without launching workers). */
fwd_input_fn fwd_worker_input(enum fwd_port_mode mode);

int fwd_workers_create(const struct fwd_config *cfg);
int fwd_workers_launch(void);
void fwd_workers_stop(void);
void fwd_workers_free(void);

/* Hand a packet built by the control thread to a worker for transmission
 * on interface iface (a VLAN's leave its port tagged): always the same
 * worker for a port, so packets leave a port in the order they were handed
 * over. */
int fwd_control_tx(struct rte_mbuf *m, uint16_t iface);

static inline uint64_t fwd_pkts_bytes(struct rte_mbuf *const *pkts, uint16_t n)
{
	uint64_t a = 0, b = 0;
	uint16_t i = 0;

	/* two chains of additions: the loads of one hide behind the other */
	for (; i + 2 <= n; i += 2) {
		a += pkts[i]->pkt_len;
		b += pkts[i + 1]->pkt_len;
	}
	if (i < n)
		a += pkts[i]->pkt_len;
	return a + b;
}

static inline void fwd_drop(struct fwd_worker *w, uint16_t port, enum fwd_drop_reason r,
                            struct rte_mbuf *m)
{
	w->stats.port[port].drop[r]++;
	fwd_drop_offer(w->index, port, r, &m, 1);
	rte_pktmbuf_free(m);
}

static inline void fwd_drop_bulk(struct fwd_worker *w, uint16_t port, enum fwd_drop_reason r,
                                 struct rte_mbuf **pkts, uint16_t n)
{
	w->stats.port[port].drop[r] += n;
	fwd_drop_offer(w->index, port, r, pkts, n);
	rte_pktmbuf_free_bulk(pkts, n);
}

void fwd_tx_flush(struct fwd_worker *w, uint8_t port);

/* A routed frame leaving tagged on VLAN interface iface: its port counts
 * it when sent, the VLAN here (as Linux counts a VLAN's traffic on both). */
static inline void fwd_vlan_tx_count(struct fwd_worker *w, uint16_t iface, uint32_t bytes)
{
	w->stats.port[iface].tx_pkts++;
	w->stats.port[iface].tx_bytes += bytes;
}

/* Buffer m for transmission on port (index); flushed at the end of the loop. */
static inline void fwd_tx(struct fwd_worker *w, uint8_t port, struct rte_mbuf *m)
{
	struct fwd_txbuf *b = &w->tx[port];

	if (unlikely(b->n == FWD_TXBUF_CAP))
		fwd_tx_flush(w, port);
	b->bytes += m->pkt_len;
	b->pkts[b->n++] = m;
	w->tx_dirty |= UINT32_C(1) << port;
}

/*
 * A burst's transmissions with the egress buffer of the last port used held
 * in registers: a pointer to its next free slot and the bytes of the run
 * (the count and bytes are written back once per run, not per packet).
 * Anything else that touches w->tx (fwd_tx, a flush, a slow path that may
 * send) must come after fwd_txc_sync.
 */
struct fwd_txc {
	struct fwd_txbuf *b;
	struct rte_mbuf **out; /* b's next free slot */
	uint32_t bytes;
	uint8_t port; /* FWD_MAX_PORTS: none yet */
};

#define FWD_TXC_INIT                                                      \
	{                                                                 \
		.b = NULL, .out = NULL, .bytes = 0, .port = FWD_MAX_PORTS \
	}

/* Write a run of `bytes` that ends at `out` back into port's buffer b. */
static inline void fwd_txbuf_commit(struct fwd_worker *w, struct fwd_txbuf *b, unsigned port,
                                    struct rte_mbuf **out, uint32_t bytes)
{
	uint16_t n = (uint16_t)(out - b->pkts);

	b->n = n;
	b->bytes += bytes;
	if (n != 0)
		w->tx_dirty |= UINT32_C(1) << port;
}

static inline void fwd_txc_sync(struct fwd_worker *w, struct fwd_txc *c)
{
	if (c->port != FWD_MAX_PORTS) {
		fwd_txbuf_commit(w, c->b, c->port, c->out, c->bytes);
		c->bytes = 0;
		c->port = FWD_MAX_PORTS;
	}
}

static inline void fwd_txc_open(struct fwd_worker *w, struct fwd_txc *c, uint8_t port)
{
	fwd_txc_sync(w, c);
	c->b = &w->tx[port];
	c->out = c->b->pkts + c->b->n;
	c->port = port;
}

/* Buffer m for port; the buffer is flushed first when full. */
static inline void fwd_txc_put(struct fwd_worker *w, struct fwd_txc *c, uint8_t port,
                               struct rte_mbuf *m, uint32_t len)
{
	if (unlikely(port != c->port))
		fwd_txc_open(w, c, port);
	if (unlikely(c->out == c->b->pkts + FWD_TXBUF_CAP)) {
		fwd_txc_sync(w, c);
		fwd_tx_flush(w, port);
		fwd_txc_open(w, c, port);
	}
	*c->out++ = m;
	c->bytes += len;
}

/*
 * Make room for `need` (at most FWD_TXBUF_CAP) more packets in the buffer of
 * every port, by flushing those that have less: a caller that then adds at
 * most that many needs no test for a full buffer (the IPv4 fast path).
 */
static inline void fwd_tx_reserve(struct fwd_worker *w, unsigned need)
{
	uint32_t dirty = w->tx_dirty;

	while (dirty != 0) {
		unsigned port = (unsigned)__builtin_ctz(dirty);

		dirty &= dirty - 1;
		if (w->tx[port].n > FWD_TXBUF_CAP - need)
			fwd_tx_flush(w, (uint8_t)port);
	}
}

void fwd_punt_flush(struct fwd_worker *w);

/* Stage m for the control thread; `drop` is counted against in_port when
 * the hand-over succeeds (FWD_PUNT_NO_DROP: not a drop). */
static inline void fwd_punt(struct fwd_worker *w, struct rte_mbuf *m, enum fwd_punt_reason reason,
                            uint16_t in_port, uint16_t out_port, uint32_t aux, uint8_t drop)
{
	struct fwd_punt_meta *meta = fwd_punt_meta(m);

	meta->reason = reason;
	meta->in_port = in_port;
	meta->out_port = out_port;
	meta->drop = drop;
	meta->aux = aux;
	if (unlikely(w->n_punt == FWD_BURST_MAX))
		fwd_punt_flush(w);
	w->punt[w->n_punt++] = m;
}

/*
 * Send a whole burst on port now (no buffering); unsent mbufs are freed
 * and counted as tx_full. Used when a burst goes to one port (xconnect).
 * bytes is the sum of their pkt_len.
 */
void fwd_tx_burst(struct fwd_worker *w, uint8_t port, struct rte_mbuf **pkts, uint16_t n,
                  uint64_t bytes);

#endif
