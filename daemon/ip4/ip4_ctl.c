/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4 life cycle: FIB, RIB and ARP (the config is applied by l3/l3_config.c),
 * and the tables of each VRF (core/vrf.h). */
#include <errno.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_rcu_qsbr.h>

#include "core/control.h"
#include "core/daemon.h"
#include "core/log.h"
#include "core/module.h"
#include "ip4/addr.h"
#include "ip4/arp.h"
#include "ip4/ip4.h"
#include "nexthop/nexthop.h"
#include "ip4/route.h"
#include "port/port.h"

#define RECLAIM_MS 100
/* The groups of a VRF's FIB other than the default's (the small layout,
 * ip4/fib.h): a few at first, doubled as needed up to 64 MiB of them. */
#define VRF_TBL8S     64
#define VRF_TBL8S_MAX 65536

struct fib4 *ip4_fibs[FWD_MAX_VRFS];
struct rib4 ip4_ribs[FWD_MAX_VRFS];
static struct event *reclaim_ev;

static void ip4_reclaim(void *arg)
{
	(void)arg;
	FWD_VRF_FOREACH(v)
	if (ip4_fibs[v] != NULL)
		fib4_reclaim(ip4_fibs[v]);
}

static int vrf_tables_add(uint16_t vrf, enum fwd_vrf_event ev)
{
	struct fib4 *fib =
	        fib4_create_small(VRF_TBL8S, VRF_TBL8S_MAX, fwd.rcu, (int)rte_socket_id());

	(void)ev;
	if (fib == NULL)
		return -ENOMEM;
	rib4_init(&ip4_ribs[vrf], fib);
	__atomic_store_n(&ip4_fibs[vrf], fib, __ATOMIC_RELEASE);
	return 0;
}

static int vrf_tables_del(uint16_t vrf, enum fwd_vrf_event ev)
{
	struct fib4 *fib = ip4_fibs[vrf];

	(void)ev;
	if (fib == NULL)
		return 0;
	/* its routes' next hops are released; no interface is left in it */
	route_core_flush(&route4_ops, vrf);
	__atomic_store_n(&ip4_fibs[vrf], NULL, __ATOMIC_RELEASE);
	rib4_clear(&ip4_ribs[vrf]);
	ip4_ribs[vrf].fib = NULL;
	/* a burst that took the FIB before (a next_vrf hop) may still read it */
	if (fwd.rcu != NULL && fwd.n_workers != 0)
		rte_rcu_qsbr_synchronize(fwd.rcu, RTE_QSBR_THRID_INVALID);
	fib4_free(fib);
	return 0;
}

RTE_INIT(ip4_vrf_hooks)
{
	fwd_vrf_hook_add(FWD_VRF_EV_ADD, vrf_tables_add);
	fwd_vrf_hook_add(FWD_VRF_EV_DEL, vrf_tables_del);
}

static int ip4_init(const struct fwd_config *cfg)
{
	int socket = (int)rte_socket_id(), rc;

	ip4_fibs[0] = fib4_create(cfg->dataplane.fib_tbl8s, fwd.rcu, socket);
	if (ip4_fibs[0] == NULL) {
		LOG(ERR, "FIB of %u tbl8 groups: out of memory (raise dpdk.memory_mb)",
		    cfg->dataplane.fib_tbl8s);
		return -ENOMEM;
	}
	rib4_init(&ip4_ribs[0], ip4_fibs[0]);
	memset(ip4_addrs, 0, sizeof(ip4_addrs));
	reclaim_ev = fwd_timer_every(RECLAIM_MS * 1000, ip4_reclaim, NULL);
	if (reclaim_ev == NULL || (rc = arp_init()) < 0)
		return reclaim_ev == NULL ? -ENOMEM : rc;
	return 0;
}

static void ip4_fini(void)
{
	arp_fini();
	fwd_timer_free(&reclaim_ev);
	for (uint16_t v = 1; v < FWD_MAX_VRFS; v++)
		vrf_tables_del(v, FWD_VRF_EV_DEL);
	rib4_clear(&ip4_ribs[0]);
	fib4_free(ip4_fibs[0]);
	ip4_fibs[0] = NULL;
	ip4_ribs[0].fib = NULL;
	memset(ip4_addrs, 0, sizeof(ip4_addrs));
}

static struct fwd_module ip4_module = {
	.name = "ip4",
	.depends_on = "punt nexthop",
	.init = ip4_init,
	.fini = ip4_fini,
};
FWD_MODULE(ip4_module);
