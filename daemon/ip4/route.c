/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4 routes: the route core (route/route_core.h) over ip4_ribs, with the
 * rules of ip4/addr.h. */
#include <errno.h>
#include <string.h>

#include <rte_common.h>

#include "ip4/addr.h"
#include "ip4/ip4.h"
#include "ip4/route.h"

static struct fwd_ip4_prefix p4(const struct fwd_prefix *p)
{
	return fwd_prefix_v4(p);
}

static struct route4 to4(const struct route_ent *e)
{
	return (struct route4){
		.type = e->type, .origin = e->origin, .dev = e->dev, .via = e->via.v4, .nh = e->nh
	};
}

static struct route_ent of4(const struct route4 *r)
{
	return (struct route_ent){ .type = r->type,
		                   .origin = r->origin,
		                   .dev = r->dev,
		                   .via = fwd_ip_v4(r->via),
		                   .nh = r->nh };
}

static bool rib_find(uint16_t vrf, const struct fwd_prefix *p, struct route_ent *rt)
{
	struct rib4_node *n = rib4_find(&ip4_ribs[vrf], p->v4, p->len);

	if (n == NULL || !(n->src & RIB4_SRC_ROUTE))
		return false;
	*rt = of4(&n->route);
	return true;
}

static int rib_set(uint16_t vrf, const struct fwd_prefix *p, const struct route_ent *rt,
                   struct route_ent *old, bool *had)
{
	struct route4 r = to4(rt), o;
	int rc = rib4_set_route(&ip4_ribs[vrf], p->v4, p->len, &r, &o, had);

	if (rc == 0 && *had)
		*old = of4(&o);
	return rc;
}

static void rib_clear(uint16_t vrf, const struct fwd_prefix *p, struct route_ent *old)
{
	struct route4 o;

	rib4_clear_route(&ip4_ribs[vrf], p->v4, p->len, &o);
	*old = of4(&o);
}

static bool rib_next(uint16_t vrf, struct fwd_prefix *p, struct route_ent *rt, bool first)
{
	struct rib4_node *n =
	        rib4_next_route(&ip4_ribs[vrf], first ? 0 : p->v4, first ? 0 : p->len, first);

	if (n == NULL)
		return false;
	*p = (struct fwd_prefix){ .family = AF_INET, .len = n->len };
	p->v4 = n->addr;
	*rt = of4(&n->route);
	return true;
}

static bool is_reserved(const struct fwd_prefix *p)
{
	return rib4_is_reserved(p->v4, p->len);
}

static void after_job(uint16_t vrf, void (*fn)(uint32_t), uint32_t arg)
{
	fib4_after_job(ip4_ribs[vrf].fib, fn, arg);
}

static int rule_gateway(uint16_t vrf, const struct fwd_ip *via, int dev, unsigned *port, char *err,
                        size_t errlen)
{
	return addr4_rule_gateway(addr4_running(), vrf, via->v4, dev, port, err, errlen);
}

static int rule_route(uint16_t vrf, const struct fwd_prefix *p, char *err, size_t errlen)
{
	struct fwd_ip4_prefix q = p4(p);

	return addr4_rule_route(addr4_running(), vrf, &q, err, errlen);
}

static bool on_port(uint16_t port, const struct fwd_ip *ip)
{
	return addr4_on_port(port, ip->v4);
}

/* struct route4 and the core's route_ent share their types' values. */
_Static_assert((int)ROUTE4_CONNECTED == (int)ROUTE_CONNECTED && (int)ROUTE4_VIA == (int)ROUTE_VIA &&
                       (int)ROUTE4_BLACKHOLE == (int)ROUTE_BLACKHOLE &&
                       (int)ROUTE4_UNREACHABLE == (int)ROUTE_UNREACHABLE &&
                       (int)ROUTE4_PROHIBIT == (int)ROUTE_PROHIBIT &&
                       (int)ROUTE4_DEV == (int)ROUTE_DEV && ROUTE4_DEV_ANY == ROUTE_DEV_ANY,
               "route4 types as the route core's");

const struct route_family_ops route4_ops = {
	.find = rib_find,
	.set = rib_set,
	.clear = rib_clear,
	.next = rib_next,
	.is_reserved = is_reserved,
	.after_job = after_job,
	.rule_gateway = rule_gateway,
	.rule_route = rule_route,
	.on_port = on_port,
	.fib_full = "FIB full (raise dataplane.fib_tbl8s)",
	.reserved_why = " (RFC 1812 5.3.7)",
	.connected_what = "subnet",
};

int route4_add(const struct route4_req *r, char *err, size_t errlen)
{
	struct route_req q = { .vrf = r->vrf,
		               .prefix = fwd_prefix_of4(&r->prefix),
		               .type = r->type,
		               .n_via = r->n_via,
		               .origin = r->origin,
		               .replace = r->replace };

	for (unsigned i = 0; i < FWD_ECMP_MAX; i++) {
		q.via[i] = fwd_ip_v4(i < r->n_via ? r->via[i] : 0);
		q.dev[i] = r->dev[i];
	}
	return route_core_add(&route4_ops, &q, err, errlen);
}

int route4_del(uint16_t vrf, const struct fwd_ip4_prefix *p, char *err, size_t errlen)
{
	struct fwd_prefix q = fwd_prefix_of4(p);

	return route_core_del(&route4_ops, vrf, &q, err, errlen);
}

/* A connected route's next hop: a port's fixed entry, a VLAN's counted
 * one (nexthop/nexthop.h); a loopback has none (its addresses are local). */
static int connected_add(const struct fwd_ip4_prefix *p, uint16_t port)
{
	struct fwd_prefix q = fwd_prefix_of4(p);

	return route_core_connected_add(&route4_ops, &q, port);
}

static void connected_del(const struct fwd_ip4_prefix *p, uint16_t port)
{
	struct fwd_prefix q = fwd_prefix_of4(p);

	route_core_connected_del(&route4_ops, &q, port);
}

static unsigned prune(void)
{
	return route_core_prune(&route4_ops);
}

static const struct addr4_route_hooks route4_hooks = {
	.connected_add = connected_add,
	.connected_del = connected_del,
	.prune = prune,
};

/* Connected routes follow addresses (ip4/addr.h). */
RTE_INIT(route4_hooks_reg)
{
	addr4_set_route_hooks(&route4_hooks);
}
