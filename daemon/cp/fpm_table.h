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
	uint8_t family, len, pad[2];
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
/* The origin of the FIB's route at p, or -errno (the FIB ops' origin). */
int fpm_fib_origin(const struct fwd_prefix *p);
/* Free the work queue (fpm_table_clear). */
void fpm_work_clear(void);

#endif
