/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a config file asks of IPv4 (addresses, routes, static neighbours),
 * made real by one path at start-up and on every reload:
 *
 *   1. the file becomes the state it wants (struct ip4_want, origin config);
 *   2. what fwdctl added meanwhile joins it where the file says nothing
 *      about the same object and the rules (ip4/addr.h) still accept it;
 *   3. that state is reconciled with the running one, not with the previous
 *      file: routes and neighbours the state does not want go first, then
 *      addresses, then the routes and neighbours it wants are put in place.
 *
 * The cascade that removing an address starts (routes and neighbours that
 * lose their subnet) waits until every module has its new state
 * (addr4_batch), so that nothing still wanted is taken away by it. If a
 * step fails, the running state captured before is reconciled back and the
 * reload is refused. Start-up is the same reconcile from an empty state.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/module.h"
#include "core/reload.h"
#include "ip4/addr.h"
#include "ip4/ip4.h"
#include "ip4/ip4_config.h"
#include "nexthop/nexthop.h"
#include "ip4/route.h"
#include "nexthop/neigh.h"
#include "port/port.h"

struct want_route {
	struct fwd_ip4_prefix prefix;
	bool blackhole;
	uint32_t via;
	int dev;        /* port index or -1 */
	uint8_t origin; /* enum fwd_origin */
};

struct ip4_want {
	unsigned n_ports;
	struct ip4_port_addrs addrs[FWD_MAX_PORTS];
	unsigned n_routes, cap_routes;
	struct want_route *routes; /* sorted by prefix once built */
	unsigned n_neighs, cap_neighs;
	struct neigh_static *neighs;
};

static struct ip4_want *undo_state; /* the running state before the reload being applied */

static void want_free(struct ip4_want *w)
{
	if (w == NULL)
		return;
	free(w->routes);
	free(w->neighs);
	free(w);
}

static struct ip4_want *want_new(void)
{
	struct ip4_want *w = calloc(1, sizeof(*w));

	if (w != NULL)
		w->n_ports = fwd_n_ports;
	return w;
}

/* v with room for one more element of size elem (n used of *cap); NULL: ENOMEM. */
static void *grow(void *v, unsigned n, unsigned *cap, size_t elem)
{
	unsigned c = *cap ? *cap * 2 : 16;
	void *p;

	if (n < *cap)
		return v;
	p = realloc(v, c * elem);
	if (p != NULL)
		*cap = c;
	return p;
}

static int want_route(struct ip4_want *w, const struct want_route *r)
{
	struct want_route *v = grow(w->routes, w->n_routes, &w->cap_routes, sizeof(*r));

	if (v == NULL)
		return -ENOMEM;
	w->routes = v;
	w->routes[w->n_routes++] = *r;
	return 0;
}

static int want_neigh(struct ip4_want *w, const struct neigh_static *n)
{
	struct neigh_static *v = grow(w->neighs, w->n_neighs, &w->cap_neighs, sizeof(*n));

	if (v == NULL)
		return -ENOMEM;
	w->neighs = v;
	w->neighs[w->n_neighs++] = *n;
	return 0;
}

static int prefix_cmp(const struct fwd_ip4_prefix *a, const struct fwd_ip4_prefix *b)
{
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return (int)a->len - (int)b->len;
}

static int route_cmp(const void *a, const void *b)
{
	return prefix_cmp(&((const struct want_route *)a)->prefix,
	                  &((const struct want_route *)b)->prefix);
}

static const struct want_route *find_route(const struct ip4_want *w, const struct fwd_ip4_prefix *p)
{
	struct want_route key = { .prefix = *p };

	return w->n_routes == 0 ? NULL
	                        : bsearch(&key, w->routes, w->n_routes, sizeof(key), route_cmp);
}

static const struct neigh_static *find_neigh(const struct ip4_want *w, uint32_t ip, uint8_t port)
{
	for (unsigned i = 0; i < w->n_neighs; i++)
		if (w->neighs[i].addr.v4 == ip && w->neighs[i].port == port)
			return &w->neighs[i];
	return NULL;
}

static int find_addr(const struct ip4_port_addrs *pa, const struct fwd_ip4_prefix *p)
{
	for (unsigned i = 0; i < pa->n; i++)
		if (pa->a[i].addr == p->addr && pa->a[i].len == p->len)
			return (int)i;
	return -1;
}

static void want_view(const struct ip4_want *w, struct addr4_view *v)
{
	v->n_ports = w->n_ports;
	for (unsigned i = 0; i < w->n_ports; i++)
		v->port[i] = (struct addr4_view_port){ fwd_ports[i].name,
			                               fwd_ports[i].mode == FWD_MODE_L3,
			                               w->addrs[i].n, w->addrs[i].a };
}

/* ------------------------------------------------------- building states */

static int want_config(struct ip4_want *w, const struct fwd_config *cfg)
{
	int rc = 0;

	for (unsigned p = 0; p < cfg->n_ports && p < w->n_ports; p++) {
		struct ip4_port_addrs *pa = &w->addrs[p];
		for (unsigned i = 0; i < cfg->ports[p].n_addresses; i++) {
			if (cfg->ports[p].addresses[i].family != AF_INET)
				continue;
			pa->a[pa->n] = fwd_prefix_v4(&cfg->ports[p].addresses[i]);
			pa->origin[pa->n++] = FWD_ORIGIN_CONFIG;
		}
	}
	for (unsigned i = 0; i < cfg->n_routes && rc == 0; i++) {
		const struct fwd_conf_route *cr = &cfg->routes[i];
		const struct fwd_port *dev = cr->dev[0] ? fwd_port_by_name(cr->dev) : NULL;
		struct want_route r = { fwd_prefix_v4(&cr->prefix), cr->blackhole, cr->via.v4,
			                dev ? dev->idx : -1, FWD_ORIGIN_CONFIG };
		if (cr->prefix.family == AF_INET)
			rc = want_route(w, &r);
	}
	for (unsigned i = 0; i < cfg->n_neighs && rc == 0; i++) {
		const struct fwd_conf_neigh *cn = &cfg->neighs[i];
		const struct fwd_port *p = fwd_port_by_name(cn->port);
		struct neigh_static n = { cn->address, p ? p->idx : 0, FWD_ORIGIN_CONFIG };
		memcpy(n.mac.addr_bytes, cn->mac, sizeof(cn->mac));
		if (cn->address.family == AF_INET)
			rc = want_neigh(w, &n);
	}
	return rc;
}

/* What runs now: every address, the routes of config and fwdctl, every
 * static neighbour (what a failed reload restores). */
static int want_running(struct ip4_want *w)
{
	struct neigh_static ns;
	uint32_t pos = 0;
	int rc = 0;

	memcpy(w->addrs, ip4_addrs, sizeof(w->addrs));
	for (struct rib4_node *n = rib4_next_route(&ip4_rib, 0, 0, true); n != NULL && rc == 0;
	     n = rib4_next_route(&ip4_rib, n->addr, n->len, false)) {
		const struct route4 *rt = &n->route;
		struct want_route r = { { n->addr, n->len },
			                rt->type == ROUTE4_BLACKHOLE,
			                rt->via,
			                rt->dev == ROUTE4_DEV_ANY ? -1 : rt->dev,
			                rt->origin };
		if (rt->origin == FWD_ORIGIN_CONFIG || rt->origin == FWD_ORIGIN_RPC)
			rc = want_route(w, &r);
	}
	while (rc == 0 && neigh_static_next(&pos, &ns))
		if (ns.addr.family == AF_INET)
			rc = want_neigh(w, &ns);
	return rc;
}

/* The addresses fwdctl added (in run) that the file leaves alone and still allows. */
static void keep_rpc_addrs(struct ip4_want *w, const struct ip4_want *run,
                           struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX4_STRLEN], why[160];
	struct addr4_view v;

	for (unsigned p = 0; p < w->n_ports; p++)
		for (unsigned i = 0; i < run->addrs[p].n; i++) {
			const struct fwd_ip4_prefix *a = &run->addrs[p].a[i];
			struct ip4_port_addrs *pa = &w->addrs[p];
			if (run->addrs[p].origin[i] != FWD_ORIGIN_RPC || find_addr(pa, a) >= 0)
				continue;
			want_view(w, &v);
			if (addr4_rule_add(&v, p, a, why, sizeof(why)) < 0) {
				fwd_reload_note(log,
				                "address %s on %s (added by fwdctl) removed: %s",
				                fwd_ip4_prefix_fmt(a, buf), fwd_ports[p].name, why);
				continue;
			}
			pa->a[pa->n] = *a;
			pa->origin[pa->n++] = FWD_ORIGIN_RPC;
		}
}

/* Is a route of fwdctl still acceptable with the addresses w wants? */
static bool rpc_route_ok(const struct ip4_want *w, const struct want_route *r, char *why,
                         size_t len)
{
	struct addr4_view v;
	unsigned port;

	want_view(w, &v);
	if (addr4_rule_route(&v, &r->prefix, why, len) < 0)
		return false;
	return r->blackhole || addr4_rule_gateway(&v, r->via, r->dev, &port, why, len) == 0;
}

/* The routes and static neighbours fwdctl added (in run) that the file leaves alone. */
static int keep_rpc_routes_neighs(struct ip4_want *w, const struct ip4_want *run,
                                  struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX4_STRLEN], why[160];
	unsigned n_file = w->n_routes;
	struct addr4_view v;
	int rc = 0;

	if (n_file > 0)
		qsort(w->routes, n_file, sizeof(*w->routes), route_cmp);
	want_view(w, &v);
	for (unsigned i = 0; i < run->n_routes && rc == 0; i++) {
		const struct want_route *r = &run->routes[i];
		struct want_route key = { .prefix = r->prefix };
		if (r->origin != FWD_ORIGIN_RPC ||
		    (n_file > 0 &&
		     bsearch(&key, w->routes, n_file, sizeof(key), route_cmp) != NULL))
			continue;
		if (rpc_route_ok(w, r, why, sizeof(why)))
			rc = want_route(w, r);
		else
			fwd_reload_note(log, "route %s (added by fwdctl) removed: %s",
			                fwd_ip4_prefix_fmt(&r->prefix, buf), why);
	}
	for (unsigned i = 0; i < run->n_neighs && rc == 0; i++) {
		const struct neigh_static *n = &run->neighs[i];
		if (n->origin != FWD_ORIGIN_RPC || find_neigh(w, n->addr.v4, n->port) != NULL)
			continue;
		if (addr4_rule_neigh(&v, n->port, n->addr.v4, n->mac.addr_bytes, why,
		                     sizeof(why)) == 0)
			rc = want_neigh(w, n);
		else
			fwd_reload_note(log, "neighbour %s on %s (added by fwdctl) removed: %s",
			                fwd_ip4_fmt(n->addr.v4, buf), fwd_ports[n->port].name, why);
	}
	return rc;
}

/* ----------------------------------------------------------- reconciling */

static void drop_routes(const struct ip4_want *w, const struct ip4_want *run,
                        struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX4_STRLEN], err[256];

	for (unsigned i = 0; i < run->n_routes; i++) {
		const struct want_route *r = &run->routes[i];
		if (find_route(w, &r->prefix) != NULL)
			continue;
		if (route4_del(&r->prefix, err, sizeof(err)) == 0)
			fwd_reload_note(log, "route %s removed",
			                fwd_ip4_prefix_fmt(&r->prefix, buf));
	}
}

static void drop_neighs(const struct ip4_want *w, const struct ip4_want *run,
                        struct fwd_reload_log *log)
{
	char ip[FWD_IP4_STRLEN];

	for (unsigned i = 0; i < run->n_neighs; i++) {
		const struct neigh_static *n = &run->neighs[i];
		if (find_neigh(w, n->addr.v4, n->port) == NULL && neigh_del(n->addr, n->port) == 0)
			fwd_reload_note(log, "neighbour %s on %s removed",
			                fwd_ip4_fmt(n->addr.v4, ip), fwd_ports[n->port].name);
	}
}

static int sync_addrs(const struct ip4_want *w, struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX4_STRLEN], err[256];

	for (unsigned p = 0; p < w->n_ports; p++)
		for (unsigned i = ip4_addrs[p].n; i-- > 0;) {
			struct fwd_ip4_prefix a = ip4_addrs[p].a[i];
			if (find_addr(&w->addrs[p], &a) < 0 &&
			    addr4_del((uint8_t)p, &a, err, sizeof(err)) == 0)
				fwd_reload_note(log, "address %s removed from %s",
				                fwd_ip4_prefix_fmt(&a, buf), fwd_ports[p].name);
		}
	for (unsigned p = 0; p < w->n_ports; p++) {
		const struct ip4_port_addrs *pa = &w->addrs[p];
		for (unsigned i = 0; i < pa->n; i++) {
			if (find_addr(&ip4_addrs[p], &pa->a[i]) >= 0)
				continue;
			fwd_ip4_prefix_fmt(&pa->a[i], buf);
			if (addr4_add((uint8_t)p, &pa->a[i], pa->origin[i], err, sizeof(err)) < 0) {
				fwd_reload_fail(log, "address %s on %s: %s", buf, fwd_ports[p].name,
				                err);
				return -EINVAL;
			}
			fwd_reload_note(log, "address %s added to %s", buf, fwd_ports[p].name);
		}
		addr4_reorder((uint8_t)p, pa->a, pa->origin, pa->n);
	}
	return 0;
}

/* Does the running route for r's prefix already do what r asks? */
static bool route_in_place(const struct want_route *r)
{
	struct rib4_node *n = rib4_find(&ip4_rib, r->prefix.addr, r->prefix.len);
	const struct route4 *rt = n != NULL && (n->src & RIB4_SRC_ROUTE) ? &n->route : NULL;
	unsigned port;

	if (rt == NULL || rt->origin != r->origin ||
	    rt->dev != (r->dev >= 0 ? (uint8_t)r->dev : ROUTE4_DEV_ANY))
		return false;
	if (r->blackhole)
		return rt->type == ROUTE4_BLACKHOLE;
	return rt->type == ROUTE4_VIA && rt->via == r->via &&
	       addr4_rule_gateway(addr4_running(), r->via, r->dev, &port, NULL, 0) == 0 &&
	       nh_table[rt->nh].port == port;
}

static int sync_routes(const struct ip4_want *w, struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX4_STRLEN], err[256];

	for (unsigned i = 0; i < w->n_routes; i++) {
		const struct want_route *r = &w->routes[i];
		struct route4_req q = { r->prefix, r->blackhole, r->via, r->dev, r->origin, true };
		if (route_in_place(r))
			continue;
		int rc = route4_add(&q, err, sizeof(err));
		fwd_ip4_prefix_fmt(&r->prefix, buf);
		if (rc < 0) {
			fwd_reload_fail(log, "%s", err); /* it names the route */
			return rc;
		}
		fwd_reload_note(log, "route %s %s", buf, rc == 1 ? "changed" : "added");
	}
	return 0;
}

static int sync_neighs(const struct ip4_want *w, struct fwd_reload_log *log)
{
	char ip[FWD_IP4_STRLEN], err[256];
	struct neigh_static cur;

	for (unsigned i = 0; i < w->n_neighs; i++) {
		const struct neigh_static *n = &w->neighs[i];
		bool had = neigh_static_get(n->addr, n->port, &cur);
		if (had && cur.origin == n->origin && rte_is_same_ether_addr(&cur.mac, &n->mac))
			continue;
		fwd_ip4_fmt(n->addr.v4, ip);
		if (neigh_add_static(n->addr, n->port, &n->mac, n->origin, err, sizeof(err)) < 0) {
			fwd_reload_fail(log, "neighbour %s on %s: %s", ip, fwd_ports[n->port].name,
			                err);
			return -EINVAL;
		}
		fwd_reload_note(log, "neighbour %s on %s %s", ip, fwd_ports[n->port].name,
		                had ? "changed" : "added");
	}
	return 0;
}

/* Make the running state w; deletions first. Inside an addr4 batch. */
static int reconcile(const struct ip4_want *w, struct fwd_reload_log *log)
{
	struct ip4_want *run = want_new();
	int rc = run != NULL ? want_running(run) : -ENOMEM;

	if (rc == 0) {
		drop_routes(w, run, log);
		drop_neighs(w, run, log);
		rc = sync_addrs(w, log);
	}
	if (rc == 0)
		rc = sync_routes(w, log);
	if (rc == 0)
		rc = sync_neighs(w, log);
	want_free(run);
	return rc;
}

/* Back to state w after a failure; what it notes is not the reload's. */
static void restore(const struct ip4_want *w)
{
	struct fwd_reload_log quiet = { 0 };

	if (reconcile(w, &quiet) < 0)
		LOG(ERR, "IPv4 state could not be restored in full: %s",
		    quiet.n > 0 ? quiet.lines[quiet.n - 1] : "out of memory");
	fwd_reload_log_free(&quiet);
}

int ip4_config_apply(const struct fwd_config *cfg, struct fwd_reload_log *log)
{
	struct ip4_want *w = want_new(), *before = want_new();
	int rc = w != NULL && before != NULL ? 0 : -ENOMEM;

	if (rc == 0 && (rc = want_config(w, cfg)) == 0 && (rc = want_running(before)) == 0) {
		keep_rpc_addrs(w, before, log);
		rc = keep_rpc_routes_neighs(w, before, log);
	}
	if (rc < 0) {
		fwd_reload_fail(log, "IPv4: out of memory");
		want_free(w);
		want_free(before);
		return rc;
	}
	if (w->n_routes > 0)
		qsort(w->routes, w->n_routes, sizeof(*w->routes), route_cmp);
	addr4_batch_begin();
	rc = reconcile(w, log);
	want_free(w);
	if (rc < 0) {
		restore(before);
		addr4_batch_end();
		want_free(before);
		return rc;
	}
	want_free(undo_state);
	undo_state = before;
	return 0;
}

void ip4_config_undo(void)
{
	if (undo_state != NULL)
		restore(undo_state);
	ip4_config_commit();
}

void ip4_config_commit(void)
{
	want_free(undo_state);
	undo_state = NULL;
	addr4_batch_end();
}

static int ip4_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                            struct fwd_reload_log *log)
{
	(void)cur; /* the running state is the reference, not the previous file */
	return ip4_config_apply(next, log);
}

static struct fwd_module ip4_config_module = {
	.name = "ip4-config",
	.depends_on = "ip4",
	.reload_apply = ip4_reload_apply,
	.undo = ip4_config_undo,
	.commit = ip4_config_commit,
	.running = ip4_config_running,
};
FWD_MODULE(ip4_config_module);
