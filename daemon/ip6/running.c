/* SPDX-License-Identifier: BSD-3-Clause */
/* The IPv6 part of `config show`: addresses (the link-local ones are
 * derived, not written), `ra` and routes as they run. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ip6/addr6.h"
#include "ip6/ip6.h"
#include "ip6/ip6_config.h"
#include "route/route_core.h"
#include "nexthop/nexthop.h"
#include "port/port.h"

/* VRF vrf's routes of config and fwdctl into run (the others are counted in omitted). */
static int running_routes_of(struct fwd_config *run, uint64_t *omitted, uint16_t vrf)
{
	static const uint8_t zero[16];

	for (struct rib6_node *r = rib6_next_route(&ip6_ribs[vrf], zero, 0, true); r != NULL;
	     r = rib6_next_route(&ip6_ribs[vrf], r->addr, r->len, false)) {
		struct fwd_conf_route *cr;

		if (r->route.type == ROUTE6_CONNECTED)
			continue;
		if (r->route.origin == FWD_ORIGIN_LOAD || fwd_origin_is_fpm(r->route.origin) ||
		    run->n_routes >= FWD_MAX_CONF_ROUTES) {
			(*omitted)++;
			continue;
		}
		if ((cr = fwd_config_add_route(run)) == NULL)
			return -ENOMEM;
		cr->prefix.family = AF_INET6;
		cr->prefix.len = r->len;
		memcpy(cr->prefix.v6, r->addr, 16);
		cr->blackhole = r->route.type == ROUTE6_BLACKHOLE;
		cr->unreachable = r->route.type == ROUTE6_UNREACHABLE;
		cr->prohibit = r->route.type == ROUTE6_PROHIBIT;
		if (r->route.type == ROUTE6_VIA)
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

int ip6_config_running(struct fwd_config *run, uint64_t *omitted)
{
	for (unsigned p = 0; p < run->n_ports && p < fwd_n_ports; p++) {
		struct fwd_conf_port *cp = &run->ports[p];

		cp->ra = ip6_addrs[p].ra;
		for (unsigned i = 1; i < ip6_addrs[p].n && cp->n_addresses < FWD_MAX_ADDRS; i++)
			cp->addresses[cp->n_addresses++] = fwd_prefix_of6(&ip6_addrs[p].a[i]);
	}
	return running_routes(run, omitted);
}
