/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6 fragmentation by the router as a source (frag6.h). A router never
 * fragments what it forwards (RFC 8200 5), but an echo reply to a request
 * that needed reassembly is its own packet, larger than the link: Linux
 * fragments it, and so does fwd.
 */
#include <errno.h>
#include <string.h>

#include <netinet/in.h>

#include "ip6/frag6.h"

#define HDR  40u
#define FHDR 8u

static struct rte_mbuf *piece(const uint8_t *frame, uint16_t l2_len, unsigned off, unsigned len,
                              bool more, uint32_t id, struct rte_mempool *pool)
{
	struct rte_mbuf *f = rte_pktmbuf_alloc(pool);
	uint8_t *p, *ip, *fh;
	unsigned plen = FHDR + len;

	if (f == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(f, (uint16_t)(l2_len + HDR + plen));
	if (p == NULL) {
		rte_pktmbuf_free(f);
		return NULL;
	}
	memcpy(p, frame, l2_len + HDR);
	ip = p + l2_len;
	fh = ip + HDR;
	fh[0] = ip[6]; /* the next header of the original */
	fh[1] = 0;
	fh[2] = (uint8_t)(off >> 8);
	fh[3] = (uint8_t)((off & 0xf8) | (more ? 1 : 0));
	fh[4] = (uint8_t)(id >> 24), fh[5] = (uint8_t)(id >> 16);
	fh[6] = (uint8_t)(id >> 8), fh[7] = (uint8_t)id;
	ip[6] = IPPROTO_FRAGMENT;
	ip[4] = (uint8_t)(plen >> 8);
	ip[5] = (uint8_t)plen;
	memcpy(fh + FHDR, frame + l2_len + HDR + off, len);
	return f;
}

int ip6_fragment(const struct rte_mbuf *m, uint16_t l2_len, uint16_t mtu, uint32_t id,
                 struct rte_mempool *pool, struct rte_mbuf **out, unsigned max)
{
	const uint8_t *frame = rte_pktmbuf_mtod(m, const uint8_t *);
	const uint8_t *ip = frame + l2_len;
	unsigned total, chunk, n = 0;

	if (m->nb_segs != 1 || m->data_len < l2_len + HDR || mtu < HDR + FHDR + 8)
		return -EINVAL;
	total = (unsigned)(ip[4] << 8 | ip[5]);
	if (l2_len + HDR + total != m->data_len || ip[6] == IPPROTO_HOPOPTS ||
	    ip[6] == IPPROTO_ROUTING || ip[6] == IPPROTO_FRAGMENT)
		return -EINVAL;
	chunk = (mtu - HDR - FHDR) & ~7u;
	if ((total + chunk - 1) / chunk > max)
		return -E2BIG;
	for (unsigned off = 0; off < total; off += chunk) {
		unsigned len = RTE_MIN(chunk, total - off);

		out[n] = piece(frame, l2_len, off, len, off + len < total, id, pool);
		if (out[n] == NULL) {
			rte_pktmbuf_free_bulk(out, n);
			return -ENOMEM;
		}
		n++;
	}
	return (int)n;
}
