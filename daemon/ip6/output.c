/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6 output of the control thread (output.h): the one place every packet
 * it builds or relays (ICMPv6 errors, echo replies, hop-by-hop packets, the
 * TAP interfaces' routed packets) is routed and checked against the egress
 * interface's MTU; and the glean punt: a packet a worker routed to a host
 * on a connected prefix. Everything here names interfaces (a port or a
 * VLAN); fwd_control_tx and the neighbour layer tag what leaves a VLAN.
 * Control thread only.
 */
#include <errno.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_random.h>

#include "core/counter.h"
#include "core/counters.h"
#include "core/daemon.h"
#include "core/ports.h"
#include "core/punt.h"
#include "core/worker.h"
#include "ip6/frag6.h"
#include "ip6/input.h"
#include "ip6/ip6.h"
#include "ip6/output.h"
#include "nexthop/neigh.h"
#include "nexthop/nexthop.h"

static FWD_COUNTER(no_route, "ip6_output_no_route");
static FWD_COUNTER(too_big, "ip6_output_too_big");
static FWD_COUNTER(fragmented, "ip6_output_fragmented");

static int drop_no_route(struct rte_mbuf *m)
{
	no_route.value++;
	rte_pktmbuf_free(m);
	return -EHOSTUNREACH;
}

/*
 * The router's own packet m, larger than port's MTU: its fragments (RFC 8200
 * 4.5, as any source; frag6.c), each routed again as m would be; a packet
 * with an unfragmentable part beyond its header (or no mbufs) is dropped
 * (`mtu`, `frag_error`). A router never fragments what it forwards (RFC 8200
 * 5), and what it builds itself fits 1280 bytes, but for an echo reply to a
 * request that came in a larger MTU than the way back has (or reassembled,
 * reasm6.c), or a TAP packet routed out a smaller port.
 */
static int send_fragments(struct rte_mbuf *m, uint16_t port)
{
	struct rte_mbuf *frags[IP6_FRAG_MAX];
	int n = ip6_fragment(m, IP6_L2_LEN, ip6_link_mtu(port), (uint32_t)rte_rand(), fwd.pool,
	                     frags, IP6_FRAG_MAX);

	too_big.value++;
	if (n < 0) {
		fwd_control_ctrs(port)->created++;
		fwd_control_drop(m, port, n == -ENOMEM ? FWD_DROP_FRAG_ERROR : FWD_DROP_MTU);
		return -EMSGSIZE;
	}
	/* the whole packet is never counted: its fragments are what was made */
	rte_pktmbuf_free(m);
	fragmented.value++;
	for (int i = 0; i < n; i++)
		ip6_output(frags[i], port);
	return 0;
}

/* A packet made for port: 1 when it fits the port's MTU (counted created),
 * else what send_fragments returns (m is gone). */
static int fits(struct rte_mbuf *m, uint16_t port)
{
	if (rte_pktmbuf_pkt_len(m) - IP6_L2_LEN <= ip6_link_mtu(port)) {
		fwd_control_ctrs(port)->created++;
		return 1;
	}
	return send_fragments(m, port);
}

/* To a group on port's link: no neighbour to resolve; a VLAN's frame is
 * tagged by fwd_control_tx. */
static int output_multicast(struct rte_mbuf *m, uint16_t port, const uint8_t dst[16])
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);

	int rc = fits(m, port);

	if (rc <= 0)
		return rc;
	ip6_mcast_mac(dst, &eth->dst_addr);
	rte_ether_addr_copy(ip6_link_mac(port), &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
	fwd_control_tx(m, port); /* a full ring is counted there */
	return 0;
}

/* A packet we send is routed in the VRF of the link it answers (port). */
static uint16_t link_vrf(uint16_t port)
{
	return port < FWD_MAX_IFACES ? fwd_ifaces[port].vrf : FWD_VRF_DEFAULT;
}

int ip6_output(struct rte_mbuf *m, uint16_t port)
{
	const uint8_t *dst =
	        rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *, IP6_L2_LEN)->dst_addr;
	bool on_link = ip6_link_l3(port);
	uint32_t nhi;
	const struct nexthop *nh;
	int rc;

	if (ip6_is_multicast(dst) || ip6_is_linklocal(dst)) {
		if (!on_link)
			return drop_no_route(m);
		if (ip6_is_multicast(dst))
			return output_multicast(m, port, dst);
		if ((rc = fits(m, port)) <= 0)
			return rc;
		neigh_output_glean(m, port, fwd_ip_v6(dst));
		return 0;
	}
	nhi = fib6_lookup(ip6_fibs[link_vrf(port)], dst);
	nh = &nh_table[nhi];
	if (nh->type == NH_GROUP) { /* ECMP: the member this flow takes, as a worker would */
		nhi = nh_group_pick(nh_table, nh,
		                    ip6_flow_hash(rte_pktmbuf_mtod_offset(
		                            m, const struct rte_ipv6_hdr *, IP6_L2_LEN)));
		nh = &nh_table[nhi];
	}
	/* a packet with a way out is made: from here on it is sent or counted as a drop */
	switch (nh->type) {
	case NH_FWD:
	case NH_PENDING:
		if ((rc = fits(m, nh->iface)) <= 0)
			return rc;
		neigh_output(m, nhi);
		return 0;
	case NH_CONNECTED:
		if ((rc = fits(m, nh->iface)) <= 0)
			return rc;
		neigh_output_glean(m, nh->iface, fwd_ip_v6(dst));
		return 0;
	default:
		/* no route, blackhole, or a loop back to ourselves */
		return drop_no_route(m);
	}
}

/* FWD_PUNT_GLEAN6: routed by a worker to its destination on connected
 * interface out_port (a port or VLAN), from interface in_port. */
static void glean6(struct rte_mbuf *m, const struct fwd_punt_meta *meta)
{
	const uint8_t *dst =
	        rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *, IP6_L2_LEN)->dst_addr;

	neigh_glean(m, meta->in_port, meta->out_port, fwd_ip_v6(dst));
}

RTE_INIT(ip6_output_register)
{
	fwd_punt_register(FWD_PUNT_GLEAN6, glean6);
}
