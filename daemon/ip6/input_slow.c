/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 input of l3 ports, for the frames the fast path (input.c) leaves
 * aside: each check with its own drop reason, and the next hops that do
 * not simply forward. Packets for the control thread are punted to it:
 *   - ours (local addresses, multicast) → FWD_PUNT_LOCAL6 (local.c), but
 *     NDP that fwd would ignore (ndp_guard.h) is dropped as ndp_ignored, and
 *     the rest of NDP tagged for its port's bucket (core/punt.h);
 *   - an error to send → FWD_PUNT_ICMP6, counted as the drop it is: hop
 *     limit (ttl_exceeded, Time Exceeded), no route (no_route, Destination
 *     Unreachable 0), a link-local source (scope, Destination Unreachable
 *     2, as Linux's ip6_forward), larger than the egress MTU (mtu, Packet
 *     Too Big);
 *   - a hop-by-hop header → FWD_PUNT_HBH6 (hbh.c), its options read there;
 *   - an unresolved neighbour → FWD_PUNT_RESOLVE, or FWD_PUNT_GLEAN6 for a
 *     host on a connected prefix.
 * The order of the forwarding checks is Linux's (hop limit, source, MTU).
 */
#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>

#include "core/worker.h"
#include "ip6/icmp6.h"
#include "ip6/input.h"
#include "ip6/ip6.h"
#include "ip6/ndp_guard.h"
#include "nexthop/nexthop.h"

#define L2_LEN  IP6_L2_LEN
#define HDR_END (IP6_L2_LEN + IP6_HDR_LEN)

static inline struct rte_ipv6_hdr *ip6_hdr(struct rte_mbuf *m)
{
	return rte_pktmbuf_mtod_offset(m, struct rte_ipv6_hdr *, L2_LEN);
}

/* ::ffff:0:0/96 (RFC 4291 2.5.5.2): never on the wire; Linux drops such sources. */
static inline bool ip6_is_v4mapped(const uint8_t a[16])
{
	static const uint8_t prefix[12] = { [10] = 0xff, [11] = 0xff };

	return memcmp(a, prefix, sizeof(prefix)) == 0;
}

/* RFC 8200 3 and RFC 4291 (2.5.3, 2.7): returns a drop reason, or -1 when fine. */
static inline int ip6_check(struct rte_mbuf *m, const struct rte_ipv6_hdr *ip)
{
	unsigned avail, plen;

	if (unlikely(m->data_len < HDR_END))
		return FWD_DROP_BAD_HEADER;
	avail = m->data_len - HDR_END;
	plen = rte_be_to_cpu_16(ip->payload_len);
	if (unlikely((((const uint8_t *)ip)[0] >> 4) != 6))
		return FWD_DROP_BAD_HEADER;
	if (unlikely(plen > avail))
		return FWD_DROP_TRUNCATED; /* a frame cut short */
	if (unlikely(ip6_is_multicast(ip->src_addr) || ip6_is_loopback(ip->src_addr) ||
	             ip6_is_v4mapped(ip->src_addr) || ip6_is_loopback(ip->dst_addr)))
		return FWD_DROP_BAD_ADDRESS;
	if (unlikely(avail > plen))
		rte_pktmbuf_trim(m, (uint16_t)(avail - plen)); /* Ethernet padding */
	return -1;
}

#define NDP_IGNORE  (-1)
#define NDP_INVALID (-2)

/* An NDP message's bucket (enum fwd_punt_nd), NDP_IGNORE when fwd would
 * ignore it, NDP_INVALID when its hop limit is not 255 (RFC 4861 7.1: it
 * came from off the link, whatever it says); FWD_PUNT_ND_NONE for anything
 * else. A message too short to read goes to its bucket: the control thread
 * counts why it is refused. */
static int ip6_ndp_kind(const struct rte_mbuf *m, uint16_t in)
{
	const uint8_t *ip = rte_pktmbuf_mtod_offset(m, const uint8_t *, L2_LEN);
	unsigned len = m->data_len - L2_LEN;
	const uint8_t *target = ip + IP6_HDR_LEN + 8; /* NS, NA */
	bool short_ = len < IP6_HDR_LEN + 24;

	if (ip[6] != IPPROTO_ICMPV6 || len <= IP6_HDR_LEN)
		return FWD_PUNT_ND_NONE;
	if (ip[IP6_HDR_LEN] >= 133 && ip[IP6_HDR_LEN] <= 137 && ip[7] != 255)
		return NDP_INVALID;
	switch (ip[IP6_HDR_LEN]) {
	case 133: /* Router Solicitation */
		return ndp_guard_rs[in] ? FWD_PUNT_ND_OTHER : NDP_IGNORE;
	case 134: /* Router Advertisement */
	case 137: /* Redirect */
		return NDP_IGNORE;
	case 135: /* solicitation: for our address (from :: a DAD probe, maybe for a tentative one)
	           */
		if (short_ ||
		    nh_table[fib6_lookup(ip6_fibs[fwd_ifaces[in].vrf], target)].type == NH_LOCAL ||
		    (ip6_is_unspecified(ip + 8) && ip6_src_watch[ip6_src_watch_idx(target)]))
			return FWD_PUNT_ND_NS;
		return NDP_IGNORE;
	case 136: /* advertisement: for a neighbour's address, or one of ours (conflicts, DAD) */
		if (short_ || ndp_guard_known_test(target) ||
		    ip6_src_watch[ip6_src_watch_idx(target)])
			return FWD_PUNT_ND_NA;
		return NDP_IGNORE;
	default:
		return FWD_PUNT_ND_NONE;
	}
}

/* A packet for us: to local6_input, NDP in its port's bucket. */
static void ip6_punt_local(struct fwd_worker *w, uint16_t in, struct rte_mbuf *m)
{
	int kind = ip6_ndp_kind(m, in);

	if (kind == NDP_IGNORE)
		fwd_drop(w, in, FWD_DROP_NDP_IGNORED, m);
	else if (kind == NDP_INVALID)
		fwd_drop(w, in, FWD_DROP_NDP_INVALID, m);
	else
		fwd_punt(w, m, FWD_PUNT_LOCAL6, in, in, (uint32_t)kind, FWD_PUNT_NO_DROP);
}

static inline void ip6_punt_error(struct fwd_worker *w, uint16_t in, struct rte_mbuf *m,
                                  uint32_t aux, enum fwd_drop_reason why)
{
	fwd_punt(w, m, FWD_PUNT_ICMP6, in, in, aux, (uint8_t)why);
}

/* A multicast destination: ours to look at, but for scopes 0 (reserved) and
 * 1 (interface-local: never from another node), which Linux drops as
 * address errors (RFC 4291 2.7 and its erratum 3480). */
static void ip6_group_dst(struct fwd_worker *w, uint16_t in, struct rte_mbuf *m, const uint8_t *dst)
{
	if ((dst[1] & 0xf) <= 1)
		fwd_drop(w, in, FWD_DROP_BAD_ADDRESS, m);
	else
		ip6_punt_local(w, in, m);
}

/* A destination the FIB reserves: multicast is ours to look at, a
 * link-local address not ours stays on its link, the rest is no address. */
static void ip6_dst_reserved(struct fwd_worker *w, uint16_t in, struct rte_mbuf *m)
{
	const uint8_t *dst = ip6_hdr(m)->dst_addr;

	if (ip6_is_multicast(dst))
		ip6_group_dst(w, in, m, dst);
	else if (ip6_is_linklocal(dst))
		fwd_drop(w, in, FWD_DROP_SCOPE, m);
	else
		fwd_drop(w, in, FWD_DROP_BAD_ADDRESS, m);
}

/* The packet passed every check: hop limit down, and out (or to the
 * control thread while the neighbour resolves). */
static void ip6_forward_out(struct fwd_worker *w, uint16_t in, struct rte_mbuf *m,
                            const struct nexthop *nh, uint32_t nhi)
{
	struct rte_ipv6_hdr *ip = ip6_hdr(m);

	switch (nh->type) {
	case NH_FWD:
		ip6_nh_rewrite(nh, rte_pktmbuf_mtod(m, uint8_t *), ip);
		if (nh->tag != 0) {
			nh_tag_mbuf(m);
			fwd_vlan_tx_count(w, nh->iface, m->pkt_len);
		}
		fwd_tx(w, nh->port, m);
		return;
	case NH_PENDING:
		ip->hop_limits--;
		/* the generation in the tag tells whether the neighbour the index
		 * belongs to when the control thread looks is still this one */
		fwd_punt(w, m, FWD_PUNT_RESOLVE, in, nh->iface,
		         nh_punt_tag(nhi, __atomic_load_n(&nh->gen, __ATOMIC_RELAXED)),
		         FWD_PUNT_NO_DROP);
		return;
	default: /* NH_CONNECTED: the destination itself is the neighbour */
		ip->hop_limits--;
		fwd_punt(w, m, FWD_PUNT_GLEAN6, in, nh->iface, 0, FWD_PUNT_NO_DROP);
		return;
	}
}

/* A next_vrf route's next hop: the destination's in the VRF it names,
 * looked up once (doc/architecture.md, "VRFs"); NULL when m was dropped. */
static const struct nexthop *ip6_next_vrf(struct fwd_worker *w, uint16_t in, struct rte_mbuf *m,
                                          const struct nexthop *nh, uint32_t *nhi)
{
	const struct fib6 *f = ip6_fibs[nh->vrf];

	if (unlikely(f == NULL)) { /* the VRF is going */
		fwd_drop(w, in, FWD_DROP_NO_ROUTE, m);
		return NULL;
	}
	*nhi = fib6_lookup(f, ip6_hdr(m)->dst_addr);
	nh = &nh_table[*nhi];
	if (unlikely(nh->type == NH_VRF)) {
		fwd_drop(w, in, FWD_DROP_VRF_LOOP, m);
		return NULL;
	}
	return nh;
}

void ip6_forward_slow(struct fwd_worker *w, uint16_t in, struct rte_mbuf *m,
                      const struct nexthop *nh, uint32_t nhi)
{
	const struct rte_ipv6_hdr *ip = ip6_hdr(m);

	if (nh->type == NH_VRF && (nh = ip6_next_vrf(w, in, m, nh, &nhi)) == NULL)
		return;

	if (nh->type == NH_GROUP) {
		nhi = nh_group_pick(nh_table, nh, ip6_flow_hash(ip));
		nh = &nh_table[nhi];
	}
	switch (nh->type) {
	case NH_LOCAL:
		ip6_punt_local(w, in, m);
		return;
	case NH_BLACKHOLE:
		fwd_drop(w, in, FWD_DROP_BLACKHOLE, m);
		return;
	case NH_NONE:
		ip6_punt_error(w, in, m,
		               icmp6_punt_aux(ICMP6_DST_UNREACH, ICMP6_DST_UNREACH_NOROUTE, 0),
		               FWD_DROP_NO_ROUTE);
		return;
	case NH_UNREACHABLE: /* as Linux: no route */
		ip6_punt_error(w, in, m,
		               icmp6_punt_aux(ICMP6_DST_UNREACH, ICMP6_DST_UNREACH_NOROUTE, 0),
		               FWD_DROP_UNREACHABLE);
		return;
	case NH_PROHIBIT:
		ip6_punt_error(w, in, m,
		               icmp6_punt_aux(ICMP6_DST_UNREACH, ICMP6_DST_UNREACH_ADMIN, 0),
		               FWD_DROP_PROHIBITED);
		return;
	case NH_RESERVED:
		ip6_dst_reserved(w, in, m);
		return;
	default:
		break;
	}
	if (ip->hop_limits <= 1) {
		ip6_punt_error(w, in, m,
		               icmp6_punt_aux(ICMP6_TIME_EXCEEDED, ICMP6_TIME_EXCEED_TRANSIT, 0),
		               FWD_DROP_TTL_EXCEEDED);
		return;
	}
	if (ip6_is_unspecified(ip->src_addr)) {
		fwd_drop(w, in, FWD_DROP_BAD_ADDRESS, m);
		return;
	}
	if (ip6_is_linklocal(ip->src_addr)) {
		ip6_punt_error(w, in, m,
		               icmp6_punt_aux(ICMP6_DST_UNREACH, ICMP6_DST_UNREACH_BEYONDSCOPE, 0),
		               FWD_DROP_SCOPE);
		return;
	}
	if (IP6_HDR_LEN + rte_be_to_cpu_16(ip->payload_len) > nh->mtu) {
		/* a link below the IPv6 minimum is misconfigured: the packet is
		 * dropped, but nobody is told an MTU below 1280 (RFC 8200 5) */
		uint16_t mtu = RTE_MAX(nh->mtu, (uint16_t)IP6_MIN_MTU);

		ip6_punt_error(w, in, m, icmp6_punt_aux(ICMP6_PACKET_TOO_BIG, 0, mtu),
		               FWD_DROP_MTU);
		return;
	}
	if (ip->proto == IPPROTO_HOPOPTS) {
		fwd_punt(w, m, FWD_PUNT_HBH6, in, nh->iface, 0, FWD_PUNT_NO_DROP);
		return;
	}
	ip6_forward_out(w, in, m, nh, nhi);
}

/* A frame sent to a link-layer group: ours to look at if its destination
 * is a multicast group or one of our addresses, never forwarded. */
static void __rte_noinline ip6_group_frame(struct fwd_worker *w, uint16_t in, struct rte_mbuf *m)
{
	const uint8_t *dst = ip6_hdr(m)->dst_addr;

	if (ip6_is_multicast(dst))
		ip6_group_dst(w, in, m, dst);
	else if (nh_table[fib6_lookup(ip6_fibs[fwd_ifaces[in].vrf], dst)].type == NH_LOCAL)
		ip6_punt_local(w, in, m);
	else
		fwd_drop(w, in, FWD_DROP_NOT_FOR_US, m);
}

uint8_t ip6_src_watch[1u << 16];

/* One of our addresses as the source of a packet from outside. */
static inline bool ip6_src_ours(const struct fwd_iface *in, const uint8_t src[16])
{
	return unlikely(ip6_src_watch[ip6_src_watch_idx(src)]) &&
	       nh_table[fib6_lookup(ip6_fibs[in->vrf], src)].type == NH_LOCAL;
}

/* Classify one frame; returns true when it is an IPv6 packet to route. */
static bool __rte_noinline ip6_classify(struct fwd_worker *w, const struct fwd_iface *in,
                                        struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	int bad;

	if (unlikely(m->data_len < L2_LEN)) {
		fwd_drop(w, in->id, FWD_DROP_BAD_HEADER, m);
		return false;
	}
	if (unlikely(eth->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6))) {
		fwd_drop(w, in->id, fwd_drop_ethertype(eth->ether_type), m);
		return false;
	}
	bad = m->nb_segs != 1 ? FWD_DROP_MULTI_SEG : ip6_check(m, ip6_hdr(m));
	if (unlikely(bad < 0 && ip6_src_ours(in, ip6_hdr(m)->src_addr)))
		bad = FWD_DROP_OWN_SOURCE;
	if (unlikely(bad >= 0)) {
		fwd_drop(w, in->id, bad, m);
		return false;
	}
	if (unlikely(rte_is_multicast_ether_addr(&eth->dst_addr))) {
		ip6_group_frame(w, in->id, m);
		return false;
	}
	if (unlikely(!rte_is_same_ether_addr(&eth->dst_addr, &in->mac))) {
		fwd_drop(w, in->id, FWD_DROP_NOT_FOR_US, m);
		return false;
	}
	return true;
}

void ip6_input_slow(struct fwd_worker *w, const struct fwd_iface *in, struct rte_mbuf *m)
{
	uint32_t nhi;

	w->stats.port[in->id].rx_bytes += m->pkt_len;
	if (!ip6_classify(w, in, m))
		return;
	nhi = fib6_lookup(ip6_fibs[in->vrf], ip6_hdr(m)->dst_addr);
	if (unlikely(in->rpf != FWD_RPF_OFF) && nh_table[nhi].type != NH_LOCAL &&
	    !nh_rpf_pass(nh_table, &nh_table[fib6_lookup(ip6_fibs[in->vrf], ip6_hdr(m)->src_addr)],
	                 in->id, in->rpf == FWD_RPF_STRICT)) {
		fwd_drop(w, in->id, FWD_DROP_RPF, m);
		return;
	}
	ip6_forward_slow(w, in->id, m, &nh_table[nhi], nhi);
}
