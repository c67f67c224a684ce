/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Control-thread view of the counters: sums over workers minus the
 * `stats clear` baseline, and rates from a once-a-second sample.
 */
#ifndef FWD_STATS_CTL_H
#define FWD_STATS_CTL_H

#include "stats/stats.h"

/* Current counters of interface id `port` (a port's index is its id)
 * since the last clear, or since the interface was made. */
void fwd_stats_port_get(unsigned port, struct fwd_port_ctrs *out);
const struct fwd_rates *fwd_stats_port_rates(unsigned port);
double fwd_stats_interval(void);
/* The first interface id in use (ports first) and the one after id, or
 * FWD_MAX_IFACES at the end: the rows of `stats` and metrics. */
unsigned fwd_stats_first(void);
unsigned fwd_stats_next(unsigned id);

/* Worker loop counters since the last clear. */
void fwd_stats_loop_get(unsigned worker, struct fwd_loop_ctrs *out);

/* A worker's load since the last clear (or start), like VPP's `show runtime`. */
struct fwd_worker_load {
	struct fwd_loop_ctrs c;
	uint64_t elapsed_cycles;  /* TSC cycles since the last clear */
	double busy_ratio;        /* busy_cycles / elapsed_cycles, 0..1 */
	double avg_burst;         /* packets per non-empty rx burst */
	double cycles_per_packet; /* busy cycles per packet received */
};
void fwd_stats_worker_load(unsigned worker, struct fwd_worker_load *out);

void fwd_stats_clear(void);

/* Features that keep counters of their own (bridges) restart them on
 * `stats clear` too. */
void fwd_stats_on_clear(void (*fn)(void));

#endif
