/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The config checks of IPv6 values, through the rules of ip6/addr6.h:
 * addresses (each against those before it, as start-up adds them), routes'
 * prefixes and gateways, static neighbours' addresses, `ra` on l3 ports.
 * What both families share (l3 ports only, duplicates, ports, MACs) is
 * checked once, by ip4/ip4_check.c.
 */
#include <stdio.h>
#include <stdlib.h>

#include <rte_common.h>

#include "ip6/addr6.h"
#include "route/fib6.h"
#include "ip6/ip6_config.h"

#define WHY_MAX       200
#define CONF_PATH_MAX 48

static void check_addresses(struct fwd_conf_checker *c, const struct fwd_config *cfg,
                            struct addr6_view *v)
{
	char why[WHY_MAX], at[CONF_PATH_MAX];
	unsigned count[FWD_MAX_PORTS];

	for (unsigned i = 0; i < cfg->n_ports; i++)
		count[i] = v->port[i].n;
	for (unsigned i = 0; i < cfg->n_ports; i++) {
		const struct fwd_conf_port *p = &cfg->ports[i];

		if (p->ra && p->mode != FWD_MODE_L3) {
			snprintf(at, sizeof(at), "ports[%u].ra", i);
			fwd_conf_error(c, at, "only l3 ports send router advertisements");
		}
		if (p->mode != FWD_MODE_L3)
			continue; /* reported by IPv4's check */
		for (unsigned j = i; j < cfg->n_ports; j++)
			v->port[j].n = 0;
		for (unsigned k = 0, n = 0; k < p->n_addresses; k++) {
			struct fwd_ip6_prefix a;

			if (p->addresses[k].family != AF_INET6)
				continue;
			a = fwd_prefix_v6(&p->addresses[k]);
			v->port[i].n = n;
			if (addr6_rule_add(v, i, &a, why, sizeof(why)) < 0) {
				snprintf(at, sizeof(at), "ports[%u].addresses[%u]", i, k);
				fwd_conf_error(c, at, "%s", why);
			}
			n++;
		}
		v->port[i].n = count[i];
	}
}

/* Is index i (fwd_config_iface_index) an l3 interface of v? */
static bool view_l3(const struct addr6_view *v, int i)
{
	return i >= 0 && (unsigned)i < v->n_ports && v->port[i].l3;
}

static void check_route(struct fwd_conf_checker *c, const struct fwd_config *cfg,
                        const struct addr6_view *v, unsigned i)
{
	const struct fwd_conf_route *r = &cfg->routes[i];
	struct fwd_ip6_prefix p = fwd_prefix_v6(&r->prefix);
	char at[CONF_PATH_MAX], why[WHY_MAX];
	unsigned port;
	int dev = r->dev[0] ? fwd_config_iface_index(cfg, r->dev) : -1;
	int vi = fwd_config_vrf_index(cfg, r->vrf); /* the file's numbering, as its views */
	uint16_t vrf = vi > 0 ? (uint16_t)vi : 0;

	if (r->prefix.family != AF_INET6)
		return;
	if (addr6_rule_route(v, vrf, &p, why, sizeof(why)) < 0) {
		snprintf(at, sizeof(at), "routes[%u].prefix", i);
		fwd_conf_error(c, at, "%s", why);
	}
	if (r->blackhole || r->unreachable || r->prohibit || r->n_via == 0 || r->next_vrf[0] ||
	    (r->dev[0] && !view_l3(v, dev)))
		return; /* missing via, blackhole with via, unknown dev: IPv4's check says so */
	for (unsigned k = 0; k < r->n_via; k++) {
		if (r->n_via > 1)
			snprintf(at, sizeof(at), "routes[%u].via[%u]", i, k);
		else
			snprintf(at, sizeof(at), "routes[%u].via", i);
		if (r->via[k].family != AF_INET6)
			fwd_conf_error(c, at, "an IPv6 route needs an IPv6 next hop");
		else if (addr6_rule_gateway(v, vrf, r->via[k].v6, dev, &port, why, sizeof(why)) < 0)
			fwd_conf_error(c, at, "%s", why);
	}
}

void ip6_config_check(struct fwd_conf_checker *c, const struct fwd_config *cfg)
{
	struct addr6_view *v = malloc(sizeof(*v));
	char at[CONF_PATH_MAX], why[WHY_MAX];

	if (v == NULL) {
		fwd_conf_error(c, "", "out of memory");
		return;
	}
	addr6_view_config(v, cfg);
	if (cfg->dataplane.fib6_neigh_tbl8s > FIB6_TBL8_MAX - cfg->dataplane.fib6_tbl8s)
		fwd_conf_error(c, "dataplane.fib6_neigh_tbl8s",
		               "with dataplane.fib6_tbl8s at most %u groups in all", FIB6_TBL8_MAX);
	check_addresses(c, cfg, v);
	for (unsigned i = 0; i < cfg->n_routes && !fwd_conf_full(c); i++)
		check_route(c, cfg, v, i);
	for (unsigned i = 0; i < cfg->n_neighs && !fwd_conf_full(c); i++) {
		const struct fwd_conf_neigh *n = &cfg->neighs[i];
		int pi = fwd_config_iface_index(cfg, n->port);

		if (n->address.family != AF_INET6 || !view_l3(v, pi))
			continue; /* the port's problems are IPv4's check's to report */
		if (addr6_rule_neigh(v, (unsigned)pi, n->address.v6, NULL, why, sizeof(why)) < 0) {
			snprintf(at, sizeof(at), "neighbors[%u].address", i);
			fwd_conf_error(c, at, "%s", why);
		}
	}
	free(v);
}

RTE_INIT(ip6_config_check_register)
{
	fwd_config_register_check(ip6_config_check);
}
