/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Neighbours of both families, control thread only. Each neighbour is a
 * (family, address, interface) triple (every `port` below is an interface
 * id: a port's, or a VLAN's whose frames leave tagged) on a connected subnet with an iproute2
 * state (incomplete, reachable, stale, failed, permanent) and owns one
 * next-hop entry (nexthop/nexthop.h) that routes via it and its host route
 * point at. While unresolved, routed packets for it are punted and held in
 * a bounded per-neighbour queue, sent once it answers, dropped
 * (no_neighbour, with an error to their sender) when it does not.
 *
 * What differs between families is a resolver's (struct neigh_resolver):
 * ARP for IPv4 (ip4/arp.c), NDP for IPv6. The state machine, hold queues,
 * timers, the cap on unused entries and the policy towards what the wire
 * says (neigh_heard) are written once, here.
 */
#ifndef FWD_NEIGH_H
#define FWD_NEIGH_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "core/config.h"
#include "core/iface.h"
#include "nexthop/nexthop.h"

enum neigh_state {
	NEIGH_INCOMPLETE,
	NEIGH_REACHABLE,
	NEIGH_STALE,
	NEIGH_FAILED,
	NEIGH_PERMANENT,
};

const char *neigh_state_name(enum neigh_state s);

struct neigh;

/* What a family plugs into the neighbour layer; it registers at start-up. */
struct neigh_resolver {
	/* May a be a neighbour on port (with link address mac, when not NULL)?
	 * 0, or -errno with the reason in err (which may be NULL). */
	int (*check)(uint16_t port, const struct fwd_ip *a, const uint8_t *mac, char *err,
	             size_t errlen);
	/* The port of VRF vrf whose connected subnet holds a (the longest), or -1. */
	int (*port_of)(uint16_t vrf, const struct fwd_ip *a);
	/* Point a's host route at next hop nh (0, or -errno: the FIB is full),
	 * or take it away from nh (only if it is nh's), in the VRF of nh's
	 * interface. */
	int (*host_add)(const struct fwd_ip *a, uint32_t nh);
	void (*host_del)(const struct fwd_ip *a, uint32_t nh);
	/* Ask for the link address of a on port: of everyone (mac NULL), or of
	 * its last known one, mac (a probe). */
	void (*solicit)(uint16_t port, const struct fwd_ip *a, const struct rte_ether_addr *mac);
	/* A packet held for a neighbour that did not answer: tell its sender. */
	void (*unreachable)(const struct rte_mbuf *m, uint16_t in_port);
};

/* The resolver of a family (a copy the layer keeps); NULL before it registers. */
void neigh_resolver_set(uint8_t family, const struct neigh_resolver *r);
struct neigh_resolver *neigh_resolver(uint8_t family);

/* The clock and the transmit path of the layer and its resolvers; tests
 * replace them. */
struct neigh_hooks {
	uint64_t (*now_ms)(void);                      /* monotonic milliseconds */
	int (*tx)(struct rte_mbuf *m, uint16_t iface); /* consumes m; <0: dropped */
};

extern struct neigh_hooks neigh_hooks;

/*
 * A route via a on port: find or create the neighbour (creating it starts
 * resolution) and take a reference that keeps it, and its next hop, alive.
 * Returns 0 and the next-hop index, -ENOSPC when the table is full.
 */
int neigh_ref(struct fwd_ip a, uint16_t port, uint32_t *nh);
void neigh_unref(uint32_t nh);

/*
 * Static entries (config `neighbors:` and `fwdctl neigh add`): permanent,
 * never aged or probed. neigh_add_static replaces a dynamic entry.
 * -EINVAL with a message when the resolver's check refuses a on port.
 * origin: enum fwd_origin.
 */
int neigh_add_static(struct fwd_ip a, uint16_t port, const struct rte_ether_addr *mac,
                     uint8_t origin, char *err, size_t errlen);
int neigh_del(struct fwd_ip a, uint16_t port);
/* Remove dynamic entries (and static ones when with_static) on interface
 * port, or on all of them when port is NEIGH_ALL; entries still referenced by routes
 * are reset to incomplete instead. Returns how many were removed. */
#define NEIGH_ALL FWD_IFACE_NONE
unsigned neigh_flush(uint16_t port, bool with_static);
/* Can interface id have neighbours (a port, or a VLAN: a link)? */
bool neigh_iface_ok(uint16_t id);

/* Addresses changed: drop neighbours no longer on a subnet of their port,
 * move host routes to the port that now owns the subnet. */
void neigh_addresses_changed(void);

/*
 * Send a packet built or released by the control thread: m's data starts
 * at a 14-byte link header to fill. To neighbour next hop nh, or (glean) to
 * host a on a connected subnet of port. Held while the neighbour resolves;
 * the mbuf is always consumed.
 */
void neigh_output(struct rte_mbuf *m, uint32_t nh);
void neigh_output_glean(struct rte_mbuf *m, uint16_t port, struct fwd_ip a);
/* A packet a worker punted while routing it to host a on port (glean). */
void neigh_glean(struct rte_mbuf *m, uint16_t in_port, uint16_t port, struct fwd_ip a);

uint64_t neigh_count(void);
/* Is there an entry, in any state, for a on port? */
bool neigh_exists(struct fwd_ip a, uint16_t port);
/* The address of the entry at next hop index >= *pos (start at 0),
 * advancing *pos past it; false at the end. */
bool neigh_addr_next(uint32_t *pos, struct fwd_ip *a);

/* A reload changed dataplane.neigh_timeout_s. */
void neigh_set_timeout(uint32_t timeout_s);
/* At start-up and on reload: dataplane.neigh_max, the cap on dynamic
 * entries no route uses; the least recently used go when it is lowered. */
void neigh_set_max(uint32_t max);

struct neigh_static {
	struct fwd_ip addr;
	uint16_t port;
	uint8_t origin; /* enum fwd_origin */
	struct rte_ether_addr mac;
};

/* The static entry for (a, port); false when there is none. */
bool neigh_static_get(struct fwd_ip a, uint16_t port, struct neigh_static *out);
/* The static entry at or after *pos (start at 0), advancing *pos; false at the end. */
bool neigh_static_next(uint32_t *pos, struct neigh_static *out);

/* State and link address of the neighbour behind next hop nh; -ENOENT if none. */
int neigh_describe(uint32_t nh, enum neigh_state *state, struct rte_ether_addr *mac);

/* --------------------------------------------------- what resolvers say */

/* How a resolver heard of a neighbour. */
enum neigh_heard_how {
	NEIGH_HEARD_ASKED_US,   /* it asked for one of our addresses (ARP request, NS) */
	NEIGH_HEARD_ANSWER,     /* an answer or another message from it */
	NEIGH_HEARD_GRATUITOUS, /* it announced itself unasked (gratuitous ARP, unsolicited NA) */
};

/* What the layer did with it. */
enum neigh_heard_result {
	NEIGH_HEARD_LEARNT,              /* a new entry (stale: a claim, not yet proof) */
	NEIGH_HEARD_CONFIRMED,           /* an existing entry confirmed or updated */
	NEIGH_HEARD_IGNORED_UNKNOWN,     /* unknown and unasked: never creates an entry */
	NEIGH_HEARD_IGNORED_STATIC,      /* a permanent entry: the wire never changes it */
	NEIGH_HEARD_IGNORED_LOCKED,      /* a new MAC within a second of the last change */
	NEIGH_HEARD_FULL,                /* no room for a new entry */
	NEIGH_HEARD_UPDATED,             /* a new MAC for an existing entry, which is now stale */
	NEIGH_HEARD_UNCHANGED,           /* nothing new, nothing to do */
	NEIGH_HEARD_IGNORED_NO_OVERRIDE, /* another MAC without the override flag */
};

/*
 * The policy of a careful router (Linux's defaults) towards a host that says
 * it is at mac on port: an existing entry is confirmed unless permanent or
 * its MAC changed less than a second ago (locktime); a new entry is created
 * only for a host that asked for one of our addresses, and then stale. The
 * resolver counts the result under its own names.
 */
enum neigh_heard_result neigh_heard(struct fwd_ip a, uint16_t port,
                                    const struct rte_ether_addr *mac, enum neigh_heard_how how);

/*
 * An advertisement with flags (NDP's NA; RFC 4861 7.2.5), from a host that
 * says it is a at mac (NULL: no link address option) on port: never creates
 * an entry. An entry without a MAC takes mac (reachable when solicited, else
 * stale); one with a MAC takes a different mac only with override (then
 * stale unless solicited), and without it only goes from reachable to stale;
 * solicited confirms. A different mac within NEIGH_LOCKTIME_MS of the last
 * change is ignored (IGNORED_LOCKED), as for ARP: Linux's NDP has no
 * locktime and takes every override; fwd is stricter, so that a host
 * flipping its MAC with NAs cannot keep the control thread busy.
 * Permanent entries are left alone.
 */
enum neigh_heard_result neigh_heard_advert(struct fwd_ip a, uint16_t port,
                                           const struct rte_ether_addr *mac, bool solicited,
                                           bool override);

/* Another host claims our address a: should that be logged now? (One line
 * per address a minute; the resolver counts every one.) */
bool neigh_conflict_log_due(const struct fwd_ip *a);

#endif
