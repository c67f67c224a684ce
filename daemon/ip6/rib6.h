/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 RIB (control thread only): prefixes with up to three sources
 * that want them in the FIB, as in the IPv4 RIB (ip4/rib.h): a route
 * (connected, via a gateway, or blackhole), a local address (/128), a
 * neighbour host entry (/128 of a neighbour on a global connected prefix).
 * The FIB holds the next hop of the strongest (local > route > neighbour).
 * A node that only a neighbour wants takes its groups from the FIB's
 * hosts' pool (route/fib6.h), so neighbours never starve routes.
 *
 * Destinations never routed have FIB entries of their own with next hop
 * NH_IDX_RESERVED: multicast ff00::/8, link-local fe80::/10 (our own
 * link-local addresses are local /128s above it), the unspecified ::/128
 * and the loopback ::1/128. A route inside them stays in the RIB only.
 *
 * The tree, its nodes and the FIB updates are rib4's (ip4/rib.c) with
 * 16-byte keys; one difference: a local /128 may sit inside a reserved
 * range that allows it (fe80::/10), and on its removal the reserved entry
 * takes over again.
 */
#ifndef FWD_IP6_RIB_H
#define FWD_IP6_RIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef __unused /* libbsd's tree.h expects the BSD cdefs spelling */
#define __unused __attribute__((unused))
#endif
#include <bsd/sys/tree.h>

#include "route/fib6.h"

enum route6_type { /* the values of enum route4_type */
	           ROUTE6_CONNECTED,
	           ROUTE6_VIA, /* nh: a neighbour's entry, or an ECMP group of them */
	           ROUTE6_BLACKHOLE,
	           ROUTE6_UNREACHABLE,
	           ROUTE6_PROHIBIT,
	           ROUTE6_DEV, /* on the link of port dev, no gateway */
};

#define ROUTE6_DEV_ANY 0xffff

struct route6 {
	uint8_t type;   /* enum route6_type */
	uint8_t origin; /* enum fwd_origin */
	uint16_t dev;   /* port index, or ROUTE6_DEV_ANY when not given */
	uint8_t via[16];
	uint32_t nh; /* next-hop index the FIB gets */
};

enum rib6_src {
	RIB6_SRC_ROUTE = 1,
	RIB6_SRC_LOCAL = 2,
	RIB6_SRC_NEIGH = 4,
};

struct rib6_node {
	RB_ENTRY(rib6_node) link;
	uint8_t addr[16]; /* host bits clear */
	uint8_t len;
	uint8_t src;    /* enum rib6_src bits */
	bool installed; /* the FIB holds fib_nh for this prefix */
	uint32_t fib_nh;
	uint32_t neigh_nh;   /* RIB6_SRC_NEIGH */
	struct route6 route; /* RIB6_SRC_ROUTE */
};

RB_HEAD(rib6_tree, rib6_node);

struct rib6 {
	struct rib6_tree tree;
	struct fib6 *fib;
	uint64_t n_nodes;
	uint64_t n_routes; /* nodes with RIB6_SRC_ROUTE */
};

#define RIB6_N_RESERVED 4
extern const struct rib6_reserved {
	uint8_t addr[16];
	uint8_t len;
	bool local_ok; /* our own addresses (local /128s) inside are installed */
} rib6_reserved[RIB6_N_RESERVED];

/* An empty RIB over fib, a FIB fresh from fib6_create, which gets the
 * reserved ranges' entries. */
void rib6_init(struct rib6 *rib, struct fib6 *fib);
/* Remove every node (the FIB is left as it is: free it separately). */
void rib6_clear(struct rib6 *rib);
/* Is addr/len inside a reserved range? */
bool rib6_is_reserved(const uint8_t addr[16], uint8_t len);

struct rib6_node *rib6_find(struct rib6 *rib, const uint8_t addr[16], uint8_t len);
/* The longest route (RIB6_SRC_ROUTE) covering addr with length <= maxlen. */
struct rib6_node *rib6_match(struct rib6 *rib, const uint8_t addr[16], uint8_t maxlen);
/* The first route node after (addr, len) in tree order; first = true starts at the beginning. */
struct rib6_node *rib6_next_route(struct rib6 *rib, const uint8_t addr[16], uint8_t len,
                                  bool first);

/*
 * Set or clear one source of prefix addr/len and update the FIB. set
 * returns -ENOSPC (FIB full) or -ENOMEM with nothing changed. For routes,
 * *old receives the replaced route and *had_old says whether there was one.
 */
int rib6_set_route(struct rib6 *rib, const uint8_t addr[16], uint8_t len, const struct route6 *r,
                   struct route6 *old, bool *had_old);
int rib6_clear_route(struct rib6 *rib, const uint8_t addr[16], uint8_t len, struct route6 *old);
int rib6_set_local(struct rib6 *rib, const uint8_t addr[16]);
void rib6_clear_local(struct rib6 *rib, const uint8_t addr[16]);
int rib6_set_neigh(struct rib6 *rib, const uint8_t addr[16], uint32_t nh);
void rib6_clear_neigh(struct rib6 *rib, const uint8_t addr[16], uint32_t nh);
size_t rib6_memory(const struct rib6 *rib);

#endif
