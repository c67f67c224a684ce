/* SPDX-License-Identifier: BSD-3-Clause */
/* The two address families as the reconcile (l3_config.c) sees them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/iface.h"

#include "core/reload.h"
#include "ip4/addr.h"
#include "ip4/ip4.h"
#include "ip4/ip4_config.h"
#include "ip6/addr6.h"
#include "ip6/ip6.h"
#include "ip6/ip6_config.h"
#include "ip6/ndp.h"
#include "l3/l3_config.h"
#include "nexthop/nexthop.h"
#include "port/port.h"

/* ------------------------------------------------------------------ IPv4 */

static unsigned addrs4(uint16_t port, struct fwd_prefix *a, uint8_t *origin)
{
	const struct ip4_port_addrs *pa = &ip4_addrs[port];

	for (unsigned i = 0; i < pa->n; i++) {
		a[i] = fwd_prefix_of4(&pa->a[i]);
		origin[i] = pa->origin[i];
	}
	return pa->n;
}

static int addr4_add_p(uint16_t port, const struct fwd_prefix *p, uint8_t origin, char *err,
                       size_t errlen)
{
	struct fwd_ip4_prefix a = fwd_prefix_v4(p);

	return addr4_add(port, &a, origin, err, errlen);
}

static int addr4_del_p(uint16_t port, const struct fwd_prefix *p, char *err, size_t errlen)
{
	struct fwd_ip4_prefix a = fwd_prefix_v4(p);

	return addr4_del(port, &a, err, errlen);
}

static int no_memory(char *why, size_t len)
{
	snprintf(why, len, "out of memory");
	return -ENOMEM;
}

/* The view the IPv4 rules take of w's addresses: every interface by id.
 * One view, kept (1.4 MB: the reconcile asks for it once per rule). */
static struct addr4_view *view4(const struct l3_want *w)
{
	static struct addr4_view *v;
	const struct fwd_iface *ifp;

	if (v == NULL && (v = malloc(sizeof(*v))) == NULL)
		return NULL;
	v->port = v->ports;
	v->n_ports = 0;
	for (unsigned i = 0; i < fwd_n_ports; i++) {
		struct addr4_view_port e = { .name = fwd_ports[i].name,
			                     .l3 = fwd_ports[i].mode == FWD_MODE_L3,
			                     .vrf = fwd_ifaces[i].vrf };

		addr4_view_put(v, i, &e, w->addrs[0][i].a, w->addrs[0][i].n);
	}
	for (ifp = fwd_iface_next(FWD_MAX_PORTS - 1); ifp != NULL; ifp = fwd_iface_next(ifp->id)) {
		struct addr4_view_port e = { .name = ifp->name,
			                     .l3 = fwd_iface_is_l3(ifp),
			                     .lo = ifp->type == FWD_IFACE_LOOPBACK,
			                     .vrf = ifp->vrf };

		addr4_view_put(v, ifp->id, &e, NULL, 0);
	}
	for (unsigned i = 0; i < w->n_ifa; i++) {
		const struct l3_want_ifa *l = &w->ifa[i];
		struct addr4_view_port *vp = &v->port[l->id];

		if (l->a.family == AF_INET && l->id < v->n_ports && vp->n < FWD_MAX_ADDRS)
			v->store[l->id][vp->n++] = fwd_prefix_v4(&l->a);
	}
	return v;
}

/* The primary address first, as the file says. */
static void port_sync4(const struct l3_want *w, uint16_t id, struct fwd_reload_log *log)
{
	struct fwd_prefix p[FWD_MAX_ADDRS];
	struct fwd_ip4_prefix a[FWD_MAX_ADDRS];
	uint8_t origin[FWD_MAX_ADDRS];
	unsigned n = l3_want_addrs_of(w, id, 0, p, origin);

	(void)log;
	for (unsigned i = 0; i < n; i++)
		a[i] = fwd_prefix_v4(&p[i]);
	addr4_reorder(id, a, origin, n);
}

static int rule_add4(const struct l3_want *w, unsigned port, const struct fwd_prefix *p, char *why,
                     size_t len)
{
	const struct addr4_view *v = view4(w);
	struct fwd_ip4_prefix a = fwd_prefix_v4(p);

	if (v == NULL)
		return no_memory(why, len);
	return addr4_rule_add(v, port, &a, why, len);
}

static int rule_route4(const struct l3_want *w, const struct l3_route *r, char *why, size_t len)
{
	const struct addr4_view *v = view4(w);
	struct fwd_ip4_prefix p = fwd_prefix_v4(&r->prefix);
	unsigned port;

	if (v == NULL)
		return no_memory(why, len);
	if (addr4_rule_route(v, r->vrf, &p, why, len) < 0)
		return -EINVAL;
	for (unsigned i = 0; r->type == L3_ROUTE_VIA && i < r->n_nh; i++)
		if (r->nh[i].via.family != 0 &&
		    addr4_rule_gateway(v, r->vrf, r->nh[i].via.v4, r->nh[i].dev, &port, why, len) <
		            0)
			return -EINVAL;
	return 0;
}

static int rule_neigh4(const struct l3_want *w, const struct neigh_static *n, char *why, size_t len)
{
	const struct addr4_view *v = view4(w);

	if (v == NULL)
		return no_memory(why, len);
	return addr4_rule_neigh(v, n->port, n->addr.v4, n->mac.addr_bytes, why, len);
}

/* The running routes of config and fwdctl of VRF vrf into w. */
static int routes4_of(struct l3_want *w, uint16_t vrf)
{
	int rc = 0;

	for (struct rib4_node *n = rib4_next_route(&ip4_ribs[vrf], 0, 0, true);
	     n != NULL && rc == 0; n = rib4_next_route(&ip4_ribs[vrf], n->addr, n->len, false)) {
		const struct route4 *rt = &n->route;
		struct fwd_ip4_prefix p = { n->addr, n->len };
		struct l3_route r = { .vrf = vrf, .prefix = fwd_prefix_of4(&p) };
		l3_route_from_rib(&r, rt->type, rt->origin, rt->dev, rt->nh);
		r.replace = true;
		if (rt->origin == FWD_ORIGIN_CONFIG || rt->origin == FWD_ORIGIN_RPC)
			rc = l3_want_route(w, &r);
	}
	return rc;
}

static int routes4(struct l3_want *w)
{
	int rc = 0;

	FWD_VRF_FOREACH(v)
	{
		if (rc == 0)
			rc = routes4_of(w, (uint16_t)v);
	}
	return rc;
}

static int gateway_port4(uint16_t vrf, const struct fwd_ip *a, int dev)
{
	unsigned port;

	return addr4_rule_gateway(addr4_running(), vrf, a->v4, dev, &port, NULL, 0) < 0 ? -1
	                                                                                : (int)port;
}

static bool route_in_place4(const struct l3_route *r)
{
	struct rib4_node *n = rib4_find(&ip4_ribs[r->vrf], r->prefix.v4, r->prefix.len);
	const struct route4 *rt = n != NULL && (n->src & RIB4_SRC_ROUTE) ? &n->route : NULL;

	return rt != NULL && l3_route_same(r, rt->type, rt->origin, rt->dev, rt->nh, gateway_port4);
}

static const struct l3_family ip4_family = {
	.af = AF_INET,
	.addrs = addrs4,
	.addr_add = addr4_add_p,
	.addr_del = addr4_del_p,
	.port_sync = port_sync4,
	.batch_begin = addr4_batch_begin,
	.batch_end = addr4_batch_end,
	.rule_add = rule_add4,
	.rule_route = rule_route4,
	.rule_neigh = rule_neigh4,
	.routes = routes4,
	.route_in_place = route_in_place4,
	.running = ip4_config_running,
};

/* ------------------------------------------------------------------ IPv6 */

static unsigned addrs6(uint16_t port, struct fwd_prefix *a, uint8_t *origin)
{
	const struct ip6_port_addrs *pa = &ip6_addrs[port];
	unsigned n = 0;

	for (unsigned i = 1; i < pa->n; i++, n++) { /* a[0] is the link-local one */
		a[n] = fwd_prefix_of6(&pa->a[i]);
		origin[n] = pa->origin[i];
	}
	return n;
}

static int addr6_add_p(uint16_t port, const struct fwd_prefix *p, uint8_t origin, char *err,
                       size_t errlen)
{
	struct fwd_ip6_prefix a = fwd_prefix_v6(p);

	return addr6_add(port, &a, origin, err, errlen);
}

static int addr6_del_p(uint16_t port, const struct fwd_prefix *p, char *err, size_t errlen)
{
	struct fwd_ip6_prefix a = fwd_prefix_v6(p);

	return addr6_del(port, &a, err, errlen);
}

/* As view4, for the IPv6 rules (2.4 MB). */
static struct addr6_view *view6(const struct l3_want *w)
{
	static struct addr6_view *v;
	const struct fwd_iface *ifp;

	if (v == NULL && (v = malloc(sizeof(*v))) == NULL)
		return NULL;
	v->port = v->ports;
	v->n_ports = 0;
	for (unsigned i = 0; i < fwd_n_ports; i++) {
		struct addr6_view_port e = { .name = fwd_ports[i].name,
			                     .l3 = fwd_ports[i].mode == FWD_MODE_L3,
			                     .vrf = fwd_ifaces[i].vrf };

		addr6_view_put(v, i, &e, w->addrs[1][i].a, w->addrs[1][i].n);
	}
	for (ifp = fwd_iface_next(FWD_MAX_PORTS - 1); ifp != NULL; ifp = fwd_iface_next(ifp->id)) {
		struct addr6_view_port e = { .name = ifp->name,
			                     .l3 = fwd_iface_is_l3(ifp),
			                     .lo = ifp->type == FWD_IFACE_LOOPBACK,
			                     .vrf = ifp->vrf };

		addr6_view_put(v, ifp->id, &e, NULL, 0);
	}
	for (unsigned i = 0; i < w->n_ifa; i++) {
		const struct l3_want_ifa *l = &w->ifa[i];
		struct addr6_view_port *vp = &v->port[l->id];

		if (l->a.family == AF_INET6 && l->id < v->n_ports && vp->n < FWD_MAX_ADDRS)
			vp->a[vp->n++] = fwd_prefix_v6(&l->a);
	}
	return v;
}

/* `ra` of a port or interface, once its prefixes are in place. */
static void port_sync6(const struct l3_want *w, uint16_t id, struct fwd_reload_log *log)
{
	if (ip6_addrs[id].ra == w->ra[id])
		return;
	ip6_addrs[id].ra = w->ra[id];
	fwd_reload_note(log, "router advertisements on %s %s", fwd_iface_name(id),
	                w->ra[id] ? "on" : "off");
	ndp_port_changed(id, w->ra[id]);
}

static int rule_add6(const struct l3_want *w, unsigned port, const struct fwd_prefix *p, char *why,
                     size_t len)
{
	const struct addr6_view *v = view6(w);
	struct fwd_ip6_prefix a = fwd_prefix_v6(p);

	if (v == NULL)
		return no_memory(why, len);
	return addr6_rule_add(v, port, &a, why, len);
}

static int rule_route6(const struct l3_want *w, const struct l3_route *r, char *why, size_t len)
{
	const struct addr6_view *v = view6(w);
	struct fwd_ip6_prefix p = fwd_prefix_v6(&r->prefix);
	unsigned port;

	if (v == NULL)
		return no_memory(why, len);
	if (addr6_rule_route(v, r->vrf, &p, why, len) < 0)
		return -EINVAL;
	for (unsigned i = 0; r->type == L3_ROUTE_VIA && i < r->n_nh; i++)
		if (r->nh[i].via.family != 0 &&
		    addr6_rule_gateway(v, r->vrf, r->nh[i].via.v6, r->nh[i].dev, &port, why, len) <
		            0)
			return -EINVAL;
	return 0;
}

static int rule_neigh6(const struct l3_want *w, const struct neigh_static *n, char *why, size_t len)
{
	const struct addr6_view *v = view6(w);

	if (v == NULL)
		return no_memory(why, len);
	return addr6_rule_neigh(v, n->port, n->addr.v6, n->mac.addr_bytes, why, len);
}

static int routes6_of(struct l3_want *w, uint16_t vrf)
{
	static const uint8_t zero[16];
	int rc = 0;

	for (struct rib6_node *n = rib6_next_route(&ip6_ribs[vrf], zero, 0, true);
	     n != NULL && rc == 0; n = rib6_next_route(&ip6_ribs[vrf], n->addr, n->len, false)) {
		const struct route6 *rt = &n->route;
		struct l3_route r = { .vrf = vrf, .prefix = { .family = AF_INET6, .len = n->len } };
		memcpy(r.prefix.v6, n->addr, 16);
		l3_route_from_rib(&r, rt->type, rt->origin, rt->dev, rt->nh);
		r.replace = true;
		if (rt->origin == FWD_ORIGIN_CONFIG || rt->origin == FWD_ORIGIN_RPC)
			rc = l3_want_route(w, &r);
	}
	return rc;
}

static int routes6(struct l3_want *w)
{
	int rc = 0;

	FWD_VRF_FOREACH(v)
	{
		if (rc == 0)
			rc = routes6_of(w, (uint16_t)v);
	}
	return rc;
}

static int gateway_port6(uint16_t vrf, const struct fwd_ip *a, int dev)
{
	unsigned port;

	return addr6_rule_gateway(addr6_running(), vrf, a->v6, dev, &port, NULL, 0) < 0 ? -1
	                                                                                : (int)port;
}

static bool route_in_place6(const struct l3_route *r)
{
	struct rib6_node *n = rib6_find(&ip6_ribs[r->vrf], r->prefix.v6, r->prefix.len);
	const struct route6 *rt = n != NULL && (n->src & RIB6_SRC_ROUTE) ? &n->route : NULL;

	return rt != NULL && l3_route_same(r, rt->type, rt->origin, rt->dev, rt->nh, gateway_port6);
}

static const struct l3_family ip6_family = {
	.af = AF_INET6,
	.addrs = addrs6,
	.addr_add = addr6_add_p,
	.addr_del = addr6_del_p,
	.port_sync = port_sync6,
	.batch_begin = addr6_batch_begin,
	.batch_end = addr6_batch_end,
	.rule_add = rule_add6,
	.rule_route = rule_route6,
	.rule_neigh = rule_neigh6,
	.routes = routes6,
	.route_in_place = route_in_place6,
	.running = ip6_config_running,
};

const struct l3_family *const l3_families[L3_N_FAMILIES] = { &ip4_family, &ip6_family };

void l3_want_running_ra(struct l3_want *w)
{
	for (int id = fwd_iface_next_id(-1); id >= 0; id = fwd_iface_next_id(id))
		w->ra[id] = ip6_addrs[id].ra;
}
