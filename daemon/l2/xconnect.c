/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Cross-connect: every frame received on a port leaves by its peer
 * unchanged (the l2fwd/ixy forwarder). The whole burst goes out in one
 * tx call, so this is as cheap as forwarding gets.
 */
#include "core/worker.h"

static void xconnect_input(struct fwd_worker *w, const struct fwd_iface *in, struct rte_mbuf **pkts,
                           uint16_t n)
{
	uint64_t bytes = fwd_pkts_bytes(pkts, n);

	w->stats.port[in->id].rx_bytes += bytes;
	fwd_tx_burst(w, in->peer, pkts, n, bytes);
}

RTE_INIT(xconnect_register)
{
	fwd_worker_set_input(FWD_MODE_XCONNECT, xconnect_input);
}
