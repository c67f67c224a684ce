/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "stats/stats.h"

void fwd_stats_sum_port(const struct fwd_wstats *const *ws, unsigned n, unsigned port,
                        struct fwd_port_ctrs *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned w = 0; w < n; w++) {
		const struct fwd_port_ctrs *c = &ws[w]->port[port];
		out->rx_pkts += c->rx_pkts;
		out->rx_bytes += c->rx_bytes;
		out->tx_pkts += c->tx_pkts;
		out->tx_bytes += c->tx_bytes;
		out->consumed += c->consumed;
		out->created += c->created;
		for (unsigned r = 0; r < FWD_DROP_MAX; r++)
			out->drop[r] += c->drop[r];
	}
}

static inline uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void fwd_stats_sub(const struct fwd_port_ctrs *a, const struct fwd_port_ctrs *b,
                   struct fwd_port_ctrs *out)
{
	out->rx_pkts = sub0(a->rx_pkts, b->rx_pkts);
	out->rx_bytes = sub0(a->rx_bytes, b->rx_bytes);
	out->tx_pkts = sub0(a->tx_pkts, b->tx_pkts);
	out->tx_bytes = sub0(a->tx_bytes, b->tx_bytes);
	out->consumed = sub0(a->consumed, b->consumed);
	out->created = sub0(a->created, b->created);
	for (unsigned r = 0; r < FWD_DROP_MAX; r++)
		out->drop[r] = sub0(a->drop[r], b->drop[r]);
}

uint64_t fwd_stats_drops(const struct fwd_port_ctrs *c)
{
	uint64_t sum = 0;

	for (unsigned r = 0; r < FWD_DROP_MAX; r++)
		sum += c->drop[r];
	return sum;
}

void fwd_stats_rates(const struct fwd_port_ctrs *prev, const struct fwd_port_ctrs *cur, double dt,
                     struct fwd_rates *out)
{
	memset(out, 0, sizeof(*out));
	if (dt <= 0)
		return;
	out->rx_pps = sub0(cur->rx_pkts, prev->rx_pkts) / dt;
	out->rx_bps = sub0(cur->rx_bytes, prev->rx_bytes) * 8.0 / dt;
	out->tx_pps = sub0(cur->tx_pkts, prev->tx_pkts) / dt;
	out->tx_bps = sub0(cur->tx_bytes, prev->tx_bytes) * 8.0 / dt;
}
