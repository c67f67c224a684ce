/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * l3: what fwdctl asks of addresses and routes, for both families. Each
 * request names its family by the text of its address or by a filter
 * (0 both, 4, 6); the handlers here send it to ip4/ or ip6/, which own the
 * rules. Above both families, below main (daemon/LAYERS).
 */
#ifndef FWD_L3_H
#define FWD_L3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/config.h"
#include "fwd_inet.h"

struct fwd_rpc_call;

/* Is family (AF_INET, AF_INET6) in a list request's filter (0, 4 or 6)? */
static inline bool l3_family_wanted(uint32_t filter, int family)
{
	return filter == 0 || (filter == 4 && family == AF_INET) ||
	       (filter == 6 && family == AF_INET6);
}

/* 0, or an EINVAL error in call for a filter other than 0, 4 and 6. */
int l3_family_check(struct fwd_rpc_call *call, uint32_t filter);
/* The VRF a request names ("": default) into *vrf; else "no such VRF: X" in
 * call and -ENOENT (l3/route_rpc.c). */
int l3_vrf_arg(struct fwd_rpc_call *call, const char *name, uint16_t *vrf);

/* A route of either family, as the config, fwdctl, `route load` and FPM give
 * it. L3_ROUTE_VIA has 1..FWD_ECMP_MAX next hops (more than one: an ECMP
 * group, nexthop/nexthop.h); the others have none. */
enum l3_route_type {
	L3_ROUTE_VIA,
	L3_ROUTE_BLACKHOLE,   /* drop silently */
	L3_ROUTE_UNREACHABLE, /* drop, ICMP destination unreachable (no route) */
	L3_ROUTE_PROHIBIT,    /* drop, ICMP administratively prohibited */
	L3_ROUTE_NEXT_VRF,    /* look up again in VRF next_vrf (no next hops) */
};

/* One next hop: a gateway of the prefix's family and optionally the
 * interface it is on, or (via.family 0) only an interface: the destination
 * is on that interface's link and is resolved itself (a "dev" route). */
struct l3_nh {
	struct fwd_ip via;
	int dev; /* interface id (core/iface.h: a port or a VLAN), or -1 */
};

struct l3_route {
	uint16_t vrf;             /* the VRF whose table takes it (core/vrf.h) */
	uint16_t next_vrf;        /* L3_ROUTE_NEXT_VRF: the VRF looked in next */
	struct fwd_prefix prefix; /* host bits clear */
	uint8_t type;             /* enum l3_route_type */
	uint8_t origin;           /* enum fwd_origin */
	bool replace;
	unsigned n_nh;
	struct l3_nh nh[FWD_ECMP_MAX];
};

/* The route a RIB holds (type: enum route4_type, the same values as enum
 * route6_type; dev: the interface given, ROUTE4_DEV_ANY none; nh: its next
 * hop) as an l3_route: every member of an ECMP group, an interface for each. */
void l3_route_from_rib(struct l3_route *r, uint8_t type, uint8_t origin, uint16_t dev, uint32_t nh);
/* Is the RIB's route (as l3_route_from_rib) what r asks for, with each
 * gateway on the interface gateway_port (-1: none) now gives it? */
bool l3_route_same(const struct l3_route *r, uint8_t type, uint8_t origin, uint16_t dev,
                   uint32_t nh, int (*gateway_port)(uint16_t vrf, const struct fwd_ip *a, int dev));

/* The id of the interface a route's or neighbour's dev names: a port or a
 * VLAN interface (a loopback has no link to route to), or -1. */
int l3_iface_id(const char *name);

/* Parse "PREFIX via ADDRESS [dev IFACE] [via ADDRESS [dev IFACE]]...",
 * "PREFIX dev IFACE" or "PREFIX blackhole|unreachable|prohibit" (a `route
 * load` line; # starts a comment; IFACE: l3_iface_id). 0 = a route,
 * 1 = blank/comment, -EINVAL. */
int l3_route_parse_line(const char *line, struct l3_route *r, char *err, size_t errlen);
/* The same from words (tok[0] the prefix); 0 or -errno. */
int l3_route_parse_words(char **tok, unsigned n, struct l3_route *r, char *err, size_t errlen);
/* L3_ROUTE_BLACKHOLE, _UNREACHABLE or _PROHIBIT for its word, or -1. */
int l3_route_type_parse(const char *word);
/* Add to the prefix's family: 0, 1 when replaced, or -errno with a message.
 * A route of fwd's own (config, fwdctl) replaces one of a routing daemon
 * (fwd_origin_is_fpm) on the same prefix even without replace. */
int l3_route_add(const struct l3_route *r, char *err, size_t errlen);
int l3_route_del(uint16_t vrf, const struct fwd_prefix *p, char *err, size_t errlen);

/* The origin of the route at exactly p in VRF vrf (FWD_ORIGIN_ADDRESS for a
 * connected subnet or one of our addresses), or -ENOENT. */
int l3_route_origin(uint16_t vrf, const struct fwd_prefix *p);

/* Set interface iface's reverse-path filter (l3/rpf.c): ports[].rpf here,
 * interfaces[].rpf of a VLAN by the interfaces module. Control thread. */
void l3_rpf_set(uint16_t iface, enum fwd_rpf rpf);

/* Told when a route of origin leaves the FIB at p: deleted (l3_route_del,
 * by fwdctl or a reload), or a routing daemon's route replaced by one of
 * fwd's own. How cp/ (above l3) learns that its route may come back or
 * went away, without l3 calling up. One hook; NULL removes it. */
typedef void (*l3_route_removed_fn)(uint16_t vrf, const struct fwd_prefix *p, uint8_t origin);
void l3_route_set_removed_hook(l3_route_removed_fn fn);

/* Told after fwdctl added or removed an address (routes through a subnet
 * that went are gone with it; a route refused before may fit now), and when
 * the IPv6 FIB has room again after refusing a route for lack of groups
 * (ip6_fib_set_room_hook). A reload tells its modules itself (their
 * commit). One hook; NULL removes it. */
void l3_addr_set_changed_hook(void (*fn)(void));

#endif
