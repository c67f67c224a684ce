/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * LACP on the control thread (doc/architecture.md, "LACP"): the state of
 * every member of an LACP bond, kept here by member port index, driven by
 * the FWD_PUNT_LACP handler (LACPDUs, marker requests) and a 100 ms timer
 * that ticks the machines, runs selection over each bond's members and
 * sends what they have to say. The bond layer (bond/) tells it who
 * the members are and their link, reads whether each collects and
 * distributes, and is told when that changes. Control thread only.
 */
#ifndef FWD_LACP_CTL_H
#define FWD_LACP_CTL_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "bond/lacp.h"
#include "core/punt.h"

#define LACP_CTL_TICK_MS   100
#define LACP_CTL_SYS_PRIO  65535 /* as Linux's ad_actor_sys_prio */
#define LACP_CTL_PORT_PRIO 255

/* What lacp_ctl calls of the bond layer (hooks, so that its tests run it
 * with fakes). */
struct lacp_ctl_ops {
	/* send frame m (owned from then on) out of member port directly */
	int (*member_tx)(uint8_t port, struct rte_mbuf *m);
	/* member port started or stopped collecting or distributing */
	void (*member_changed)(uint8_t port);
	uint64_t (*now_ns)(void); /* NULL: CLOCK_MONOTONIC */
};

void lacp_ctl_ops_set(const struct lacp_ctl_ops *ops);

/* Member port of LACP bond `bond`: its actor is the bond's system (mac,
 * the bond's MAC), key bond + 1, port number port + 1; fast: lacp_rate
 * fast. A member set again keeps its state (a rate or system changed is
 * told to the partner at once); one moved to another bond starts afresh. */
void lacp_ctl_member_set(uint8_t port, uint8_t bond, const uint8_t mac[6], bool fast);
/* port is no LACP member any more: its state is forgotten. */
void lacp_ctl_member_clear(uint8_t port);
/* Its link (carrier) as the bond layer found it. */
void lacp_ctl_member_link(uint8_t port, bool up);
bool lacp_ctl_collecting(uint8_t port);
bool lacp_ctl_distributing(uint8_t port);
/* What `bond show` tells of member port; false: not an LACP member. */
bool lacp_ctl_info(uint8_t port, struct lacp_info *out);

/* The FWD_PUNT_LACP handler and the timer's body (tests call them). */
void lacp_ctl_input(struct rte_mbuf *m, const struct fwd_punt_meta *meta);
void lacp_ctl_tick(void);
/* Forget every member (module fini, tests). */
void lacp_ctl_reset(void);

#endif
