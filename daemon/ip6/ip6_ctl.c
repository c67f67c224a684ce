/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv6 life cycle: FIB and RIB, NDP, the link-local address of every l3
 * port, the input workers hand IPv6 frames to (the config is applied by
 * l3/l3_config.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_rcu_qsbr.h>

#include "core/control.h"
#include "core/counter.h"
#include "core/daemon.h"
#include "core/log.h"
#include "core/module.h"
#include "ip6/addr6.h"
#include "ip6/ip6.h"
#include "ip6/input.h"
#include "ip6/ndp.h"
#include "ip6/route6.h"
#include "nexthop/neigh.h"
#include "port/port.h"

#define RECLAIM_MS 100

/* adds the FIB refused for lack of groups, by pool (route/fib6.h), as of the last tick */
FWD_COUNTER(fib6_route_no_room, "fib6_routes_refused_no_room");
FWD_COUNTER(fib6_neigh_no_room, "fib6_neigh_hosts_refused_no_room");

/* The groups of a VRF's FIB other than the default's (the small layout,
 * route/fib6.h): a few at first, doubled as needed up to 64 MiB of them. */
#define VRF_TBL8S     64
#define VRF_TBL8S_MAX 65536

struct fib6 *ip6_fibs[FWD_MAX_VRFS];
struct rib6 ip6_ribs[FWD_MAX_VRFS];
static struct event *reclaim_ev;
static void (*room_hook)(void);
static struct {
	uint64_t retried; /* the pool's refusals when it was last retried */
	unsigned ticks;   /* since then */
} room[2];                /* by enum fib6_pool */

void ip6_fib_set_room_hook(void (*fn)(void))
{
	room_hook = fn;
}

/* Has pool refused an add since its last retry, and freed groups since? */
static bool room_returned(enum fib6_pool pool)
{
	if (room[pool].ticks < IP6_ROOM_TICKS) {
		room[pool].ticks++;
		return false;
	}
	if (ip6_fibs[0]->refused[pool] == room[pool].retried ||
	    fib6_pool_room(ip6_fibs[0], pool) <= ip6_fibs[0]->refused_room[pool])
		return false;
	room[pool].retried = ip6_fibs[0]->refused[pool];
	room[pool].ticks = 0;
	return true;
}

void ip6_fib_room_check(void)
{
	if (room_returned(FIB6_POOL_ROUTES) && room_hook != NULL)
		room_hook();
	if (room_returned(FIB6_POOL_HOSTS))
		neigh_addresses_changed(); /* gives their /128 to those without */
}

static void ip6_reclaim(void *arg)
{
	(void)arg;
	FWD_VRF_FOREACH(v)
	if (ip6_fibs[v] != NULL)
		fib6_reclaim(ip6_fibs[v]);
	fib6_route_no_room.value = ip6_fibs[0]->refused[FIB6_POOL_ROUTES];
	fib6_neigh_no_room.value = ip6_fibs[0]->refused[FIB6_POOL_HOSTS];
	ip6_fib_room_check();
}

static int vrf_tables_add(uint16_t vrf, enum fwd_vrf_event ev)
{
	struct fib6 *fib =
	        fib6_create_small(VRF_TBL8S, VRF_TBL8S_MAX, fwd.rcu, (int)rte_socket_id());

	(void)ev;
	if (fib == NULL)
		return -ENOMEM;
	rib6_init(&ip6_ribs[vrf], fib);
	__atomic_store_n(&ip6_fibs[vrf], fib, __ATOMIC_RELEASE);
	return 0;
}

static int vrf_tables_del(uint16_t vrf, enum fwd_vrf_event ev)
{
	struct fib6 *fib = ip6_fibs[vrf];

	(void)ev;
	if (fib == NULL)
		return 0;
	/* its routes' next hops are released; no interface is left in it */
	route_core_flush(&route6_ops, vrf);
	__atomic_store_n(&ip6_fibs[vrf], NULL, __ATOMIC_RELEASE);
	rib6_clear(&ip6_ribs[vrf]);
	ip6_ribs[vrf].fib = NULL;
	/* a burst that took the FIB before (a next_vrf hop) may still read it */
	if (fwd.rcu != NULL && fwd.n_workers != 0)
		rte_rcu_qsbr_synchronize(fwd.rcu, RTE_QSBR_THRID_INVALID);
	fib6_free(fib);
	return 0;
}

RTE_INIT(ip6_vrf_hooks)
{
	fwd_vrf_hook_add(FWD_VRF_EV_ADD, vrf_tables_add);
	fwd_vrf_hook_add(FWD_VRF_EV_DEL, vrf_tables_del);
}

static int ip6_init(const struct fwd_config *cfg)
{
	int rc;

	ip6_fibs[0] = fib6_create_pools(cfg->dataplane.fib6_tbl8s, cfg->dataplane.fib6_neigh_tbl8s,
	                                fwd.rcu, (int)rte_socket_id());
	if (ip6_fibs[0] == NULL) {
		LOG(ERR, "IPv6 FIB of %u + %u groups: out of memory (raise dpdk.memory_mb)",
		    cfg->dataplane.fib6_tbl8s, cfg->dataplane.fib6_neigh_tbl8s);
		return -ENOMEM;
	}
	memset(room, 0, sizeof(room));
	rib6_init(&ip6_ribs[0], ip6_fibs[0]);
	memset(ip6_addrs, 0, sizeof(ip6_addrs));
	reclaim_ev = fwd_timer_every(RECLAIM_MS * 1000, ip6_reclaim, NULL);
	if (reclaim_ev == NULL)
		return -ENOMEM;
	if ((rc = ndp_init()) < 0)
		return rc;
	ip6_input_init();
	for (unsigned p = 0; p < fwd_n_ports; p++)
		if (fwd_ports[p].mode == FWD_MODE_L3 && (rc = addr6_port_up((uint8_t)p)) < 0)
			return rc;
	return 0;
}

static void ip6_fini(void)
{
	ip6_input_fini(); /* no worker input on a FIB about to go */
	for (unsigned p = 0; p < fwd_n_ports; p++)
		addr6_port_down((uint8_t)p);
	ndp_fini();
	fwd_timer_free(&reclaim_ev);
	for (uint16_t v = 1; v < FWD_MAX_VRFS; v++)
		vrf_tables_del(v, FWD_VRF_EV_DEL);
	rib6_clear(&ip6_ribs[0]);
	fib6_free(ip6_fibs[0]);
	ip6_fibs[0] = NULL;
	ip6_ribs[0].fib = NULL;
	memset(ip6_addrs, 0, sizeof(ip6_addrs));
}

static int ip6_reload_check(const struct fwd_config *cur, const struct fwd_config *next, char *err,
                            size_t errlen)
{
	if (cur->dataplane.fib6_tbl8s == next->dataplane.fib6_tbl8s &&
	    cur->dataplane.fib6_neigh_tbl8s == next->dataplane.fib6_neigh_tbl8s)
		return 0;
	snprintf(err, errlen, "changing dataplane.fib6_tbl8s or fib6_neigh_tbl8s needs a restart");
	return -EBUSY;
}

static struct fwd_module ip6_module = {
	.name = "ip6",
	.depends_on = "punt nexthop port",
	.init = ip6_init,
	.fini = ip6_fini,
	.reload_check = ip6_reload_check,
};
FWD_MODULE(ip6_module);
