/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a config file asks of IPv6, made real by one reconcile at start-up
 * and on every reload, in the order IPv4's takes (ip4/ip4_config.c): the
 * file's state plus what fwdctl added that the file leaves alone; routes and
 * neighbours it does not want go first, then addresses, then the wanted
 * routes and neighbours. The cascade of a removed address waits for the
 * batch's end; a failure restores the state captured before.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/module.h"
#include "core/reload.h"
#include "ip6/addr6.h"
#include "ip6/ip6.h"
#include "ip6/ip6_config.h"
#include "ip6/ndp.h"
#include "ip6/route6.h"
#include "nexthop/neigh.h"
#include "nexthop/nexthop.h"
#include "port/port.h"

struct ip6_want {
	struct addr6_view addrs; /* configured addresses per port */
	uint8_t origin[FWD_MAX_PORTS][FWD_MAX_ADDRS];
	bool ra[FWD_MAX_PORTS];
	unsigned n_routes, cap_routes;
	struct route6_req *routes;
	unsigned n_neighs, cap_neighs;
	struct neigh_static *neighs;
};

static struct ip6_want *undo_state;

static void want_free(struct ip6_want *w)
{
	if (w == NULL)
		return;
	free(w->routes);
	free(w->neighs);
	free(w);
}

static struct ip6_want *want_new(void)
{
	struct ip6_want *w = calloc(1, sizeof(*w));

	if (w == NULL)
		return NULL;
	w->addrs.n_ports = fwd_n_ports;
	for (unsigned i = 0; i < fwd_n_ports; i++) {
		w->addrs.port[i].name = fwd_ports[i].name;
		w->addrs.port[i].l3 = fwd_ports[i].mode == FWD_MODE_L3;
	}
	return w;
}

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

static int want_route(struct ip6_want *w, const struct route6_req *r)
{
	struct route6_req *v = grow(w->routes, w->n_routes, &w->cap_routes, sizeof(*r));

	if (v == NULL)
		return -ENOMEM;
	w->routes = v;
	w->routes[w->n_routes++] = *r;
	return 0;
}

static int want_neigh(struct ip6_want *w, const struct neigh_static *n)
{
	struct neigh_static *v = grow(w->neighs, w->n_neighs, &w->cap_neighs, sizeof(*n));

	if (v == NULL)
		return -ENOMEM;
	w->neighs = v;
	w->neighs[w->n_neighs++] = *n;
	return 0;
}

static bool same_prefix(const struct fwd_ip6_prefix *a, const struct fwd_ip6_prefix *b)
{
	return a->len == b->len && memcmp(a->addr, b->addr, 16) == 0;
}

static const struct route6_req *find_route(const struct ip6_want *w, const struct fwd_ip6_prefix *p)
{
	for (unsigned i = 0; i < w->n_routes; i++)
		if (same_prefix(&w->routes[i].prefix, p))
			return &w->routes[i];
	return NULL;
}

static bool find_neigh(const struct ip6_want *w, const struct fwd_ip *a, uint8_t port)
{
	for (unsigned i = 0; i < w->n_neighs; i++)
		if (fwd_ip_eq(&w->neighs[i].addr, a) && w->neighs[i].port == port)
			return true;
	return false;
}

static int find_addr(const struct addr6_view_port *vp, const struct fwd_ip6_prefix *p)
{
	for (unsigned i = 0; i < vp->n; i++)
		if (same_prefix(&vp->a[i], p))
			return (int)i;
	return -1;
}

/* ------------------------------------------------------- building states */

static int want_config(struct ip6_want *w, const struct fwd_config *cfg)
{
	int rc = 0;

	for (unsigned p = 0; p < cfg->n_ports && p < fwd_n_ports; p++) {
		const struct fwd_conf_port *cp = &cfg->ports[p];
		struct addr6_view_port *vp = &w->addrs.port[p];

		w->ra[p] = cp->ra;
		for (unsigned i = 0; i < cp->n_addresses; i++)
			if (cp->addresses[i].family == AF_INET6) {
				w->origin[p][vp->n] = FWD_ORIGIN_CONFIG;
				vp->a[vp->n++] = fwd_prefix_v6(&cp->addresses[i]);
			}
	}
	for (unsigned i = 0; i < cfg->n_routes && rc == 0; i++) {
		const struct fwd_conf_route *cr = &cfg->routes[i];
		const struct fwd_port *dev = cr->dev[0] ? fwd_port_by_name(cr->dev) : NULL;
		struct route6_req r = { .prefix = fwd_prefix_v6(&cr->prefix),
			                .blackhole = cr->blackhole,
			                .dev = dev ? dev->idx : -1,
			                .origin = FWD_ORIGIN_CONFIG,
			                .replace = true };
		memcpy(r.via, cr->via.v6, 16);
		if (cr->prefix.family == AF_INET6)
			rc = want_route(w, &r);
	}
	for (unsigned i = 0; i < cfg->n_neighs && rc == 0; i++) {
		const struct fwd_conf_neigh *cn = &cfg->neighs[i];
		const struct fwd_port *p = fwd_port_by_name(cn->port);
		struct neigh_static n = { cn->address, p ? p->idx : 0, FWD_ORIGIN_CONFIG };
		memcpy(n.mac.addr_bytes, cn->mac, sizeof(cn->mac));
		if (cn->address.family == AF_INET6)
			rc = want_neigh(w, &n);
	}
	return rc;
}

static int want_running(struct ip6_want *w)
{
	static const uint8_t zero[16];
	const struct addr6_view *run = addr6_running();
	struct neigh_static ns;
	uint32_t pos = 0;
	int rc = 0;

	w->addrs = *run;
	for (unsigned p = 0; p < fwd_n_ports; p++) {
		w->ra[p] = ip6_addrs[p].ra;
		for (unsigned i = 1; i < ip6_addrs[p].n; i++)
			w->origin[p][i - 1] = ip6_addrs[p].origin[i];
	}
	for (struct rib6_node *n = rib6_next_route(&ip6_rib, zero, 0, true); n != NULL && rc == 0;
	     n = rib6_next_route(&ip6_rib, n->addr, n->len, false)) {
		const struct route6 *rt = &n->route;
		struct route6_req r = { .blackhole = rt->type == ROUTE6_BLACKHOLE,
			                .dev = rt->dev == ROUTE6_DEV_ANY ? -1 : rt->dev,
			                .origin = rt->origin,
			                .replace = true };
		memcpy(r.prefix.addr, n->addr, 16);
		r.prefix.len = n->len;
		memcpy(r.via, rt->via, 16);
		if (rt->origin == FWD_ORIGIN_CONFIG || rt->origin == FWD_ORIGIN_RPC)
			rc = want_route(w, &r);
	}
	while (rc == 0 && neigh_static_next(&pos, &ns))
		if (ns.addr.family == AF_INET6)
			rc = want_neigh(w, &ns);
	return rc;
}

/* What fwdctl added (in run) that the file leaves alone and the rules still allow. */
static int keep_rpc(struct ip6_want *w, const struct ip6_want *run, struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX_STRLEN], why[160];
	unsigned port;
	int rc = 0;

	for (unsigned p = 0; p < fwd_n_ports; p++)
		for (unsigned i = 0; i < run->addrs.port[p].n; i++) {
			const struct fwd_ip6_prefix *a = &run->addrs.port[p].a[i];
			struct addr6_view_port *vp = &w->addrs.port[p];
			if (run->origin[p][i] != FWD_ORIGIN_RPC || find_addr(vp, a) >= 0)
				continue;
			if (addr6_rule_add(&w->addrs, p, a, why, sizeof(why)) < 0) {
				fwd_reload_note(log,
				                "address %s on %s (added by fwdctl) removed: %s",
				                fwd_ip6_prefix_fmt(a, buf), fwd_ports[p].name, why);
				continue;
			}
			w->origin[p][vp->n] = FWD_ORIGIN_RPC;
			vp->a[vp->n++] = *a;
		}
	for (unsigned i = 0; i < run->n_routes && rc == 0; i++) {
		const struct route6_req *r = &run->routes[i];
		if (r->origin != FWD_ORIGIN_RPC || find_route(w, &r->prefix) != NULL)
			continue;
		if (addr6_rule_route(&w->addrs, &r->prefix, why, sizeof(why)) == 0 &&
		    (r->blackhole ||
		     addr6_rule_gateway(&w->addrs, r->via, r->dev, &port, why, sizeof(why)) == 0))
			rc = want_route(w, r);
		else
			fwd_reload_note(log, "route %s (added by fwdctl) removed: %s",
			                fwd_ip6_prefix_fmt(&r->prefix, buf), why);
	}
	for (unsigned i = 0; i < run->n_neighs && rc == 0; i++) {
		const struct neigh_static *n = &run->neighs[i];
		if (n->origin != FWD_ORIGIN_RPC || find_neigh(w, &n->addr, n->port))
			continue;
		if (addr6_rule_neigh(&w->addrs, n->port, n->addr.v6, n->mac.addr_bytes, why,
		                     sizeof(why)) == 0)
			rc = want_neigh(w, n);
		else
			fwd_reload_note(log, "neighbour %s on %s (added by fwdctl) removed: %s",
			                fwd_ip_fmt(&n->addr, buf), fwd_ports[n->port].name, why);
	}
	return rc;
}

/* ----------------------------------------------------------- reconciling */

static void drop_unwanted(const struct ip6_want *w, const struct ip6_want *run,
                          struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX_STRLEN], err[256];

	for (unsigned i = 0; i < run->n_routes; i++) {
		const struct route6_req *r = &run->routes[i];
		if (find_route(w, &r->prefix) == NULL &&
		    route6_del(&r->prefix, err, sizeof(err)) == 0)
			fwd_reload_note(log, "route %s removed",
			                fwd_ip6_prefix_fmt(&r->prefix, buf));
	}
	for (unsigned i = 0; i < run->n_neighs; i++) {
		const struct neigh_static *n = &run->neighs[i];
		if (!find_neigh(w, &n->addr, n->port) && neigh_del(n->addr, n->port) == 0)
			fwd_reload_note(log, "neighbour %s on %s removed",
			                fwd_ip_fmt(&n->addr, buf), fwd_ports[n->port].name);
	}
}

static int sync_addrs(const struct ip6_want *w, struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX_STRLEN], err[256];

	for (unsigned p = 0; p < fwd_n_ports; p++)
		for (unsigned i = ip6_addrs[p].n; i-- > 1;) {
			struct fwd_ip6_prefix a = ip6_addrs[p].a[i];
			if (find_addr(&w->addrs.port[p], &a) < 0 &&
			    addr6_del((uint8_t)p, &a, err, sizeof(err)) == 0)
				fwd_reload_note(log, "address %s removed from %s",
				                fwd_ip6_prefix_fmt(&a, buf), fwd_ports[p].name);
		}
	for (unsigned p = 0; p < fwd_n_ports; p++) {
		const struct addr6_view_port *vp = &w->addrs.port[p];
		const struct addr6_view *run = addr6_running();
		for (unsigned i = 0; i < vp->n; i++) {
			if (find_addr(&run->port[p], &vp->a[i]) >= 0)
				continue;
			fwd_ip6_prefix_fmt(&vp->a[i], buf);
			if (addr6_add((uint8_t)p, &vp->a[i], w->origin[p][i], err, sizeof(err)) <
			    0) {
				fwd_reload_fail(log, "address %s on %s: %s", buf, fwd_ports[p].name,
				                err);
				return -EINVAL;
			}
			fwd_reload_note(log, "address %s added to %s", buf, fwd_ports[p].name);
			run = addr6_running();
		}
		if (ip6_addrs[p].ra != w->ra[p]) {
			ip6_addrs[p].ra = w->ra[p];
			fwd_reload_note(log, "router advertisements on %s %s", fwd_ports[p].name,
			                w->ra[p] ? "on" : "off");
			ndp_port_changed((uint8_t)p, w->ra[p]);
		}
	}
	return 0;
}

static bool route_in_place(const struct route6_req *r)
{
	struct rib6_node *n = rib6_find(&ip6_rib, r->prefix.addr, r->prefix.len);
	const struct route6 *rt = n != NULL && (n->src & RIB6_SRC_ROUTE) ? &n->route : NULL;
	unsigned port;

	if (rt == NULL || rt->origin != r->origin ||
	    rt->dev != (r->dev >= 0 ? (uint8_t)r->dev : ROUTE6_DEV_ANY))
		return false;
	if (r->blackhole)
		return rt->type == ROUTE6_BLACKHOLE;
	return rt->type == ROUTE6_VIA && memcmp(rt->via, r->via, 16) == 0 &&
	       addr6_rule_gateway(addr6_running(), r->via, r->dev, &port, NULL, 0) == 0 &&
	       nh_table[rt->nh].port == port;
}

static int sync_routes_neighs(const struct ip6_want *w, struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX_STRLEN], err[256];
	struct neigh_static cur;

	for (unsigned i = 0; i < w->n_routes; i++) {
		const struct route6_req *r = &w->routes[i];
		if (route_in_place(r))
			continue;
		int rc = route6_add(r, err, sizeof(err));
		if (rc < 0) {
			fwd_reload_fail(log, "%s", err);
			return rc;
		}
		fwd_reload_note(log, "route %s %s", fwd_ip6_prefix_fmt(&r->prefix, buf),
		                rc == 1 ? "changed" : "added");
	}
	for (unsigned i = 0; i < w->n_neighs; i++) {
		const struct neigh_static *n = &w->neighs[i];
		bool had = neigh_static_get(n->addr, n->port, &cur);
		if (had && cur.origin == n->origin && rte_is_same_ether_addr(&cur.mac, &n->mac))
			continue;
		fwd_ip_fmt(&n->addr, buf);
		if (neigh_add_static(n->addr, n->port, &n->mac, n->origin, err, sizeof(err)) < 0) {
			fwd_reload_fail(log, "neighbour %s on %s: %s", buf, fwd_ports[n->port].name,
			                err);
			return -EINVAL;
		}
		fwd_reload_note(log, "neighbour %s on %s %s", buf, fwd_ports[n->port].name,
		                had ? "changed" : "added");
	}
	return 0;
}

static int reconcile(const struct ip6_want *w, struct fwd_reload_log *log)
{
	struct ip6_want *run = want_new();
	int rc = run != NULL ? want_running(run) : -ENOMEM;

	if (rc == 0) {
		drop_unwanted(w, run, log);
		rc = sync_addrs(w, log);
	}
	if (rc == 0)
		rc = sync_routes_neighs(w, log);
	want_free(run);
	return rc;
}

static void restore(const struct ip6_want *w)
{
	struct fwd_reload_log quiet = { 0 };

	if (reconcile(w, &quiet) < 0)
		LOG(ERR, "IPv6 state could not be restored in full: %s",
		    quiet.n > 0 ? quiet.lines[quiet.n - 1] : "out of memory");
	fwd_reload_log_free(&quiet);
}

int ip6_config_apply(const struct fwd_config *cfg, struct fwd_reload_log *log)
{
	struct ip6_want *w = want_new(), *before = want_new();
	int rc = w != NULL && before != NULL ? 0 : -ENOMEM;

	if (rc == 0 && (rc = want_config(w, cfg)) == 0 && (rc = want_running(before)) == 0)
		rc = keep_rpc(w, before, log);
	if (rc < 0) {
		fwd_reload_fail(log, "IPv6: out of memory");
		want_free(w);
		want_free(before);
		return rc;
	}
	addr6_batch_begin();
	rc = reconcile(w, log);
	want_free(w);
	if (rc < 0) {
		restore(before);
		addr6_batch_end();
		want_free(before);
		return rc;
	}
	want_free(undo_state);
	undo_state = before;
	return 0;
}

void ip6_config_undo(void)
{
	if (undo_state != NULL)
		restore(undo_state);
	ip6_config_commit();
}

void ip6_config_commit(void)
{
	want_free(undo_state);
	undo_state = NULL;
	addr6_batch_end();
}

static int ip6_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                            struct fwd_reload_log *log)
{
	(void)cur; /* the running state is the reference */
	return ip6_config_apply(next, log);
}

static struct fwd_module ip6_config_module = {
	.name = "ip6-config",
	.depends_on = "ip6",
	.reload_apply = ip6_reload_apply,
	.undo = ip6_config_undo,
	.commit = ip6_config_commit,
	.running = ip6_config_running,
};
FWD_MODULE(ip6_config_module);
