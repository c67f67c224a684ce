/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 input of l3 ports: the fast path (input.c), the functions it
 * hands the rare frames to (input_slow.c), and its registration as the l3
 * input's IPv6 hook (core/worker.h: fwd_ip6_input), which ip6's module
 * makes once the FIB exists.
 */
#ifndef FWD_IP6_INPUT_H
#define FWD_IP6_INPUT_H

#include <stdint.h>
#include <string.h>

#include <netinet/in.h>

#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/worker.h"
#include "nexthop/nexthop.h"

#define IP6_L2_LEN  14u /* the Ethernet header in front of every IPv6 header here */
#define IP6_HDR_LEN 40u

/* Register the IPv6 input with the l3 input (ip6's module init, after the
 * FIB is made), and take it away again (its fini). */
void ip6_input_init(void);
void ip6_input_fini(void);

/* Does next hop nh simply forward this packet of frame length len? As in
 * IPv4 (ip4/input.h): fwd_len is 0 unless it forwards, so one test covers
 * type and size, and one the hop limit. */
static __rte_always_inline bool ip6_nh_takes(const struct nexthop *nh,
                                             const struct rte_ipv6_hdr *ip, unsigned len)
{
	return likely(ip->hop_limits > 1) &&
	       likely(len <= __atomic_load_n(&nh->fwd_len, __ATOMIC_ACQUIRE));
}

/*
 * The flow hash by which ECMP picks a member: source, destination,
 * next header and, when it is TCP, UDP or SCTP right after the fixed
 * header, the ports (an extension header hides them: such packets hash
 * on addresses only, all fragments of a datagram alike). The packet's
 * payload_len is within the frame.
 */
static inline uint32_t ip6_flow_hash(const struct rte_ipv6_hdr *ip)
{
	uint32_t h = ip->proto, w;

	for (unsigned i = 0; i < 32; i += 4) {
		memcpy(&w, ip->src_addr + i, sizeof(w)); /* src_addr and dst_addr are adjacent */
		h = nh_hash_step(h, w);
	}
	if ((ip->proto == IPPROTO_TCP || ip->proto == IPPROTO_UDP || ip->proto == IPPROTO_SCTP) &&
	    rte_be_to_cpu_16(ip->payload_len) >= 4) {
		memcpy(&w, ip + 1, sizeof(w));
		h = nh_hash_step(h, w);
	}
	return h;
}

/* Rewrite a packet nh takes: hop limit (IPv6 has no header checksum) and
 * the link header, one 16-byte store before the Ethernet type (already
 * IPv6): with nh->tag, the frame then starts at eth - 4 (nh_tag_mbuf). */
static __rte_always_inline void ip6_nh_rewrite(const struct nexthop *nh, uint8_t *eth,
                                               struct rte_ipv6_hdr *ip)
{
	ip->hop_limits--;
	nh_hdr_write(nh, eth);
}

/* A frame the fast path doubted: its rx bytes counted, classified exactly
 * (each failure a drop reason or a punt), and routed when it passes. */
void ip6_input_slow(struct fwd_worker *w, const struct fwd_iface *in, struct rte_mbuf *m);

/* A routed packet (index nhi, entry nh) that the fast path does not
 * forward: a next hop that does not simply forward, a packet too large
 * for it, a hop limit that expires, a link-local source, a hop-by-hop
 * header. */
void ip6_forward_slow(struct fwd_worker *w, uint16_t in, struct rte_mbuf *m,
                      const struct nexthop *nh, uint32_t nhi);

#endif
