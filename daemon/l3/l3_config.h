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
#include "core/iface.h"
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

/* An address of an interface that is not a port (a VLAN's, a loopback's), by
 * interface id. */
struct l3_want_ifa {
	uint16_t id;
	uint8_t origin; /* enum fwd_origin */
	struct fwd_prefix a;
};

/* A state of both families: one a config file wants, or the running one. */
struct l3_want {
	struct l3_want_addrs addrs[L3_N_FAMILIES][FWD_MAX_PORTS];
	bool ra[FWD_MAX_IFACES]; /* IPv6 router advertisements, by interface id */
	unsigned n_routes, cap_routes;
	struct l3_route *routes; /* sorted by prefix once built */
	unsigned n_neighs, cap_neighs;
	struct neigh_static *neighs;
	unsigned n_ifa, cap_ifa;
	struct l3_want_ifa *ifa; /* VLANs' and loopbacks' addresses, both families */
};

int l3_want_route(struct l3_want *w, const struct l3_route *r);
/* Address a of interface id (a VLAN, a loopback) into w; 0 or -ENOMEM. */
int l3_want_iface_addr(struct l3_want *w, uint16_t id, const struct fwd_prefix *a, uint8_t origin);
/* The addresses (and `ra`) a config file gives interfaces other than ports
 * are known to the module above that owns them (iface/): it feeds them to
 * the reconcile through this hook, with l3_want_iface_addr (and w->ra[id]).
 * One hook; NULL removes it. */
typedef int (*l3_iface_addrs_fn)(struct l3_want *w, const struct fwd_config *cfg);
void l3_config_set_iface_addrs(l3_iface_addrs_fn fn);
/* The running `ra` of every interface into w. */
void l3_want_running_ra(struct l3_want *w);

/* What the reconcile does through a family; the rules see the addresses of w. */
struct l3_family {
	uint8_t af; /* AF_INET, AF_INET6 */
	/* interface id's running addresses into a and origin; returns how many */
	unsigned (*addrs)(uint16_t id, struct fwd_prefix *a, uint8_t *origin);
	int (*addr_add)(uint16_t id, const struct fwd_prefix *p, uint8_t origin, char *err,
	                size_t errlen);
	int (*addr_del)(uint16_t id, const struct fwd_prefix *p, char *err, size_t errlen);
	/* after interface id's addresses are in place: their order (IPv4), `ra`
	 * (IPv6); may be NULL */
	void (*port_sync)(const struct l3_want *w, uint16_t id, struct fwd_reload_log *log);
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

/* The part of the reconcile of the interfaces that are not ports
 * (l3_config_iface.c): what a file wants (the hook above), what runs,
 * fwdctl's kept, removals, additions and each one's sync. */
int l3_want_config_ifaces(struct l3_want *w, const struct fwd_config *cfg);
int l3_want_running_ifaces(struct l3_want *w);
int l3_keep_rpc_ifaces(struct l3_want *w, const struct l3_want *run, struct fwd_reload_log *log);
void l3_drop_ifaces(const struct l3_want *w, const struct l3_want *run, const struct l3_family *fam,
                    struct fwd_reload_log *log);
int l3_add_ifaces(const struct l3_want *w, const struct l3_want *run, const struct l3_family *fam,
                  struct fwd_reload_log *log);
/* Interface id's addresses of family f (index) in w, in order; returns how many. */
unsigned l3_want_addrs_of(const struct l3_want *w, uint16_t id, unsigned f, struct fwd_prefix *a,
                          uint8_t *origin);

static inline unsigned l3_fam_index(uint8_t af)
{
	return af == AF_INET6 ? 1 : 0;
}

static inline const struct l3_family *l3_fam(uint8_t af)
{
	return l3_families[l3_fam_index(af)];
}

#endif
