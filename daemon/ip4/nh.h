/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv4 next hops: what a FIB lookup leads to. Workers read entries
 * without locks; the control thread writes them. An entry's `type` is the
 * one byte the fast path tests: NH4_FWD means "write l2 and send on port".
 * Rewriting a live entry's l2 header goes through NH4_PENDING and an RCU
 * grace period (nh4_set_l2), so a worker never sends a half-written header.
 *
 * Index 0 is the "no route" entry (a FIB miss yields 0). Indices below
 * NH4_FIRST_DYNAMIC are fixed: local delivery, blackhole, the reserved
 * destinations, and one "connected subnet, neighbour unknown" entry per port.
 */
#ifndef FWD_IP4_NH_H
#define FWD_IP4_NH_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ether.h>

#include "core/config.h"

enum nh4_type {
	NH4_NONE = 0,  /* no route */
	NH4_FWD,       /* resolved neighbour: rewrite and send */
	NH4_PENDING,   /* neighbour known by address, l2 not (yet) valid */
	NH4_CONNECTED, /* on a connected subnet: resolve the destination itself */
	NH4_LOCAL,     /* one of our addresses */
	NH4_BLACKHOLE, /* drop silently */
	NH4_RESERVED,  /* never routed: 0/8, 127/8, 224/3 (RFC 1812 5.3.7) */
};

#define NH4_IDX_NONE      0u
#define NH4_IDX_LOCAL     1u
#define NH4_IDX_BLACKHOLE 2u
#define NH4_IDX_RESERVED  3u
#define NH4_IDX_CONNECTED 8u /* + port index */
#define NH4_FIRST_DYNAMIC (NH4_IDX_CONNECTED + FWD_MAX_PORTS)

struct nh4 {
	/* read by workers */
	uint8_t type;     /* enum nh4_type */
	uint8_t port;     /* egress port index (FWD, PENDING, CONNECTED) */
	uint16_t mtu;     /* egress port MTU */
	uint16_t fwd_len; /* largest frame (mtu + Ethernet header) while type is NH4_FWD,
	                   * else 0: the fast path's one test */
	uint16_t pad0;
	struct rte_ether_hdr l2; /* dst, src, ethertype IPv4: valid while fwd_len != 0 */
	uint16_t pad1;
	uint32_t ip; /* neighbour address, host order (FWD, PENDING) */
	/* control only */
	uint32_t refs; /* routes and neighbour entries using it */
} __rte_aligned(32);

/* The table workers index with FIB results; fixed size, set at init. */
extern struct nh4 *nh4_table;
extern uint32_t nh4_count;

int nh4_init(uint32_t count, int socket);
void nh4_fini(void);

/* A dynamic entry for neighbour ip on port, type NH4_PENDING; -ENOSPC when full. */
int nh4_alloc(uint32_t ip, uint8_t port, uint32_t *idx);
/* Return a dynamic entry; reusable once no worker can still hold it. */
void nh4_release(uint32_t idx);
/* Make entry idx forward to mac (FWD), or stop forwarding (mac NULL: PENDING). */
void nh4_set_l2(uint32_t idx, const struct rte_ether_addr *mac);
/* Egress port MTU changed, or port mac: refresh the entries on it. */
void nh4_port_update(uint8_t port);
/* Reclaim released entries whose grace period has ended. */
void nh4_reclaim(void);
uint32_t nh4_used(void);

#endif
