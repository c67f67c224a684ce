/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv4 neighbours (ARP, RFC 826), control thread only. Each neighbour is an
 * (address, port) pair on a connected subnet with an iproute2-like state
 * (incomplete, reachable, stale, failed, permanent) and owns one next-hop
 * entry (ip4/nh.h) that routes via it and its /32 host route point at.
 * While unresolved, routed packets for it are punted and held in a bounded
 * per-neighbour queue, sent once it answers, dropped (no_neighbour, with an
 * ICMP host unreachable) when it does not.
 */
#ifndef FWD_NEIGH_H
#define FWD_NEIGH_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "core/config.h"

enum neigh_state {
	NEIGH_INCOMPLETE,
	NEIGH_REACHABLE,
	NEIGH_STALE,
	NEIGH_FAILED,
	NEIGH_PERMANENT,
};

const char *neigh_state_name(enum neigh_state s);

/*
 * A route via ip on port: find or create the neighbour (creating it starts
 * resolution) and take a reference that keeps it, and its next hop, alive.
 * Returns 0 and the next-hop index, -ENOSPC when the table is full.
 */
int neigh_ref(uint32_t ip, uint8_t port, uint32_t *nh);
void neigh_unref(uint32_t nh);

/*
 * Static entries (config `neighbors:` and `fwdctl neigh add`): permanent,
 * never aged or probed. neigh_add_static replaces a dynamic entry.
 * -EINVAL with a message when ip is not a host on a connected subnet of
 * port (addr4_rule_neigh). origin: enum fwd_origin.
 */
int neigh_add_static(uint32_t ip, uint8_t port, const struct rte_ether_addr *mac, uint8_t origin,
                     char *err, size_t errlen);
int neigh_del(uint32_t ip, uint8_t port);
/* Remove dynamic entries (and static ones when with_static) on port, or on
 * all ports when port is FWD_MAX_PORTS; entries still referenced by routes
 * are reset to incomplete instead. Returns how many were removed. */
unsigned neigh_flush(uint8_t port, bool with_static);

/* The port's addresses changed: drop neighbours no longer on its subnets. */
void neigh_port_changed(uint8_t port);

/*
 * Send an IPv4 packet built or released by the control thread: m's data
 * starts at a 14-byte link header to fill. To neighbour next hop nh, or
 * (glean) to host dst on a connected subnet of port. Held while the
 * neighbour resolves; the mbuf is always consumed.
 */
void neigh_output(struct rte_mbuf *m, uint32_t nh);
void neigh_output_glean(struct rte_mbuf *m, uint8_t port, uint32_t dst);

uint64_t neigh_count(void);

/* A reload changed dataplane.neigh_timeout_s. */
void neigh_set_timeout(uint32_t timeout_s);
/* At start-up and on reload: dataplane.neigh_max, the cap on dynamic
 * entries no route uses; the least recently used go when it is lowered. */
void neigh_set_max(uint32_t max);

struct neigh_static {
	uint32_t ip;
	uint8_t port;
	uint8_t origin; /* enum fwd_origin */
	struct rte_ether_addr mac;
};

/* The static entry for (ip, port); false when there is none. */
bool neigh_static_get(uint32_t ip, uint8_t port, struct neigh_static *out);
/* The static entry at or after *pos (start at 0), advancing *pos; false at the end. */
bool neigh_static_next(uint32_t *pos, struct neigh_static *out);

/* State and link address of the neighbour behind next hop nh; -ENOENT if none. */
int neigh_describe(uint32_t nh, enum neigh_state *state, struct rte_ether_addr *mac);

#endif
