/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The reconcile of addresses, routes and static neighbours (l3_config.c)
 * and what it needs of each address family (l3_config_fam.c).
 */
#ifndef FWD_L3_CONFIG_H
#define FWD_L3_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "l3/l3.h"
#include "nexthop/neigh.h"

#define L3_N_FAMILIES 2 /* IPv4 (index 0), IPv6 (1) */

struct fwd_reload_log;

/* A port's addresses of one family: IPv6's link-local one is not among them. */
struct l3_want_addrs {
	unsigned n;
	struct fwd_prefix a[FWD_MAX_ADDRS]; /* in the order added; IPv4's a[0] is primary */
	uint8_t origin[FWD_MAX_ADDRS];      /* enum fwd_origin */
};

/* A state of both families: one a config file wants, or the running one. */
struct l3_want {
	struct l3_want_addrs addrs[L3_N_FAMILIES][FWD_MAX_PORTS];
	bool ra[FWD_MAX_PORTS]; /* IPv6 router advertisements */
	unsigned n_routes, cap_routes;
	struct l3_route *routes; /* sorted by prefix once built */
	unsigned n_neighs, cap_neighs;
	struct neigh_static *neighs;
};

int l3_want_route(struct l3_want *w, const struct l3_route *r);
/* The running `ra` of every port into w. */
void l3_want_running_ra(struct l3_want *w);

/* What the reconcile does through a family; the rules see the addresses of w. */
struct l3_family {
	uint8_t af; /* AF_INET, AF_INET6 */
	/* port's running addresses into a and origin; returns how many */
	unsigned (*addrs)(uint8_t port, struct fwd_prefix *a, uint8_t *origin);
	int (*addr_add)(uint8_t port, const struct fwd_prefix *p, uint8_t origin, char *err,
	                size_t errlen);
	int (*addr_del)(uint8_t port, const struct fwd_prefix *p, char *err, size_t errlen);
	/* after port's addresses are in place: their order (IPv4), `ra` (IPv6); may be NULL */
	void (*port_sync)(const struct l3_want *w, uint8_t port, struct fwd_reload_log *log);
	void (*batch_begin)(void);
	void (*batch_end)(void);
	int (*rule_add)(const struct l3_want *w, unsigned port, const struct fwd_prefix *p,
	                char *why, size_t len);
	/* a route's prefix and gateway */
	int (*rule_route)(const struct l3_want *w, const struct l3_route *r, char *why, size_t len);
	int (*rule_neigh)(const struct l3_want *w, const struct neigh_static *n, char *why,
	                  size_t len);
	/* the running routes of config and fwdctl, into w */
	int (*routes)(struct l3_want *w);
	/* does the running route for r's prefix already do what r asks? */
	bool (*route_in_place)(const struct l3_route *r);
	/* `config show`: the family's addresses and routes added to run */
	int (*running)(struct fwd_config *run, uint64_t *omitted);
};

extern const struct l3_family *const l3_families[L3_N_FAMILIES];

static inline unsigned l3_fam_index(uint8_t af)
{
	return af == AF_INET6 ? 1 : 0;
}

static inline const struct l3_family *l3_fam(uint8_t af)
{
	return l3_families[l3_fam_index(af)];
}

#endif
