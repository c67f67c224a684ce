/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>

#include <rte_ip.h>

#include "core/punt.h"
#include "ip4/ip4.h"
#include "nexthop/nexthop.h"
#include "ip4/output.h"
#include "nexthop/neigh.h"
#include "core/counter.h"
#include "core/counters.h"

FWD_COUNTER(ip4_output_no_route, "control_output_no_route");

int ip4_output(struct rte_mbuf *m)
{
	const struct rte_ipv4_hdr *ip =
	        rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, IP4_L2_LEN);
	uint32_t dst = rte_be_to_cpu_32(ip->dst_addr);
	uint32_t nhi = fib4_lookup(ip4_fib, dst);
	const struct nexthop *nh = &nh_table[nhi];

	/* a packet with a way out is made: from here on it is sent or counted as a drop */
	switch (nh->type) {
	case NH_FWD:
	case NH_PENDING:
		fwd_control_ctrs(nh->port)->created++;
		neigh_output(m, nhi);
		return 0;
	case NH_CONNECTED:
		fwd_control_ctrs(nh->port)->created++;
		neigh_output_glean(m, nh->port, fwd_ip_v4(dst));
		return 0;
	default:
		/* no route, blackhole, or a loop back to ourselves */
		ip4_output_no_route.value++;
		rte_pktmbuf_free(m);
		return -EHOSTUNREACH;
	}
}
