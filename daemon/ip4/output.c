/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv4 output of the control thread (output.h): the one place every packet
 * it builds or relays (ICMP errors, echo replies, the TAP ports' routed
 * packets) is routed and checked against the egress port's MTU. Control
 * thread only; it writes its counters and fwd_control_ctrs.
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
#include "core/ports.h"

FWD_COUNTER(ip4_output_no_route, "control_output_no_route");
static FWD_COUNTER(too_big, "ip4_output_too_big");
static FWD_COUNTER(fragmented, "ip4_output_fragmented");

/* m fits the egress port: hand it to the neighbour layer. */
static void send_one(struct rte_mbuf *m, const struct nexthop *nh, uint32_t nhi, uint32_t dst)
{
	fwd_control_ctrs(nh->port)->created++;
	if (nh->type == NH_CONNECTED)
		neigh_output_glean(m, nh->port, fwd_ip_v4(dst));
	else
		neigh_output(m, nhi);
}

/*
 * m is larger than the egress MTU: its fragments (RFC 791, as any source
 * host), or, with DF set (or when it cannot be split: no mbufs, more than
 * IP4_FRAG_MAX pieces), a drop counted on the egress port (mtu, frag_error).
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
		fwd_control_ctrs(nh->port)->created++;
		fwd_control_drop(m, nh->port, FWD_DROP_MTU);
		return -EMSGSIZE;
	}
	n = ip4_fragment(m, IP4_L2_LEN, mtu, fwd.pool, frags, IP4_FRAG_MAX);
	if (n < 0) {
		fwd_control_ctrs(nh->port)->created++;
		fwd_control_drop(m, nh->port, FWD_DROP_FRAG_ERROR);
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
	const struct rte_ipv4_hdr *ip =
	        rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, IP4_L2_LEN);
	uint32_t dst = rte_be_to_cpu_32(ip->dst_addr);
	uint32_t nhi = fib4_lookup(ip4_fib, dst);
	const struct nexthop *nh = &nh_table[nhi];
	unsigned len = RTE_MAX((unsigned)rte_be_to_cpu_16(ip->total_length),
	                       rte_pktmbuf_pkt_len(m) - IP4_L2_LEN);

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
		if (nh->port < fwd_n_ports && len > fwd_ports[nh->port].mtu)
			return send_fragments(m, nh, nhi, dst, fwd_ports[nh->port].mtu);
		send_one(m, nh, nhi, dst);
		return 0;
	default:
		/* no route, blackhole, or a loop back to ourselves */
		ip4_output_no_route.value++;
		rte_pktmbuf_free(m);
		return -EHOSTUNREACH;
	}
}
