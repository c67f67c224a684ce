/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP to one of the router's IPv4 addresses that no kernel interface took
 * (ip4/local.c hands it here, unicast, from a single host, unfragmented):
 * fwd serves no TCP, so every port is closed, and a segment gets the reset
 * RFC 9293 3.10.7.1 asks for (core/tcp_rst.h), as Linux answers it, from
 * the address it was sent to. Never about a reset or a segment whose
 * checksum is wrong, and within the ICMP errors' rate limit (icmp.c's
 * bucket, dataplane.icmp_rate), so that a flood of SYNs from forged
 * sources cannot make the router a reflector. The segment is then
 * dropped (local_proto), as a UDP datagram answered with port unreachable.
 */
#include <rte_ip.h>

#include "core/counter.h"
#include "core/counters.h"
#include "core/daemon.h"
#include "core/tcp_rst.h"
#include "ip4/icmp_priv.h"
#include "ip4/output.h"

#define IP4_HDR_LEN 20u

static FWD_COUNTER(rst_sent, "tcp_resets_sent");
static FWD_COUNTER(rst_ratelimited, "tcp_resets_ratelimited");
static FWD_COUNTER(rst_no_mbuf, "tcp_resets_no_mbuf");
static FWD_COUNTER(tcp_invalid, "local_tcp_invalid");

/* The reset for seg (len bytes) of the packet ip that came in on port, built and sent. */
static void tcp4_send_rst(const struct rte_ipv4_hdr *ip, const struct rte_tcp_hdr *seg,
                          unsigned len, uint16_t port)
{
	struct rte_mbuf *out;
	struct rte_ipv4_hdr *rip;
	struct rte_tcp_hdr *rst;
	uint8_t *p;

	if (!icmp4_ratelimit_take()) {
		rst_ratelimited.value++;
		return;
	}
	out = fwd.pool != NULL ? rte_pktmbuf_alloc(fwd.pool) : NULL;
	p = out != NULL
	            ? (uint8_t *)rte_pktmbuf_append(out, IP4_L2_LEN + IP4_HDR_LEN + FWD_TCP_HDR_LEN)
	            : NULL;
	if (p == NULL) {
		rte_pktmbuf_free(out);
		rst_no_mbuf.value++;
		return;
	}
	memset(p, 0, IP4_L2_LEN);
	rip = (struct rte_ipv4_hdr *)(p + IP4_L2_LEN);
	icmp4_ip_header(rip, 0, IP4_HDR_LEN + FWD_TCP_HDR_LEN, rte_be_to_cpu_32(ip->dst_addr),
	                rte_be_to_cpu_32(ip->src_addr));
	rip->next_proto_id = IPPROTO_TCP;
	rip->hdr_checksum = 0;
	rip->hdr_checksum = rte_ipv4_cksum(rip);
	rst = (struct rte_tcp_hdr *)(rip + 1);
	fwd_tcp_rst(rst, seg, len);
	rst->cksum = rte_ipv4_udptcp_cksum(rip, rst);
	ip4_output_answers(out, port);
	if (icmp4_output(out) == 0) /* a failed output is counted there */
		rst_sent.value++;
}

void tcp4_reset(struct rte_mbuf *m, uint16_t port, unsigned hlen, unsigned tot)
{
	const struct rte_ipv4_hdr *ip =
	        rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, IP4_L2_LEN);
	const struct rte_tcp_hdr *seg = (const struct rte_tcp_hdr *)((const uint8_t *)ip + hlen);

	if (!fwd_tcp_hdr_ok(seg, tot - hlen) || rte_ipv4_udptcp_cksum_verify(ip, seg) != 0)
		tcp_invalid.value++;
	else if (!(seg->tcp_flags & RTE_TCP_RST_FLAG))
		tcp4_send_rst(ip, seg, tot - hlen, port);
	fwd_control_drop(m, port, FWD_DROP_LOCAL_PROTO);
}
