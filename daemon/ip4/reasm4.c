/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv4 fragments addressed to the router (ip4/local.c hands them here, on
 * the control thread): read as RFC 791 says, put together by reasm/ (which
 * bounds and counts everything), and the whole datagram handed back to
 * local delivery with a header that no longer says "fragment".
 */
#include <string.h>

#include <rte_ip.h>

#include "core/punt.h"
#include "ip4/icmp_priv.h"
#include "ip4/output.h"
#include "reasm/reasm.h"

#define REASM4_TIMEOUT_S 30 /* Linux's ipfrag_time */

bool local4_is_fragment(const struct rte_ipv4_hdr *ip)
{
	return (ip->fragment_offset &
	        rte_cpu_to_be_16(RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK)) != 0;
}

/* The reassembled datagram: its length and flags, then its checksum. */
static void fix_header(struct rte_mbuf *m)
{
	struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, IP4_L2_LEN);

	ip->total_length = rte_cpu_to_be_16((uint16_t)(rte_pktmbuf_data_len(m) - IP4_L2_LEN));
	ip->fragment_offset &= rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
}

void local4_reassemble(struct rte_mbuf *m, uint16_t port)
{
	const struct rte_ipv4_hdr *ip =
	        rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, IP4_L2_LEN);
	unsigned hlen = (ip->version_ihl & 0xf) * 4u, frag = rte_be_to_cpu_16(ip->fragment_offset);
	struct reasm_frag f = {
		.key = { .id = ip->packet_id, .family = REASM_IP4, .proto = ip->next_proto_id },
		.off = (frag & RTE_IPV4_HDR_OFFSET_MASK) * 8u,
		.len = rte_be_to_cpu_16(ip->total_length) - hlen,
		.more = (frag & RTE_IPV4_HDR_MF_FLAG) != 0,
		.data = (const uint8_t *)ip + hlen,
		.head_len = IP4_L2_LEN + hlen,
		.timeout_s = REASM4_TIMEOUT_S,
	};
	struct fwd_punt_meta meta = { .reason = FWD_PUNT_LOCAL,
		                      .in_port = port,
		                      .out_port = port,
		                      .drop = FWD_PUNT_NO_DROP };
	struct rte_mbuf *whole;
	uint16_t aux;

	memcpy(f.key.src, &ip->src_addr, 4);
	memcpy(f.key.dst, &ip->dst_addr, 4);
	whole = reasm_add(m, port, &f, &aux);
	if (whole == NULL)
		return;
	fix_header(whole);
	local4_input(whole, &meta);
}
