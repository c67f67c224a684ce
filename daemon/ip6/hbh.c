/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packets to forward that carry a hop-by-hop options header (FWD_PUNT_HBH6),
 * on the control thread: the worker found them a next hop and checked the
 * hop limit, source and size, and left the options to us (RFC 8200 4.3).
 * Pad1, PadN and Router Alert (nobody here listens for it, so the packet
 * goes on, as in Linux) pass; an unknown option does what the high bits of
 * its type say (hdr6.h): a drop (bad_header), with a Parameter Problem code
 * 2 pointing at it when they ask for one. A packet that passes goes out
 * through ip6_output with its hop limit decremented: consumed here, created
 * there, so that the counters still add up.
 */
#include <rte_ip.h>

#include "core/counters.h"
#include "core/punt.h"
#include "ip6/hdr6.h"
#include "ip6/icmp6.h"
#include "ip6/icmp6_priv.h"
#include "ip6/input.h"
#include "ip6/output.h"

void hbh6_forward(struct rte_mbuf *m, const struct fwd_punt_meta *meta)
{
	struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv6_hdr *, IP6_L2_LEN);
	unsigned len = IP6_HDR_LEN + rte_be_to_cpu_16(ip->payload_len), hlen;
	uint16_t port = meta->in_port;
	uint32_t pointer = 0;

	/* the worker checked the header and trimmed the frame to the packet */
	hlen = ip6_ext_len((const uint8_t *)ip, len, IP6_HDR_LEN, IPPROTO_HOPOPTS);
	if (hlen == 0) {
		fwd_control_drop(m, port, FWD_DROP_BAD_HEADER);
		return;
	}
	switch (ip6_opts_check((const uint8_t *)ip, IP6_HDR_LEN, hlen, true, &pointer)) {
	case IP6_OPTS_OK:
		break;
	case IP6_OPTS_PARAM:
		icmp6_send_error(m, ICMP6_PARAM_PROB, ICMP6_PARAMPROB_OPTION, pointer, port);
		/* fall through */
	default:
		fwd_control_drop(m, port, FWD_DROP_BAD_HEADER);
		return;
	}
	ip->hop_limits--;
	m->ol_flags = 0;
	fwd_control_ctrs(port)->consumed++;
	ip6_output(m, port);
}

RTE_INIT(hbh6_punt_register)
{
	fwd_punt_register(FWD_PUNT_HBH6, hbh6_forward);
}
