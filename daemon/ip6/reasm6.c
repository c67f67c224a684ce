/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6 fragments addressed to the router (ip6/local.c hands them here, on
 * the control thread), as RFC 8200 4.5 reads them: the unfragmentable part
 * (the header and what precedes the Fragment header) comes from the first
 * fragment, the Fragment header goes, and the header before it names the
 * one that followed it. reasm/ puts the pieces together, bounds them and
 * counts every drop (overlaps end the datagram, RFC 5722). An atomic
 * fragment (offset 0, M clear) never comes here: it is whole (RFC 6946).
 */
#include <string.h>

#include "core/punt.h"
#include "ip6/icmp6_priv.h"
#include "ip6/input.h"
#include "reasm/reasm.h"

#define REASM6_TIMEOUT_S 60 /* RFC 8200 4.5 */

/* The datagram put together: the next header the Fragment header named,
 * in the header that named the Fragment header (at nh_off), and the
 * payload length. */
static void fix_header(struct rte_mbuf *m, uint16_t aux)
{
	uint8_t *ip = rte_pktmbuf_mtod_offset(m, uint8_t *, IP6_L2_LEN);
	unsigned plen = rte_pktmbuf_data_len(m) - IP6_L2_LEN - IP6_HDR_LEN;

	ip[aux >> 8] = (uint8_t)aux;
	ip[4] = (uint8_t)(plen >> 8);
	ip[5] = (uint8_t)plen;
}

void local6_reassemble(struct rte_mbuf *m, uint16_t port, unsigned frag_off, unsigned nh_off)
{
	const uint8_t *ip = rte_pktmbuf_mtod_offset(m, const uint8_t *, IP6_L2_LEN);
	const uint8_t *fh = ip + frag_off;
	unsigned len = IP6_HDR_LEN + (ip[4] << 8 | ip[5]), offlg = fh[2] << 8 | fh[3];
	struct reasm_frag f = {
		.key = { .family = REASM_IP6 },
		.off = offlg & 0xfff8u,
		.len = len - frag_off - 8,
		.more = (offlg & 1) != 0,
		.data = fh + 8,
		.head_len = IP6_L2_LEN + frag_off,
		.aux = (uint16_t)(nh_off << 8 | fh[0]), /* nh_off < head_len <= REASM_HEAD_MAX */
		.timeout_s = REASM6_TIMEOUT_S,
	};
	struct fwd_punt_meta meta = { .reason = FWD_PUNT_LOCAL6,
		                      .in_port = port,
		                      .out_port = port,
		                      .drop = FWD_PUNT_NO_DROP };
	struct rte_mbuf *whole;
	uint16_t aux;

	memcpy(&f.key.id, fh + 4, 4);
	memcpy(f.key.src, ip + 8, 16);
	memcpy(f.key.dst, ip + 24, 16);
	whole = reasm_add(m, port, &f, &aux);
	if (whole == NULL)
		return;
	fix_header(whole, aux);
	local6_input(whole, &meta);
}
