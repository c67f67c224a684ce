/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Counters summed over workers, differences against a baseline (`stats
 * clear`) and rates: the control thread's view of core/counters.h.
 */
#ifndef FWD_STATS_H
#define FWD_STATS_H

#include <stdint.h>

#include <rte_common.h>

#include "core/counters.h"

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
