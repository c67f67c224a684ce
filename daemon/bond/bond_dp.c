/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A bond's transmit (workers): the flush of its tx buffer spreads the
 * frames over the distributing members by the bond's hash (bond_hash.h),
 * one burst per member on the worker's own tx queue (fwd_tx_burst: the
 * member counts its own, drops tx_full on itself); the bond counts what
 * its members sent. The set is read once per burst under RCU, so a member
 * leaving never drops a burst: the burst goes out by the set it began with.
 */
#include <rte_branch_prediction.h>

#include "bond/bond.h"
#include "bond/bond_hash.h"
#include "core/worker.h"

struct bond_dp bond_dp[FWD_MAX_PORTS];

/* n frames out by member, counted on the bond as the member counted them. */
static inline void member_tx(struct fwd_worker *w, struct fwd_port_ctrs *c, uint8_t member,
                             struct rte_mbuf **pkts, uint16_t n, uint64_t bytes)
{
	const struct fwd_port_ctrs *mc = &w->stats.port[member];
	uint64_t pkts0 = mc->tx_pkts, bytes0 = mc->tx_bytes;

	fwd_tx_burst(w, member, pkts, n, bytes);
	c->tx_pkts += mc->tx_pkts - pkts0;
	c->tx_bytes += mc->tx_bytes - bytes0;
}

/* Each frame to its member: a counting sort, so each member's frames keep
 * their order and go in one burst. */
static void spread(struct fwd_worker *w, struct fwd_port_ctrs *c, const struct bond_dist *d,
                   enum bond_hash how, struct rte_mbuf **pkts, uint16_t n)
{
	struct rte_mbuf *out[FWD_BURST_MAX];
	uint8_t pick[FWD_BURST_MAX];
	uint16_t start[FWD_BOND_MAX_MEMBER + 1] = { 0 }, at[FWD_BOND_MAX_MEMBER];
	uint64_t bytes[FWD_BOND_MAX_MEMBER] = { 0 };

	for (uint16_t i = 0; i < n; i++) {
		const struct rte_mbuf *m = pkts[i];
		uint32_t h =
		        bond_hash_frame(rte_pktmbuf_mtod(m, const uint8_t *), m->data_len, how);

		pick[i] = (uint8_t)bond_pick(h, d->n);
		start[pick[i] + 1]++;
		bytes[pick[i]] += m->pkt_len;
	}
	for (unsigned k = 0; k < d->n; k++) {
		start[k + 1] += start[k];
		at[k] = start[k];
	}
	for (uint16_t i = 0; i < n; i++)
		out[at[pick[i]]++] = pkts[i];
	for (unsigned k = 0; k < d->n; k++)
		if (start[k + 1] != start[k])
			member_tx(w, c, d->member[k], out + start[k],
			          (uint16_t)(start[k + 1] - start[k]), bytes[k]);
}

void bond_xmit(struct fwd_worker *w, uint8_t bond, struct rte_mbuf **pkts, uint16_t n,
               uint64_t bytes)
{
	const struct bond_dist *d = __atomic_load_n(&bond_dp[bond].dist, __ATOMIC_ACQUIRE);
	struct fwd_port_ctrs *c = &w->stats.port[bond];

	if (unlikely(d == NULL || d->n == 0)) {
		fwd_drop_bulk(w, bond, FWD_DROP_BOND_DOWN, pkts, n);
		return;
	}
	if (d->n == 1 || n == 1) {
		unsigned k =
		        n == 1 && d->n > 1
		                ? bond_pick(bond_hash_frame(rte_pktmbuf_mtod(pkts[0], uint8_t *),
		                                            pkts[0]->data_len,
		                                            (enum bond_hash)bond_dp[bond].hash),
		                            d->n)
		                : 0;
		member_tx(w, c, d->member[k], pkts, n, bytes);
		return;
	}
	spread(w, c, d, (enum bond_hash)bond_dp[bond].hash, pkts, n);
}

RTE_INIT(bond_dp_register)
{
	fwd_bond_xmit = bond_xmit;
}
