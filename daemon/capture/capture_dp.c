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

_Static_assert(FWD_DROP_MAX <= UINT16_MAX, "fwd_capture_meta.reason is 16 bits");

struct fwd_capture_port fwd_capture_ports[FWD_CAPTURE_SLOTS];
struct rte_mempool *fwd_capture_pool;
struct fwd_capture_wstats fwd_capture_wstats[FWD_MAX_WORKERS + 1];

/* Copy up to COPY_CHUNK packets and queue them; returns how many were lost. */
static unsigned copy_chunk(const struct fwd_capture_port *cp, const struct fwd_capture_meta *tmpl,
                           struct rte_mbuf *const *pkts, unsigned n)
{
	struct rte_mbuf *copies[COPY_CHUNK];
	unsigned k = 0, sent;

	for (unsigned i = 0; i < n; i++) {
		struct rte_mbuf *c = rte_pktmbuf_copy(pkts[i], fwd_capture_pool, 0, cp->snaplen);
		struct fwd_capture_meta *meta;

		if (unlikely(c == NULL))
			break; /* pool empty: the rest would fail too */
		meta = fwd_capture_meta(c);
		*meta = *tmpl;
		meta->orig_len = pkts[i]->pkt_len;
		copies[k++] = c;
	}
	sent = rte_ring_mp_enqueue_burst(cp->ring, (void **)copies, k, NULL);
	if (unlikely(sent < k))
		rte_pktmbuf_free_bulk(copies + sent, k - sent);
	return n - sent;
}

/* Copy a burst into slot's ring with the metadata of tmpl. */
static void copy_burst(unsigned worker, unsigned slot, const struct fwd_capture_meta *tmpl,
                       struct rte_mbuf *const *pkts, uint16_t n)
{
	const struct fwd_capture_port *cp = &fwd_capture_ports[slot];
	unsigned lost = 0;

	rte_smp_rmb(); /* the tap flag was read before ring and snaplen */
	if (unlikely(cp->ring == NULL))
		return;
	for (unsigned i = 0; i < n; i += COPY_CHUNK)
		lost += copy_chunk(cp, tmpl, pkts + i, RTE_MIN((unsigned)COPY_CHUNK, n - i));
	fwd_capture_wstats[worker].drops[slot] += lost;
}

void fwd_capture_copy(unsigned worker, uint8_t port, uint16_t queue, uint8_t dir,
                      struct rte_mbuf *const *pkts, uint16_t n)
{
	const struct fwd_capture_meta tmpl = {
		.tsc = fwd_capture_tsc(rte_rdtsc()), .queue = queue, .dir = dir, .port = port
	};

	copy_burst(worker, port, &tmpl, pkts, n);
}

/* The meta has room for a port: a VLAN's drops are its port's. */
static uint8_t drop_port(uint16_t iface)
{
	if (iface < FWD_MAX_PORTS)
		return (uint8_t)iface;
	if (iface >= FWD_MAX_IFACES || fwd_ifaces[iface].port == FWD_IFACE_NO_PORT)
		return 0; /* a loopback */
	return fwd_ifaces[iface].port;
}

void fwd_capture_drop(unsigned worker, uint16_t iface, enum fwd_drop_reason r,
                      struct rte_mbuf *const *pkts, uint16_t n)
{
	const struct fwd_capture_meta tmpl = { .tsc = fwd_capture_tsc(rte_rdtsc()),
		                               .dir = FWD_CAPTURE_DROP,
		                               .port = drop_port(iface),
		                               .reason = (uint16_t)r };

	copy_burst(worker, FWD_CAPTURE_DROPS, &tmpl, pkts, n);
}
