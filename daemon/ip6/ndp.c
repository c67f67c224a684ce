/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NDP, the IPv6 resolver of the neighbour layer (nexthop/neigh.h), and its
 * life cycle. The resolver: which addresses may be neighbours on a port
 * (addr6_rule_neigh: unicast, on one of the port's prefixes or link-local,
 * not ours), the port whose prefix holds one, /128 host routes of resolved
 * neighbours (never for link-local ones: fe80::x is per link, a FIB entry
 * for it would say which link at random; a route via fe80::x dev P points
 * at the neighbour's next hop itself), solicitations (multicast to the
 * solicited-node group, or a unicast probe, from our address on the
 * target's prefix or else the link-local one, with our SLLA), and ICMPv6
 * address unreachable for packets that waited in vain. Input is
 * ndp_input.c, DAD ndp_dad.c, Router Advertisements ndp_ra.c; their timers
 * run from one control-loop tick here, and an interface that goes takes
 * their state with it (one core/iface.h hook, before its addresses go, so
 * that its last RA still has its link-local source).
 */
#include <errno.h>

#include "core/control.h"
#include "core/iface.h"
#include "core/log.h"
#include "ip6/addr6.h"
#include "ip6/icmp6.h"
#include "ip6/ip6.h"
#include "ip6/ndp.h"
#include "ip6/ndp_guard.h"
#include "ip6/ndp_priv.h"
#include "nexthop/neigh.h"

#define NDP_HOOK_ORDER 5 /* before addresses (10) */

static struct event *tick_ev;

static int ndp_check(uint16_t port, const struct fwd_ip *a, const uint8_t *mac, char *err,
                     size_t errlen)
{
	return addr6_rule_neigh(addr6_running(), port, a->v6, mac, err, errlen);
}

static int ndp_port_of(uint16_t vrf, const struct fwd_ip *a)
{
	return addr6_port_of(vrf, a->v6);
}

/* A neighbour's host route is in the VRF of its interface. */
static int ndp_host_add(const struct fwd_ip *a, uint32_t nh)
{
	if (ip6_is_linklocal(a->v6))
		return -EINVAL;
	return rib6_set_neigh(&ip6_ribs[fwd_ifaces[nh_table[nh].iface].vrf], a->v6, nh);
}

static void ndp_host_del(const struct fwd_ip *a, uint32_t nh)
{
	if (!ip6_is_linklocal(a->v6))
		rib6_clear_neigh(&ip6_ribs[fwd_ifaces[nh_table[nh].iface].vrf], a->v6, nh);
}

/* RFC 4861 7.2.2: from our address on the target's prefix, else the link-local one. */
static void ndp_solicit(uint16_t port, const struct fwd_ip *a, const struct rte_ether_addr *mac)
{
	uint8_t src[16];

	ndp_guard_mark(a->v6); /* so that the worker lets its answer through */
	if (addr6_source(port, a->v6, src))
		ndp_send_ns(port, src, a->v6, mac);
}

static void ndp_unreachable(const struct rte_mbuf *m, uint16_t in_port)
{
	icmp6_unreachable(m, in_port);
}

void ndp_tick(void)
{
	uint64_t now = neigh_hooks.now_ms();

	ndp_dad_tick(now);
	ndp_ra_tick(now);
	ndp_guard_sync(now);
}

static void ndp_tick_cb(void *arg)
{
	(void)arg;
	ndp_tick();
}

void ndp_module_init(void)
{
	static const struct neigh_resolver ndp = {
		.check = ndp_check,
		.port_of = ndp_port_of,
		.host_add = ndp_host_add,
		.host_del = ndp_host_del,
		.solicit = ndp_solicit,
		.unreachable = ndp_unreachable,
	};

	ndp_dad_reset();
	ndp_ra_reset();
	ndp_guard_reset();
	neigh_resolver_set(AF_INET6, &ndp);
}

void ndp_module_fini(void)
{
	static const struct neigh_resolver none;

	neigh_resolver_set(AF_INET6, &none);
	ndp_dad_reset();
	ndp_ra_reset();
	ndp_guard_reset();
}

static void ndp_iface_gone(const struct fwd_iface *ifp, enum fwd_iface_event ev)
{
	(void)ev;
	ndp_ra_gone(ifp->id);
	ndp_dad_gone(ifp->id); /* addresses' dad_stop then finds no run */
}

RTE_INIT(ndp_iface_hook)
{
	fwd_iface_hook_add(FWD_IFACE_EV_DEL, NDP_HOOK_ORDER, ndp_iface_gone);
	fwd_iface_hook_add(FWD_IFACE_EV_VRF_LEAVE, NDP_HOOK_ORDER, ndp_iface_gone);
}

int ndp_init(void)
{
	ndp_module_init();
	tick_ev = fwd_timer_every(NDP_TICK_MS * 1000, ndp_tick_cb, NULL);
	return tick_ev != NULL ? 0 : -ENOMEM;
}

void ndp_fini(void)
{
	fwd_timer_free(&tick_ev);
	ndp_module_fini();
}
