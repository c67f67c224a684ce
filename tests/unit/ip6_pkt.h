/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Frames for the IPv6 tests: Ethernet + IPv6 + extension headers + an
 * upper-layer part, each as given; checksums made by a plain RFC 1071 sum
 * of the test's own (not the daemon's); a capture standing in for the
 * control thread's output; global counters read by name. Include after
 * <cmocka.h>, in one test file only (it defines functions).
 */
#ifndef FWD_TEST_IP6_PKT_H
#define FWD_TEST_IP6_PKT_H

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include <rte_ip.h>
#include <rte_mbuf.h>

#include "core/counter.h"

#define L2 14u

static const uint8_t mac_ours[6] = { 0x02, 0, 0, 0, 0x01, 0x01 };
static const uint8_t mac_peer[6] = { 0x02, 0, 0, 0, 0, 0x02 };
static const uint8_t mac_group[6] = { 0x33, 0x33, 0, 0, 0, 0x01 };

/* The 16 bytes of IPv6 address s. */
static inline const uint8_t *a6(const char *s)
{
	static uint8_t ring[16][16];
	static unsigned next;
	uint8_t *a = ring[next++ % 16];

	assert_int_equal(inet_pton(AF_INET6, s, a), 1);
	return a;
}

struct t6 {
	const uint8_t *eth_dst; /* default mac_ours */
	uint8_t tc;
	uint32_t flow; /* flow label */
	uint8_t hlim;
	uint8_t nh; /* the fixed header's next header */
	const char *src, *dst;
	const uint8_t *ext; /* extension headers, as they are */
	unsigned extlen;
	const uint8_t *l4; /* the upper-layer part, as it is */
	unsigned l4len;
	unsigned pad;    /* Ethernet padding after the packet */
	int plen_adjust; /* added to the payload length written */
};

static struct rte_mempool *pool;

static inline struct rte_mbuf *t6_build(const struct t6 *t)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	unsigned plen = t->extlen + t->l4len;
	uint8_t *p;

	assert_non_null(m);
	p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(L2 + 40 + plen + t->pad));
	assert_non_null(p);
	memset(p, 0, L2 + 40 + plen + t->pad);
	memcpy(p, t->eth_dst != NULL ? t->eth_dst : mac_ours, 6);
	memcpy(p + 6, mac_peer, 6);
	p[12] = 0x86, p[13] = 0xdd;
	p[14] = (uint8_t)(0x60 | t->tc >> 4);
	p[15] = (uint8_t)(t->tc << 4 | (t->flow >> 16 & 0xf));
	p[16] = (uint8_t)(t->flow >> 8);
	p[17] = (uint8_t)t->flow;
	p[18] = (uint8_t)((plen + t->plen_adjust) >> 8);
	p[19] = (uint8_t)(plen + t->plen_adjust);
	p[20] = t->nh;
	p[21] = t->hlim;
	memcpy(p + 22, a6(t->src), 16);
	memcpy(p + 38, a6(t->dst), 16);
	if (t->extlen != 0)
		memcpy(p + L2 + 40, t->ext, t->extlen);
	if (t->l4len != 0)
		memcpy(p + L2 + 40 + t->extlen, t->l4, t->l4len);
	return m;
}

/* RFC 1071, the plain way: 16-bit words, big-endian, carries folded. */
static inline uint32_t sum16(const uint8_t *p, unsigned n, uint32_t sum)
{
	for (unsigned i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	return sum;
}

static inline uint16_t fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* The sum of an upper-layer message with its pseudo-header (RFC 8200 8.1):
 * 0xffff when its checksum is right. */
static inline uint16_t l4_sum(const char *src, const char *dst, uint8_t proto, const uint8_t *l4,
                              unsigned len)
{
	uint32_t sum = sum16(a6(src), 16, 0);

	sum = sum16(a6(dst), 16, sum);
	sum += len + proto;
	return fold(sum16(l4, len, sum));
}

/* Set the checksum at off of an upper-layer message from src to dst. */
static inline void l4_cksum_set(const char *src, const char *dst, uint8_t proto, uint8_t *l4,
                                unsigned len, unsigned off)
{
	uint16_t ck;

	l4[off] = l4[off + 1] = 0;
	ck = (uint16_t)~l4_sum(src, dst, proto, l4, len);
	l4[off] = (uint8_t)(ck >> 8);
	l4[off + 1] = (uint8_t)ck;
}

/* ---------------------------------------------------------------- capture */

#define MAX_SENT 2048
static struct rte_mbuf *sent[MAX_SENT];
static uint16_t sent_port[MAX_SENT]; /* interface ids */
static unsigned n_sent;

static inline int capture(struct rte_mbuf *m, uint16_t port)
{
	if (n_sent == MAX_SENT) {
		rte_pktmbuf_free(m);
		return -ENOBUFS;
	}
	sent_port[n_sent] = port;
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

/* The IPv6 header of captured packet i: version 6, hop limit 64, next
 * header ICMPv6, the frame exactly the packet, the ICMPv6 checksum right
 * (by the test's own sum). */
static inline const uint8_t *sent_ip6(unsigned i)
{
	const uint8_t *ip = rte_pktmbuf_mtod_offset(sent[i], const uint8_t *, L2);
	unsigned plen = (unsigned)(ip[4] << 8 | ip[5]);
	uint32_t sum;

	assert_int_equal(sent[i]->nb_segs, 1);
	assert_int_equal(ip[0] >> 4, 6);
	assert_int_equal(ip[6], 58);
	assert_int_equal(ip[7], 64);
	assert_int_equal(rte_pktmbuf_data_len(sent[i]), L2 + 40 + plen);
	sum = sum16(ip + 8, 32, 0) + plen + 58;
	assert_int_equal(fold(sum16(ip + 40, plen, sum)), 0xffff);
	return ip;
}

#endif
