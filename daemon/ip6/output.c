/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6 output of the control thread (output.h), and the glean punt: a
 * packet a worker routed to a host on a connected prefix.
 */
#include <errno.h>

#include <rte_ether.h>
#include <rte_ip.h>

#include "core/counter.h"
#include "core/counters.h"
#include "core/ports.h"
#include "core/punt.h"
#include "core/worker.h"
#include "ip6/input.h"
#include "ip6/ip6.h"
#include "ip6/output.h"
#include "nexthop/neigh.h"
#include "nexthop/nexthop.h"

static FWD_COUNTER(no_route, "ip6_output_no_route");

static int drop_no_route(struct rte_mbuf *m)
{
	no_route.value++;
	rte_pktmbuf_free(m);
	return -EHOSTUNREACH;
}

/* To a group on port's link: no neighbour to resolve. */
static int output_multicast(struct rte_mbuf *m, uint8_t port, const uint8_t dst[16])
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);

	ip6_mcast_mac(dst, &eth->dst_addr);
	rte_ether_addr_copy(&fwd_ports[port].mac, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
	fwd_control_ctrs(port)->created++;
	fwd_control_tx(m, port); /* a full ring is counted there */
	return 0;
}

int ip6_output(struct rte_mbuf *m, uint8_t port)
{
	const uint8_t *dst =
	        rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *, IP6_L2_LEN)->dst_addr;
	bool on_link = port < fwd_n_ports && fwd_ports[port].mode == FWD_MODE_L3;
	uint32_t nhi;
	const struct nexthop *nh;

	if (ip6_is_multicast(dst) || ip6_is_linklocal(dst)) {
		if (!on_link)
			return drop_no_route(m);
		if (ip6_is_multicast(dst))
			return output_multicast(m, port, dst);
		fwd_control_ctrs(port)->created++;
		neigh_output_glean(m, port, fwd_ip_v6(dst));
		return 0;
	}
	nhi = fib6_lookup(ip6_fib, dst);
	nh = &nh_table[nhi];
	/* a packet with a way out is made: from here on it is sent or counted as a drop */
	switch (nh->type) {
	case NH_FWD:
	case NH_PENDING:
		fwd_control_ctrs(nh->port)->created++;
		neigh_output(m, nhi);
		return 0;
	case NH_CONNECTED:
		fwd_control_ctrs(nh->port)->created++;
		neigh_output_glean(m, nh->port, fwd_ip_v6(dst));
		return 0;
	default:
		/* no route, blackhole, or a loop back to ourselves */
		return drop_no_route(m);
	}
}

/* FWD_PUNT_GLEAN6: routed by a worker to its destination on connected port out_port. */
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
