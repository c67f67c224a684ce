/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The config checks of what IPv4 owns: ports[].addresses, routes[] and
 * neighbors[]. Each is the rule the daemon applies (ip4/addr.h) run over
 * the file's own addresses, in the order start-up applies them: an
 * address is checked against those before it, routes and neighbours
 * against all of them. So a file that passes `--check` starts, and one
 * that fails says why at the value's file:line:col.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "ip4/addr.h"
#include "ip4/ip4_config.h"

#define WHY_MAX       200
#define CONF_PATH_MAX 48

/* "list[i].key" (or "list[i]" without a key) in buf. */
static const char *path(char buf[CONF_PATH_MAX], const char *list, unsigned i, const char *key)
{
	snprintf(buf, CONF_PATH_MAX, "%s[%u]%s%s", list, i, key[0] ? "." : "", key);
	return buf;
}

static void check_addresses(struct fwd_conf_checker *c, const struct fwd_config *cfg,
                            struct addr4_view *v)
{
	char why[WHY_MAX], at[CONF_PATH_MAX];
	unsigned count[FWD_MAX_PORTS];

	for (unsigned i = 0; i < cfg->n_ports; i++)
		count[i] = v->port[i].n;
	for (unsigned i = 0; i < cfg->n_ports; i++) {
		const struct fwd_conf_port *p = &cfg->ports[i];
		/* for both families: IPv6's check leaves this one to IPv4's */
		if (p->n_addresses > 0 && p->mode != FWD_MODE_L3) {
			snprintf(at, sizeof(at), "ports[%u].addresses[0]", i);
			fwd_conf_error(c, at,
			               "only l3 ports have addresses (this port's mode is %s)",
			               fwd_port_mode_name(p->mode));
			continue;
		}
		/* as start-up adds them: each against the ones before it */
		for (unsigned j = i; j < cfg->n_ports; j++)
			v->port[j].n = 0;
		unsigned n = count[i];

		for (unsigned k = 0; k < n; k++) {
			v->port[i].n = k;
			if (addr4_rule_add(v, i, &v->store[i][k], why, sizeof(why)) < 0) {
				snprintf(at, sizeof(at), "ports[%u].addresses[%u]", i,
				         v->index[i][k]);
				fwd_conf_error(c, at, "%s", why);
			}
		}
		v->port[i].n = n;
	}
}

/* The interface (a port or an interfaces[] entry: fwd_config_iface_index)
 * named by a route's or neighbour's field, or -1 once reported. */
static int named_l3(struct fwd_conf_checker *c, const struct fwd_config *cfg,
                    const struct addr4_view *v, const char *name, const char *at)
{
	int i = fwd_config_iface_index(cfg, name);
	char why[WHY_MAX];

	if (i < 0)
		fwd_conf_error(c, at, "no such port or interface '%s'", name);
	else if (addr4_rule_l3(v, (unsigned)i, why, sizeof(why)) < 0)
		fwd_conf_error(c, at, "%s", why);
	else
		return i;
	return -1;
}

/* A route's VRF in the file's numbering, as the config's views have it. */
static uint16_t route_vrf(const struct fwd_config *cfg, const struct fwd_conf_route *r)
{
	int v = fwd_config_vrf_index(cfg, r->vrf);

	return v > 0 ? (uint16_t)v : 0;
}

static void check_route(struct fwd_conf_checker *c, const struct fwd_config *cfg,
                        const struct addr4_view *v, unsigned i)
{
	const struct fwd_conf_route *r = &cfg->routes[i];
	struct fwd_ip4_prefix prefix = fwd_prefix_v4(&r->prefix);
	char at[CONF_PATH_MAX], why[WHY_MAX];
	unsigned port;
	int dev = -1;

	/* the prefix and gateway rules are each family's; the rest is both's */
	if (r->prefix.family == AF_INET &&
	    addr4_rule_route(v, route_vrf(cfg, r), &prefix, why, sizeof(why)) < 0)
		fwd_conf_error(c, path(at, "routes", i, "prefix"), "%s", why);
	if (r->next_vrf[0]) /* no next hop of its own: vrf/vrf_check.c checks it */
		return;
	if (r->blackhole + r->unreachable + r->prohibit > 1) {
		fwd_conf_error(c, path(at, "routes", i, ""),
		               "blackhole, unreachable and prohibit exclude each other");
		return;
	}
	if (r->blackhole || r->unreachable || r->prohibit) {
		const char *kind = r->blackhole     ? "blackhole"
		                   : r->unreachable ? "unreachable"
		                                    : "prohibit";
		if (fwd_conf_given(c, path(at, "routes", i, "via")))
			fwd_conf_error(c, at, "a %s route has no next hop", kind);
		if (r->dev[0])
			fwd_conf_error(c, path(at, "routes", i, "dev"),
			               "a %s route has no egress interface", kind);
		return;
	}
	if (!fwd_conf_given(c, path(at, "routes", i, "via")) && !r->dev[0]) {
		fwd_conf_error(c, path(at, "routes", i, ""),
		               "missing 'via' or 'dev' (or 'blackhole: true')");
		return;
	}
	if (r->dev[0] && (dev = named_l3(c, cfg, v, r->dev, path(at, "routes", i, "dev"))) < 0)
		return;
	for (unsigned k = 0; k < r->n_via; k++)
		for (unsigned j = 0; j < k; j++)
			if (fwd_ip_eq(&r->via[j], &r->via[k])) {
				snprintf(at, sizeof(at), "routes[%u].via[%u]", i, k);
				fwd_conf_error(c, at, "next hop given twice");
				return;
			}
	if (r->prefix.family != AF_INET)
		return;
	for (unsigned k = 0; k < r->n_via; k++) {
		if (r->n_via > 1)
			snprintf(at, sizeof(at), "routes[%u].via[%u]", i, k);
		else
			path(at, "routes", i, "via");
		if (r->via[k].family != AF_INET)
			fwd_conf_error(c, at, "an IPv4 route needs an IPv4 next hop");
		else if (addr4_rule_gateway(v, route_vrf(cfg, r), r->via[k].v4, dev, &port, why,
		                            sizeof(why)) < 0)
			fwd_conf_error(c, at, "%s", why);
	}
}

/* The config whose routes route_cmp sorts (qsort has no argument for it). */
static const struct fwd_config *cfg_sorted;

/* By VRF (the config's numbering), then prefix: a prefix may be in each VRF once. */
static int route_cmp(const void *a, const void *b)
{
	const struct fwd_conf_route *x = *(const struct fwd_conf_route *const *)a;
	const struct fwd_conf_route *y = *(const struct fwd_conf_route *const *)b;

	int d = fwd_config_vrf_index(cfg_sorted, x->vrf) - fwd_config_vrf_index(cfg_sorted, y->vrf);

	if (d == 0)
		d = fwd_prefix_cmp(&x->prefix, &y->prefix);
	if (d != 0)
		return d;
	return x < y ? -1 : x > y; /* stable: the first written sorts first */
}

/* Duplicates by sorting: a config may carry tens of thousands of routes.
 * Of both families: IPv6's check leaves this one to IPv4's. */
static void check_route_dups(struct fwd_conf_checker *c, const struct fwd_config *cfg)
{
	const struct fwd_conf_route **v = calloc(cfg->n_routes ? cfg->n_routes : 1, sizeof(*v));
	char buf[FWD_PREFIX_STRLEN], at[CONF_PATH_MAX];

	if (v == NULL) {
		fwd_conf_error(c, "", "out of memory");
		return;
	}
	for (unsigned i = 0; i < cfg->n_routes; i++)
		v[i] = &cfg->routes[i];
	cfg_sorted = cfg;
	qsort(v, cfg->n_routes, sizeof(*v), route_cmp);
	for (unsigned i = 1, first = 0; i < cfg->n_routes && !fwd_conf_full(c); i++) {
		const struct fwd_conf_route *r = v[i], *f = v[first];

		if (fwd_prefix_cmp(&r->prefix, &f->prefix) != 0 ||
		    fwd_config_vrf_index(cfg, r->vrf) != fwd_config_vrf_index(cfg, f->vrf)) {
			first = i;
			continue;
		}
		fwd_conf_error(c, path(at, "routes", (unsigned)(r - cfg->routes), "prefix"),
		               "duplicate route for %s (first at line %u)",
		               fwd_prefix_fmt(&r->prefix, buf), f->pos.line);
	}
	free(v);
}

static void check_neigh(struct fwd_conf_checker *c, const struct fwd_config *cfg,
                        const struct addr4_view *v, unsigned i)
{
	const struct fwd_conf_neigh *n = &cfg->neighs[i];
	char at[CONF_PATH_MAX], why[WHY_MAX], buf[FWD_IP_STRLEN];
	int pi = named_l3(c, cfg, v, n->port, path(at, "neighbors", i, "port"));

	/* the port, MAC and duplicates of both families; the address rule is each family's */
	if (pi >= 0 && n->address.family == AF_INET &&
	    addr4_rule_neigh(v, (unsigned)pi, n->address.v4, NULL, why, sizeof(why)) < 0)
		fwd_conf_error(c, path(at, "neighbors", i, "address"), "%s", why);
	if (addr4_rule_mac(n->mac, why, sizeof(why)) < 0)
		fwd_conf_error(c, path(at, "neighbors", i, "mac"), "%s", why);
	for (unsigned j = 0; j < i; j++)
		if (fwd_ip_eq(&cfg->neighs[j].address, &n->address) &&
		    strcmp(cfg->neighs[j].port, n->port) == 0)
			fwd_conf_error(c, path(at, "neighbors", i, "address"),
			               "duplicate neighbour %s on '%s' (first at line %u)",
			               fwd_ip_fmt(&n->address, buf), n->port,
			               cfg->neighs[j].pos.line);
}

void ip4_config_check(struct fwd_conf_checker *c, const struct fwd_config *cfg)
{
	struct addr4_view *v = malloc(sizeof(*v));

	if (v == NULL) {
		fwd_conf_error(c, "", "out of memory");
		return;
	}
	addr4_view_config(v, cfg);
	check_addresses(c, cfg, v);
	for (unsigned i = 0; i < cfg->n_routes && !fwd_conf_full(c); i++)
		check_route(c, cfg, v, i);
	check_route_dups(c, cfg);
	for (unsigned i = 0; i < cfg->n_neighs && !fwd_conf_full(c); i++)
		check_neigh(c, cfg, v, i);
	free(v);
}

RTE_INIT(ip4_config_check_register)
{
	fwd_config_register_check(ip4_config_check);
}
