/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv4 input of l3 ports: the fast path (input.c) and the functions it
 * hands the rare frames to (input_slow.c).
 */
#ifndef FWD_IP4_INPUT_H
#define FWD_IP4_INPUT_H

#include <stdint.h>
#include <string.h>

#include <netinet/in.h>

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

/*
 * The flow hash by which ECMP picks a member: source, destination
 * and protocol, and the ports of TCP, UDP and SCTP when the packet is not a
 * fragment (so that all fragments of a datagram take one path). Like
 * Linux's fib_multipath_hash_policy 1. The header has been checked: its
 * length is ihl words and total_length is within the frame.
 */
static inline uint32_t ip4_flow_hash(const struct rte_ipv4_hdr *ip)
{
	uint32_t h = nh_hash_step(ip->next_proto_id, ip->src_addr);
	unsigned ihl = (ip->version_ihl & RTE_IPV4_HDR_IHL_MASK) * 4u;

	h = nh_hash_step(h, ip->dst_addr);
	if ((ip->next_proto_id == IPPROTO_TCP || ip->next_proto_id == IPPROTO_UDP ||
	     ip->next_proto_id == IPPROTO_SCTP) &&
	    (ip->fragment_offset &
	     rte_cpu_to_be_16(RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK)) == 0 &&
	    rte_be_to_cpu_16(ip->total_length) >= ihl + 4) {
		uint32_t ports;
		memcpy(&ports, (const uint8_t *)ip + ihl, sizeof(ports));
		h = nh_hash_step(h, ports);
	}
	return h;
}

/* Rewrite a packet nh takes: TTL and checksum, and the link header, one
 * 16-byte store before the Ethernet type (already IPv4): with nh->tag,
 * the frame then starts at eth - 4 (nh_tag_mbuf). */
static __rte_always_inline void ip4_nh_rewrite(const struct nexthop *nh, uint8_t *eth,
                                               struct rte_ipv4_hdr *ip)
{
	ip4_ttl_dec(ip);
	nh_hdr_write(nh, eth);
}

/* A frame the fast path doubted: its rx bytes counted, classified exactly
 * (each failure a drop reason or a punt), and routed when it passes. */
void ip4_input_slow(struct fwd_worker *w, const struct fwd_iface *in, struct rte_mbuf *m);

/* A routed packet (index nhi, entry nh) whose next hop does not simply
 * forward it, or that is too large for it, or whose TTL expires here. */
void ip4_forward_slow(struct fwd_worker *w, uint16_t in, struct rte_mbuf *m,
                      const struct nexthop *nh, uint32_t nhi);

#endif
