/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4 routes: the operations behind `route add|del`, config and reload. */
#ifndef FWD_IP4_ROUTE_H
#define FWD_IP4_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "fwd_inet.h"
#include "route/route_core.h"
#include "ip4/rib.h"

struct route4_req {
	uint16_t vrf;                 /* core/vrf.h */
	struct fwd_ip4_prefix prefix; /* host bits clear */
	uint8_t type;                 /* enum route4_type, not CONNECTED */
	unsigned n_via;               /* ROUTE4_VIA: 1..FWD_ECMP_MAX gateways */
	uint32_t via[FWD_ECMP_MAX];   /* host order */
	int dev[FWD_ECMP_MAX];        /* each gateway's port index, or -1; ROUTE4_DEV: dev[0] */
	uint8_t origin;               /* enum fwd_origin */
	bool replace;                 /* replace an existing route rather than refuse */
};

/*
 * Add (or replace) a static or blackhole route. The gateway must lie on a
 * connected subnet (of dev, when given) and not be one of our addresses.
 * Returns 0, 1 when an existing route was replaced, or -errno with a
 * message in err.
 */
int route4_add(const struct route4_req *r, char *err, size_t errlen);

/* Delete a static or blackhole route (connected routes follow addresses). */
int route4_del(uint16_t vrf, const struct fwd_ip4_prefix *p, char *err, size_t errlen);

/* Connected routes follow addresses, and the static routes whose gateway is
 * no longer on a connected subnet of their port go when an address does:
 * through addr4_set_route_hooks (ip4/addr.h), which route.c registers. */

/* The family's RIB, FIB and rules for the route core (route/route_core.h). */
extern const struct route_family_ops route4_ops;

#endif
