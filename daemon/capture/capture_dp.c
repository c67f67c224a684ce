/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Capture, worker side: only reached while a capture runs on the port.
 * Copies come from a pool of their own, so capturing never takes buffers
 * the forwarding path needs.
 */
#include <rte_cycles.h>
#include <rte_ring.h>

#include "capture/capture.h"

#define COPY_CHUNK 64

struct fwd_capture_port fwd_capture_ports[FWD_MAX_PORTS];
struct rte_mempool *fwd_capture_pool;
struct fwd_capture_wstats fwd_capture_wstats[FWD_MAX_WORKERS];
int fwd_capture_meta_offset = -1;

/* Copy up to COPY_CHUNK packets and queue them; returns how many were lost. */
static unsigned copy_chunk(const struct fwd_capture_port *cp, uint64_t tsc, uint16_t queue,
                           uint8_t dir, struct rte_mbuf *const *pkts, unsigned n)
{
	struct rte_mbuf *copies[COPY_CHUNK];
	unsigned k = 0, sent;

	for (unsigned i = 0; i < n; i++) {
		struct rte_mbuf *c = rte_pktmbuf_copy(pkts[i], fwd_capture_pool, 0, cp->snaplen);
		struct fwd_capture_meta *meta;

		if (unlikely(c == NULL))
			break; /* pool empty: the rest would fail too */
		meta = fwd_capture_meta(c);
		meta->tsc = tsc;
		meta->orig_len = pkts[i]->pkt_len;
		meta->queue = queue;
		meta->dir = dir;
		copies[k++] = c;
	}
	sent = rte_ring_mp_enqueue_burst(cp->ring, (void **)copies, k, NULL);
	if (unlikely(sent < k))
		rte_pktmbuf_free_bulk(copies + sent, k - sent);
	return n - sent;
}

void fwd_capture_copy(unsigned worker, uint8_t port, uint16_t queue, uint8_t dir,
                      struct rte_mbuf *const *pkts, uint16_t n)
{
	const struct fwd_capture_port *cp = &fwd_capture_ports[port];
	uint64_t tsc = rte_rdtsc();
	unsigned lost = 0;

	rte_smp_rmb(); /* the tap bit was read before ring and snaplen */
	for (unsigned i = 0; i < n; i += COPY_CHUNK)
		lost += copy_chunk(cp, tsc, queue, dir, pkts + i,
		                   RTE_MIN((unsigned)COPY_CHUNK, n - i));
	fwd_capture_wstats[worker].drops[port] += lost;
}
