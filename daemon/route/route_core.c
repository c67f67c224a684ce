/* SPDX-License-Identifier: BSD-3-Clause */
/* The route core of both families over their RIBs (route/route_core.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "core/err.h"
#include "core/event.h"
#include "core/log.h"
#include "core/iface.h"
#include "core/vrf.h"
#include "core/ports.h"
#include "nexthop/neigh.h"
#include "nexthop/nexthop.h"
#include "route/route_core.h"

/* Resolve the gateways' interfaces and take the next hop over them: a
 * neighbour's entry, or an ECMP group. */
static int route_gateway(const struct route_family_ops *f, const struct route_req *r,
                         struct route_ent *rt, char *err, size_t errlen)
{
	uint16_t port[FWD_ECMP_MAX];
	char buf[FWD_IP_STRLEN];
	int rc;

	if (r->n_via == 0 || r->n_via > FWD_ECMP_MAX)
		return ERR(EINVAL, "a route has 1 to %u gateways", FWD_ECMP_MAX);
	for (unsigned i = 0; i < r->n_via; i++) {
		unsigned p;
		if ((rc = f->rule_gateway(r->vrf, &r->via[i], r->dev[i], &p, err, errlen)) < 0)
			return rc;
		port[i] = (uint16_t)p;
		for (unsigned j = 0; j < i; j++)
			if (fwd_ip_eq(&r->via[j], &r->via[i]) &&
			    (!f->gateway_twice_per_port || port[j] == port[i]))
				return ERR(EINVAL, "gateway %s given twice",
				           fwd_ip_fmt(&r->via[i], buf));
	}
	rt->type = ROUTE_VIA;
	rt->via = r->via[0];
	rt->dev = r->n_via == 1 && r->dev[0] >= 0 ? (uint16_t)r->dev[0] : ROUTE_DEV_ANY;
	rc = nh_route_ref(r->n_via, r->via, port, &rt->nh);
	if (rc < 0)
		return ERR(-rc, "no room for %s in the next-hop table",
		           r->n_via > 1 ? "the ECMP group (or its gateways)" : "the gateway");
	return 0;
}

/* Drop what a route held: its neighbour's or group's reference, or a
 * VLAN's connected entry's, once no FIB entry can point at it (a sliced
 * write of `route load` may leave entries on it until the write
 * completes: ip4/fib.h). */
static void route_release(const struct route_family_ops *f, uint16_t vrf,
                          const struct route_ent *rt)
{
	if (rt->type == ROUTE_VIA)
		f->after_job(vrf, nh_route_unref, rt->nh);
	else if (rt->nh >= NH_FIRST_DYNAMIC &&
	         (nh_table[rt->nh].type == NH_CONNECTED || nh_table[rt->nh].type == NH_VRF))
		f->after_job(vrf, nh_route_fixed_put, rt->nh);
}

/* The next hop of a route that has no gateway. */
static int route_special(const struct route_req *r, struct route_ent *rt, char *err, size_t errlen)
{
	static const uint8_t nh_type[] = { [ROUTE_BLACKHOLE] = NH_BLACKHOLE,
		                           [ROUTE_UNREACHABLE] = NH_UNREACHABLE,
		                           [ROUTE_PROHIBIT] = NH_PROHIBIT,
		                           [ROUTE_DEV] = NH_CONNECTED,
		                           [ROUTE_NEXT_VRF] = NH_VRF };
	bool next_vrf = r->type == ROUTE_NEXT_VRF;
	int rc;

	if (next_vrf && r->next_vrf == r->vrf)
		return ERR(EINVAL, "next_vrf: the route's own VRF");
	rc = r->type < RTE_DIM(nh_type) && nh_type[r->type] != 0
	             ? nh_route_fixed(nh_type[r->type], next_vrf ? r->next_vrf : r->dev[0], &rt->nh)
	             : -EINVAL;
	if (rc == -ENODEV && next_vrf)
		return ERR(ENODEV, "next_vrf: no such VRF");
	if (rc == -ENODEV)
		return ERR(ENODEV, "a route on a link needs an l3 port or VLAN (dev)");
	if (rc == -ENOSPC)
		return ERR(ENOSPC, "no room for the link's entry in the next-hop table");
	if (rc < 0)
		return ERR(EINVAL, "bad route type %u", r->type);
	rt->type = r->type;
	if (r->type == ROUTE_DEV)
		rt->dev = (uint16_t)r->dev[0];
	return 0;
}

int route_core_add(const struct route_family_ops *f, const struct route_req *r, char *err,
                   size_t errlen)
{
	struct route_ent rt = { .origin = r->origin, .dev = ROUTE_DEV_ANY }, old;
	char buf[FWD_PREFIX_STRLEN];
	bool had = f->find(r->vrf, &r->prefix, &old);
	int rc;

	if ((rc = f->rule_route(r->vrf, &r->prefix, err, errlen)) < 0)
		return rc;
	if (had && !r->replace)
		return ERR(EEXIST, "route %s exists (use replace)",
		           fwd_prefix_fmt(&r->prefix, buf));
	if ((rc = r->type == ROUTE_VIA ? route_gateway(f, r, &rt, err, errlen)
	                               : route_special(r, &rt, err, errlen)) < 0)
		return rc;
	rc = f->set(r->vrf, &r->prefix, &rt, &old, &had);
	if (rc < 0) {
		route_release(f, r->vrf, &rt);
		return ERR(-rc, "%s: %s", fwd_prefix_fmt(&r->prefix, buf),
		           rc == -ENOSPC ? f->fib_full : strerror(-rc));
	}
	if (had)
		route_release(f, r->vrf, &old);
	if (f->is_reserved(&r->prefix) && r->origin != FWD_ORIGIN_LOAD)
		LOG(NOTICE, "route %s: kept, but its destinations are never routed%s",
		    fwd_prefix_fmt(&r->prefix, buf), f->reserved_why);
	return had ? 1 : 0;
}

int route_core_del(const struct route_family_ops *f, uint16_t vrf, const struct fwd_prefix *p,
                   char *err, size_t errlen)
{
	char buf[FWD_PREFIX_STRLEN];
	struct route_ent old;

	if (!f->find(vrf, p, &old))
		return ERR(ESRCH, "no route %s", fwd_prefix_fmt(p, buf));
	if (old.type == ROUTE_CONNECTED)
		return ERR(EINVAL, "%s is a connected route (remove the address instead)",
		           fwd_prefix_fmt(p, buf));
	f->clear(vrf, p, &old);
	route_release(f, vrf, &old);
	return 0;
}

int route_core_connected_add(const struct route_family_ops *f, const struct fwd_prefix *p,
                             uint16_t port)
{
	struct route_ent rt = { .type = ROUTE_CONNECTED,
		                .origin = FWD_ORIGIN_ADDRESS,
		                .dev = port },
	                 old;
	uint16_t vrf = fwd_ifaces[port].vrf;
	bool had;
	int rc;

	if (f->connected_kept && f->find(vrf, p, &old) && old.type == ROUTE_CONNECTED)
		return 0; /* another address of the same prefix */
	/* a port's entry is fixed, a VLAN's counted (nexthop/nexthop.h) */
	if ((rc = nh_connected_ref(port, &rt.nh)) < 0)
		return rc;
	rc = f->set(vrf, p, &rt, &old, &had);
	if (rc < 0) {
		route_release(f, vrf, &rt);
		return rc;
	}
	if (had && old.type != ROUTE_CONNECTED) {
		char buf[FWD_PREFIX_STRLEN];
		LOG(NOTICE, "route %s replaced by the connected %s of %s", fwd_prefix_fmt(p, buf),
		    f->connected_what, fwd_iface_name(port));
	}
	if (had)
		route_release(f, vrf, &old);
	return 0;
}

void route_core_connected_del(const struct route_family_ops *f, const struct fwd_prefix *p,
                              uint16_t port)
{
	uint16_t vrf = fwd_ifaces[port].vrf;
	struct route_ent old;

	if (f->find(vrf, p, &old) && old.type == ROUTE_CONNECTED) {
		f->clear(vrf, p, &old);
		route_release(f, vrf, &old);
	}
}

/* Is each gateway of rt still on a connected subnet of the interface it resolved on? */
static bool route_gateway_ok(const struct route_family_ops *f, const struct route_ent *rt)
{
	uint32_t m[FWD_ECMP_MAX];
	unsigned n = nh_group_members(rt->nh, m);

	if (n == 0)
		m[n++] = rt->nh;
	for (unsigned i = 0; i < n; i++) {
		uint16_t iface = nh_table[m[i]].iface;
		if (!neigh_iface_ok(iface) || !f->on_port(iface, nh_addr(m[i])) ||
		    (f->gateway_keeps_dev && n == 1 && rt->dev != ROUTE_DEV_ANY &&
		     rt->dev != iface))
			return false;
	}
	return true;
}

static unsigned route_prune_vrf(const struct route_family_ops *f, uint16_t vrf)
{
	struct fwd_prefix p = { 0 };
	struct route_ent rt;
	unsigned pruned = 0;
	bool more = f->next(vrf, &p, &rt, true);

	while (more) {
		if (rt.type == ROUTE_VIA && !route_gateway_ok(f, &rt)) {
			char buf[FWD_PREFIX_STRLEN], via[FWD_IP_STRLEN];
			struct route_ent old;
			LOG(NOTICE, "route %s via %s removed: gateway no longer connected",
			    fwd_prefix_fmt(&p, buf), fwd_ip_fmt(&rt.via, via));
			fwd_event_route_pruned(buf, via, rt.origin);
			f->clear(vrf, &p, &old);
			route_release(f, vrf, &old);
			pruned++;
		}
		more = f->next(vrf, &p, &rt, false);
	}
	return pruned;
}

unsigned route_core_prune(const struct route_family_ops *f)
{
	unsigned pruned = 0;

	FWD_VRF_FOREACH(v)
	pruned += route_prune_vrf(f, (uint16_t)v);
	return pruned;
}

void route_core_flush(const struct route_family_ops *f, uint16_t vrf)
{
	struct fwd_prefix p = { 0 };
	struct route_ent rt, old;

	while (f->next(vrf, &p, &rt, true)) {
		f->clear(vrf, &p, &old);
		route_release(f, vrf, &old);
	}
}
