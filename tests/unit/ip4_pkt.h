/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Frames for the ICMP and local-delivery tests: Ethernet + IPv4 (+ options)
 * + a layer 4 part, checksums valid unless a test spoils them; a capture
 * standing in for ip4_output; global counters read by name. Include in
 * one test file only (it defines functions).
 */
#ifndef FWD_TEST_IP4_PKT_H
#define FWD_TEST_IP4_PKT_H

#include <string.h>

#include <rte_ip.h>
#include <rte_mbuf.h>

#include "ip4/cksum.h"
#include "ip4/icmp_priv.h"
#include "core/counter.h"

#define IP4(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))
#define L2              14u

static const uint8_t mac_ours[6] = { 0x02, 0, 0, 0, 0x01, 0x01 };
static const uint8_t mac_bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const uint8_t mac_mcast[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x05 };

struct tpkt {
	const uint8_t *eth_dst; /* default mac_ours */
	uint8_t tos;
	uint16_t id;
	uint16_t frag; /* flags and offset, host order */
	uint8_t ttl;
	uint8_t proto;
	uint32_t src, dst; /* host order */
	const uint8_t *opts;
	unsigned olen;
	const uint8_t *l4; /* layer 4 bytes, as they are */
	unsigned l4len;
};

static struct rte_mempool *pool;

static inline struct rte_mbuf *tpkt_build(const struct tpkt *t)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	unsigned hlen = 20 + t->olen;

	assert_non_null(m);
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(L2 + hlen + t->l4len));
	assert_non_null(p);
	memcpy(p, t->eth_dst != NULL ? t->eth_dst : mac_ours, 6);
	memcpy(p + 6, "\x02\x00\x00\x00\x00\x02\x08\x00", 8);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + L2);
	ip->version_ihl = (uint8_t)(0x40 | hlen / 4);
	ip->type_of_service = t->tos;
	ip->total_length = rte_cpu_to_be_16((uint16_t)(hlen + t->l4len));
	ip->packet_id = rte_cpu_to_be_16(t->id);
	ip->fragment_offset = rte_cpu_to_be_16(t->frag);
	ip->time_to_live = t->ttl;
	ip->next_proto_id = t->proto;
	ip->src_addr = rte_cpu_to_be_32(t->src);
	ip->dst_addr = rte_cpu_to_be_32(t->dst);
	if (t->olen != 0)
		memcpy(ip + 1, t->opts, t->olen);
	if (t->l4len != 0)
		memcpy(p + L2 + hlen, t->l4, t->l4len);
	ip->hdr_checksum = ip4_cksum(ip);
	return m;
}

static inline struct rte_ipv4_hdr *tpkt_ip(struct rte_mbuf *m)
{
	return rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, L2);
}

/* Set an ICMP (or any one's-complement-summed) message's checksum at off. */
static inline void l4_cksum_set(uint8_t *msg, unsigned len, unsigned off)
{
	msg[off] = msg[off + 1] = 0;
	uint16_t ck = (uint16_t)~rte_raw_cksum(msg, len);
	memcpy(msg + off, &ck, 2);
}

/* A UDP datagram 10.20.1.2:40000 -> dst:33434 carrying payload, checksummed. */
static inline unsigned udp_build(uint8_t *out, uint32_t src, uint32_t dst, const char *payload)
{
	unsigned plen = (unsigned)strlen(payload), len = 8 + plen;
	struct {
		uint32_t s, d;
		uint8_t z, p;
		uint16_t l;
	} __rte_packed ph = { rte_cpu_to_be_32(src), rte_cpu_to_be_32(dst), 0, 17,
		              rte_cpu_to_be_16((uint16_t)len) };

	out[0] = 0x9c, out[1] = 0x40, out[2] = 0x82, out[3] = 0x9a;
	out[4] = (uint8_t)(len >> 8), out[5] = (uint8_t)len, out[6] = out[7] = 0;
	memcpy(out + 8, payload, plen);
	uint32_t sum = (uint32_t)rte_raw_cksum(&ph, sizeof(ph)) + rte_raw_cksum(out, len);
	uint16_t ck = (uint16_t) ~((sum & 0xffff) + (sum >> 16));
	memcpy(out + 6, &ck, 2);
	return len;
}

/* ---------------------------------------------------------------- capture */

#define MAX_SENT 6000
static struct rte_mbuf *sent[MAX_SENT];
static unsigned n_sent;
static int output_rc; /* what the fake ip4_output returns (it always consumes) */

static inline int capture(struct rte_mbuf *m)
{
	if (output_rc != 0 || n_sent == MAX_SENT) {
		rte_pktmbuf_free(m);
		return output_rc != 0 ? output_rc : -ENOBUFS;
	}
	sent[n_sent++] = m;
	return 0;
}

static inline void sent_clear(void)
{
	rte_pktmbuf_free_bulk(sent, n_sent);
	n_sent = 0;
}

static inline uint64_t counter(const char *name)
{
	for (struct fwd_counter *c = fwd_counters(); c != NULL; c = c->next)
		if (strcmp(c->name, name) == 0)
			return c->value;
	fail_msg("no counter %s", name);
	return 0;
}

/* The IPv4 header of a captured packet: valid, no options, TTL 64. */
static inline const uint8_t *sent_ip(unsigned i)
{
	const struct rte_ipv4_hdr *ip =
	        rte_pktmbuf_mtod_offset(sent[i], const struct rte_ipv4_hdr *, L2);

	assert_int_equal(sent[i]->nb_segs, 1);
	assert_int_equal(ip->version_ihl, 0x45);
	assert_true(ip4_cksum_ok(ip, 5));
	assert_int_equal(ip->time_to_live, 64);
	assert_int_equal(rte_pktmbuf_data_len(sent[i]), L2 + rte_be_to_cpu_16(ip->total_length));
	return (const uint8_t *)ip;
}

#endif
