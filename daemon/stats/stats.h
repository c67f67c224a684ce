/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-worker counters. Each worker writes only its own struct fwd_wstats
 * (no atomics: one writer, 64-bit aligned stores are not torn on the
 * platforms DPDK supports); the control thread sums them on read and keeps a
 * baseline for `stats clear` so it never writes into a worker's counters.
 */
#ifndef FWD_STATS_H
#define FWD_STATS_H

#include <stdint.h>

#include <rte_common.h>

#include "core/config.h"
#include "stats/drop.h"

struct fwd_port_ctrs {
	uint64_t rx_pkts;
	uint64_t rx_bytes;
	uint64_t tx_pkts;
	uint64_t tx_bytes;
	uint64_t drop[FWD_DROP_MAX];
	/* With these, every packet is accounted for: summed over ports (and once
	 * nothing is in flight or held), rx + created == tx + drops + consumed. */
	uint64_t consumed; /* taken in and used up: ARP, echo requests, fragmented */
	uint64_t created;  /* made here: ARP, ICMP, fragments, flood copies */
} __rte_cache_aligned;

/* Worker loop accounting (like VPP's `show runtime`). */
struct fwd_loop_ctrs {
	uint64_t loops;
	uint64_t busy_loops;  /* loops that received or sent something */
	uint64_t busy_cycles; /* TSC cycles spent in busy loops */
	uint64_t pkts;        /* packets received */
	uint64_t bursts;      /* non-empty rx bursts */
} __rte_cache_aligned;

struct fwd_wstats {
	struct fwd_loop_ctrs loop;
	struct fwd_port_ctrs port[FWD_MAX_PORTS];
};

/* Sum port `port` over n workers into out (zeroed first). */
void fwd_stats_sum_port(const struct fwd_wstats *const *ws, unsigned n, unsigned port,
                        struct fwd_port_ctrs *out);

/* out = a - b, field by field, clamping at 0 (a baseline newer than a sum). */
void fwd_stats_sub(const struct fwd_port_ctrs *a, const struct fwd_port_ctrs *b,
                   struct fwd_port_ctrs *out);

uint64_t fwd_stats_drops(const struct fwd_port_ctrs *c);

/* Rates between two samples taken dt seconds apart (0 when dt <= 0). */
struct fwd_rates {
	double rx_pps, rx_bps, tx_pps, tx_bps;
};
void fwd_stats_rates(const struct fwd_port_ctrs *prev, const struct fwd_port_ctrs *cur, double dt,
                     struct fwd_rates *out);

#endif
