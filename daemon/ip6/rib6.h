/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 RIB (control thread only): prefixes with up to three sources
 * that want them in the FIB, as in the IPv4 RIB (ip4/rib.h): a route
 * (connected, via a gateway, or blackhole), a local address (/128), a
 * neighbour host entry (/128 of a neighbour on a global connected prefix).
 * The FIB holds the next hop of the strongest (local > route > neighbour).
 *
 * Destinations never routed have FIB entries of their own with next hop
 * NH_IDX_RESERVED: multicast ff00::/8, link-local fe80::/10 (our own
 * link-local addresses are local /128s above it), the unspecified ::/128
 * and the loopback ::1/128. A route inside them stays in the RIB only.
 *
 * CONTRACT (filled in by the fib6 work): the node and tree types.
 */
#ifndef FWD_IP6_RIB_H
#define FWD_IP6_RIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ip6/fib6.h"

enum route6_type {
	ROUTE6_CONNECTED,
	ROUTE6_VIA,
	ROUTE6_BLACKHOLE,
};

#define ROUTE6_DEV_ANY 0xff

struct route6 {
	uint8_t type;   /* enum route6_type */
	uint8_t origin; /* enum fwd_origin */
	uint8_t dev;    /* port index, or ROUTE6_DEV_ANY when not given */
	uint8_t via[16];
	uint32_t nh; /* next-hop index the FIB gets */
};

struct rib6;
struct rib6_node;

void rib6_init(struct rib6 *rib, struct fib6 *fib);
void rib6_clear(struct rib6 *rib);
bool rib6_is_reserved(const uint8_t addr[16], uint8_t len);

/* Accessors of a node (the fields may be read directly once defined). */
struct rib6_node *rib6_find(struct rib6 *rib, const uint8_t addr[16], uint8_t len);
/* The longest route covering addr with length <= maxlen. */
struct rib6_node *rib6_match(struct rib6 *rib, const uint8_t addr[16], uint8_t maxlen);
/* The first route node after (addr, len) in tree order; first = true starts at the beginning. */
struct rib6_node *rib6_next_route(struct rib6 *rib, const uint8_t addr[16], uint8_t len,
                                  bool first);

int rib6_set_route(struct rib6 *rib, const uint8_t addr[16], uint8_t len, const struct route6 *r,
                   struct route6 *old, bool *had_old);
int rib6_clear_route(struct rib6 *rib, const uint8_t addr[16], uint8_t len, struct route6 *old);
int rib6_set_local(struct rib6 *rib, const uint8_t addr[16]);
void rib6_clear_local(struct rib6 *rib, const uint8_t addr[16]);
int rib6_set_neigh(struct rib6 *rib, const uint8_t addr[16], uint32_t nh);
void rib6_clear_neigh(struct rib6 *rib, const uint8_t addr[16], uint32_t nh);
size_t rib6_memory(const struct rib6 *rib);

#endif
