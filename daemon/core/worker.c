/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring.h>

#include "core/daemon.h"
#include "core/log.h"
#include "core/worker.h"

#define CONTROL_TX_RING 1024
/* Empty loops in a row before a worker with dataplane.idle_sleep_us sleeps:
 * a few µs of nothing, so a worker under traffic never does */
#define IDLE_LOOPS 64

static fwd_input_fn mode_input[FWD_MODE_BRIDGE + 1];
static fwd_input_fn vlan_input[FWD_MODE_BRIDGE + 1];
static fwd_input_fn vlan_tagged_input[FWD_MODE_BRIDGE + 1];

volatile uint8_t fwd_tap_dirs[FWD_MAX_PORTS];
fwd_tap_fn fwd_tap;
volatile uint8_t fwd_drop_taps[FWD_DROP_MAX];
fwd_drop_tap_fn fwd_drop_tap;

fwd_input_fn fwd_ip6_input;
fwd_filter_fn fwd_filter;
fwd_bond_xmit_fn fwd_bond_xmit;

void fwd_worker_set_ip6_input(fwd_input_fn fn)
{
	fwd_ip6_input = fn;
}

void fwd_worker_set_input(enum fwd_port_mode mode, fwd_input_fn fn)
{
	mode_input[mode] = fn;
}

void fwd_worker_set_vlan_input(enum fwd_port_mode mode, fwd_input_fn fn)
{
	vlan_input[mode] = fn;
	vlan_tagged_input[mode] = NULL; /* it belonged to the input replaced */
}

void fwd_worker_set_vlan_tagged_input(enum fwd_port_mode mode, fwd_input_fn fn)
{
	vlan_tagged_input[mode] = fn;
}

fwd_input_fn fwd_worker_vlan_tagged_input(enum fwd_port_mode mode)
{
	return vlan_tagged_input[mode];
}

bool fwd_worker_has_input(enum fwd_port_mode mode)
{
	return mode_input[mode] != NULL;
}

fwd_input_fn fwd_worker_input(enum fwd_port_mode mode)
{
	return mode_input[mode];
}

/* Count and free the mbufs a tx burst left unsent. */
static void tx_unsent(struct fwd_worker *w, uint8_t port, struct rte_mbuf **pkts, uint16_t n,
                      enum fwd_drop_reason reason, uint64_t *bytes)
{
	for (uint16_t i = 0; i < n; i++)
		*bytes -= pkts[i]->pkt_len;
	fwd_drop_bulk(w, port, reason, pkts, n);
}

/* A bond's burst: to the members by the hook bond/ registered, which
 * counts it on them and on the bond. */
static void __rte_noinline bond_tx(struct fwd_worker *w, const struct fwd_port *p,
                                   struct rte_mbuf **pkts, uint16_t n, uint64_t bytes)
{
	if (likely(p->admin_up && fwd_bond_xmit != NULL)) {
		fwd_tap_offer(w->index, p->idx, w->txq, FWD_TAP_TX, pkts, n);
		fwd_bond_xmit(w, p->idx, pkts, n, bytes);
		return;
	}
	fwd_drop_bulk(w, p->idx, FWD_DROP_PORT_DOWN, pkts, n);
}

static __rte_always_inline void tx_burst(struct fwd_worker *w, uint8_t port, struct rte_mbuf **pkts,
                                         uint16_t n, uint64_t bytes, bool filtered)
{
	const struct fwd_port *p = &fwd_ports[port];
	struct fwd_port_ctrs *c = &w->stats.port[port];
	uint16_t sent = 0;

	if (filtered && unlikely(p->filter & FWD_FILTER_OUT) &&
	    (n = fwd_filter(w, port, FWD_FILTER_OUT, pkts, n, &bytes)) == 0)
		return;
	if (unlikely(p->is_bond)) {
		bond_tx(w, p, pkts, n, bytes);
		return;
	}
	if (likely(p->admin_up)) {
		fwd_tap_offer(w->index, port, w->txq, FWD_TAP_TX, pkts, n);
		sent = rte_eth_tx_burst(p->port_id, w->txq, pkts, n);
	}
	if (unlikely(sent < n))
		tx_unsent(w, port, pkts + sent, n - sent,
		          p->admin_up ? FWD_DROP_TX_FULL : FWD_DROP_PORT_DOWN, &bytes);
	c->tx_pkts += sent;
	c->tx_bytes += bytes;
}

void fwd_tx_burst(struct fwd_worker *w, uint8_t port, struct rte_mbuf **pkts, uint16_t n,
                  uint64_t bytes)
{
	tx_burst(w, port, pkts, n, bytes, true);
}

/* The buffer's flush, written out where the worker loop flushes. */
static __rte_always_inline void tx_flush(struct fwd_worker *w, uint8_t port)
{
	struct fwd_txbuf *b = &w->tx[port];

	tx_burst(w, port, b->pkts, b->n, b->bytes, true);
	b->n = 0;
	b->bytes = 0;
	w->tx_dirty &= ~(UINT32_C(1) << port);
}

void fwd_tx_flush(struct fwd_worker *w, uint8_t port)
{
	tx_flush(w, port);
}

/* A run of frames of VLAN interface ifp, counted on it. */
static void vlan_run(struct fwd_worker *w, const struct fwd_iface *ifp, struct rte_mbuf **pkts,
                     uint16_t n)
{
	fwd_input_fn in = vlan_input[ifp->mode];

	w->stats.port[ifp->id].rx_pkts += n;
	if (likely(ifp->admin_up && in != NULL)) {
		if (unlikely(ifp->filter & FWD_FILTER_IN) &&
		    (n = fwd_filter(w, ifp->id, FWD_FILTER_IN, pkts, n, NULL)) == 0)
			return;
		in(w, ifp, pkts, n);
		return;
	}
	w->stats.port[ifp->id].rx_bytes += fwd_pkts_bytes(pkts, n);
	fwd_drop_bulk(w, ifp->id, ifp->admin_up ? FWD_DROP_UNSUPPORTED : FWD_DROP_PORT_DOWN, pkts,
	              n);
}

/* A run of frames of one interface: the port's own, or one of its VLANs;
 * with the tag still in the frame if `tagged`, which only a VLAN's input
 * for tagged frames takes as it is (admin up, no input filter). */
static __rte_always_inline void iface_run(struct fwd_worker *w, const struct fwd_port *p,
                                          uint16_t id, bool tagged, struct rte_mbuf **pkts,
                                          uint16_t n)
{
	if (tagged) {
		const struct fwd_iface *ifp = &fwd_ifaces[id];
		fwd_input_fn in = vlan_tagged_input[ifp->mode];

		if (likely(id >= FWD_MAX_PORTS && in != NULL && ifp->admin_up &&
		           !(ifp->filter & FWD_FILTER_IN))) {
			w->stats.port[id].rx_pkts += n;
			in(w, ifp, pkts, n);
			return;
		}
		fwd_vlan_strip_all(pkts, n); /* to an input of 14-byte headers */
	}
	if (id < FWD_MAX_PORTS) {
		w->stats.port[p->idx].rx_pkts += n;
		if (unlikely(p->filter & FWD_FILTER_IN) &&
		    (n = fwd_filter(w, id, FWD_FILTER_IN, pkts, n, NULL)) == 0)
			return;
		mode_input[p->mode](w, &fwd_ifaces[id], pkts, n);
	} else {
		/* id is a map entry, never FWD_IFACE_NONE (the caller drops those) */
		// cppcheck-suppress arrayIndexOutOfBoundsCond
		vlan_run(w, &fwd_ifaces[id], pkts, n);
	}
}

/* A frame the demux found no interface for, counted on its port (as
 * received: without a tag it still holds). */
static void __rte_noinline vlan_rx_drop(struct fwd_worker *w, const struct fwd_port *p,
                                        struct rte_mbuf *m, uint8_t why, bool tagged)
{
	if (tagged)
		fwd_vlan_strip(m, rte_pktmbuf_mtod(m, uint8_t *));
	w->stats.port[p->idx].rx_pkts++;
	w->stats.port[p->idx].rx_bytes += m->pkt_len;
	fwd_drop(w, p->idx, (enum fwd_drop_reason)why, m);
}

/* The 802.1Q tag at bytes 12-15 as a little-endian load: TPID and VID (the
 * priority and DEI bits masked out). */
#define TAG_MASK rte_cpu_to_le_32(UINT32_C(0xff0fffff))
#define TAG_TPID rte_cpu_to_le_32(UINT32_C(0x00000081))

/*
 * The common burst of a trunk: every frame tagged in the frame (the port
 * does not strip) with the first one's VID. Its tag word, or 0 when the
 * burst is any other: one load and compare a frame, where the demux
 * takes a map lookup and a run test (doc/performance.md, "VLAN").
 */
static __rte_always_inline uint32_t vlan_burst_tag(const struct fwd_port *p,
                                                   struct rte_mbuf *const *pkts, uint16_t n)
{
	uint32_t t0, t;

	if (fwd_ifaces[p->idx].rx_vlan_strip || n == 0 ||
	    pkts[0]->data_len < RTE_ETHER_HDR_LEN + FWD_VLAN_HLEN)
		return 0;
	memcpy(&t0, rte_pktmbuf_mtod_offset(pkts[0], const uint8_t *, 12), sizeof(t0));
	t0 &= TAG_MASK;
	if ((t0 & rte_cpu_to_le_32(UINT32_C(0xffff))) != TAG_TPID)
		return 0;
	for (uint16_t i = 1; i < n; i++) {
		if (unlikely(pkts[i]->data_len < RTE_ETHER_HDR_LEN + FWD_VLAN_HLEN))
			return 0;
		memcpy(&t, rte_pktmbuf_mtod_offset(pkts[i], const uint8_t *, 12), sizeof(t));
		if (unlikely(((t ^ t0) & TAG_MASK) != 0))
			return 0;
	}
	return t0;
}

/* One pass: each frame demuxed and appended to the current run, the run
 * handed on when the interface (or whether the tag is still in the frame)
 * changes: a burst of one VLAN is one run, its array not copied; drops
 * close the gap in place. */
void __rte_noinline fwd_vlan_rx(struct fwd_worker *w, const struct fwd_port *p,
                                struct rte_mbuf **pkts, uint16_t n)
{
	const uint16_t *map = __atomic_load_n(&p->vlan_map, __ATOMIC_ACQUIRE);
	uint32_t run = p->idx; /* id | tagged << 16; any: the first run starts empty */
	unsigned start = 0, k = 0;

	uint32_t tag;

	if (unlikely(map == NULL)) { /* its last VLAN just went */
		iface_run(w, p, p->idx, false, pkts, n);
		return;
	}
	tag = vlan_burst_tag(p, pkts, n);
	if (likely(tag != 0)) {
		uint16_t id = map[rte_be_to_cpu_16((uint16_t)(tag >> 16)) & 0xfff];

		if (likely(id != FWD_IFACE_NONE && id >= FWD_MAX_PORTS)) {
			iface_run(w, p, id, true, pkts, n);
			return;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint8_t why = FWD_DROP_VLAN_UNKNOWN;
		bool tagged = false;
		uint16_t id = fwd_vlan_demux_keep(p, map, m, &why, &tagged);
		uint32_t key = id | (uint32_t)tagged << 16;

		if (unlikely(id == FWD_IFACE_NONE)) {
			vlan_rx_drop(w, p, m, why, tagged);
			continue;
		}
		if (unlikely(key != run)) {
			if (k != start)
				iface_run(w, p, (uint16_t)run, run >> 16, pkts + start,
				          (uint16_t)(k - start));
			run = key;
			start = k;
		}
		pkts[k++] = m;
	}
	if (k != start)
		iface_run(w, p, (uint16_t)run, run >> 16, pkts + start, (uint16_t)(k - start));
}

/* A burst of port p's own (of a bond: its members'), counted on p: to its
 * VLANs or its mode's input. */
static __rte_always_inline void port_input(struct fwd_worker *w, const struct fwd_port *p,
                                           struct rte_mbuf **pkts, uint16_t n)
{
	struct fwd_port_ctrs *c = &w->stats.port[p->idx];

	if (likely(p->admin_up)) {
		if (unlikely(p->vlan_map != NULL)) {
			fwd_vlan_rx(w, p, pkts, n); /* filters each interface */
			return;
		}
		c->rx_pkts += n;
		if (unlikely(p->filter & FWD_FILTER_IN) &&
		    (n = fwd_filter(w, p->idx, FWD_FILTER_IN, pkts, n, NULL)) == 0)
			return;
		mode_input[p->mode](w, &fwd_ifaces[p->idx], pkts, n);
	} else {
		c->rx_pkts += n;
		c->rx_bytes += fwd_pkts_bytes(pkts, n);
		fwd_drop_bulk(w, p->idx, FWD_DROP_PORT_DOWN, pkts, n);
	}
}

/* Is m a slow-protocols frame (IEEE 802.3 Annex 57A: LACP, marker)? */
static inline bool slow_proto(const struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);

	return m->data_len >= sizeof(*eh) && eh->ether_type == RTE_BE16(RTE_ETHER_TYPE_SLOW) &&
	       eh->dst_addr.addr_bytes[0] == 0x01;
}

/* Take the slow-protocols frames out of a member's burst (to the control
 * thread's LACP, policed per member: in_port is the member's index);
 * returns what is left, in order. */
static uint16_t member_slow(struct fwd_worker *w, const struct fwd_port *p, struct rte_mbuf **pkts,
                            uint16_t n)
{
	uint16_t k = 0;

	for (uint16_t i = 0; i < n; i++) {
		if (likely(!slow_proto(pkts[i])))
			pkts[k++] = pkts[i];
		else
			fwd_punt(w, pkts[i], FWD_PUNT_LACP, p->idx, p->idx, 0, FWD_PUNT_NO_DROP);
	}
	return k;
}

/*
 * A burst of a bond's member (doc/architecture.md, "Bonds"): counted on the
 * member, its LACPDUs and markers to the control thread, then the bond's
 * input if the member is collecting (the bond counts it again: a bond's
 * counters are its members' sums), else dropped bond_inactive.
 */
void __rte_noinline fwd_member_rx(struct fwd_worker *w, const struct fwd_port *p,
                                  struct rte_mbuf **pkts, uint16_t n)
{
	struct fwd_port_ctrs *c = &w->stats.port[p->idx];
	uint8_t state = p->member;

	c->rx_pkts += n;
	c->rx_bytes += fwd_pkts_bytes(pkts, n);
	if (unlikely(!p->admin_up)) {
		fwd_drop_bulk(w, p->idx, FWD_DROP_PORT_DOWN, pkts, n);
		return;
	}
	n = member_slow(w, p, pkts, n);
	if (n == 0)
		return;
	if (unlikely(state != FWD_MEMBER_COLLECTING)) {
		fwd_drop_bulk(w, p->idx, FWD_DROP_BOND_INACTIVE, pkts, n);
		return;
	}
	port_input(w, &fwd_ports[p->bond], pkts, n);
}

/* Receive and dispatch one burst; returns the number of packets received. */
static __rte_always_inline uint16_t worker_rx(struct fwd_worker *w, const struct fwd_rxq *q)
{
	struct rte_mbuf *pkts[FWD_BURST_MAX];
	const struct fwd_port *p = &fwd_ports[q->port];
	uint16_t n;

	n = rte_eth_rx_burst(q->port_id, q->queue, pkts, w->burst);
	if (n == 0)
		return 0;
	fwd_tap_offer(w->index, q->port, q->queue, FWD_TAP_RX, pkts, n);
	if (unlikely(p->member != FWD_MEMBER_NONE))
		fwd_member_rx(w, p, pkts, n);
	else
		port_input(w, p, pkts, n);
	return n;
}

/* Packets the control thread asked this worker to send. */
static unsigned worker_control_tx(struct fwd_worker *w)
{
	struct rte_mbuf *pkts[64];
	unsigned n = rte_ring_sc_dequeue_burst(w->tx_ring, (void **)pkts, RTE_DIM(pkts), NULL);

	for (unsigned i = 0; i < n; i++) {
		uint8_t port = pkts[i]->port;
		if (unlikely(port >= fwd_n_ports)) {
			rte_pktmbuf_free(pkts[i]);
			continue;
		}
		if (unlikely(fwd_ports[port].filter & FWD_FILTER_OUT)) {
			/* ours, not forwarded: past the port's filter, after
			 * what is buffered before it */
			tx_flush(w, port);
			tx_burst(w, port, &pkts[i], 1, pkts[i]->pkt_len, false);
			continue;
		}
		fwd_tx(w, port, pkts[i]);
	}
	return n;
}

/* Flush the egress buffers that hold packets. */
static inline void worker_flush(struct fwd_worker *w)
{
	uint32_t dirty = w->tx_dirty;

	while (dirty != 0) {
		unsigned port = (unsigned)__builtin_ctz(dirty);
		dirty &= dirty - 1;
		tx_flush(w, (uint8_t)port);
	}
}

/*
 * An idle worker with dataplane.idle_sleep_us gives its CPU away for that
 * long (doc/architecture.md, "Workers"): a busy-polling thread that shares
 * its CPU (a VM, a test machine) queues behind the others for a whole
 * scheduler slice, one that sleeps when idle is woken ahead of them.
 * Idle only: no syscall while packets flow.
 */
static inline void worker_idle(struct fwd_worker *w, bool busy, unsigned *idle)
{
	if (busy || w->idle_sleep_us == 0) {
		*idle = 0;
		return;
	}
	if (++*idle < IDLE_LOOPS)
		return;
	rte_delay_us_sleep(w->idle_sleep_us);
	w->stats.loop.sleeps++;
}

static int worker_main(void *arg)
{
	struct fwd_worker *w = arg;
	struct fwd_loop_ctrs *lc = &w->stats.loop;
	uint64_t prev = rte_rdtsc();
	bool prev_busy = false;
	unsigned idle = 0;

	rte_rcu_qsbr_thread_online(fwd.rcu, w->index);
	while (likely(!w->stop)) {
		/* one TSC read per loop: a busy loop lasts until the next one starts */
		uint64_t now = rte_rdtsc();
		unsigned pkts = 0, ctl;

		if (prev_busy)
			lc->busy_cycles += now - prev;
		prev = now;
		rte_rcu_qsbr_quiescent(fwd.rcu, w->index);
		for (unsigned i = 0; i < w->n_rxq; i++) {
			uint16_t n = worker_rx(w, &w->rxq[i]);
			pkts += n;
			lc->bursts += n != 0;
		}
		if (w->n_punt != 0)
			fwd_punt_flush(w);
		/* the ring is empty but for ARP and ICMP: look before the call */
		ctl = rte_ring_empty(w->tx_ring) ? 0 : worker_control_tx(w);
		worker_flush(w);
		lc->loops++;
		prev_busy = pkts + ctl != 0;
		if (prev_busy) {
			lc->pkts += pkts;
			lc->busy_loops++;
		}
		worker_idle(w, prev_busy, &idle);
	}
	rte_rcu_qsbr_thread_offline(fwd.rcu, w->index);
	return 0;
}

static int assign_queues(void)
{
	unsigned k = 0;

	for (unsigned pi = 0; pi < fwd_n_ports; pi++) {
		struct fwd_port *p = &fwd_ports[pi];
		for (uint16_t q = 0; q < p->n_rxq; q++, k++) {
			struct fwd_worker *w = fwd.workers[k % fwd.n_workers];
			if (w->n_rxq == FWD_MAX_RXQ) {
				LOG(ERR, "worker %u: more than %u rx queues", w->index,
				    FWD_MAX_RXQ);
				return -E2BIG;
			}
			w->rxq[w->n_rxq++] =
			        (struct fwd_rxq){ .port_id = p->port_id, .queue = q, .port = pi };
			p->rxq_worker[q] = w->index;
		}
	}
	return 0;
}

static struct fwd_worker *worker_new(unsigned index, unsigned lcore, const struct fwd_config *cfg)
{
	char name[RTE_RING_NAMESIZE];
	int socket = (int)rte_lcore_to_socket_id(lcore);
	struct fwd_worker *w =
	        rte_zmalloc_socket("fwd_worker", sizeof(*w), RTE_CACHE_LINE_SIZE, socket);

	if (w == NULL)
		return NULL;
	w->index = index;
	w->lcore = lcore;
	w->txq = index;
	w->burst = cfg->dataplane.burst;
	w->idle_sleep_us = cfg->dataplane.idle_sleep_us;
	snprintf(name, sizeof(name), "fwd_ctltx_%u", index);
	w->tx_ring = rte_ring_create(name, CONTROL_TX_RING, socket, RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (w->tx_ring == NULL) {
		rte_free(w);
		return NULL;
	}
	return w;
}

int fwd_workers_create(const struct fwd_config *cfg)
{
	unsigned lcores[RTE_MAX_LCORE];
	int n = fwd_config_lcores(cfg, lcores, RTE_DIM(lcores));

	if (n < 2 || n - 1 > FWD_MAX_WORKERS)
		return -EINVAL;
	for (int i = 1; i < n; i++) {
		struct fwd_worker *w = worker_new(i - 1, lcores[i], cfg);
		if (w == NULL) {
			LOG(ERR, "worker on lcore %u: %s", lcores[i], rte_strerror(rte_errno));
			return -ENOMEM;
		}
		fwd.workers[fwd.n_workers++] = w;
	}
	return assign_queues();
}

int fwd_workers_launch(void)
{
	for (unsigned i = 0; i < fwd_n_ports; i++) {
		if (!fwd_worker_has_input(fwd_ports[i].mode)) {
			LOG(ERR, "port %s: mode %s is not available", fwd_ports[i].name,
			    fwd_port_mode_name(fwd_ports[i].mode));
			return -ENOTSUP;
		}
	}
	for (unsigned i = 0; i < fwd.n_workers; i++) {
		struct fwd_worker *w = fwd.workers[i];
		int rc = rte_eal_remote_launch(worker_main, w, w->lcore);
		if (rc < 0) {
			LOG(ERR, "worker %u: launch on lcore %u: %s", i, w->lcore, strerror(-rc));
			fwd_workers_stop();
			return rc;
		}
	}
	LOG(INFO, "%u workers running", fwd.n_workers);
	return 0;
}

void fwd_workers_stop(void)
{
	for (unsigned i = 0; i < fwd.n_workers; i++)
		fwd.workers[i]->stop = true;
	rte_eal_mp_wait_lcore();
}

void fwd_workers_free(void)
{
	for (unsigned i = 0; i < fwd.n_workers; i++) {
		struct fwd_worker *w = fwd.workers[i];
		struct rte_mbuf *m;

		while (rte_ring_dequeue(w->tx_ring, (void **)&m) == 0)
			rte_pktmbuf_free(m);
		for (unsigned p = 0; p < FWD_MAX_PORTS; p++)
			rte_pktmbuf_free_bulk(w->tx[p].pkts, w->tx[p].n);
		rte_ring_free(w->tx_ring);
		rte_free(w);
		fwd.workers[i] = NULL;
	}
	fwd.n_workers = 0;
}

/* The port a packet for iface leaves by, tagged if iface is a VLAN. */
static int control_tx_port(struct rte_mbuf *m, uint16_t iface)
{
	const struct fwd_iface *ifp;

	if (iface < FWD_MAX_PORTS)
		return iface < fwd_n_ports ? iface : -ENODEV;
	ifp = fwd_iface_get(iface);
	if (ifp == NULL || ifp->type != FWD_IFACE_VLAN)
		return -ENODEV; /* a loopback has no link */
	if (fwd_vlan_tag(m, ifp->vlan, ifp->tx_vlan_hw) < 0)
		return -ENOBUFS;
	return ifp->port;
}

int fwd_control_tx(struct rte_mbuf *m, uint16_t iface)
{
	struct fwd_worker *w;
	int port = fwd.n_workers != 0 ? control_tx_port(m, iface) : -ENODEV;

	if (port < 0) {
		fwd_control_drop(m, iface < FWD_MAX_IFACES ? iface : 0, FWD_DROP_CONTROL_TX);
		return port;
	}
	/* One worker per egress port: what the control thread sends on a port
	 * (packets a neighbour held, a TAP's TCP stream) leaves in the order it
	 * was sent; ports spread the load. Each ring has one producer: us. */
	w = fwd.workers[port % fwd.n_workers];
	m->port = port;
	if (rte_ring_sp_enqueue(w->tx_ring, m) != 0) {
		fwd_control_drop(m, port, FWD_DROP_TX_FULL);
		return -ENOBUFS;
	}
	return 0;
}
