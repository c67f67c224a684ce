/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv6 routes: the route core (route/route_core.h) over ip6_ribs, with the
 * rules of ip6/addr6.h. */
#include <errno.h>
#include <string.h>

#include <rte_common.h>

#include "ip6/addr6.h"
#include "ip6/ip6.h"
#include "ip6/route6.h"

static struct route6 to6(const struct route_ent *e)
{
	struct route6 r = { .type = e->type, .origin = e->origin, .dev = e->dev, .nh = e->nh };

	memcpy(r.via, e->via.v6, 16);
	return r;
}

static struct route_ent of6(const struct route6 *r)
{
	return (struct route_ent){ .type = r->type,
		                   .origin = r->origin,
		                   .dev = r->dev,
		                   .via = fwd_ip_v6(r->via),
		                   .nh = r->nh };
}

static bool rib_find(uint16_t vrf, const struct fwd_prefix *p, struct route_ent *rt)
{
	struct rib6_node *n = rib6_find(&ip6_ribs[vrf], p->v6, p->len);

	if (n == NULL || !(n->src & RIB6_SRC_ROUTE))
		return false;
	*rt = of6(&n->route);
	return true;
}

static int rib_set(uint16_t vrf, const struct fwd_prefix *p, const struct route_ent *rt,
                   struct route_ent *old, bool *had)
{
	struct route6 r = to6(rt), o;
	int rc = rib6_set_route(&ip6_ribs[vrf], p->v6, p->len, &r, &o, had);

	if (rc == 0 && *had)
		*old = of6(&o);
	return rc;
}

static void rib_clear(uint16_t vrf, const struct fwd_prefix *p, struct route_ent *old)
{
	struct route6 o;

	rib6_clear_route(&ip6_ribs[vrf], p->v6, p->len, &o);
	*old = of6(&o);
}

static bool rib_next(uint16_t vrf, struct fwd_prefix *p, struct route_ent *rt, bool first)
{
	static const uint8_t zero[16];
	struct rib6_node *n =
	        rib6_next_route(&ip6_ribs[vrf], first ? zero : p->v6, first ? 0 : p->len, first);

	if (n == NULL)
		return false;
	*p = (struct fwd_prefix){ .family = AF_INET6, .len = n->len };
	memcpy(p->v6, n->addr, 16);
	*rt = of6(&n->route);
	return true;
}

static bool is_reserved(const struct fwd_prefix *p)
{
	return rib6_is_reserved(p->v6, p->len);
}

static void after_job(uint16_t vrf, void (*fn)(uint32_t), uint32_t arg)
{
	fib6_after_job(ip6_ribs[vrf].fib, fn, arg);
}

static int rule_gateway(uint16_t vrf, const struct fwd_ip *via, int dev, unsigned *port, char *err,
                        size_t errlen)
{
	return addr6_rule_gateway(addr6_running(), vrf, via->v6, dev, port, err, errlen);
}

static int rule_route(uint16_t vrf, const struct fwd_prefix *p, char *err, size_t errlen)
{
	struct fwd_ip6_prefix q = fwd_prefix_v6(p);

	return addr6_rule_route(addr6_running(), vrf, &q, err, errlen);
}

static bool on_port(uint16_t port, const struct fwd_ip *ip)
{
	return addr6_on_port(port, ip->v6);
}

/* struct route6 and the core's route_ent share their types' values. */
_Static_assert((int)ROUTE6_CONNECTED == (int)ROUTE_CONNECTED && (int)ROUTE6_VIA == (int)ROUTE_VIA &&
                       (int)ROUTE6_BLACKHOLE == (int)ROUTE_BLACKHOLE &&
                       (int)ROUTE6_UNREACHABLE == (int)ROUTE_UNREACHABLE &&
                       (int)ROUTE6_PROHIBIT == (int)ROUTE_PROHIBIT &&
                       (int)ROUTE6_DEV == (int)ROUTE_DEV && ROUTE6_DEV_ANY == ROUTE_DEV_ANY,
               "route6 types as the route core's");

const struct route_family_ops route6_ops = {
	.find = rib_find,
	.set = rib_set,
	.clear = rib_clear,
	.next = rib_next,
	.is_reserved = is_reserved,
	.after_job = after_job,
	.rule_gateway = rule_gateway,
	.rule_route = rule_route,
	.on_port = on_port,
	.fib_full = "FIB full (raise dataplane.fib6_tbl8s)",
	.reserved_why = "",
	.connected_what = "prefix",
	.gateway_twice_per_port = true,
	.gateway_keeps_dev = true,
	.connected_kept = true,
};

int route6_add(const struct route6_req *r, char *err, size_t errlen)
{
	struct route_req q = { .vrf = r->vrf,
		               .prefix = fwd_prefix_of6(&r->prefix),
		               .type = r->type,
		               .n_via = r->n_via,
		               .origin = r->origin,
		               .replace = r->replace };

	for (unsigned i = 0; i < FWD_ECMP_MAX; i++) {
		q.via[i] = fwd_ip_v6(r->via[i < r->n_via ? i : 0]);
		q.dev[i] = r->dev[i];
	}
	return route_core_add(&route6_ops, &q, err, errlen);
}

int route6_del(uint16_t vrf, const struct fwd_ip6_prefix *p, char *err, size_t errlen)
{
	struct fwd_prefix q = fwd_prefix_of6(p);

	return route_core_del(&route6_ops, vrf, &q, err, errlen);
}

/* A connected route's next hop: a port's fixed entry, a VLAN's counted
 * one (nexthop/nexthop.h); a loopback has none (its addresses are local). */
static int connected_add(const struct fwd_ip6_prefix *p, uint16_t port)
{
	struct fwd_prefix q = fwd_prefix_of6(p);

	return route_core_connected_add(&route6_ops, &q, port);
}

static void connected_del(const struct fwd_ip6_prefix *p, uint16_t port)
{
	struct fwd_prefix q = fwd_prefix_of6(p);

	route_core_connected_del(&route6_ops, &q, port);
}

static unsigned prune(void)
{
	return route_core_prune(&route6_ops);
}

static const struct addr6_route_hooks route6_hooks = {
	.connected_add = connected_add,
	.connected_del = connected_del,
	.prune = prune,
};

/* Connected routes follow addresses (ip6/addr6.h). */
RTE_INIT(route6_hooks_reg)
{
	addr6_set_route_hooks(&route6_hooks);
}
