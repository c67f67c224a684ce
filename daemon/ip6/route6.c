/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv6 routes over the RIB (ip6/rib6.h), with the rules of ip6/addr6.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

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

/* Resolve the gateway's port and take a neighbour reference for it. */
static int route6_gateway(const struct route6_req *r, struct route6 *rt, char *err, size_t errlen)
{
	char via[FWD_IP6_STRLEN];
	unsigned port;
	int rc = addr6_rule_gateway(addr6_running(), r->via, r->dev, &port, err, errlen);

	if (rc < 0)
		return rc;
	rt->type = ROUTE6_VIA;
	memcpy(rt->via, r->via, 16);
	rt->dev = r->dev >= 0 ? (uint8_t)r->dev : ROUTE6_DEV_ANY;
	rc = neigh_ref(ip6_of(r->via), (uint8_t)port, &rt->nh);
	if (rc < 0)
		return ERR(-rc, "no room for gateway %s in the next-hop table",
		           fwd_ip6_fmt(r->via, via));
	return 0;
}

static void route6_release(const struct route6 *rt)
{
	if (rt->type == ROUTE6_VIA)
		neigh_unref(rt->nh);
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
	if (r->blackhole) {
		rt.type = ROUTE6_BLACKHOLE;
		rt.nh = NH_IDX_BLACKHOLE;
	} else if ((rc = route6_gateway(r, &rt, err, errlen)) < 0) {
		return rc;
	}
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

int route6_connected_add(const struct fwd_ip6_prefix *p, uint8_t port)
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

void route6_connected_del(const struct fwd_ip6_prefix *p)
{
	struct rib6_node *n = rib6_find(&ip6_rib, p->addr, p->len);
	struct route6 old;

	if (n != NULL && (n->src & RIB6_SRC_ROUTE) && n->route.type == ROUTE6_CONNECTED)
		rib6_clear_route(&ip6_rib, p->addr, p->len, &old);
}

/* Is the gateway of rt still reachable on the port it resolved on? */
static bool route6_gateway_ok(const struct route6 *rt)
{
	uint8_t port = nh_table[rt->nh].port;

	return port < fwd_n_ports && addr6_on_port(port, rt->via) &&
	       (rt->dev == ROUTE6_DEV_ANY || rt->dev == port);
}

unsigned route6_prune_unreachable(void)
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
			rib6_clear_route(&ip6_rib, p.addr, p.len, &old);
			route6_release(&old);
			pruned++;
		}
		n = rib6_next_route(&ip6_rib, p.addr, p.len, false);
	}
	return pruned;
}
