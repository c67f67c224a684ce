/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_ring.h>

#include "core/control.h"
#include "core/daemon.h"
#include "core/log.h"
#include "core/module.h"
#include "core/punt.h"
#include "core/worker.h"
#include "core/counters.h"

#define PUNT_RING_SIZE 4096
#define PUNT_DRAIN_US  500 /* latency of the slow path, at worst */
#define PUNT_BATCH     64

int fwd_punt_meta_offset = -1;

static struct rte_ring *ring;
static struct event *drain_ev;
static fwd_punt_fn handlers[FWD_PUNT_MAX];
/* control thread counters, one row per port, written by the control thread only */
static struct fwd_port_ctrs control_ctrs[FWD_MAX_PORTS];

bool (*fwd_punt_up)(struct rte_mbuf *m, uint8_t port);

void fwd_punt_register(enum fwd_punt_reason reason, fwd_punt_fn fn)
{
	handlers[reason] = fn;
}

struct fwd_port_ctrs *fwd_control_ctrs(uint8_t port)
{
	return &control_ctrs[port < FWD_MAX_PORTS ? port : 0];
}

void fwd_control_drop(struct rte_mbuf *m, uint8_t port, enum fwd_drop_reason reason)
{
	fwd_control_ctrs(port)->drop[reason]++;
	rte_pktmbuf_free(m);
}

struct rte_ring *fwd_punt_ring(void)
{
	return ring;
}

void fwd_punt_flush(struct fwd_worker *w)
{
	unsigned n = w->n_punt, sent;

	sent = rte_ring_mp_enqueue_burst(w->punt_ring, (void **)w->punt, n, NULL);
	for (unsigned i = 0; i < sent; i++) {
		const struct fwd_punt_meta *meta = fwd_punt_meta(w->punt[i]);
		if (meta->drop != FWD_PUNT_NO_DROP)
			w->stats.port[meta->in_port].drop[meta->drop]++;
	}
	for (unsigned i = sent; i < n; i++)
		fwd_drop(w, fwd_punt_meta(w->punt[i])->in_port, FWD_DROP_PUNT_FULL, w->punt[i]);
	w->n_punt = 0;
}

unsigned fwd_punt_drain(void)
{
	struct rte_mbuf *pkts[PUNT_BATCH];
	unsigned n, rounds = 0, total = 0;

	/* bounded work per tick so RPC clients are served between rounds */
	do {
		n = rte_ring_sc_dequeue_burst(ring, (void **)pkts, PUNT_BATCH, NULL);
		for (unsigned i = 0; i < n; i++) {
			const struct fwd_punt_meta *meta = fwd_punt_meta(pkts[i]);
			fwd_punt_fn fn =
			        meta->reason < FWD_PUNT_MAX ? handlers[meta->reason] : NULL;
			if (fn != NULL)
				fn(pkts[i], meta);
			else
				fwd_control_drop(pkts[i], meta->in_port, FWD_DROP_LOCAL_PROTO);
		}
		total += n;
	} while (n == PUNT_BATCH && ++rounds < 16);
	return total;
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
	if (ring == NULL)
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
	rte_ring_free(ring);
	ring = NULL;
	memset(control_ctrs, 0, sizeof(control_ctrs));
}

static int punt_module_init(const struct fwd_config *cfg)
{
	(void)cfg;
	return fwd_punt_init();
}

static struct fwd_module punt_module = {
	.name = "punt",
	.init = punt_module_init,
	.fini = fwd_punt_fini,
};
FWD_MODULE(punt_module);
