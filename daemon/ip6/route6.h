/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv6 routes: the operations behind `route add|del`, config and reload. */
#ifndef FWD_IP6_ROUTE_H
#define FWD_IP6_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "fwd_inet.h"
#include "route/route_core.h"

struct route6_req {
	uint16_t vrf;                 /* core/vrf.h */
	struct fwd_ip6_prefix prefix; /* host bits clear */
	uint8_t type;                 /* enum route6_type, not CONNECTED */
	unsigned n_via;               /* ROUTE6_VIA: 1..FWD_ECMP_MAX gateways */
	uint8_t via[FWD_ECMP_MAX][16];
	int dev[FWD_ECMP_MAX]; /* each gateway's port index, or -1 (required for a link-local
	                        * gateway); ROUTE6_DEV: dev[0] */
	uint8_t origin;        /* enum fwd_origin */
	bool replace;
};

/* As route4_add (ip4/route.h): 0, 1 when replaced, or -errno with a message. */
int route6_add(const struct route6_req *r, char *err, size_t errlen);
int route6_del(uint16_t vrf, const struct fwd_ip6_prefix *p, char *err, size_t errlen);
/* Connected routes and pruning follow addresses through
 * addr6_set_route_hooks (ip6/addr6.h), which route6.c registers. */

/* The family's RIB, FIB and rules for the route core (route/route_core.h). */
extern const struct route_family_ops route6_ops;

#endif
