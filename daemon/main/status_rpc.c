/* SPDX-License-Identifier: BSD-3-Clause */
#include <time.h>
#include <unistd.h>

#include <rte_mempool.h>

#include "core/daemon.h"
#include "core/rpc.h"
#include "core/worker.h"
#include "cp/fpm.h"
#include "fwd_frame.h"
#include "ip4/ip4.h"
#include "ip6/ip6.h"
#include "nexthop/neigh.h"
#include "port/port.h"
#include "reasm/reasm.h"

static Fwd__MempoolInfo *mempool_info(struct fwd_rpc_call *call)
{
	Fwd__MempoolInfo *m = fwd_rpc_alloc(call, sizeof(*m));

	fwd__mempool_info__init(m);
	m->name = fwd_rpc_strdup(call, fwd.pool->name);
	m->size = fwd.pool->size;
	m->in_use = rte_mempool_in_use_count(fwd.pool);
	m->available = rte_mempool_avail_count(fwd.pool);
	return m;
}

static int status_get(struct fwd_rpc_call *call)
{
	Fwd__StatusResp *r = fwd_rpc_alloc(call, sizeof(*r));

	fwd__status_resp__init(r);
	r->version = fwd_rpc_strdup(call, FWD_VERSION);
	r->uptime_s = (uint64_t)(time(NULL) - fwd.start_time);
	r->api_version = FWD_API_VERSION;
	r->config_path = fwd_rpc_strdup(call, fwd.cfg->path);
	r->lcores = fwd_rpc_strdup(call, fwd.cfg->dpdk.lcores);
	r->control_lcore = fwd.control_lcore;
	r->worker_lcores = fwd_rpc_alloc(call, sizeof(uint32_t) * (fwd.n_workers + 1));
	for (unsigned i = 0; i < fwd.n_workers; i++)
		r->worker_lcores[r->n_worker_lcores++] = fwd.workers[i]->lcore;
	r->n_ports = fwd_n_ports;
	for (unsigned i = 0; i < fwd_n_ports; i++)
		r->n_ports_up += fwd_ports[i].link_up && fwd_ports[i].admin_up;
	r->mempool = mempool_info(call);
	r->pid = (uint32_t)getpid();
	FWD_VRF_FOREACH(v) /* every VRF's (`vrf list` has them one by one) */
	{
		r->routes += ip4_ribs[v].n_routes + ip6_ribs[v].n_routes;
		r->routes_ip6 += ip6_ribs[v].n_routes;
	}
	r->neighbours = neigh_count();
	r->fpm = fpm_status(call);
	r->reasm_datagrams = reasm_pending();
	r->reasm_fragments = reasm_held();
	call->resp->body_case = FWD__RESPONSE__BODY_STATUS_RESP;
	call->resp->status_resp = r;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_STATUS, status_get, FWD_RPC_READ);
