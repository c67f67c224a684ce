/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Local delivery (FWD_PUNT_LOCAL), on the control thread: IPv4 packets for
 * one of our addresses, and IP or link-layer broadcasts and multicasts.
 * The router answers ICMP echo, answers UDP with port unreachable (so a
 * traceroute to the router itself ends) and other protocols with protocol
 * unreachable, both from the address the packet was sent to, and TCP with a
 * reset (tcp_rst.c: it serves no TCP itself). It serves nothing on broadcast
 * or multicast addresses (no echo to them: RFC 1812 4.3.3.6 allows the
 * silence, and it starves smurf attacks). Fragments are put together first
 * (reasm4.c) and the whole datagram comes back here. Every packet here
 * ends as a reply, or as a counted drop.
 *
 * in_port is the interface the packet arrived on (core/iface.h): a port,
 * or a VLAN whose tag the worker took. What goes up goes to that
 * interface's own kernel interface (fwd_punt_up_take by id: a VLAN with
 * `tap: true` has one of its own), replies are routed (ip4_output: to a
 * host on a VLAN's subnet they leave tagged on it), and drops are counted
 * on the interface.
 */
#include <string.h>

#include <rte_ether.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "core/punt.h"
#include "ip4/addr.h"
#include "ip4/icmp.h"
#include "ip4/icmp_priv.h"
#include "ip4/output.h"
#include "core/counter.h"
#include "core/counters.h"

#define IP4_HDR_LEN 20u

static FWD_COUNTER(echo_replies, "icmp_echo_replies_sent");
static FWD_COUNTER(local_udp_invalid, "local_udp_invalid");

static struct rte_ipv4_hdr *ip_of(struct rte_mbuf *m)
{
	return rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, IP4_L2_LEN);
}

/* The worker checked the header (RFC 1812 5.2.2) and trimmed the frame to
 * it; check again what this file relies on, cheaply, against anything
 * that reaches the handler some other way. */
static bool header_ok(const struct rte_mbuf *m)
{
	const struct rte_ipv4_hdr *ip =
	        rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, IP4_L2_LEN);
	unsigned hlen, tot;

	if (m->nb_segs != 1 || m->data_len < IP4_L2_LEN + IP4_HDR_LEN)
		return false;
	hlen = (ip->version_ihl & 0xf) * 4u;
	tot = rte_be_to_cpu_16(ip->total_length);
	return (ip->version_ihl >> 4) == 4 && hlen >= IP4_HDR_LEN && tot >= hlen &&
	       tot == (unsigned)m->data_len - IP4_L2_LEN;
}

/* Unicast to one of our addresses, at the link layer too (RFC 1122 3.3.6:
 * a link broadcast carrying a unicast IP destination is discarded). */
static bool for_us(const struct rte_mbuf *m, uint16_t vrf, uint32_t dst)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);

	return !rte_is_multicast_ether_addr(&eth->dst_addr) && addr4_is_local(vrf, dst);
}

/* Turn the echo request in m into its reply in place and send it. IP
 * options are not echoed back (RFC 1122 3.2.2.6 asks for record route and
 * timestamp to be updated, which we do not do): the reply has a bare header. */
static void echo_reply(struct rte_mbuf *m, uint16_t port, unsigned hlen, uint16_t icmp_len)
{
	struct rte_ipv4_hdr *ip = ip_of(m);
	uint32_t src = rte_be_to_cpu_32(ip->dst_addr), dst = rte_be_to_cpu_32(ip->src_addr);
	uint8_t tos = ip->type_of_service;
	struct rte_icmp_hdr *icmp;

	if (rte_pktmbuf_adj(m, (uint16_t)(hlen - IP4_HDR_LEN)) == NULL) {
		fwd_control_drop(m, port, FWD_DROP_ICMP_INVALID); /* cannot happen: hlen < len */
		return;
	}
	ip = ip_of(m);
	icmp = (struct rte_icmp_hdr *)(ip + 1);
	icmp->icmp_type = RTE_IP_ICMP_ECHO_REPLY;
	icmp->icmp_code = 0;
	icmp->icmp_cksum = 0;
	icmp->icmp_cksum = (uint16_t)~rte_raw_cksum(icmp, icmp_len);
	icmp4_ip_header(ip, tos, (uint16_t)(IP4_HDR_LEN + icmp_len), src, dst);
	m->ol_flags = 0;
	fwd_control_ctrs(port)->consumed++; /* the request; ip4_output counts the reply made */
	if (icmp4_output(m) == 0)
		echo_replies.value++;
}

static void local_icmp(struct rte_mbuf *m, uint16_t port, unsigned hlen, unsigned tot)
{
	const uint8_t *icmp = (const uint8_t *)ip_of(m) + hlen;
	unsigned len = tot - hlen;

	if (len < sizeof(struct rte_icmp_hdr) || rte_raw_cksum(icmp, len) != 0xffff) {
		fwd_control_drop(m, port, FWD_DROP_ICMP_INVALID);
		return;
	}
	/* replies and errors about packets of ours: we send no requests and
	 * keep no sockets, so there is nobody to tell */
	if (icmp[0] != RTE_IP_ICMP_ECHO_REQUEST) {
		fwd_control_drop(m, port, FWD_DROP_LOCAL_PROTO);
		return;
	}
	echo_reply(m, port, hlen, (uint16_t)len);
}

/* RFC 768: length within the IP payload, checksum (when present) valid. */
static bool udp_ok(const struct rte_ipv4_hdr *ip, unsigned hlen, unsigned tot)
{
	const struct rte_udp_hdr *udp = (const struct rte_udp_hdr *)((const uint8_t *)ip + hlen);
	struct {
		uint32_t src, dst;
		uint8_t zero, proto;
		uint16_t len;
	} __rte_packed ph = { ip->src_addr, ip->dst_addr, 0, IPPROTO_UDP, 0 };
	unsigned ulen;

	if (tot - hlen < sizeof(*udp))
		return false;
	ulen = rte_be_to_cpu_16(udp->dgram_len);
	if (ulen < sizeof(*udp) || ulen > tot - hlen)
		return false;
	if (udp->dgram_cksum == 0)
		return true;
	ph.len = udp->dgram_len;
	uint32_t sum = (uint32_t)rte_raw_cksum(&ph, sizeof(ph)) + rte_raw_cksum(udp, ulen);
	return (uint16_t)((sum & 0xffff) + (sum >> 16)) == 0xffff;
}

static void local_udp(struct rte_mbuf *m, uint16_t port, unsigned hlen, unsigned tot)
{
	if (!udp_ok(ip_of(m), hlen, tot)) {
		local_udp_invalid.value++;
		fwd_control_drop(m, port, FWD_DROP_LOCAL_PROTO);
		return;
	}
	icmp4_send_error_from(m, ICMP4_DEST_UNREACH, ICMP4_PORT_UNREACH, 0, port,
	                      rte_be_to_cpu_32(ip_of(m)->dst_addr));
	fwd_control_drop(m, port, FWD_DROP_LOCAL_PROTO);
}

/* 224.0.0.0/24: never routed, the link's own groups. */
static bool link_group(uint32_t dst)
{
	return (dst & 0xffffff00u) == 0xe0000000u;
}

/* An ICMP echo request, which fwd answers itself. */
static bool echo_request(struct rte_mbuf *m, unsigned hlen, unsigned tot)
{
	const struct rte_ipv4_hdr *ip = ip_of(m);

	return ip->next_proto_id == IPPROTO_ICMP && tot > hlen &&
	       ((const uint8_t *)ip)[hlen] == RTE_IP_ICMP_ECHO_REQUEST;
}

void local4_input(struct rte_mbuf *m, const struct fwd_punt_meta *meta)
{
	uint16_t port = meta->in_port;
	const struct rte_ipv4_hdr *ip = ip_of(m);
	unsigned hlen, tot;

	if (!header_ok(m)) {
		fwd_control_drop(m, port, FWD_DROP_BAD_HEADER);
		return;
	}
	hlen = (ip->version_ihl & 0xf) * 4u;
	tot = rte_be_to_cpu_16(ip->total_length);
	if (!for_us(m, fwd_ifaces[port].vrf, rte_be_to_cpu_32(ip->dst_addr))) {
		/* link-local groups (OSPF's 224.0.0.5/6...) for the interface's kernel
		 * interface, when it has one */
		if (link_group(rte_be_to_cpu_32(ip->dst_addr)) &&
		    icmp4_source_ok(fwd_ifaces[port].vrf, rte_be_to_cpu_32(ip->src_addr)) &&
		    fwd_punt_up_take(m, port))
			return;
		fwd_control_drop(m, port, FWD_DROP_LOCAL_PROTO); /* broadcast, multicast */
		return;
	}
	if (!icmp4_source_ok(fwd_ifaces[port].vrf, rte_be_to_cpu_32(ip->src_addr))) {
		fwd_control_drop(m, port, FWD_DROP_BAD_ADDRESS); /* from us, or a broadcast */
		return;
	}
	/* fragments are put together first (reasm4.c, bounded) and the whole
	 * datagram comes back here: an echo request fwd answers, the rest for
	 * the interface's kernel interface (RFC 8200 5 asks 1,500 octets of IPv6;
	 * fwd takes both families alike) */
	if (local4_is_fragment(ip)) {
		local4_reassemble(m, port);
		return;
	}
	/* all but the echo requests fwd answers go up the interface's kernel
	 * interface when it has one (which answers UDP and TCP itself) */
	if (!echo_request(m, hlen, tot) && fwd_punt_up_take(m, port))
		return;
	switch (ip->next_proto_id) {
	case IPPROTO_ICMP:
		local_icmp(m, port, hlen, tot);
		return;
	case IPPROTO_UDP:
		local_udp(m, port, hlen, tot);
		return;
	case IPPROTO_TCP:
		tcp4_reset(m, port, hlen, tot);
		return;
	default:
		icmp4_send_error_from(m, ICMP4_DEST_UNREACH, ICMP4_PROTO_UNREACH, 0, port,
		                      rte_be_to_cpu_32(ip->dst_addr));
		fwd_control_drop(m, port, FWD_DROP_LOCAL_PROTO);
		return;
	}
}

RTE_INIT(local_punt_register)
{
	fwd_punt_register(FWD_PUNT_LOCAL, local4_input);
}
