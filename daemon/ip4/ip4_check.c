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

#define WHY_MAX 200

static void check_addresses(struct fwd_conf_checker *c, const struct fwd_config *cfg,
                            struct addr4_view *v)
{
	char why[WHY_MAX];

	for (unsigned i = 0; i < cfg->n_ports; i++) {
		const struct fwd_conf_port *p = &cfg->ports[i];
		if (p->n_addresses > 0 && p->mode != FWD_MODE_L3) {
			fwd_conf_error(c, &p->addresses[0], p->pos,
			               "ports[%u].addresses: only l3 ports have addresses (this "
			               "port's mode is %s)",
			               i, fwd_port_mode_name(p->mode));
			continue;
		}
		/* as start-up adds them: each against the ones before it */
		for (unsigned j = i; j < cfg->n_ports; j++)
			v->port[j].n = 0;
		for (unsigned k = 0; k < p->n_addresses; k++) {
			v->port[i].n = k;
			if (addr4_rule_add(v, i, &p->addresses[k], why, sizeof(why)) < 0)
				fwd_conf_error(c, &p->addresses[k], p->pos,
				               "ports[%u].addresses[%u]: %s", i, k, why);
		}
		v->port[i].n = p->n_addresses;
	}
}

/* The port named by a route's or neighbour's field, or -1 once reported. */
static int named_l3(struct fwd_conf_checker *c, const struct fwd_config *cfg,
                    const struct addr4_view *v, const char *name, struct fwd_conf_pos def,
                    const char *path)
{
	int i = fwd_config_port_index(cfg, name);
	char why[WHY_MAX];

	if (i < 0)
		fwd_conf_error(c, name, def, "%s: no such port '%s'", path, name);
	else if (addr4_rule_l3(v, (unsigned)i, why, sizeof(why)) < 0)
		fwd_conf_error(c, name, def, "%s: %s", path, why);
	else
		return i;
	return -1;
}

static void check_route(struct fwd_conf_checker *c, const struct fwd_config *cfg,
                        const struct addr4_view *v, unsigned i)
{
	const struct fwd_conf_route *r = &cfg->routes[i];
	char path[48], why[WHY_MAX];
	unsigned port;
	int dev = -1;

	if (addr4_rule_route(v, &r->prefix, why, sizeof(why)) < 0)
		fwd_conf_error(c, &r->prefix, r->pos, "routes[%u].prefix: %s", i, why);
	if (r->blackhole) {
		if (fwd_conf_given(c, &r->via))
			fwd_conf_error(c, &r->via, r->pos,
			               "routes[%u].via: a blackhole route has no next hop", i);
		if (r->dev[0])
			fwd_conf_error(c, r->dev, r->pos,
			               "routes[%u].dev: a blackhole route has no egress port", i);
		return;
	}
	if (!fwd_conf_given(c, &r->via)) {
		fwd_conf_error(c, NULL, r->pos, "routes[%u]: missing 'via' (or 'blackhole: true')",
		               i);
		return;
	}
	snprintf(path, sizeof(path), "routes[%u].dev", i);
	if (r->dev[0] && (dev = named_l3(c, cfg, v, r->dev, r->pos, path)) < 0)
		return;
	if (addr4_rule_gateway(v, r->via, dev, &port, why, sizeof(why)) < 0)
		fwd_conf_error(c, &r->via, r->pos, "routes[%u].via: %s", i, why);
}

static int route_cmp(const void *a, const void *b)
{
	const struct fwd_conf_route *x = *(const struct fwd_conf_route *const *)a;
	const struct fwd_conf_route *y = *(const struct fwd_conf_route *const *)b;

	if (x->prefix.addr != y->prefix.addr)
		return x->prefix.addr < y->prefix.addr ? -1 : 1;
	if (x->prefix.len != y->prefix.len)
		return x->prefix.len < y->prefix.len ? -1 : 1;
	return x < y ? -1 : x > y; /* stable: the first written sorts first */
}

/* Duplicates by sorting: a config may carry tens of thousands of routes. */
static void check_route_dups(struct fwd_conf_checker *c, const struct fwd_config *cfg)
{
	const struct fwd_conf_route **v = calloc(cfg->n_routes ? cfg->n_routes : 1, sizeof(*v));
	char buf[FWD_PREFIX4_STRLEN];

	if (v == NULL) {
		fwd_conf_error(c, NULL, (struct fwd_conf_pos){ 0, 0 }, "out of memory");
		return;
	}
	for (unsigned i = 0; i < cfg->n_routes; i++)
		v[i] = &cfg->routes[i];
	qsort(v, cfg->n_routes, sizeof(*v), route_cmp);
	for (unsigned i = 1, first = 0; i < cfg->n_routes && !fwd_conf_full(c); i++) {
		const struct fwd_conf_route *r = v[i], *f = v[first];

		if (r->prefix.addr != f->prefix.addr || r->prefix.len != f->prefix.len) {
			first = i;
			continue;
		}
		fwd_conf_error(c, &r->prefix, r->pos,
		               "routes[%u].prefix: duplicate route for %s (first at line %u)",
		               (unsigned)(r - cfg->routes), fwd_ip4_prefix_fmt(&r->prefix, buf),
		               f->pos.line);
	}
	free(v);
}

static void check_neigh(struct fwd_conf_checker *c, const struct fwd_config *cfg,
                        const struct addr4_view *v, unsigned i)
{
	const struct fwd_conf_neigh *n = &cfg->neighs[i];
	char path[48], why[WHY_MAX], buf[FWD_IP4_STRLEN];
	int pi;

	snprintf(path, sizeof(path), "neighbors[%u].port", i);
	pi = named_l3(c, cfg, v, n->port, n->pos, path);
	if (pi >= 0 && addr4_rule_neigh(v, (unsigned)pi, n->address, NULL, why, sizeof(why)) < 0)
		fwd_conf_error(c, &n->address, n->pos, "neighbors[%u].address: %s", i, why);
	if (addr4_rule_mac(n->mac, why, sizeof(why)) < 0)
		fwd_conf_error(c, n->mac, n->pos, "neighbors[%u].mac: %s", i, why);
	for (unsigned j = 0; j < i; j++)
		if (cfg->neighs[j].address == n->address &&
		    strcmp(cfg->neighs[j].port, n->port) == 0)
			fwd_conf_error(
			        c, &n->address, n->pos,
			        "neighbors[%u]: duplicate neighbour %s on port '%s' (first at "
			        "line %u)",
			        i, fwd_ip4_fmt(n->address, buf), n->port, cfg->neighs[j].pos.line);
}

void ip4_config_check(struct fwd_conf_checker *c, const struct fwd_config *cfg)
{
	struct addr4_view *v = malloc(sizeof(*v));

	if (v == NULL) {
		fwd_conf_error(c, NULL, (struct fwd_conf_pos){ 0, 0 }, "out of memory");
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
