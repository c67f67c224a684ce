/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv4 input of l3 ports: the fast path (input.c) and the functions it
 * hands the rare frames to (input_slow.c).
 */
#ifndef FWD_IP4_INPUT_H
#define FWD_IP4_INPUT_H

#include <stdint.h>
#include <string.h>

#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/worker.h"
#include "ip4/cksum.h"
#include "nexthop/nexthop.h"

/* Does next hop nh simply forward this packet of frame length len? fwd_len
 * is 0 unless it forwards: one test for type and size, and one for TTL. */
static __rte_always_inline bool ip4_nh_takes(const struct nexthop *nh,
                                             const struct rte_ipv4_hdr *ip, unsigned len)
{
	return likely(ip->time_to_live > 1) &&
	       likely(len <= __atomic_load_n(&nh->fwd_len, __ATOMIC_ACQUIRE));
}

/* Rewrite a packet nh takes: TTL and checksum, and the link addresses (the
 * Ethernet type is already IPv4). */
static __rte_always_inline void ip4_nh_rewrite(const struct nexthop *nh, uint8_t *eth,
                                               struct rte_ipv4_hdr *ip)
{
	ip4_ttl_dec(ip);
	memcpy(eth, &nh->l2, 2 * RTE_ETHER_ADDR_LEN);
}

/* A frame the fast path doubted: its rx bytes counted, classified exactly
 * (each failure a drop reason or a punt), and routed when it passes. */
void ip4_input_slow(struct fwd_worker *w, const struct fwd_port *in, struct rte_mbuf *m);

/* A routed packet (index nhi, entry nh) whose next hop does not simply
 * forward it, or that is too large for it, or whose TTL expires here. */
void ip4_forward_slow(struct fwd_worker *w, uint8_t in, struct rte_mbuf *m,
                      const struct nexthop *nh, uint32_t nhi);

#endif
