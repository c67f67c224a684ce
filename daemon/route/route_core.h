/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The route core, written once for both families (control thread only):
 * add, replace and delete a route, take and release its next hop (a
 * neighbour's entry, an ECMP group, or a fixed one: nexthop/nexthop.h),
 * connected routes for addresses, and pruning the routes whose gateway lost
 * its subnet. Each family gives its RIB, FIB and address rules as a struct
 * route_family_ops (ip4/route.c over ip4/rib.h, ip6/route6.c over
 * ip6/rib6.h), as nexthop/ serves both families from one table.
 */
#ifndef FWD_ROUTE_CORE_H
#define FWD_ROUTE_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "fwd_inet.h"

/* The values of enum route4_type and enum route6_type (ip4/rib.h, ip6/rib6.h). */
enum route_type {
	ROUTE_CONNECTED,
	ROUTE_VIA,
	ROUTE_BLACKHOLE,
	ROUTE_UNREACHABLE,
	ROUTE_PROHIBIT,
	ROUTE_DEV,
	ROUTE_NEXT_VRF, /* look the destination up again in VRF next_vrf */
};

#define ROUTE_DEV_ANY 0xffff

/* A RIB's route (struct route4, struct route6) of either family. */
struct route_ent {
	uint8_t type;      /* enum route_type */
	uint8_t origin;    /* enum fwd_origin */
	uint16_t dev;      /* interface id, or ROUTE_DEV_ANY */
	struct fwd_ip via; /* ROUTE_VIA: the gateway (an ECMP group's first) */
	uint32_t nh;       /* next-hop index the FIB gets */
};

/* A route to add (struct route4_req, struct route6_req). */
struct route_req {
	uint16_t vrf;             /* the VRF whose table takes it (core/vrf.h) */
	uint16_t next_vrf;        /* ROUTE_NEXT_VRF: the VRF looked in next */
	struct fwd_prefix prefix; /* host bits clear */
	uint8_t type;             /* enum route_type, not CONNECTED */
	unsigned n_via;           /* ROUTE_VIA: 1..FWD_ECMP_MAX gateways */
	struct fwd_ip via[FWD_ECMP_MAX];
	int dev[FWD_ECMP_MAX]; /* each gateway's interface id, or -1; ROUTE_DEV: dev[0] */
	uint8_t origin;        /* enum fwd_origin */
	bool replace;
};

/* Every operation names the VRF (core/vrf.h) whose tables and interfaces it
 * works on; the caller has checked that the VRF exists. */
struct route_family_ops {
	/* The RIB. find: true when a route is at p (*rt gets it). set and
	 * clear as rib4_set_route and rib4_clear_route. next: the route after
	 * *p in tree order (from the start when first), into *p and *rt. */
	bool (*find)(uint16_t vrf, const struct fwd_prefix *p, struct route_ent *rt);
	int (*set)(uint16_t vrf, const struct fwd_prefix *p, const struct route_ent *rt,
	           struct route_ent *old, bool *had);
	void (*clear)(uint16_t vrf, const struct fwd_prefix *p, struct route_ent *old);
	bool (*next)(uint16_t vrf, struct fwd_prefix *p, struct route_ent *rt, bool first);
	bool (*is_reserved)(const struct fwd_prefix *p);
	/* Run fn(arg) once no FIB entry can point at what was replaced. */
	void (*after_job)(uint16_t vrf, void (*fn)(uint32_t), uint32_t arg);
	/* The address rules of ip4/addr.h or ip6/addr6.h, over the running
	 * addresses of the VRF's interfaces. */
	int (*rule_gateway)(uint16_t vrf, const struct fwd_ip *via, int dev, unsigned *port,
	                    char *err, size_t errlen);
	int (*rule_route)(uint16_t vrf, const struct fwd_prefix *p, char *err, size_t errlen);
	bool (*on_port)(uint16_t port, const struct fwd_ip *ip);
	/* Where the families differ in words or in rules. */
	const char *fib_full;        /* the message for -ENOSPC */
	const char *reserved_why;    /* appended to the "never routed" notice */
	const char *connected_what;  /* "subnet" or "prefix" */
	bool gateway_twice_per_port; /* a gateway is "given twice" only on the same port */
	bool gateway_keeps_dev;      /* prune a one-gateway route that moved off its dev */
	bool connected_kept;         /* a connected route already there stays as it is */
};

/* As route4_add (ip4/route.h): 0, 1 when replaced, or -errno with a message. */
int route_core_add(const struct route_family_ops *f, const struct route_req *r, char *err,
                   size_t errlen);
int route_core_del(const struct route_family_ops *f, uint16_t vrf, const struct fwd_prefix *p,
                   char *err, size_t errlen);
/* Connected routes, as addresses come and go (through their hooks), in the
 * VRF of port. */
int route_core_connected_add(const struct route_family_ops *f, const struct fwd_prefix *p,
                             uint16_t port);
void route_core_connected_del(const struct route_family_ops *f, const struct fwd_prefix *p,
                              uint16_t port);
/* Remove the routes (of every VRF) whose gateway is no longer on a
 * connected subnet of its port; how many. */
unsigned route_core_prune(const struct route_family_ops *f);
/* Remove every route of VRF vrf, releasing what they hold (the VRF goes). */
void route_core_flush(const struct route_family_ops *f, uint16_t vrf);

#endif
