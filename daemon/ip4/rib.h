/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv4 RIB (control thread only): an ordered tree of prefixes, each
 * with up to three sources that want it in the FIB:
 *   - a route (connected, via a gateway, or blackhole),
 *   - a local address (/32, delivered to us),
 *   - a neighbour host entry (/32 of a neighbour on a connected subnet).
 * The FIB holds, per prefix, the next hop of the strongest source
 * (local > route > neighbour); the RIB keeps the FIB in step on every change
 * and tells it which parent prefix takes over on removal.
 */
#ifndef FWD_IP4_RIB_H
#define FWD_IP4_RIB_H

#include <stdbool.h>
#include <stdint.h>

#ifndef __unused /* libbsd's tree.h expects the BSD cdefs spelling */
#define __unused __attribute__((unused))
#endif
#include <bsd/sys/tree.h>

#include "ip4/fib.h"

enum route4_type {
	ROUTE4_CONNECTED,
	ROUTE4_VIA, /* nh: a neighbour's entry, or an ECMP group of them */
	ROUTE4_BLACKHOLE,
	ROUTE4_UNREACHABLE,
	ROUTE4_PROHIBIT,
	ROUTE4_DEV, /* on the link of port dev, no gateway */
};

#define ROUTE4_DEV_ANY 0xffff

struct route4 {
	uint8_t type;   /* enum route4_type */
	uint8_t origin; /* enum fwd_origin */
	uint16_t dev;   /* port index, or ROUTE4_DEV_ANY when not given */
	uint32_t via;   /* gateway, host order (ROUTE4_VIA; an ECMP group's first) */
	uint32_t nh;    /* next-hop index the FIB gets */
};

enum rib4_src {
	RIB4_SRC_ROUTE = 1,
	RIB4_SRC_LOCAL = 2,
	RIB4_SRC_NEIGH = 4,
};

struct rib4_node {
	RB_ENTRY(rib4_node) link;
	uint32_t addr; /* host order, host bits clear */
	uint8_t len;
	uint8_t src;    /* enum rib4_src bits */
	bool installed; /* the FIB holds fib_nh for this prefix */
	uint32_t fib_nh;
	uint32_t neigh_nh;   /* RIB4_SRC_NEIGH */
	struct route4 route; /* RIB4_SRC_ROUTE */
};

RB_HEAD(rib4_tree, rib4_node);

struct rib4 {
	struct rib4_tree tree;
	struct fib4 *fib;
	uint64_t n_nodes;
	uint64_t n_routes; /* nodes with RIB4_SRC_ROUTE */
};

/*
 * Destinations that are never routed (RFC 1812 5.3.7: 0/8, 127/8, and
 * 224/3, multicast, class E and the limited broadcast; RFC 3927 section 7:
 * link-local 169.254/16, counted as link_local) have FIB entries of
 * their own, next hop NH_IDX_RESERVED, so that the fast path needs no test
 * of its own for them: the lookup it does anyway sends them aside. A route
 * inside those ranges is kept in the RIB but never reaches the FIB.
 */
#define RIB4_N_RESERVED 4
extern const struct rib4_reserved {
	uint32_t addr;
	uint8_t len;
} rib4_reserved[RIB4_N_RESERVED];

/* Is addr/len inside a reserved range? */
bool rib4_is_reserved(uint32_t addr, uint8_t len);

/* An empty RIB over fib, which gets the reserved ranges' entries. */
void rib4_init(struct rib4 *rib, struct fib4 *fib);
/* Remove every node (the FIB is left as it is: free it separately). */
void rib4_clear(struct rib4 *rib);

struct rib4_node *rib4_find(struct rib4 *rib, uint32_t addr, uint8_t len);

/* The longest route (RIB4_SRC_ROUTE) covering addr with length <= maxlen. */
struct rib4_node *rib4_match(struct rib4 *rib, uint32_t addr, uint8_t maxlen);

/* The first route node after (addr, len) in tree order; addr/len 0/0 with
 * first = true starts at the beginning. */
struct rib4_node *rib4_next_route(struct rib4 *rib, uint32_t addr, uint8_t len, bool first);

/*
 * Set or clear one source of prefix addr/len and update the FIB. set
 * returns -ENOSPC (FIB full) or -ENOMEM with nothing changed. For routes,
 * *old receives the replaced route and *had_old says whether there was one.
 */
int rib4_set_route(struct rib4 *rib, uint32_t addr, uint8_t len, const struct route4 *r,
                   struct route4 *old, bool *had_old);
int rib4_clear_route(struct rib4 *rib, uint32_t addr, uint8_t len, struct route4 *old);
int rib4_set_local(struct rib4 *rib, uint32_t addr);
void rib4_clear_local(struct rib4 *rib, uint32_t addr);
int rib4_set_neigh(struct rib4 *rib, uint32_t addr, uint32_t nh);
void rib4_clear_neigh(struct rib4 *rib, uint32_t addr, uint32_t nh);

size_t rib4_memory(const struct rib4 *rib);

#endif
