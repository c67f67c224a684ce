/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include <rte_ip.h>

#include "ip4/cksum.h"
#include "ip4/frag.h"

#define OPT_EOL    0
#define OPT_NOP    1
#define OPT_COPIED 0x80

unsigned ip4_frag_copied_options(const uint8_t *opts, unsigned len, uint8_t *out)
{
	unsigned i = 0, n = 0;

	while (i < len && opts[i] != OPT_EOL) {
		unsigned olen = opts[i] == OPT_NOP ? 1 : (i + 1 < len ? opts[i + 1] : 0);
		if (olen < 1 || (opts[i] != OPT_NOP && olen < 2) || i + olen > len)
			break; /* malformed: copy nothing more */
		if (opts[i] & OPT_COPIED) {
			memcpy(out + n, opts + i, olen);
			n += olen;
		}
		i += olen;
	}
	while (n % 4 != 0)
		out[n++] = OPT_EOL;
	return n;
}

/* One fragment: header template hdr (hlen bytes) + len payload bytes from src. */
static struct rte_mbuf *frag_build(struct rte_mempool *pool, uint16_t l2_len, const uint8_t *hdr,
                                   unsigned hlen, const uint8_t *src, unsigned len,
                                   uint16_t frag_field)
{
	struct rte_mbuf *f = rte_pktmbuf_alloc(pool);

	if (f == NULL)
		return NULL;
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(f, l2_len + hlen + len);
	if (p == NULL) {
		rte_pktmbuf_free(f);
		return NULL;
	}
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + l2_len);
	memcpy(ip, hdr, hlen);
	memcpy((uint8_t *)ip + hlen, src, len);
	ip->version_ihl = (uint8_t)(0x40 | (hlen / 4));
	ip->total_length = rte_cpu_to_be_16((uint16_t)(hlen + len));
	ip->fragment_offset = rte_cpu_to_be_16(frag_field);
	ip->hdr_checksum = ip4_cksum(ip);
	return f;
}

int ip4_fragment(const struct rte_mbuf *m, uint16_t l2_len, uint16_t mtu, struct rte_mempool *pool,
                 struct rte_mbuf **out, unsigned max)
{
	const uint8_t *pkt = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(pkt + l2_len);
	unsigned hlen = (ip->version_ihl & 0xf) * 4, tot = rte_be_to_cpu_16(ip->total_length);
	uint16_t frag = rte_be_to_cpu_16(ip->fragment_offset);
	uint8_t hdr2[60];
	unsigned n = 0, off = 0, payload = tot - hlen;

	if (m->nb_segs != 1 || hlen < 20 || tot < hlen || m->data_len < l2_len + tot ||
	    (frag & RTE_IPV4_HDR_DF_FLAG) || mtu < 68)
		return -EINVAL;
	/* later fragments carry the fixed header and the copied options only */
	memcpy(hdr2, ip, 20);
	unsigned hlen2 =
	        20 + ip4_frag_copied_options((const uint8_t *)ip + 20, hlen - 20, hdr2 + 20);
	uint16_t base = frag & RTE_IPV4_HDR_OFFSET_MASK, mf = frag & RTE_IPV4_HDR_MF_FLAG;
	while (off < payload) {
		const uint8_t *h = n == 0 ? (const uint8_t *)ip : hdr2;
		unsigned hl = n == 0 ? hlen : hlen2;
		unsigned len = RTE_MIN(payload - off, (unsigned)((mtu - hl) & ~7u));
		bool last = off + len == payload;
		if (n == max || len == 0)
			goto fail;
		uint16_t field = (uint16_t)((base + off / 8) | (last ? mf : RTE_IPV4_HDR_MF_FLAG));
		out[n] = frag_build(pool, l2_len, h, hl, (const uint8_t *)ip + hlen + off, len,
		                    field);
		if (out[n] == NULL)
			goto fail;
		n++;
		off += len;
	}
	return (int)n;
fail:
	for (unsigned i = 0; i < n; i++)
		rte_pktmbuf_free(out[i]);
	return n == max ? -E2BIG : -ENOMEM;
}
