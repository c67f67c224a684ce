/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "core/event.h"
#include "core/log.h"
#include "ip4/addr.h"
#include "ip4/ip4.h"
#include "nexthop/nexthop.h"
#include "ip4/route.h"
#include "nexthop/neigh.h"
#include "port/port.h"

#define ERR(code, ...) (snprintf(err, errlen, __VA_ARGS__), -(code))

static const char *pfx(const struct fwd_ip4_prefix *p, char buf[FWD_PREFIX4_STRLEN])
{
	return fwd_ip4_prefix_fmt(p, buf);
}

/* Resolve the gateways' ports and take the next hop over them: a
 * neighbour's entry, or an ECMP group. */
static int route4_gateway(const struct route4_req *r, struct route4 *rt, char *err, size_t errlen)
{
	struct fwd_ip via[FWD_ECMP_MAX];
	uint8_t port[FWD_ECMP_MAX];
	char buf[FWD_IP4_STRLEN];
	int rc;

	if (r->n_via == 0 || r->n_via > FWD_ECMP_MAX)
		return ERR(EINVAL, "a route has 1 to %u gateways", FWD_ECMP_MAX);
	for (unsigned i = 0; i < r->n_via; i++) {
		unsigned p;
		if ((rc = addr4_rule_gateway(addr4_running(), r->via[i], r->dev[i], &p, err,
		                             errlen)) < 0)
			return rc;
		for (unsigned j = 0; j < i; j++)
			if (r->via[j] == r->via[i])
				return ERR(EINVAL, "gateway %s given twice",
				           fwd_ip4_fmt(r->via[i], buf));
		via[i] = fwd_ip_v4(r->via[i]);
		port[i] = (uint8_t)p;
	}
	rt->type = ROUTE4_VIA;
	rt->via = r->via[0];
	rt->dev = r->n_via == 1 && r->dev[0] >= 0 ? (uint8_t)r->dev[0] : ROUTE4_DEV_ANY;
	rc = nh_route_ref(r->n_via, via, port, &rt->nh);
	if (rc < 0)
		return ERR(-rc, "no room for %s in the next-hop table",
		           r->n_via > 1 ? "the ECMP group (or its gateways)" : "the gateway");
	return 0;
}

/* Drop what a route held: its neighbour's or group's reference, once no
 * FIB entry can point at it (a sliced write of `route load` may leave
 * entries on it until the write completes: ip4/fib.h). */
static void route4_release(const struct route4 *rt)
{
	if (rt->type == ROUTE4_VIA)
		fib4_after_job(ip4_rib.fib, nh_route_unref, rt->nh);
}

/* The next hop of a route that has no gateway. */
static int route4_special(const struct route4_req *r, struct route4 *rt, char *err, size_t errlen)
{
	static const uint8_t nh_type[] = { [ROUTE4_BLACKHOLE] = NH_BLACKHOLE,
		                           [ROUTE4_UNREACHABLE] = NH_UNREACHABLE,
		                           [ROUTE4_PROHIBIT] = NH_PROHIBIT,
		                           [ROUTE4_DEV] = NH_CONNECTED };
	int rc = r->type < RTE_DIM(nh_type) ? nh_route_fixed(nh_type[r->type], r->dev[0], &rt->nh)
	                                    : -EINVAL;

	if (rc == -ENODEV)
		return ERR(ENODEV, "a route on a link needs an l3 port (dev)");
	if (rc < 0)
		return ERR(EINVAL, "bad route type %u", r->type);
	rt->type = r->type;
	if (r->type == ROUTE4_DEV)
		rt->dev = (uint8_t)r->dev[0];
	return 0;
}

int route4_add(const struct route4_req *r, char *err, size_t errlen)
{
	struct route4 rt = { .origin = r->origin, .dev = ROUTE4_DEV_ANY }, old;
	struct rib4_node *n = rib4_find(&ip4_rib, r->prefix.addr, r->prefix.len);
	char buf[FWD_PREFIX4_STRLEN];
	bool had;
	int rc;

	if ((rc = addr4_rule_route(addr4_running(), &r->prefix, err, errlen)) < 0)
		return rc;
	if (n != NULL && (n->src & RIB4_SRC_ROUTE) && !r->replace)
		return ERR(EEXIST, "route %s exists (use replace)", pfx(&r->prefix, buf));
	if ((rc = r->type == ROUTE4_VIA ? route4_gateway(r, &rt, err, errlen)
	                                : route4_special(r, &rt, err, errlen)) < 0)
		return rc;
	rc = rib4_set_route(&ip4_rib, r->prefix.addr, r->prefix.len, &rt, &old, &had);
	if (rc < 0) {
		route4_release(&rt);
		return ERR(-rc, "%s: %s", pfx(&r->prefix, buf),
		           rc == -ENOSPC ? "FIB full (raise dataplane.fib_tbl8s)" : strerror(-rc));
	}
	if (had)
		route4_release(&old);
	if (rib4_is_reserved(r->prefix.addr, r->prefix.len) && r->origin != FWD_ORIGIN_LOAD)
		LOG(NOTICE,
		    "route %s: kept, but its destinations are never routed (RFC 1812 5.3.7)",
		    pfx(&r->prefix, buf));
	return had ? 1 : 0;
}

int route4_del(const struct fwd_ip4_prefix *p, char *err, size_t errlen)
{
	struct rib4_node *n = rib4_find(&ip4_rib, p->addr, p->len);
	char buf[FWD_PREFIX4_STRLEN];
	struct route4 old;

	if (n == NULL || !(n->src & RIB4_SRC_ROUTE))
		return ERR(ESRCH, "no route %s", pfx(p, buf));
	if (n->route.type == ROUTE4_CONNECTED)
		return ERR(EINVAL, "%s is a connected route (remove the address instead)",
		           pfx(p, buf));
	rib4_clear_route(&ip4_rib, p->addr, p->len, &old);
	route4_release(&old);
	return 0;
}

static int route4_connected_add(const struct fwd_ip4_prefix *p, uint8_t port)
{
	struct route4 rt = { .type = ROUTE4_CONNECTED,
		             .origin = FWD_ORIGIN_ADDRESS,
		             .dev = port,
		             .nh = NH_IDX_CONNECTED + port },
	              old;
	bool had;
	int rc = rib4_set_route(&ip4_rib, p->addr, p->len, &rt, &old, &had);

	if (rc == 0 && had && old.type != ROUTE4_CONNECTED) {
		char buf[FWD_PREFIX4_STRLEN];
		LOG(NOTICE, "route %s replaced by the connected subnet of %s", pfx(p, buf),
		    fwd_ports[port].name);
		route4_release(&old);
	}
	return rc;
}

static void route4_connected_del(const struct fwd_ip4_prefix *p)
{
	struct rib4_node *n = rib4_find(&ip4_rib, p->addr, p->len);
	struct route4 old;

	if (n != NULL && (n->src & RIB4_SRC_ROUTE) && n->route.type == ROUTE4_CONNECTED)
		rib4_clear_route(&ip4_rib, p->addr, p->len, &old);
}

/* Is each gateway of rt still on a connected subnet of the port it resolved on? */
static bool route4_gateway_ok(const struct route4 *rt)
{
	uint32_t m[FWD_ECMP_MAX];
	unsigned n = nh_group_members(rt->nh, m);

	if (n == 0)
		m[n++] = rt->nh;
	for (unsigned i = 0; i < n; i++) {
		uint8_t port = nh_table[m[i]].port;
		if (port >= fwd_n_ports || !addr4_on_port(port, nh_addr(m[i])->v4))
			return false;
	}
	return true;
}

static unsigned route4_prune_unreachable(void)
{
	struct rib4_node *n = rib4_next_route(&ip4_rib, 0, 0, true);
	unsigned pruned = 0;

	while (n != NULL) {
		uint32_t addr = n->addr;
		uint8_t len = n->len;
		if (n->route.type == ROUTE4_VIA && !route4_gateway_ok(&n->route)) {
			struct fwd_ip4_prefix p = { addr, len };
			char buf[FWD_PREFIX4_STRLEN], via[FWD_IP4_STRLEN];
			struct route4 old;
			LOG(NOTICE, "route %s via %s removed: gateway no longer connected",
			    pfx(&p, buf), fwd_ip4_fmt(n->route.via, via));
			fwd_event_route_pruned(buf, via, n->route.origin);
			rib4_clear_route(&ip4_rib, addr, len, &old);
			route4_release(&old);
			pruned++;
		}
		n = rib4_next_route(&ip4_rib, addr, len, false);
	}
	return pruned;
}

static const struct addr4_route_hooks route4_hooks = {
	.connected_add = route4_connected_add,
	.connected_del = route4_connected_del,
	.prune = route4_prune_unreachable,
};

/* Connected routes follow addresses (ip4/addr.h). */
RTE_INIT(route4_hooks_reg)
{
	addr4_set_route_hooks(&route4_hooks);
}
