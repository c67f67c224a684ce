/* SPDX-License-Identifier: BSD-3-Clause */
/* The IPv4 part of `config show`: addresses, routes and static neighbours as they run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "ip4/addr.h"
#include "ip4/ip4.h"
#include "ip4/ip4_config.h"
#include "nexthop/neigh.h"
#include "port/port.h"

static int running_routes(struct fwd_config *run, uint64_t *omitted)
{
	unsigned n = 0;

	uint64_t cap = RTE_MIN(ip4_rib.n_routes, (uint64_t)FWD_MAX_CONF_ROUTES);

	run->routes = calloc(cap + 1, sizeof(*run->routes));
	if (run->routes == NULL)
		return -1;
	for (struct rib4_node *r = rib4_next_route(&ip4_rib, 0, 0, true); r != NULL;
	     r = rib4_next_route(&ip4_rib, r->addr, r->len, false)) {
		struct fwd_conf_route *cr = &run->routes[n];
		if (r->route.type == ROUTE4_CONNECTED)
			continue;
		if (r->route.origin == FWD_ORIGIN_LOAD || n == FWD_MAX_CONF_ROUTES) {
			(*omitted)++;
			continue;
		}
		cr->prefix = (struct fwd_ip4_prefix){ r->addr, r->len };
		cr->blackhole = r->route.type == ROUTE4_BLACKHOLE;
		cr->via = r->route.via;
		if (r->route.dev < fwd_n_ports)
			snprintf(cr->dev, sizeof(cr->dev), "%s", fwd_ports[r->route.dev].name);
		n++;
	}
	run->n_routes = n;
	return 0;
}

static int running_neighs(struct fwd_config *run)
{
	struct neigh_static ns;
	unsigned n = 0, cap = 16;
	uint32_t pos = 0;

	run->neighs = calloc(cap, sizeof(*run->neighs));
	while (run->neighs != NULL && neigh_static_next(&pos, &ns)) {
		if (n == cap) {
			struct fwd_conf_neigh *v = realloc(run->neighs, 2 * cap * sizeof(*v));
			if (v == NULL)
				return -1;
			run->neighs = v;
			cap *= 2;
		}
		struct fwd_conf_neigh *cn = &run->neighs[n++];
		memset(cn, 0, sizeof(*cn));
		cn->address = ns.addr.v4;
		memcpy(cn->mac, ns.mac.addr_bytes, sizeof(cn->mac));
		snprintf(cn->port, sizeof(cn->port), "%s", fwd_ports[ns.port].name);
	}
	run->n_neighs = n;
	return run->neighs != NULL ? 0 : -1;
}

int ip4_config_running(struct fwd_config *run, uint64_t *omitted)
{
	for (unsigned p = 0; p < run->n_ports && p < fwd_n_ports; p++) {
		run->ports[p].n_addresses = ip4_addrs[p].n;
		memcpy(run->ports[p].addresses, ip4_addrs[p].a, sizeof(ip4_addrs[p].a));
	}
	return running_routes(run, omitted) < 0 || running_neighs(run) < 0 ? -ENOMEM : 0;
}
