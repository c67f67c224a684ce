/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Zebra's table inside: what fpm_table.c (routes, next-hop objects, how
 * they meet the FIB) shares with fpm_stale.c (reconnections, the sweep and
 * the work queue). Control thread only.
 */
#ifndef FWD_CP_FPM_TABLE_H
#define FWD_CP_FPM_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "cp/fpm_map.h"
#include "cp/fpm_priv.h"
#include "cp/fpm_use.h"

enum route_state {
	ST_NONE,      /* not in the FIB: refused (counted) or removed by fwdctl */
	ST_WAITING,   /* not in the FIB: its next-hop id is unknown so far */
	ST_INSTALLED, /* in the FIB */
	ST_SHADOWED,  /* a fwd route holds the prefix */
	ST_CONNECTED, /* an echo of a connected subnet or address of fwd's */
};

struct rkey {
	uint8_t family, len;
	uint16_t vrf; /* core/vrf.h: the same prefix may be in several */
	uint8_t addr[16];
};

struct fpm_route {
	struct rkey key; /* first: the map's key */
	struct fwd_prefix prefix;
	uint8_t type, origin, state;
	bool stale;
	bool queued;        /* in the work queue to be placed again */
	uint8_t encap;      /* refused for an encapsulation: its enum fpm_ctr, or 0 */
	struct fpm_use use; /* linked under nh_id (cp/fpm_use.h) */
	uint32_t nh_id;     /* a next-hop object or group, or 0: nh[] */
	unsigned n_nh;
	struct fpm_nh *nh; /* heap, n_nh of them */
};

struct fpm_obj {
	uint32_t id; /* first: the map's key */
	bool blackhole;
	uint8_t encap;  /* an encapsulation fwd cannot do: its enum fpm_ctr, or 0 */
	unsigned n_grp; /* > 0: a group of these ids */
	struct fpm_grp grp[FWD_ECMP_MAX];
	struct fpm_nh nh;                    /* a single next hop (n_grp 0, not blackhole) */
	struct fpm_use member[FWD_ECMP_MAX]; /* linked under grp[i].id */
};

extern struct fpm_map fpm_routes; /* struct fpm_route by struct rkey */
extern struct fpm_map fpm_objs;   /* struct fpm_obj by id */

/* Add (sign 1) or take away (-1) route e from the gauges. */
void fpm_route_account(const struct fpm_route *e, int sign);
/* Place e in the FIB as it can be now (its state follows). */
void fpm_route_install(struct fpm_route *e);
/* Forget e, taking it out of the FIB if it is there. */
void fpm_route_remove(struct fpm_route *e);
/* Free next-hop object o, its member slots unlinked. */
void fpm_obj_free(struct fpm_obj *o);
/* Forget every next-hop object. */
void fpm_objs_clear(void);
/* The origin of the FIB's route at p in vrf, or -errno (the FIB ops' origin). */
int fpm_fib_origin(uint16_t vrf, const struct fwd_prefix *p);
/* The interface of kernel interface ifindex, or -1 (the FIB ops' port_of). */
int fpm_port_of(uint32_t ifindex);
/* The map's key of prefix p in vrf. */
struct rkey fpm_rkey(uint16_t vrf, const struct fwd_prefix *p);

/* fpm_vrf.c: which VRF a route message is for (fpm.h, doc/frr.md "VRFs"):
 * its VRF id, or -1 (counted). A delete's route, or NULL (counted). */
int fpm_vrf_of(const struct fpm_msg *m);
struct fpm_route *fpm_vrf_del_target(const struct fpm_msg *m);
/* Free the work queue (fpm_table_clear). */
void fpm_work_clear(void);

#endif
