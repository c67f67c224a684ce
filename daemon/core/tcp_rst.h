/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The reset that RFC 9293 3.10.7.1 answers a segment with when no
 * connection exists (state CLOSED): the router's own ports, which serve
 * no TCP (ip4/tcp_rst.c, ip6/tcp_rst6.c). Headers only, the same in both
 * families, so written once here; each family adds its IP header and
 * pseudo-header checksum.
 */
#ifndef FWD_TCP_RST_H
#define FWD_TCP_RST_H

#include <stdbool.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_tcp.h>

#define FWD_TCP_HDR_LEN 20u

/* A whole TCP header in len bytes, its data offset within them (read only
 * once len says the header is there). */
static inline bool fwd_tcp_hdr_ok(const struct rte_tcp_hdr *seg, unsigned len)
{
	return len >= FWD_TCP_HDR_LEN && (seg->data_off >> 4) * 4u >= FWD_TCP_HDR_LEN &&
	       (seg->data_off >> 4) * 4u <= len;
}

/*
 * Fill rst (FWD_TCP_HDR_LEN bytes, no options) with the answer to seg, a
 * segment of len bytes (header and data) that is no reset itself: ports
 * swapped; if seg has ACK, <SEQ=SEG.ACK><CTL=RST>, else
 * <SEQ=0><ACK=SEG.SEQ+SEG.LEN><CTL=RST,ACK>, where SEG.LEN counts the data,
 * SYN and FIN. Window and urgent pointer 0; checksum 0, for the caller.
 */
static inline void fwd_tcp_rst(struct rte_tcp_hdr *rst, const struct rte_tcp_hdr *seg, unsigned len)
{
	uint8_t f = seg->tcp_flags;

	memset(rst, 0, sizeof(*rst));
	rst->src_port = seg->dst_port;
	rst->dst_port = seg->src_port;
	rst->data_off = (uint8_t)(FWD_TCP_HDR_LEN / 4 << 4);
	if (f & RTE_TCP_ACK_FLAG) {
		rst->sent_seq = seg->recv_ack;
		rst->tcp_flags = RTE_TCP_RST_FLAG;
		return;
	}
	uint32_t seg_len = len - (seg->data_off >> 4) * 4u + !!(f & RTE_TCP_SYN_FLAG) +
	                   !!(f & RTE_TCP_FIN_FLAG);

	rst->recv_ack = rte_cpu_to_be_32(rte_be_to_cpu_32(seg->sent_seq) + seg_len);
	rst->tcp_flags = RTE_TCP_RST_FLAG | RTE_TCP_ACK_FLAG;
}

#endif
