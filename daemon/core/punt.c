/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_ring.h>

#include "core/control.h"
#include "core/daemon.h"
#include "core/iface.h"
#include "core/log.h"
#include "core/module.h"
#include "core/punt.h"
#include "core/config_schema.h"
#include "core/reload.h"
#include "core/worker.h"
#include "core/counters.h"

#define PUNT_RING_SIZE    4096
#define PUNT_ND_RING_SIZE 1024 /* ARP and NDP: a ring of their own */
#define PUNT_DRAIN_US     500  /* latency of the slow path, at worst */
#define PUNT_BATCH        64
#define PUNT_BURST_MS     50u /* a bucket holds this long of its rate, */
#define PUNT_BURST_MIN    64u /* but at least this many: more than ICMP's burst (50) */

int fwd_punt_meta_offset = -1;

static struct rte_ring *ring;
static struct rte_ring *nd_ring;

/* The policer's rates, per worker. Written by control (a reload), read by
 * workers: each field on its own, relaxed; a worker seeing the old cycles
 * with the new burst for a moment does no harm. */
struct punt_policy {
	uint64_t cycles; /* TSC cycles a token; 0: not policed */
	uint64_t burst;
};

static struct punt_policy policy[FWD_PUNT_MAX];
static struct punt_policy nd_policy[FWD_PUNT_ND_MAX]; /* each physical port's NDP buckets */
static struct punt_policy lacp_policy;                /* each port's LACP bucket */

static const uint8_t bucket_class[FWD_PUNT_MAX] = {
	[FWD_PUNT_ARP] = FWD_PUNT_CLASS_ND,         [FWD_PUNT_LOCAL] = FWD_PUNT_CLASS_LOCAL,
	[FWD_PUNT_LOCAL6] = FWD_PUNT_CLASS_LOCAL,   [FWD_PUNT_HBH6] = FWD_PUNT_CLASS_LOCAL,
	[FWD_PUNT_RESOLVE] = FWD_PUNT_CLASS_HOLD,   [FWD_PUNT_GLEAN] = FWD_PUNT_CLASS_HOLD,
	[FWD_PUNT_GLEAN6] = FWD_PUNT_CLASS_HOLD,    [FWD_PUNT_TTL] = FWD_PUNT_CLASS_ERROR,
	[FWD_PUNT_NO_ROUTE] = FWD_PUNT_CLASS_ERROR, [FWD_PUNT_FRAG_NEEDED] = FWD_PUNT_CLASS_ERROR,
	[FWD_PUNT_ICMP6] = FWD_PUNT_CLASS_ERROR,    [FWD_PUNT_LACP] = FWD_PUNT_CLASS_LACP,
};

static const uint8_t nd_drop[FWD_PUNT_ND_MAX] = {
	[FWD_PUNT_ND_NS] = FWD_DROP_POLICED_NS,
	[FWD_PUNT_ND_NA] = FWD_DROP_POLICED_NA,
	[FWD_PUNT_ND_OTHER] = FWD_DROP_POLICED_NDP,
};

_Static_assert(FWD_DROP_POLICED_LACP - FWD_DROP_POLICED_ARP == FWD_PUNT_LACP &&
                       FWD_PUNT_LACP == FWD_PUNT_MAX - 1,
               "one policed_ drop reason per punt reason, in the order of the reasons");
_Static_assert(sizeof(((struct fwd_config *)0)->dataplane.punt_rate) ==
                       FWD_PUNT_CLASS_MAX * sizeof(uint32_t),
               "a configured rate per policer class");
static struct event *drain_ev;
static fwd_punt_fn handlers[FWD_PUNT_MAX];
bool (*fwd_local_filter)(struct rte_mbuf *m, const struct fwd_punt_meta *meta);
/* control thread counters, one row per interface id, written by the control thread only */
static struct fwd_port_ctrs control_ctrs[FWD_MAX_IFACES];

bool (*fwd_punt_up)(struct rte_mbuf *m, uint16_t iface);

void fwd_punt_register(enum fwd_punt_reason reason, fwd_punt_fn fn)
{
	handlers[reason] = fn;
}

struct fwd_port_ctrs *fwd_control_ctrs(uint16_t iface)
{
	return &control_ctrs[iface < FWD_MAX_IFACES ? iface : 0];
}

void fwd_control_drop(struct rte_mbuf *m, uint16_t iface, enum fwd_drop_reason reason)
{
	fwd_control_ctrs(iface)->drop[reason]++;
	fwd_drop_offer(FWD_DROP_TAP_CONTROL, iface, reason, &m, 1);
	rte_pktmbuf_free(m);
}

/* rate packets a second over all workers: each worker's share (at least
 * one a second) and a burst of PUNT_BURST_MS of it. */
static void policy_set(struct punt_policy *p, uint64_t rate, unsigned workers)
{
	uint64_t share = RTE_MAX(rate / workers, 1u);
	uint64_t cycles = rate == 0 ? 0 : RTE_MAX(rte_get_tsc_hz() / share, 1u);
	uint64_t burst = RTE_MAX(share * PUNT_BURST_MS / 1000, PUNT_BURST_MIN);

	__atomic_store_n(&p->burst, burst, __ATOMIC_RELAXED);
	__atomic_store_n(&p->cycles, cycles, __ATOMIC_RELAXED);
}

void fwd_punt_rates_set(const uint32_t rates[FWD_PUNT_CLASS_MAX])
{
	unsigned workers = fwd.n_workers != 0 ? fwd.n_workers : 1;
	uint32_t nd = rates[FWD_PUNT_CLASS_ND];

	for (unsigned b = 0; b < FWD_PUNT_MAX; b++)
		policy_set(&policy[b], rates[bucket_class[b]], workers);
	/* per port: solicitations and advertisements at the class's rate each */
	policy_set(&nd_policy[FWD_PUNT_ND_NS], nd, workers);
	policy_set(&nd_policy[FWD_PUNT_ND_NA], nd, workers);
	policy_set(&nd_policy[FWD_PUNT_ND_OTHER], RTE_MIN(nd, (uint32_t)FWD_PUNT_RS_RATE), workers);
	/* per port: a member's LACP arrives on the one worker polling its queue
	 * (and a queue's share would starve at 1/s), so each worker gets it all */
	policy_set(&lacp_policy, rates[FWD_PUNT_CLASS_LACP], 1);
}

/* Take a token from bucket k under policy p at TSC now. The bucket refills
 * only when empty: one division per refill, none per packet. */
static bool punt_police(struct fwd_punt_bucket *k, const struct punt_policy *p, uint64_t now)
{
	uint64_t cycles = __atomic_load_n(&p->cycles, __ATOMIC_RELAXED);

	if (cycles == 0)
		return true;
	if (k->tokens == 0) {
		uint64_t burst = __atomic_load_n(&p->burst, __ATOMIC_RELAXED);
		uint64_t add = (now - k->last) / cycles;

		if (add == 0)
			return false;
		if (add >= burst) {
			k->tokens = burst;
			k->last = now;
		} else {
			k->tokens = add;
			k->last += add * cycles;
		}
	}
	k->tokens--;
	return true;
}

/* The physical port whose NDP buckets police what arrives on interface
 * iface: a flood on any VLAN of a trunk spends its port's budget, so the
 * VLANs of one wire cannot multiply it (a loopback receives nothing). */
static inline unsigned punt_nd_port(uint16_t iface)
{
	unsigned port;

	if (iface < FWD_MAX_PORTS)
		return iface; /* a port is its own (its table entry may be unset) */
	port = iface < FWD_MAX_IFACES ? fwd_ifaces[iface].port : 0;
	return port < FWD_MAX_PORTS ? port : 0;
}

/* Police a punted packet at TSC now: true when it may go on, else *drop
 * is the reason of its excess. *nd: it goes to address resolution's ring. */
static bool punt_admit(struct fwd_worker *w, const struct fwd_punt_meta *meta, uint64_t now,
                       unsigned *drop, bool *nd)
{
	unsigned r = meta->reason < FWD_PUNT_MAX ? meta->reason : FWD_PUNT_LOCAL;

	if (r == FWD_PUNT_LOCAL6 && meta->aux != FWD_PUNT_ND_NONE && meta->aux < FWD_PUNT_ND_MAX) {
		unsigned port = punt_nd_port(meta->in_port);

		*nd = true;
		*drop = nd_drop[meta->aux];
		return punt_police(&w->punt_nd[port][meta->aux], &nd_policy[meta->aux], now);
	}
	if (r == FWD_PUNT_LACP) {
		*nd = true;
		*drop = FWD_DROP_POLICED_LACP;
		return punt_police(&w->punt_lacp[punt_nd_port(meta->in_port)], &lacp_policy, now);
	}
	*nd = bucket_class[r] == FWD_PUNT_CLASS_ND;
	*drop = FWD_DROP_POLICED_ARP + r;
	return punt_police(&w->punt_bkt[r], &policy[r], now);
}

/* Hand n staged packets to ring r; what does not fit is punt_full. A packet
 * in the ring is the control thread's (it may be freed and reused at once),
 * so the drop each one counts is read before the enqueue. */
static void punt_enqueue(struct fwd_worker *w, struct rte_ring *r, struct rte_mbuf **pkts,
                         unsigned n)
{
	uint16_t iface[FWD_BURST_MAX];
	uint8_t drop[FWD_BURST_MAX];

	for (unsigned i = 0; i < n; i++) {
		const struct fwd_punt_meta *meta = fwd_punt_meta(pkts[i]);
		iface[i] = meta->in_port < FWD_MAX_IFACES ? meta->in_port : 0;
		drop[i] = meta->drop;
	}
	unsigned sent = n == 0 ? 0 : rte_ring_mp_enqueue_burst(r, (void **)pkts, n, NULL);

	for (unsigned i = 0; i < n; i++) {
		if (i >= sent)
			fwd_drop(w, iface[i], FWD_DROP_PUNT_FULL, pkts[i]);
		else if (drop[i] != FWD_PUNT_NO_DROP)
			w->stats.port[iface[i]].drop[drop[i]]++;
	}
}

void fwd_punt_flush(struct fwd_worker *w)
{
	struct rte_mbuf *to_nd[FWD_BURST_MAX];
	unsigned n = w->n_punt, n_rest = 0, n_nd = 0;
	uint64_t now = rte_rdtsc();

	for (unsigned i = 0; i < n; i++) {
		struct rte_mbuf *m = w->punt[i];
		const struct fwd_punt_meta *meta = fwd_punt_meta(m);
		unsigned drop;
		bool nd;

		if (!punt_admit(w, meta, now, &drop, &nd)) {
			fwd_drop(w, meta->in_port, (enum fwd_drop_reason)drop, m);
			continue;
		}
		/* a punt that is also a drop (ttl_exceeded, no_route, ...) is
		 * offered now: once in the ring, the mbuf is the control thread's */
		if (meta->drop != FWD_PUNT_NO_DROP)
			fwd_drop_offer(w->index, meta->in_port, (enum fwd_drop_reason)meta->drop,
			               &m, 1);
		if (nd)
			to_nd[n_nd++] = m;
		else
			w->punt[n_rest++] = m;
	}
	punt_enqueue(w, nd_ring != NULL ? nd_ring : w->punt_ring, to_nd, n_nd);
	punt_enqueue(w, w->punt_ring, w->punt, n_rest);
	w->n_punt = 0;
}

/* Up to `rounds` batches of ring r to their handlers; returns how many. */
static unsigned punt_drain_ring(struct rte_ring *r, unsigned rounds)
{
	struct rte_mbuf *pkts[PUNT_BATCH];
	unsigned n, total = 0;

	do {
		n = rte_ring_sc_dequeue_burst(r, (void **)pkts, PUNT_BATCH, NULL);
		for (unsigned i = 0; i < n; i++) {
			const struct fwd_punt_meta *meta = fwd_punt_meta(pkts[i]);
			fwd_punt_fn fn =
			        meta->reason < FWD_PUNT_MAX ? handlers[meta->reason] : NULL;
			if ((meta->reason == FWD_PUNT_LOCAL || meta->reason == FWD_PUNT_LOCAL6) &&
			    fwd_local_filter != NULL && fwd_local_filter(pkts[i], meta))
				continue;
			if (fn != NULL)
				fn(pkts[i], meta);
			else
				fwd_control_drop(pkts[i], meta->in_port, FWD_DROP_LOCAL_PROTO);
		}
		total += n;
	} while (n == PUNT_BATCH && --rounds != 0);
	return total;
}

unsigned fwd_punt_drain(void)
{
	/* bounded work per tick so RPC clients are served between rounds;
	 * address resolution first */
	return punt_drain_ring(nd_ring, 4) + punt_drain_ring(ring, 16);
}

static void punt_drain(void *arg)
{
	(void)arg;
	fwd_punt_drain();
}

int fwd_punt_init(void)
{
	static const struct rte_mbuf_dynfield desc = {
		.name = "fwd_punt_meta",
		.size = sizeof(struct fwd_punt_meta),
		.align = __alignof__(struct fwd_punt_meta),
	};
	fwd_punt_meta_offset = rte_mbuf_dynfield_register(&desc);
	if (fwd_punt_meta_offset < 0) {
		LOG(ERR, "mbuf dynamic field: %s", rte_strerror(rte_errno));
		return -rte_errno;
	}
	ring = rte_ring_create("fwd_punt", PUNT_RING_SIZE, (int)rte_socket_id(), RING_F_SC_DEQ);
	nd_ring = rte_ring_create("fwd_punt_nd", PUNT_ND_RING_SIZE, (int)rte_socket_id(),
	                          RING_F_SC_DEQ);
	if (ring == NULL || nd_ring == NULL)
		return -ENOMEM;
	for (unsigned i = 0; i < fwd.n_workers; i++)
		fwd.workers[i]->punt_ring = ring;
	drain_ev = fwd_timer_every(PUNT_DRAIN_US, punt_drain, NULL);
	if (drain_ev == NULL)
		return -ENOMEM;
	return 0;
}

void fwd_punt_fini(void)
{
	struct rte_mbuf *m;

	fwd_timer_free(&drain_ev);
	while (ring != NULL && rte_ring_dequeue(ring, (void **)&m) == 0)
		rte_pktmbuf_free(m);
	while (nd_ring != NULL && rte_ring_dequeue(nd_ring, (void **)&m) == 0)
		rte_pktmbuf_free(m);
	rte_ring_free(ring);
	rte_ring_free(nd_ring);
	ring = NULL;
	nd_ring = NULL;
	memset(control_ctrs, 0, sizeof(control_ctrs));
}

static int punt_module_init(const struct fwd_config *cfg)
{
	fwd_punt_rates_set(cfg->dataplane.punt_rate);
	return fwd_punt_init();
}

static int punt_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                             struct fwd_reload_log *log)
{
	static const char *const names[FWD_PUNT_CLASS_MAX] = {
		[FWD_PUNT_CLASS_LOCAL] = "local", [FWD_PUNT_CLASS_ND] = "nd",
		[FWD_PUNT_CLASS_HOLD] = "hold",   [FWD_PUNT_CLASS_ERROR] = "error",
		[FWD_PUNT_CLASS_LACP] = "lacp",
	};

	for (unsigned c = 0; c < FWD_PUNT_CLASS_MAX; c++)
		if (cur->dataplane.punt_rate[c] != next->dataplane.punt_rate[c])
			fwd_reload_note(log, "dataplane.punt_rate_%s %u -> %u", names[c],
			                cur->dataplane.punt_rate[c], next->dataplane.punt_rate[c]);
	fwd_punt_rates_set(next->dataplane.punt_rate);
	return 0;
}

static void punt_undo(void)
{
	fwd_punt_rates_set(fwd.cfg->dataplane.punt_rate);
}

static struct fwd_module punt_module = {
	.name = "punt",
	.init = punt_module_init,
	.fini = fwd_punt_fini,
	.reload_apply = punt_reload_apply,
	.undo = punt_undo,
};
FWD_MODULE(punt_module);

/* Defaults: NDP and ARP of a busy LAN segment, the control plane of a few
 * routing sessions (and the kernel's, through TAP ports), hosts coming up,
 * and 10 times the ICMP errors the rate limit lets out (traceroute probes
 * are three a hop). */
#define PUNT_RATE(c, k, d)                                                                         \
	CONF_F(k, CONF_UINT, struct fwd_config, dataplane.punt_rate[c], .min = 0, .max = 10000000, \
	       .def = d)

static const struct conf_field punt_rows[] = {
	PUNT_RATE(FWD_PUNT_CLASS_ND, "punt_rate_nd", 5000),
	PUNT_RATE(FWD_PUNT_CLASS_LOCAL, "punt_rate_local", 20000),
	PUNT_RATE(FWD_PUNT_CLASS_HOLD, "punt_rate_hold", 5000),
	PUNT_RATE(FWD_PUNT_CLASS_ERROR, "punt_rate_error", 1000),
	/* per port: 1 LACPDU a second at the fast rate, markers, room for a burst */
	PUNT_RATE(FWD_PUNT_CLASS_LACP, "punt_rate_lacp", 100),
};

RTE_INIT(punt_schema_register)
{
	for (unsigned i = 0; i < RTE_DIM(punt_rows); i++)
		fwd_config_schema_add("dataplane", &punt_rows[i]);
}
