/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv6 routes over the RIB (ip6/rib6.h), with the rules of ip6/addr6.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "core/event.h"
#include "core/log.h"
#include "ip6/addr6.h"
#include "ip6/ip6.h"
#include "ip6/route6.h"
#include "nexthop/neigh.h"
#include "nexthop/nexthop.h"
#include "port/port.h"

#define ERR(code, ...) (snprintf(err, errlen, __VA_ARGS__), -(code))

static const char *pfx(const struct fwd_ip6_prefix *p, char buf[FWD_PREFIX_STRLEN])
{
	return fwd_ip6_prefix_fmt(p, buf);
}

static struct fwd_ip ip6_of(const uint8_t a[16])
{
	struct fwd_ip ip = { .family = AF_INET6 };

	memcpy(ip.v6, a, 16);
	return ip;
}

/* Resolve the gateways' ports and take the next hop over them: a
 * neighbour's entry, or an ECMP group. */
static int route6_gateway(const struct route6_req *r, struct route6 *rt, char *err, size_t errlen)
{
	struct fwd_ip via[FWD_ECMP_MAX];
	uint8_t port[FWD_ECMP_MAX];
	char buf[FWD_IP6_STRLEN];
	int rc;

	if (r->n_via == 0 || r->n_via > FWD_ECMP_MAX)
		return ERR(EINVAL, "a route has 1 to %u gateways", FWD_ECMP_MAX);
	for (unsigned i = 0; i < r->n_via; i++) {
		unsigned p;
		if ((rc = addr6_rule_gateway(addr6_running(), r->via[i], r->dev[i], &p, err,
		                             errlen)) < 0)
			return rc;
		via[i] = ip6_of(r->via[i]);
		port[i] = (uint8_t)p;
		for (unsigned j = 0; j < i; j++)
			if (port[j] == port[i] && memcmp(r->via[j], r->via[i], 16) == 0)
				return ERR(EINVAL, "gateway %s given twice",
				           fwd_ip6_fmt(r->via[i], buf));
	}
	rt->type = ROUTE6_VIA;
	memcpy(rt->via, r->via[0], 16);
	rt->dev = r->n_via == 1 && r->dev[0] >= 0 ? (uint8_t)r->dev[0] : ROUTE6_DEV_ANY;
	rc = nh_route_ref(r->n_via, via, port, &rt->nh);
	if (rc < 0)
		return ERR(-rc, "no room for %s in the next-hop table",
		           r->n_via > 1 ? "the ECMP group (or its gateways)" : "the gateway");
	return 0;
}

/* Drop what a route held once no FIB entry can point at it (as route4_release). */
static void route6_release(const struct route6 *rt)
{
	if (rt->type == ROUTE6_VIA)
		fib6_after_job(ip6_rib.fib, nh_route_unref, rt->nh);
}

/* The next hop of a route that has no gateway. */
static int route6_special(const struct route6_req *r, struct route6 *rt, char *err, size_t errlen)
{
	static const uint8_t nh_type[] = { [ROUTE6_BLACKHOLE] = NH_BLACKHOLE,
		                           [ROUTE6_UNREACHABLE] = NH_UNREACHABLE,
		                           [ROUTE6_PROHIBIT] = NH_PROHIBIT,
		                           [ROUTE6_DEV] = NH_CONNECTED };
	int rc = r->type < RTE_DIM(nh_type) ? nh_route_fixed(nh_type[r->type], r->dev[0], &rt->nh)
	                                    : -EINVAL;

	if (rc == -ENODEV)
		return ERR(ENODEV, "a route on a link needs an l3 port (dev)");
	if (rc < 0)
		return ERR(EINVAL, "bad route type %u", r->type);
	rt->type = r->type;
	if (r->type == ROUTE6_DEV)
		rt->dev = (uint8_t)r->dev[0];
	return 0;
}

int route6_add(const struct route6_req *r, char *err, size_t errlen)
{
	struct route6 rt = { .origin = r->origin, .dev = ROUTE6_DEV_ANY }, old;
	struct rib6_node *n = rib6_find(&ip6_rib, r->prefix.addr, r->prefix.len);
	char buf[FWD_PREFIX_STRLEN];
	bool had;
	int rc;

	if ((rc = addr6_rule_route(addr6_running(), &r->prefix, err, errlen)) < 0)
		return rc;
	if (n != NULL && (n->src & RIB6_SRC_ROUTE) && !r->replace)
		return ERR(EEXIST, "route %s exists (use replace)", pfx(&r->prefix, buf));
	if ((rc = r->type == ROUTE6_VIA ? route6_gateway(r, &rt, err, errlen)
	                                : route6_special(r, &rt, err, errlen)) < 0)
		return rc;
	rc = rib6_set_route(&ip6_rib, r->prefix.addr, r->prefix.len, &rt, &old, &had);
	if (rc < 0) {
		route6_release(&rt);
		return ERR(-rc, "%s: %s", pfx(&r->prefix, buf),
		           rc == -ENOSPC ? "FIB full (raise dataplane.fib6_tbl8s)" : strerror(-rc));
	}
	if (had)
		route6_release(&old);
	if (rib6_is_reserved(r->prefix.addr, r->prefix.len) && r->origin != FWD_ORIGIN_LOAD)
		LOG(NOTICE, "route %s: kept, but its destinations are never routed",
		    pfx(&r->prefix, buf));
	return had ? 1 : 0;
}

int route6_del(const struct fwd_ip6_prefix *p, char *err, size_t errlen)
{
	struct rib6_node *n = rib6_find(&ip6_rib, p->addr, p->len);
	char buf[FWD_PREFIX_STRLEN];
	struct route6 old;

	if (n == NULL || !(n->src & RIB6_SRC_ROUTE))
		return ERR(ESRCH, "no route %s", pfx(p, buf));
	if (n->route.type == ROUTE6_CONNECTED)
		return ERR(EINVAL, "%s is a connected route (remove the address instead)",
		           pfx(p, buf));
	rib6_clear_route(&ip6_rib, p->addr, p->len, &old);
	route6_release(&old);
	return 0;
}

static int route6_connected_add(const struct fwd_ip6_prefix *p, uint8_t port)
{
	struct route6 rt = { .type = ROUTE6_CONNECTED,
		             .origin = FWD_ORIGIN_ADDRESS,
		             .dev = port,
		             .nh = NH_IDX_CONNECTED + port },
	              old;
	struct rib6_node *n = rib6_find(&ip6_rib, p->addr, p->len);
	bool had;
	int rc;

	if (n != NULL && (n->src & RIB6_SRC_ROUTE) && n->route.type == ROUTE6_CONNECTED)
		return 0; /* another address of the same prefix */
	rc = rib6_set_route(&ip6_rib, p->addr, p->len, &rt, &old, &had);
	if (rc == 0 && had) {
		char buf[FWD_PREFIX_STRLEN];
		LOG(NOTICE, "route %s replaced by the connected prefix of %s", pfx(p, buf),
		    fwd_ports[port].name);
		route6_release(&old);
	}
	return rc;
}

static void route6_connected_del(const struct fwd_ip6_prefix *p)
{
	struct rib6_node *n = rib6_find(&ip6_rib, p->addr, p->len);
	struct route6 old;

	if (n != NULL && (n->src & RIB6_SRC_ROUTE) && n->route.type == ROUTE6_CONNECTED)
		rib6_clear_route(&ip6_rib, p->addr, p->len, &old);
}

/* Is the gateway of rt still reachable on the port it resolved on? */
static bool route6_gateway_ok(const struct route6 *rt)
{
	uint32_t m[FWD_ECMP_MAX];
	unsigned n = nh_group_members(rt->nh, m);

	if (n == 0)
		m[n++] = rt->nh;
	for (unsigned i = 0; i < n; i++) {
		uint8_t port = nh_table[m[i]].port;
		if (port >= fwd_n_ports || !addr6_on_port(port, nh_addr(m[i])->v6) ||
		    (n == 1 && rt->dev != ROUTE6_DEV_ANY && rt->dev != port))
			return false;
	}
	return true;
}

static unsigned route6_prune_unreachable(void)
{
	static const uint8_t zero[16];
	struct rib6_node *n = rib6_next_route(&ip6_rib, zero, 0, true);
	unsigned pruned = 0;

	while (n != NULL) {
		struct fwd_ip6_prefix p;

		memcpy(p.addr, n->addr, 16);
		p.len = n->len;
		if (n->route.type == ROUTE6_VIA && !route6_gateway_ok(&n->route)) {
			char buf[FWD_PREFIX_STRLEN], via[FWD_IP6_STRLEN];
			struct route6 old;
			LOG(NOTICE, "route %s via %s removed: gateway no longer connected",
			    pfx(&p, buf), fwd_ip6_fmt(n->route.via, via));
			fwd_event_route_pruned(buf, via, n->route.origin);
			rib6_clear_route(&ip6_rib, p.addr, p.len, &old);
			route6_release(&old);
			pruned++;
		}
		n = rib6_next_route(&ip6_rib, p.addr, p.len, false);
	}
	return pruned;
}

static const struct addr6_route_hooks route6_hooks = {
	.connected_add = route6_connected_add,
	.connected_del = route6_connected_del,
	.prune = route6_prune_unreachable,
};

/* Connected routes follow addresses (ip6/addr6.h). */
RTE_INIT(route6_hooks_reg)
{
	addr6_set_route_hooks(&route6_hooks);
}
