/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NDP frames from the control thread: Ethernet, IPv6 with hop limit 255
 * (RFC 4861: a receiver refuses anything less), ICMPv6 with its checksum
 * over the pseudo-header (RFC 8200 8.1), handed to a worker through the
 * neighbour layer's tx hook (fwd_control_tx, which tags what leaves a VLAN
 * interface; tests capture them). Every `port` here is an interface id: a
 * port, or a VLAN interface of mode l3, with its port's MAC. A frame is
 * counted as created when it is made, so every one is then either sent or
 * a counted drop.
 */
#include <string.h>

#include <rte_ip.h>

#include "core/counters.h"
#include "core/daemon.h"
#include "core/punt.h"
#include "ip6/ip6.h"
#include "ip6/ndp_priv.h"
#include "ip6/output.h"
#include "nexthop/neigh.h"
#include "port/port.h"

#define HDRS_LEN (sizeof(struct rte_ether_hdr) + sizeof(struct rte_ipv6_hdr))

FWD_COUNTER(ndp_ns_tx, "ndp_ns_tx");

uint64_t (*ndp_random)(void) = rte_rand;

bool ndp_port_ready(uint16_t port)
{
	if (port >= FWD_MAX_PORTS) { /* a VLAN: up itself, on a port that is up */
		if (!ip6_link_l3(port) || !fwd_ifaces[port].admin_up)
			return false;
		port = fwd_ifaces[port].port;
	}
	return port < fwd_n_ports && fwd_ports[port].admin_up && fwd_ports[port].link_up;
}

uint64_t ndp_random_ms(uint64_t max_ms)
{
	return ndp_random() % (max_ms + 1);
}

struct rte_mbuf *ndp_frame(uint16_t port, const struct rte_ether_addr *mac, const uint8_t src[16],
                           const uint8_t dst[16], uint16_t icmp_len)
{
	struct rte_mbuf *m = fwd.pool != NULL ? rte_pktmbuf_alloc(fwd.pool) : NULL;
	struct rte_ether_hdr *eth;
	struct rte_ipv6_hdr *ip;

	fwd_control_ctrs(port)->created++; /* from here on, sent or counted as a drop */
	if (m == NULL || (eth = (struct rte_ether_hdr *)rte_pktmbuf_append(
	                          m, (uint16_t)(HDRS_LEN + icmp_len))) == NULL) {
		rte_pktmbuf_free(m);
		fwd_control_ctrs(port)->drop[FWD_DROP_NO_MBUF]++;
		return NULL;
	}
	ip = (struct rte_ipv6_hdr *)(eth + 1);
	if (mac != NULL)
		eth->dst_addr = *mac;
	else
		ip6_mcast_mac(dst, &eth->dst_addr);
	eth->src_addr = *ip6_link_mac(port);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
	ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16(icmp_len);
	ip->proto = IPPROTO_ICMPV6;
	ip->hop_limits = NDP_HOP_LIMIT;
	memcpy(ip->src_addr, src, 16);
	memcpy(ip->dst_addr, dst, 16);
	memset(ip + 1, 0, icmp_len);
	return m;
}

void *ndp_icmp_of(struct rte_mbuf *m)
{
	return rte_pktmbuf_mtod_offset(m, void *, HDRS_LEN);
}

uint8_t *ndp_opt_lladdr(uint8_t *p, uint8_t type, const struct rte_ether_addr *mac)
{
	struct ndp_opt_lladdr *o = (struct ndp_opt_lladdr *)p;

	o->type = type;
	o->len = 1;
	memcpy(o->mac, mac->addr_bytes, sizeof(o->mac));
	return p + sizeof(*o);
}

int ndp_send(struct rte_mbuf *m, uint16_t port)
{
	const struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *,
	                                                        sizeof(struct rte_ether_hdr));
	struct ndp_icmp *h = ndp_icmp_of(m);

	h->cksum = 0;
	h->cksum = rte_ipv6_udptcp_cksum(ip, h);
	return neigh_hooks.tx(m, port) < 0 ? -ENOBUFS : 0; /* a full ring is counted there */
}

int ndp_send_ns(uint16_t port, const uint8_t src[16], const uint8_t target[16],
                const struct rte_ether_addr *mac)
{
	/* no SLLA from :: (RFC 4861 4.3): DAD must not update anyone's cache */
	bool slla = !ip6_is_unspecified(src);
	uint16_t len =
	        (uint16_t)(sizeof(struct ndp_ns) + (slla ? sizeof(struct ndp_opt_lladdr) : 0));
	uint8_t dst[16];
	struct rte_mbuf *m;
	struct ndp_ns *ns;

	if (mac != NULL)
		memcpy(dst, target, 16);
	else
		ip6_solicited_node(target, dst);
	if ((m = ndp_frame(port, mac, src, dst, len)) == NULL)
		return -ENOBUFS;
	ns = ndp_icmp_of(m);
	ns->h.type = NDP_NS;
	memcpy(ns->target, target, 16);
	if (slla)
		ndp_opt_lladdr((uint8_t *)(ns + 1), NDP_OPT_SLLA, ip6_link_mac(port));
	if (ndp_send(m, port) < 0)
		return -ENOBUFS;
	ndp_ns_tx.value++;
	return 0;
}
