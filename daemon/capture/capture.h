/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet capture, datapath side. While a capture runs on a port, workers
 * copy what they receive on it (once per rx burst) and what they send on it
 * (once per tx flush) into a bounded per-port ring that the control thread
 * drains; a full ring or an empty copy pool is a counted capture drop, never
 * a stall. Capture is a tap of the worker loop (core/worker.h): when no
 * capture runs, the cost is one well-predicted branch per burst.
 * A drop capture (`fwdctl capture drops`) is the same with the drop tap
 * (core/worker.h): the packets dropped for the reasons asked, on any port,
 * by workers or the control thread, go to one more ring, slot
 * FWD_CAPTURE_DROPS; when off, one well-predicted branch per drop call.
 */
#ifndef FWD_CAPTURE_H
#define FWD_CAPTURE_H

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "core/config.h"
#include "core/daemon.h"
#include "core/worker.h"

#define FWD_CAPTURE_RX   FWD_TAP_RX
#define FWD_CAPTURE_TX   FWD_TAP_TX
#define FWD_CAPTURE_DROP 0x4 /* a copy of a dropped packet */

/* The slot (ring, session, counters) of the drop capture, after the ports'. */
#define FWD_CAPTURE_DROPS FWD_MAX_PORTS
#define FWD_CAPTURE_SLOTS (FWD_MAX_PORTS + 1)

struct rte_ring;
struct rte_mempool;

/*
 * Per port. The control thread sets ring and snaplen while the port's tap
 * is off, then turns it on (after a write barrier); workers read them only
 * when the tap says so. Rings and the copy pool live until shutdown, so a
 * worker still copying after a capture stopped is harmless.
 */
struct fwd_capture_port {
	uint32_t snaplen;      /* bytes copied per packet */
	struct rte_ring *ring; /* workers (multi-producer) -> control */
};

extern struct fwd_capture_port fwd_capture_ports[FWD_CAPTURE_SLOTS];
extern struct rte_mempool *fwd_capture_pool;

/* Copies that could not be made or queued, per slot; each worker writes its
 * own row, the control thread (drop capture) row FWD_DROP_TAP_CONTROL. */
struct fwd_capture_wstats {
	uint64_t drops[FWD_CAPTURE_SLOTS];
} __rte_cache_aligned;

extern struct fwd_capture_wstats fwd_capture_wstats[FWD_MAX_WORKERS + 1];

/* What a worker records with each copy (an mbuf dynamic field). */
struct fwd_capture_meta {
	uint32_t tsc;      /* when the burst was received or flushed: fwd_capture_tsc() */
	uint32_t orig_len; /* length on the wire before snaplen */
	union {
		uint16_t queue;  /* rx queue, or the worker's tx queue */
		uint16_t reason; /* FWD_CAPTURE_DROP: enum fwd_drop_reason */
	};
	uint8_t dir;  /* FWD_CAPTURE_RX, FWD_CAPTURE_TX or FWD_CAPTURE_DROP */
	uint8_t port; /* port index: received, sent or dropped on */
};

/* A copy's metadata lives in the private area of the capture pool's mbufs
 * (fwd_capture_pool: only copies carry it), not in a dynamic field: that
 * space is scarce (net_pcap takes 8 bytes for its timestamp) and the punt
 * metadata needs what is left. The record stays small all the same: the
 * copy's TSC is kept as 32 bits of TSC >> 8 (under 100 ns a step; it wraps
 * after minutes, long after the control thread took the copy:
 * capture_meta_tsc() puts the high bits back). */
_Static_assert(sizeof(struct fwd_capture_meta) == 12, "fwd_capture_meta grew");

#define FWD_CAPTURE_TSC_SHIFT 8

static inline uint32_t fwd_capture_tsc(uint64_t tsc)
{
	return (uint32_t)(tsc >> FWD_CAPTURE_TSC_SHIFT);
}

static inline struct fwd_capture_meta *fwd_capture_meta(struct rte_mbuf *m)
{
	return (struct fwd_capture_meta *)rte_mbuf_to_priv(m);
}

/* The tap: copies a burst received (rx) or about to be sent (tx) on port. */
void fwd_capture_copy(unsigned worker, uint8_t port, uint16_t queue, uint8_t dir,
                      struct rte_mbuf *const *pkts, uint16_t n);

/* The drop tap: copies packets about to be freed as dropped for reason r. */
void fwd_capture_drop(unsigned worker, uint16_t iface, enum fwd_drop_reason r,
                      struct rte_mbuf *const *pkts, uint16_t n);

#endif
