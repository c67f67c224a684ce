/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Bonds at run time (doc/architecture.md, "Bonds"): a bond is a port above
 * its members (core/ports.h: is_bond; a member's member and bond fields).
 * The control thread keeps each bond's members, their link, whether each
 * collects and distributes (active-backup: the active member; LACP: the
 * state machines, bond/lacp*.c), and publishes the set of distributing
 * members under RCU (bond_dp[].dist) that the workers' transmit hash
 * (bond_dp.c) spreads a bond's frames over. Control thread only, but for
 * bond_dp[], which workers read.
 */
#ifndef FWD_BOND_H
#define FWD_BOND_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "bond/bond_config.h"
#include "core/config.h"

struct fwd_worker;

/* The members a bond's frames go out by: member[0..n-1] are port indexes. */
struct bond_dist {
	uint8_t n;
	uint8_t member[FWD_BOND_MAX_MEMBER];
};

/* What the workers read of a bond, by its port index: written by control. */
struct bond_dp {
	const struct bond_dist *volatile dist; /* RCU: NULL or n 0, bond_down */
	volatile uint8_t hash;                 /* enum bond_hash */
};
extern struct bond_dp bond_dp[FWD_MAX_PORTS];

struct bond_member {
	uint8_t port;
	bool link;         /* carrier (kernel interface) or the PMD's link */
	bool collecting;   /* its frames are the bond's */
	bool distributing; /* it carries the bond's frames out */
	uint64_t link_changes;
};

struct bond {
	bool used;
	uint8_t port; /* the bond's index in fwd_ports */
	bool lacp, lacp_fast;
	uint8_t hash;
	uint16_t min_links;
	unsigned n_members;
	struct bond_member m[FWD_BOND_MAX_MEMBER];
	int active; /* active-backup: index in m[] of the active member, -1 */
	bool up;    /* min_links members distributing */
	uint64_t failovers;
	struct bond_dist dist[2]; /* the published one and the next */
	unsigned cur;
};

/* The bond at port index port, or NULL. */
struct bond *bond_get(uint8_t port);
/* The bond called name, or NULL. */
struct bond *bond_by_name(const char *name);
/* The bond member port is in (its struct bond_member in *mp), or NULL. */
struct bond *bond_of_member(uint8_t port, struct bond_member **mp);

/* Make the bond of cfg entry c at port index port (its fwd_ports entry in
 * place): members joined, idle until bond_update. 0 or -errno. */
int bond_setup(const struct fwd_conf_bond *c, uint8_t port);
/* Take the bond apart: members back to plain ports, nothing published. */
void bond_teardown(struct bond *b);
/* The bond's members from c (joins and leaves), its hash, LACP and
 * min_links; then bond_update. */
int bond_reconfigure(struct bond *b, const struct fwd_conf_bond *c);
/* A member's link as the poll found it. */
void bond_member_link(struct bond *b, struct bond_member *m, bool up);
/* Decide who collects and distributes (active-backup: failover to the
 * next member up), publish the set, say what changed (events, the
 * interface's link hook on a failover). */
void bond_update(struct bond *b);

/* LACP's hooks (bond/lacp_ctl.h): a frame out of member port directly
 * (m taken in every case), and a member's collecting or distributing
 * changed. */
int bond_member_tx(uint8_t port, struct rte_mbuf *m);
void bond_member_changed(uint8_t port);

/* The workers' flush of a bond's tx buffer (core/worker.h fwd_bond_xmit). */
void bond_xmit(struct fwd_worker *w, uint8_t bond, struct rte_mbuf **pkts, uint16_t n,
               uint64_t bytes);

/* Forget every bond (module fini, tests). */
void bond_reset(void);

#endif
