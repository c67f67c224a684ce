/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP to one of the router's IPv6 addresses that no kernel interface took
 * (ip6/local.c hands it here, to a unicast address of ours, unfragmented):
 * the reset of RFC 9293 3.10.7.1 (core/tcp_rst.h), as for IPv4
 * (ip4/tcp_rst.c): from the address the segment was sent to, never about
 * a reset, a wrong checksum or to a source we never answer
 * (icmp6_source_ok), within the ICMPv6 errors' rate limit (icmp6.c's
 * bucket). The segment is then dropped (local_proto).
 */
#include <rte_ip.h>

#include "core/counter.h"
#include "core/counters.h"
#include "core/daemon.h"
#include "core/tcp_rst.h"
#include "ip6/hdr6.h"
#include "ip6/icmp6_priv.h"
#include "ip6/input.h"

static FWD_COUNTER(rst_sent, "tcp6_resets_sent");
static FWD_COUNTER(rst_ratelimited, "tcp6_resets_ratelimited");
static FWD_COUNTER(rst_no_mbuf, "tcp6_resets_no_mbuf");
static FWD_COUNTER(tcp_invalid, "local6_tcp_invalid");

/* The reset for seg (len bytes) of the packet ip, built and sent on port's link. */
static void tcp6_send_rst(const uint8_t *ip, const struct rte_tcp_hdr *seg, unsigned len,
                          uint16_t port)
{
	struct rte_mbuf *out;
	struct rte_tcp_hdr *rst;
	uint8_t *p, *rip;

	if (!icmp6_ratelimit_take()) {
		rst_ratelimited.value++;
		return;
	}
	out = fwd.pool != NULL ? rte_pktmbuf_alloc(fwd.pool) : NULL;
	p = out != NULL
	            ? (uint8_t *)rte_pktmbuf_append(out, IP6_L2_LEN + IP6_HDR_LEN + FWD_TCP_HDR_LEN)
	            : NULL;
	if (p == NULL) {
		rte_pktmbuf_free(out);
		rst_no_mbuf.value++;
		return;
	}
	memset(p, 0, IP6_L2_LEN);
	rip = p + IP6_L2_LEN;
	icmp6_ip_header(rip, FWD_TCP_HDR_LEN, 0, ip + 24, ip + 8);
	((struct rte_ipv6_hdr *)rip)->proto = IPPROTO_TCP;
	rst = (struct rte_tcp_hdr *)(rip + IP6_HDR_LEN);
	fwd_tcp_rst(rst, seg, len);
	rst->cksum =
	        ip6_l4_cksum((const struct rte_ipv6_hdr *)rip, IPPROTO_TCP, rst, FWD_TCP_HDR_LEN);
	if (icmp6_output(out, port) == 0) /* a failed output is counted there */
		rst_sent.value++;
}

void tcp6_reset(struct rte_mbuf *m, uint16_t port, const uint8_t *ip, unsigned off, unsigned len)
{
	const struct rte_tcp_hdr *seg = (const struct rte_tcp_hdr *)(ip + off);
	unsigned seg_len = len - off;

	if (!fwd_tcp_hdr_ok(seg, seg_len) ||
	    ip6_l4_sum((const struct rte_ipv6_hdr *)ip, IPPROTO_TCP, seg, seg_len) != 0xffff)
		tcp_invalid.value++;
	else if (!(seg->tcp_flags & RTE_TCP_RST_FLAG) &&
	         icmp6_source_ok(fwd_ifaces[port].vrf, ip + 8))
		tcp6_send_rst(ip, seg, seg_len, port);
	fwd_control_drop(m, port, FWD_DROP_LOCAL_PROTO);
}
