/* SPDX-License-Identifier: BSD-3-Clause */
/* The IPv4 part of `config show`: addresses and routes as they run (static
 * neighbours of both families are the neighbour layer's part). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ip4/addr.h"
#include "ip4/ip4.h"
#include "ip4/ip4_config.h"
#include "route/route_core.h"
#include "nexthop/nexthop.h"
#include "port/port.h"

/* VRF vrf's routes of config and fwdctl into run (the others are counted in omitted). */
static int running_routes_of(struct fwd_config *run, uint64_t *omitted, uint16_t vrf)
{
	for (struct rib4_node *r = rib4_next_route(&ip4_ribs[vrf], 0, 0, true); r != NULL;
	     r = rib4_next_route(&ip4_ribs[vrf], r->addr, r->len, false)) {
		struct fwd_ip4_prefix p = { r->addr, r->len };
		struct fwd_conf_route *cr;

		if (r->route.type == ROUTE4_CONNECTED)
			continue;
		if (r->route.origin == FWD_ORIGIN_LOAD || fwd_origin_is_fpm(r->route.origin) ||
		    run->n_routes >= FWD_MAX_CONF_ROUTES) {
			(*omitted)++;
			continue;
		}
		if ((cr = fwd_config_add_route(run)) == NULL)
			return -ENOMEM;
		cr->prefix = fwd_prefix_of4(&p);
		cr->blackhole = r->route.type == ROUTE4_BLACKHOLE;
		cr->unreachable = r->route.type == ROUTE4_UNREACHABLE;
		cr->prohibit = r->route.type == ROUTE4_PROHIBIT;
		if (r->route.type == ROUTE4_VIA)
			cr->n_via = nh_gateways(r->route.nh, cr->via);
		if (vrf != FWD_VRF_DEFAULT)
			snprintf(cr->vrf, sizeof(cr->vrf), "%s", fwd_vrf_name(vrf));
		if (r->route.type == ROUTE_NEXT_VRF) /* its dev is the VRF it names */
			snprintf(cr->next_vrf, sizeof(cr->next_vrf), "%s",
			         fwd_vrf_name(r->route.dev));
		else if (r->route.dev < fwd_n_ports)
			snprintf(cr->dev, sizeof(cr->dev), "%s", fwd_ports[r->route.dev].name);
	}
	return 0;
}

static int running_routes(struct fwd_config *run, uint64_t *omitted)
{
	int rc = 0;

	FWD_VRF_FOREACH(v)
	{
		if (rc == 0)
			rc = running_routes_of(run, omitted, (uint16_t)v);
	}
	return rc;
}

int ip4_config_running(struct fwd_config *run, uint64_t *omitted)
{
	for (unsigned p = 0; p < run->n_ports && p < fwd_n_ports; p++) {
		struct fwd_conf_port *cp = &run->ports[p];

		for (unsigned i = 0; i < ip4_addrs[p].n && cp->n_addresses < FWD_MAX_ADDRS; i++)
			cp->addresses[cp->n_addresses++] = fwd_prefix_of4(&ip4_addrs[p].a[i]);
	}
	return running_routes(run, omitted);
}
