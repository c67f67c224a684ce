/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reload for what ip4 owns: addresses, routes and static neighbours. The
 * difference between the old and the new file is applied to the running
 * state, so changes made through fwdctl meanwhile are kept unless the file
 * itself changed the same thing.
 */
#include <errno.h>
#include <string.h>

#include "core/module.h"
#include "core/reload.h"
#include "ip4/addr.h"
#include "ip4/ip4.h"
#include "ip4/route.h"
#include "neigh/neigh.h"
#include "port/port.h"

int ip4_config_route(const struct fwd_conf_route *cr, bool replace, char *err, size_t errlen);

static bool has_addr(const struct fwd_conf_port *p, const struct fwd_ip4_prefix *a)
{
	for (unsigned i = 0; i < p->n_addresses; i++)
		if (p->addresses[i].addr == a->addr && p->addresses[i].len == a->len)
			return true;
	return false;
}

static const struct fwd_conf_route *find_route(const struct fwd_config *c,
                                               const struct fwd_conf_route *r)
{
	for (unsigned i = 0; i < c->n_routes; i++)
		if (c->routes[i].prefix.addr == r->prefix.addr &&
		    c->routes[i].prefix.len == r->prefix.len)
			return &c->routes[i];
	return NULL;
}

static bool same_route(const struct fwd_conf_route *a, const struct fwd_conf_route *b)
{
	return a->blackhole == b->blackhole && a->via == b->via && strcmp(a->dev, b->dev) == 0;
}

static const struct fwd_conf_neigh *find_neigh(const struct fwd_config *c,
                                               const struct fwd_conf_neigh *n)
{
	for (unsigned i = 0; i < c->n_neighs; i++)
		if (c->neighs[i].address == n->address && strcmp(c->neighs[i].port, n->port) == 0)
			return &c->neighs[i];
	return NULL;
}

static void routes_removed(const struct fwd_config *cur, const struct fwd_config *next,
                           struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX4_STRLEN], err[256];

	for (unsigned i = 0; i < cur->n_routes; i++) {
		const struct fwd_conf_route *r = &cur->routes[i];
		struct rib4_node *n = rib4_find(&ip4_rib, r->prefix.addr, r->prefix.len);
		if (find_route(next, r) != NULL || n == NULL || !(n->src & RIB4_SRC_ROUTE) ||
		    n->route.origin != ROUTE4_ORIGIN_CONFIG)
			continue;
		if (route4_del(&r->prefix, err, sizeof(err)) == 0)
			fwd_reload_note(log, "route %s removed",
			                fwd_ip4_prefix_fmt(&r->prefix, buf));
		else
			fwd_reload_fail(log, "route %s: %s", fwd_ip4_prefix_fmt(&r->prefix, buf),
			                err);
	}
}

static void addresses(const struct fwd_config *cur, const struct fwd_config *next,
                      struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX4_STRLEN], err[256];

	for (unsigned p = 0; p < cur->n_ports; p++) {
		const struct fwd_conf_port *c = &cur->ports[p], *n = &next->ports[p];
		for (unsigned i = 0; i < c->n_addresses; i++)
			if (!has_addr(n, &c->addresses[i]) &&
			    addr4_del((uint8_t)p, &c->addresses[i], err, sizeof(err)) == 0)
				fwd_reload_note(log, "address %s removed from %s",
				                fwd_ip4_prefix_fmt(&c->addresses[i], buf), c->name);
		for (unsigned i = 0; i < n->n_addresses; i++) {
			if (has_addr(c, &n->addresses[i]))
				continue;
			fwd_ip4_prefix_fmt(&n->addresses[i], buf);
			if (addr4_add((uint8_t)p, &n->addresses[i], err, sizeof(err)) == 0)
				fwd_reload_note(log, "address %s added to %s", buf, n->name);
			else
				fwd_reload_fail(log, "address %s on %s: %s", buf, n->name, err);
		}
	}
}

static void routes_added(const struct fwd_config *cur, const struct fwd_config *next,
                         struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX4_STRLEN], err[256];

	for (unsigned i = 0; i < next->n_routes; i++) {
		const struct fwd_conf_route *r = &next->routes[i], *old = find_route(cur, r);
		if (old != NULL && same_route(old, r))
			continue;
		fwd_ip4_prefix_fmt(&r->prefix, buf);
		if (ip4_config_route(r, true, err, sizeof(err)) >= 0)
			fwd_reload_note(log, "route %s %s", buf, old != NULL ? "changed" : "added");
		else
			fwd_reload_fail(log, "route %s: %s", buf, err);
	}
}

static void neighbours(const struct fwd_config *cur, const struct fwd_config *next,
                       struct fwd_reload_log *log)
{
	char ip[FWD_IP4_STRLEN], err[256];

	for (unsigned i = 0; i < cur->n_neighs; i++) {
		const struct fwd_conf_neigh *n = &cur->neighs[i];
		struct fwd_port *p = fwd_port_by_name(n->port);
		if (find_neigh(next, n) == NULL && p != NULL && neigh_del(n->address, p->idx) == 0)
			fwd_reload_note(log, "neighbour %s on %s removed",
			                fwd_ip4_fmt(n->address, ip), n->port);
	}
	for (unsigned i = 0; i < next->n_neighs; i++) {
		const struct fwd_conf_neigh *n = &next->neighs[i], *old = find_neigh(cur, n);
		struct fwd_port *p = fwd_port_by_name(n->port);
		if (p == NULL || (old != NULL && memcmp(old->mac, n->mac, 6) == 0))
			continue;
		fwd_ip4_fmt(n->address, ip);
		if (neigh_add_static(n->address, p->idx, (const struct rte_ether_addr *)n->mac, err,
		                     sizeof(err)) == 0)
			fwd_reload_note(log, "neighbour %s on %s %s", ip, n->port,
			                old != NULL ? "changed" : "added");
		else
			fwd_reload_fail(log, "neighbour %s on %s: %s", ip, n->port, err);
	}
}

static int ip4_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                            struct fwd_reload_log *log)
{
	routes_removed(cur, next, log);
	addresses(cur, next, log);
	routes_added(cur, next, log);
	neighbours(cur, next, log);
	if (cur->dataplane.neigh_timeout_s != next->dataplane.neigh_timeout_s) {
		neigh_set_timeout(next->dataplane.neigh_timeout_s);
		fwd_reload_note(log, "neigh_timeout_s %u -> %u", cur->dataplane.neigh_timeout_s,
		                next->dataplane.neigh_timeout_s);
	}
	if (cur->dataplane.neigh_max != next->dataplane.neigh_max) {
		neigh_set_max(next->dataplane.neigh_max);
		fwd_reload_note(log, "neigh_max %u -> %u", cur->dataplane.neigh_max,
		                next->dataplane.neigh_max);
	}
	return 0;
}

/* After ip4 (300) and the neighbours' config step (310). */
static struct fwd_module ip4_reload_module = {
	.name = "ip4-reload",
	.prio = 350,
	.reload_apply = ip4_reload_apply,
};
FWD_MODULE(ip4_reload_module);
