/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `fwdctl stats workers`: per-worker load since start or the last
 * `stats clear`, from the loop counters each worker keeps (stats/stats.h).
 */
#include <rte_cycles.h>

#include "core/daemon.h"
#include "core/rpc.h"
#include "core/worker.h"
#include "port/port.h"
#include "stats/stats_ctl.h"

static Fwd__WorkerStats *worker_stats(struct fwd_rpc_call *call, const struct fwd_worker *w)
{
	Fwd__WorkerStats *ws = fwd_rpc_alloc(call, sizeof(*ws));
	struct fwd_worker_load l;

	fwd__worker_stats__init(ws);
	fwd_stats_worker_load(w->index, &l);
	ws->index = w->index;
	ws->lcore = w->lcore;
	ws->busy_pct = 100.0 * l.busy_ratio;
	ws->packets = l.c.pkts;
	ws->avg_burst = l.avg_burst;
	ws->cycles_per_packet = l.cycles_per_packet;
	ws->loops = l.c.loops;
	ws->busy_loops = l.c.busy_loops;
	ws->rx_queues = (char **)fwd_rpc_ptr_array(call, w->n_rxq);
	for (unsigned i = 0; i < w->n_rxq; i++)
		ws->rx_queues[ws->n_rx_queues++] = fwd_rpc_printf(
		        call, "%s/%u", fwd_ports[w->rxq[i].port].name, (unsigned)w->rxq[i].queue);
	return ws;
}

static int stats_workers(struct fwd_rpc_call *call)
{
	Fwd__WorkerStatsResp *r = fwd_rpc_alloc(call, sizeof(*r));

	fwd__worker_stats_resp__init(r);
	r->workers = (Fwd__WorkerStats **)fwd_rpc_ptr_array(call, fwd.n_workers);
	for (unsigned i = 0; i < fwd.n_workers; i++)
		r->workers[r->n_workers++] = worker_stats(call, fwd.workers[i]);
	r->tsc_hz = rte_get_tsc_hz();
	call->resp->body_case = FWD__RESPONSE__BODY_WORKERS;
	call->resp->workers = r;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_STATS_WORKERS, stats_workers, FWD_RPC_READ);
