/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv4 input of l3 ports, for the frames the fast path (input.c) leaves
 * aside: every check of RFC 1812 5.2.2 and 5.3 with its own drop reason, and
 * the next hops that do not simply forward (ours, no route, blackhole,
 * reserved destinations, an unresolved neighbour, TTL expiry, a packet larger
 * than the egress MTU). Packets for the control thread are punted to it.
 */
#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>

#include "core/daemon.h"
#include "core/worker.h"
#include "ip4/cksum.h"
#include "ip4/frag.h"
#include "ip4/icmp.h"
#include "ip4/input.h"
#include "ip4/ip4.h"
#include "nexthop/nexthop.h"

#define L2_LEN ((uint16_t)sizeof(struct rte_ether_hdr))

#define R4(a)  a, a, a, a
#define R16(a) R4(a), R4(a), R4(a), R4(a)

const uint8_t ip4_dst_class[256] = {
	[0] = IP4_MARTIAN,
	[127] = IP4_MARTIAN,
	[224] = R16(IP4_MULTICAST),
	[240] = R4(IP4_MARTIAN),
	R4(IP4_MARTIAN),
	R4(IP4_MARTIAN),
	IP4_MARTIAN,
	IP4_MARTIAN,
	IP4_MARTIAN,
	[255] = IP4_BCAST_OCTET,
};

const uint8_t ip4_src_martian[256] = {
	[0] = 1,
	[127] = 1,
	[224] = R16(1),
	R16(1),
};

uint8_t ip4_src_watch[1u << 16];

RTE_INIT(ip4_src_watch_rows)
{
	for (unsigned o = 0; o < 256; o++)
		if (ip4_src_martian[o] || o == IP4_LINK_LOCAL >> 24)
			memset(&ip4_src_watch[o << 8], IP4_WATCH_ROW, 256);
}

static inline bool ip4_link_local(uint32_t a)
{
	return (a & 0xffff0000u) == IP4_LINK_LOCAL;
}

static inline struct rte_ipv4_hdr *ip4_hdr(struct rte_mbuf *m)
{
	return rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, L2_LEN);
}

/* RFC 1812 5.2.2 and 5.3.7 checks; returns a drop reason, or -1 when fine. */
static inline int ip4_check(struct rte_mbuf *m, const struct rte_ipv4_hdr *ip)
{
	if (unlikely(m->data_len < L2_LEN + sizeof(*ip)))
		return FWD_DROP_BAD_HEADER;

	unsigned avail = m->data_len - L2_LEN;
	unsigned ihl = ip->version_ihl & 0xf;
	unsigned tot = rte_be_to_cpu_16(ip->total_length);
	uint64_t ck = m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK;

	if (unlikely((ip->version_ihl & 0xf0) != 0x40 || ihl < 5 || tot < ihl * 4))
		return FWD_DROP_BAD_HEADER;
	if (unlikely(tot > avail))
		return FWD_DROP_TRUNCATED; /* a frame cut short (a PMD's ring slot, a snap length)
		                            */
	if (unlikely(ck != RTE_MBUF_F_RX_IP_CKSUM_GOOD) &&
	    (ck == RTE_MBUF_F_RX_IP_CKSUM_BAD || !ip4_cksum_ok(ip, ihl)))
		return FWD_DROP_BAD_CHECKSUM;
	if (unlikely(ip4_src_martian[((const uint8_t *)&ip->src_addr)[0]]))
		return FWD_DROP_BAD_ADDRESS;
	if (unlikely(avail > tot))
		rte_pktmbuf_trim(m, (uint16_t)(avail - tot)); /* Ethernet padding */
	return -1;
}

/* Onto nh's physical port; a tagged frame counted on its VLAN too. */
static inline void ip4_tx(struct fwd_worker *w, struct rte_mbuf *m, const struct nexthop *nh)
{
	if (nh->tag != 0)
		fwd_vlan_tx_count(w, nh->iface, m->pkt_len);
	fwd_tx(w, nh->port, m);
}

/* A packet built here (a fragment): its link header is all to write. */
static inline void ip4_send(struct fwd_worker *w, struct rte_mbuf *m, const struct nexthop *nh)
{
	if (unlikely(nh_l2_write(nh, m, RTE_BE16(RTE_ETHER_TYPE_IPV4)) < 0)) {
		fwd_drop(w, nh->iface, FWD_DROP_NO_MBUF, m);
		return;
	}
	ip4_tx(w, m, nh);
}

/* Out through next hop nh if it simply forwards the packet (classification
 * left the frame exactly the packet); false: it does not. */
static inline bool ip4_forward_if_takes(struct fwd_worker *w, struct rte_mbuf *m,
                                        const struct nexthop *nh, struct rte_ipv4_hdr *ip)
{
	if (!ip4_nh_takes(nh, ip, m->data_len))
		return false;
	ip4_nh_rewrite(nh, rte_pktmbuf_mtod(m, uint8_t *), ip);
	if (nh->tag != 0)
		nh_tag_mbuf(m);
	ip4_tx(w, m, nh);
	return true;
}

/* A routed packet whose next hop has no link address yet: the control thread
 * holds it until the neighbour answers. */
static inline void ip4_punt_resolve(struct fwd_worker *w, uint16_t in, struct rte_mbuf *m,
                                    const struct nexthop *nh, uint32_t nhi)
{
	if (nh->type == NH_PENDING) {
		/* the neighbour may go, and its index be reused, before the control
		 * thread looks: the generation in the tag tells */
		fwd_punt(w, m, FWD_PUNT_RESOLVE, in, nh->iface,
		         nh_punt_tag(nhi, __atomic_load_n(&nh->gen, __ATOMIC_RELAXED)),
		         FWD_PUNT_NO_DROP);
	} else {
		fwd_punt(w, m, FWD_PUNT_GLEAN, in, nh->iface,
		         rte_be_to_cpu_32(ip4_hdr(m)->dst_addr), FWD_PUNT_NO_DROP);
	}
}

static void __rte_noinline ip4_fragment_out(struct fwd_worker *w, uint16_t in, struct rte_mbuf *m,
                                            const struct nexthop *nh, uint32_t nhi)
{
	struct rte_mbuf *frags[IP4_FRAG_MAX];
	int n;

	ip4_ttl_dec(ip4_hdr(m));
	n = ip4_fragment(m, L2_LEN, nh->mtu, fwd.pool, frags, IP4_FRAG_MAX);
	if (n < 0) {
		fwd_drop(w, in, FWD_DROP_FRAG_ERROR, m);
		return;
	}
	rte_pktmbuf_free(m);
	w->stats.port[in].consumed++; /* one packet in, n out: every packet accounted for */
	w->stats.port[nh->port].created += (unsigned)n;
	for (int i = 0; i < n; i++) {
		if (nh->type == NH_FWD)
			ip4_send(w, frags[i], nh);
		else
			ip4_punt_resolve(w, in, frags[i], nh, nhi);
	}
}

/* A destination that is not routed as unicast (RFC 1812 5.3.7): multicast and
 * the limited broadcast are ours to receive, the rest is dropped. */
static void ip4_dst_reserved(struct fwd_worker *w, uint16_t in, struct rte_mbuf *m, uint32_t dst)
{
	if (ip4_dst_class[dst >> 24] == IP4_MULTICAST || dst == UINT32_MAX)
		fwd_punt(w, m, FWD_PUNT_LOCAL, in, in, 0, FWD_PUNT_NO_DROP);
	else
		fwd_drop(w, in, ip4_link_local(dst) ? FWD_DROP_LINK_LOCAL : FWD_DROP_BAD_ADDRESS,
		         m);
}

/* A source that must not come from outside (RFC 1812 5.3.7): one of our
 * addresses or a directed broadcast of our subnets, both local in the FIB. */
static inline bool ip4_src_ours(const struct fwd_iface *in, const struct rte_ipv4_hdr *ip)
{
	return unlikely(ip4_src_watch[ip4_src_watch_idx(ip->src_addr)] & IP4_WATCH_OWN) &&
	       nh_table[fib4_lookup(ip4_fibs[in->vrf], rte_be_to_cpu_32(ip->src_addr))].type ==
	               NH_LOCAL;
}

/* A next_vrf route's next hop: the destination's in the VRF it names,
 * looked up once (doc/architecture.md, "VRFs"); NULL when m was dropped. */
static const struct nexthop *ip4_next_vrf(struct fwd_worker *w, uint16_t in, struct rte_mbuf *m,
                                          const struct nexthop *nh, uint32_t *nhi)
{
	const struct fib4 *f = ip4_fibs[nh->vrf];

	if (unlikely(f == NULL)) { /* the VRF is going */
		fwd_drop(w, in, FWD_DROP_NO_ROUTE, m);
		return NULL;
	}
	*nhi = fib4_lookup(f, rte_be_to_cpu_32(ip4_hdr(m)->dst_addr));
	nh = &nh_table[*nhi];
	if (unlikely(nh->type == NH_VRF)) {
		fwd_drop(w, in, FWD_DROP_VRF_LOOP, m);
		return NULL;
	}
	return nh;
}

void ip4_forward_slow(struct fwd_worker *w, uint16_t in, struct rte_mbuf *m,
                      const struct nexthop *nh, uint32_t nhi)
{
	struct rte_ipv4_hdr *ip = ip4_hdr(m);

	if (nh->type == NH_VRF) {
		if ((nh = ip4_next_vrf(w, in, m, nh, &nhi)) == NULL ||
		    (nh->type != NH_GROUP && ip4_forward_if_takes(w, m, nh, ip)))
			return;
	}

	if (nh->type == NH_GROUP) {
		nhi = nh_group_pick(nh_table, nh, ip4_flow_hash(ip));
		nh = &nh_table[nhi];
		/* the member may simply forward it: the slow path was here for
		 * another reason (a source it looked at, options) */
		if (ip4_forward_if_takes(w, m, nh, ip))
			return;
	}
	switch (nh->type) {
	case NH_LOCAL:
		fwd_punt(w, m, FWD_PUNT_LOCAL, in, in, 0, FWD_PUNT_NO_DROP);
		return;
	case NH_BLACKHOLE:
		fwd_drop(w, in, FWD_DROP_BLACKHOLE, m);
		return;
	case NH_NONE:
		fwd_punt(w, m, FWD_PUNT_NO_ROUTE, in, in, ICMP4_NET_UNREACH, FWD_DROP_NO_ROUTE);
		return;
	case NH_UNREACHABLE: /* as Linux: host unreachable */
		fwd_punt(w, m, FWD_PUNT_NO_ROUTE, in, in, ICMP4_HOST_UNREACH, FWD_DROP_UNREACHABLE);
		return;
	case NH_PROHIBIT:
		fwd_punt(w, m, FWD_PUNT_NO_ROUTE, in, in, ICMP4_ADMIN_PROHIBITED,
		         FWD_DROP_PROHIBITED);
		return;
	case NH_RESERVED:
		ip4_dst_reserved(w, in, m, rte_be_to_cpu_32(ip->dst_addr));
		return;
	default:
		break;
	}
	if (ip->time_to_live <= 1) {
		fwd_punt(w, m, FWD_PUNT_TTL, in, nh->iface, 0, FWD_DROP_TTL_EXCEEDED);
		return;
	}
	if (rte_be_to_cpu_16(ip->total_length) > nh->mtu) {
		if (ip->fragment_offset & rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG))
			fwd_punt(w, m, FWD_PUNT_FRAG_NEEDED, in, nh->iface, nh->mtu, FWD_DROP_MTU);
		else
			ip4_fragment_out(w, in, m, nh, nhi);
		return;
	}
	ip4_ttl_dec(ip);
	ip4_punt_resolve(w, in, m, nh, nhi);
}

/* Frames sent to a link-layer group address are never forwarded (RFC 1812 5.3.4). */
static void __rte_noinline ip4_group_frame(struct fwd_worker *w, uint16_t in, struct rte_mbuf *m)
{
	const struct rte_ipv4_hdr *ip = ip4_hdr(m);
	uint32_t dst = rte_be_to_cpu_32(ip->dst_addr);
	uint8_t cls = ip4_dst_class[dst >> 24];

	if (cls == IP4_MULTICAST || dst == UINT32_MAX ||
	    nh_table[fib4_lookup(ip4_fibs[fwd_ifaces[in].vrf], dst)].type == NH_LOCAL)
		fwd_punt(w, m, FWD_PUNT_LOCAL, in, in, 0, FWD_PUNT_NO_DROP);
	else
		fwd_drop(w, in, FWD_DROP_NOT_FOR_US, m);
}

/* Why a packet from src, not for us, is not forwarded: a link-local source
 * (RFC 3927 section 7) or the port's reverse-path filter; -1: it is. */
static int ip4_src_refused(const struct fwd_iface *in, uint32_t src)
{
	uint8_t rpf = in->rpf;

	if (unlikely(ip4_link_local(src)))
		return FWD_DROP_LINK_LOCAL;
	if (rpf != FWD_RPF_OFF &&
	    !nh_rpf_pass(nh_table, &nh_table[fib4_lookup(ip4_fibs[in->vrf], src)], in->id,
	                 rpf == FWD_RPF_STRICT))
		return FWD_DROP_RPF;
	return -1;
}

/* Classify one frame; returns true when it is a unicast IPv4 packet to route. */
static bool __rte_noinline ip4_classify(struct fwd_worker *w, const struct fwd_iface *in,
                                        struct rte_mbuf *m, uint32_t *dst)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_ipv4_hdr *ip = ip4_hdr(m);
	int bad;

	if (unlikely(m->data_len < L2_LEN)) {
		fwd_drop(w, in->id, FWD_DROP_BAD_HEADER, m);
		return false;
	}
	if (unlikely(eth->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4))) {
		/* IPv6 reaches here only while no input for it is registered */
		if (eth->ether_type == rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP))
			fwd_punt(w, m, FWD_PUNT_ARP, in->id, in->id, 0, FWD_PUNT_NO_DROP);
		else
			fwd_drop(w, in->id, fwd_drop_ethertype(eth->ether_type), m);
		return false;
	}
	bad = m->nb_segs != 1 ? FWD_DROP_MULTI_SEG : ip4_check(m, ip);
	if (unlikely(bad < 0 && ip4_src_ours(in, ip)))
		bad = FWD_DROP_OWN_SOURCE;
	if (unlikely(bad >= 0)) {
		fwd_drop(w, in->id, bad, m);
		return false;
	}
	if (unlikely(rte_is_multicast_ether_addr(&eth->dst_addr))) {
		ip4_group_frame(w, in->id, m);
		return false;
	}
	if (unlikely(!rte_is_same_ether_addr(&eth->dst_addr, &in->mac))) {
		fwd_drop(w, in->id, FWD_DROP_NOT_FOR_US, m);
		return false;
	}
	*dst = rte_be_to_cpu_32(ip->dst_addr);
	if (unlikely(ip4_dst_class[*dst >> 24] != IP4_UNICAST)) {
		ip4_dst_reserved(w, in->id, m, *dst);
		return false;
	}
	return true;
}

void ip4_input_slow(struct fwd_worker *w, const struct fwd_iface *in, struct rte_mbuf *m)
{
	struct rte_ipv4_hdr *ip = ip4_hdr(m);
	const struct nexthop *nh;
	uint32_t dst, nhi;

	w->stats.port[in->id].rx_bytes += m->pkt_len;
	if (!ip4_classify(w, in, m, &dst))
		return;
	nhi = fib4_lookup(ip4_fibs[in->vrf], dst);
	nh = &nh_table[nhi];
	if (unlikely(nh->type != NH_LOCAL)) {
		int bad = ip4_src_refused(in, rte_be_to_cpu_32(ip->src_addr));
		if (bad >= 0) {
			fwd_drop(w, in->id, bad, m);
			return;
		}
	}
	if (!ip4_forward_if_takes(w, m, nh, ip))
		ip4_forward_slow(w, in->id, m, nh, nhi);
}
