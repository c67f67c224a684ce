/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv4 output of the control thread (output.h): the one place every packet
 * it builds or relays (ICMP errors, echo replies, the TAP ports' routed
 * packets) is routed and checked against the egress interface's MTU.
 * Everything here is by egress INTERFACE (nh->iface: a port, or a VLAN
 * whose frames the neighbour layer hands to fwd_control_tx, which tags
 * them), never by the physical port under it. Control thread only; it
 * writes its counters and fwd_control_ctrs.
 */
#include <errno.h>

#include <rte_ip.h>

#include "core/daemon.h"
#include "core/punt.h"
#include "ip4/frag.h"
#include "ip4/input.h"
#include "ip4/ip4.h"
#include "nexthop/nexthop.h"
#include "ip4/output.h"
#include "nexthop/neigh.h"
#include "core/counter.h"
#include "core/counters.h"
#include "core/iface.h"
#include "core/ports.h"

FWD_COUNTER(ip4_output_no_route, "control_output_no_route");
static FWD_COUNTER(too_big, "ip4_output_too_big");
static FWD_COUNTER(fragmented, "ip4_output_fragmented");

/* The L3 MTU of egress interface id (a VLAN's own: its tag does not count
 * against it), 0 when unknown. */
static unsigned out_mtu(uint16_t id)
{
	if (id < FWD_MAX_PORTS)
		return id < fwd_n_ports ? fwd_ports[id].mtu : 0;
	return id < FWD_MAX_IFACES && fwd_ifaces[id].type != FWD_IFACE_FREE ? fwd_ifaces[id].mtu
	                                                                    : 0;
}

/* m fits the egress interface: hand it to the neighbour layer. */
static void send_one(struct rte_mbuf *m, const struct nexthop *nh, uint32_t nhi, uint32_t dst)
{
	fwd_control_ctrs(nh->iface)->created++;
	if (nh->type == NH_CONNECTED)
		neigh_output_glean(m, nh->iface, fwd_ip_v4(dst));
	else
		neigh_output(m, nhi);
}

/*
 * m is larger than the egress MTU: its fragments (RFC 791, as any source
 * host), or, with DF set (or when it cannot be split: no mbufs, more than
 * IP4_FRAG_MAX pieces), a drop counted on the egress interface (mtu,
 * frag_error).
 */
static int send_fragments(struct rte_mbuf *m, const struct nexthop *nh, uint32_t nhi, uint32_t dst,
                          uint16_t mtu)
{
	const struct rte_ipv4_hdr *ip =
	        rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, IP4_L2_LEN);
	struct rte_mbuf *frags[IP4_FRAG_MAX];
	int n;

	if (ip->fragment_offset & rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG)) {
		too_big.value++;
		fwd_control_ctrs(nh->iface)->created++;
		fwd_control_drop(m, nh->iface, FWD_DROP_MTU);
		return -EMSGSIZE;
	}
	n = ip4_fragment(m, IP4_L2_LEN, mtu, fwd.pool, frags, IP4_FRAG_MAX);
	if (n < 0) {
		fwd_control_ctrs(nh->iface)->created++;
		fwd_control_drop(m, nh->iface, FWD_DROP_FRAG_ERROR);
		return n;
	}
	/* the whole packet is never counted: its fragments are what was made */
	rte_pktmbuf_free(m);
	fragmented.value++;
	for (int i = 0; i < n; i++)
		send_one(frags[i], nh, nhi, dst);
	return 0;
}

int ip4_output(struct rte_mbuf *m)
{
	uint16_t vrf = m->port < FWD_MAX_IFACES ? fwd_ifaces[m->port].vrf : FWD_VRF_DEFAULT;

	return ip4_output_in(m, vrf);
}

int ip4_output_in(struct rte_mbuf *m, uint16_t vrf)
{
	const struct rte_ipv4_hdr *ip =
	        rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, IP4_L2_LEN);
	uint32_t dst = rte_be_to_cpu_32(ip->dst_addr);
	const struct fib4 *fib = vrf < FWD_MAX_VRFS ? ip4_fibs[vrf] : NULL;

	if (fib == NULL) { /* no such VRF (any more): no route */
		ip4_output_no_route.value++;
		rte_pktmbuf_free(m);
		return -EHOSTUNREACH;
	}
	uint32_t nhi = fib4_lookup(fib, dst);
	const struct nexthop *nh = &nh_table[nhi];
	unsigned len = RTE_MAX((unsigned)rte_be_to_cpu_16(ip->total_length),
	                       rte_pktmbuf_pkt_len(m) - IP4_L2_LEN),
	         mtu;

	if (nh->type == NH_GROUP) { /* ECMP: the member this flow takes, as a worker would */
		nhi = nh_group_pick(nh_table, nh, ip4_flow_hash(ip));
		nh = &nh_table[nhi];
	}
	switch (nh->type) {
	case NH_FWD:
	case NH_PENDING:
	case NH_CONNECTED:
		/* a packet with a way out is made: from here on it is sent or
		 * counted as a drop */
		mtu = out_mtu(nh->iface);
		if (mtu != 0 && len > mtu)
			return send_fragments(m, nh, nhi, dst, (uint16_t)mtu);
		send_one(m, nh, nhi, dst);
		return 0;
	default:
		/* no route, blackhole, or a loop back to ourselves */
		ip4_output_no_route.value++;
		rte_pktmbuf_free(m);
		return -EHOSTUNREACH;
	}
}
