/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Bringing the dataplane up and down around a loaded config (fwd.cfg) and
 * an initialised EAL: mempool, RCU, control loop, ports, workers, modules,
 * RPC server. Also used, without launching workers or the RPC server, by
 * the fuzzers that drive the packet path and the RPC handlers in-process.
 */
#include <errno.h>

#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mbuf_pool_ops.h>
#include <rte_rcu_qsbr.h>

#include "core/control.h"
#include "core/daemon.h"
#include "main/lifecycle.h"
#include "core/log.h"
#include "core/module.h"
#include "core/rpc.h"
#include "core/worker.h"
#include "port/port.h"

/*
 * rte_pktmbuf_pool_create, with the objects packed back to back when IOVA
 * is VA (always so without hugepages): by default, on 4 KiB pages, every
 * mbuf gets a page of its own. DPDK 22.11's af_xdp maps the pool as a
 * UMEM of populated_size x object size from its start, so the mbufs past
 * that (four in ten) were handed to the kernel's fill ring as addresses it
 * drops silently: after a few thousand packets an af_xdp port received
 * nothing more. Packed, the UMEM covers them all; with IOVA = VA a buffer
 * across a page boundary is still contiguous to the device.
 */
static struct rte_mempool *mbuf_pool_new(const char *name, unsigned n, unsigned cache,
                                         uint16_t room, int socket)
{
	struct rte_pktmbuf_pool_private priv = { .mbuf_data_room_size = room };
	unsigned flags = rte_eal_iova_mode() == RTE_IOVA_VA ? RTE_MEMPOOL_F_NO_IOVA_CONTIG : 0;
	struct rte_mempool *mp = rte_mempool_create_empty(name, n, sizeof(struct rte_mbuf) + room,
	                                                  cache, sizeof(priv), socket, flags);
	int rc;

	if (mp == NULL)
		return NULL;
	rc = rte_mempool_set_ops_byname(mp, rte_mbuf_best_mempool_ops(), NULL);
	if (rc == 0) {
		rte_pktmbuf_pool_init(mp, &priv);
		rc = rte_mempool_populate_default(mp);
	}
	if (rc < 0) {
		rte_mempool_free(mp);
		rte_errno = -rc;
		return NULL;
	}
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	return mp;
}

/* dataplane.mbufs for the router's own use (packets in flight, queued,
 * held), plus what the PMDs keep in their rings (af_xdp's fill rings):
 * so that rx_mbuf_allocation_errors moves only when the router's own share
 * truly ran out. */
static int pool_create(const struct fwd_config *cfg, unsigned n_workers)
{
	unsigned max_mtu = RTE_ETHER_MTU;
	unsigned cache = RTE_MIN(256u, cfg->dataplane.mbufs / 2);
	unsigned pinned = fwd_ports_pinned_mbufs(cfg, n_workers);

	for (unsigned i = 0; i < cfg->n_ports; i++)
		max_mtu = RTE_MAX(max_mtu, cfg->ports[i].mtu);
	/* a frame of the largest MTU in one buffer (port/port.h) */
	unsigned room = RTE_PKTMBUF_HEADROOM + fwd_rx_buf_size(max_mtu);
	fwd.pool = mbuf_pool_new("fwd_pool", cfg->dataplane.mbufs + pinned, cache, (uint16_t)room,
	                         (int)rte_socket_id());
	if (fwd.pool == NULL) {
		LOG(ERR,
		    "mbuf pool of %u mbufs (dataplane.mbufs, and %u for af_xdp rings): %s (raise "
		    "dpdk.memory_mb or lower dataplane.mbufs)",
		    cfg->dataplane.mbufs + pinned, pinned, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	if (pinned != 0)
		LOG(INFO, "mbuf pool: %u mbufs, %u of them for af_xdp rings", fwd.pool->size,
		    pinned);
	return 0;
}

static int rcu_create(unsigned n_workers)
{
	size_t sz = rte_rcu_qsbr_get_memsize(n_workers);

	fwd.rcu = rte_zmalloc("fwd_rcu", sz, RTE_CACHE_LINE_SIZE);
	if (fwd.rcu == NULL || rte_rcu_qsbr_init(fwd.rcu, n_workers) < 0)
		return -ENOMEM;
	for (unsigned i = 0; i < n_workers; i++)
		rte_rcu_qsbr_thread_register(fwd.rcu, i);
	return 0;
}

int fwd_dataplane_up(bool launch)
{
	int n = fwd_config_n_workers(fwd.cfg);
	int rc;

	if (n < 1)
		return -EINVAL;
	if ((rc = pool_create(fwd.cfg, (unsigned)n)) < 0 || (rc = rcu_create(n)) < 0 ||
	    (rc = fwd_control_init()) < 0 || (rc = fwd_ports_init(fwd.cfg, n)) < 0 ||
	    (rc = fwd_workers_create(fwd.cfg)) < 0 || (rc = fwd_modules_init(fwd.cfg)) < 0)
		return rc;
	if ((rc = fwd_ports_start()) < 0 || (launch && (rc = fwd_workers_launch()) < 0))
		return rc;
	if (!launch)
		return 0;
	fwd.rpc = fwd_rpc_server_start(fwd.evbase, fwd.cfg->control.socket,
	                               fwd.cfg->control.socket_group);
	return fwd.rpc == NULL ? -EIO : 0;
}

void fwd_dataplane_down(void)
{
	if (fwd.rpc != NULL)
		fwd_rpc_server_stop(fwd.rpc);
	fwd.rpc = NULL;
	fwd_workers_stop();
	fwd_modules_fini();
	fwd_ports_stop();
	fwd_workers_free();
	fwd_ports_close();
	rte_free(fwd.rcu);
	fwd.rcu = NULL;
	rte_mempool_free(fwd.pool);
	fwd.pool = NULL;
	fwd_control_fini();
}
