/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip4_fragment (RFC 791, RFC 1812 4.2.2.7): every fragment checked field by
 * field against the original, and the fragments reassembled; options copied
 * or not by their "copied" flag; the limits (MTU 68, DF, IP4_FRAG_MAX, an
 * empty pool, malformed input) refused with nothing leaked.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <rte_ip.h>

#include "ip4/cksum.h"
#include "ip4/frag.h"
#include "test_eal.h"

#define L2 14u

static struct rte_mempool *pool;

/* Options: NOP, security (0x82, copied, 11 bytes), record route (0x07, not
 * copied, 7 bytes), loose source route (0x83, copied, 7 bytes), EOL pad. */
static const uint8_t opts_mixed[28] = {
	0x01,                                   /* NOP */
	0x82, 11,   1, 2,  3, 4, 5, 6, 7, 8, 9, /* security, copied */
	0x07, 7,    4, 0,  0, 0, 0,             /* record route, not copied */
	0x83, 7,    4, 10, 1, 1, 1,             /* loose source route, copied */
	0x00, 0x00,                             /* EOL */
};
static const uint8_t opts_mixed_copied[20] = {
	0x82, 11, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0x83, 7, 4, 10, 1, 1, 1, 0, 0,
};

/* A frame: 14 bytes of Ethernet, IPv4 header with opts, payload of a pattern. */
static struct rte_mbuf *make_pkt(const uint8_t *opts, unsigned olen, unsigned payload,
                                 uint16_t frag_field)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	unsigned hlen = 20 + olen;

	assert_non_null(m);
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(L2 + hlen + payload));
	assert_non_null(p);
	memset(p, 0xee, L2);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + L2);
	ip->version_ihl = (uint8_t)(0x40 | hlen / 4);
	ip->type_of_service = 0x28;
	ip->total_length = rte_cpu_to_be_16((uint16_t)(hlen + payload));
	ip->packet_id = rte_cpu_to_be_16(0xbeef);
	ip->fragment_offset = rte_cpu_to_be_16(frag_field);
	ip->time_to_live = 63;
	ip->next_proto_id = 17;
	ip->src_addr = rte_cpu_to_be_32(0x0a140102);
	ip->dst_addr = rte_cpu_to_be_32(0x0a140202);
	if (olen != 0)
		memcpy(ip + 1, opts, olen);
	for (unsigned i = 0; i < payload; i++)
		p[L2 + hlen + i] = (uint8_t)(i * 7 + i / 251);
	ip->hdr_checksum = ip4_cksum(ip);
	return m;
}

static const struct rte_ipv4_hdr *ip_of(const struct rte_mbuf *m)
{
	return rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, L2);
}

/* One fragment's header against the original's; returns its payload length. */
static unsigned check_frag_header(const struct rte_ipv4_hdr *o, const struct rte_mbuf *f,
                                  unsigned mtu, const uint8_t *opts, unsigned olen)
{
	const struct rte_ipv4_hdr *ip = ip_of(f);
	unsigned hlen = (ip->version_ihl & 0xf) * 4u, tot = rte_be_to_cpu_16(ip->total_length);

	assert_int_equal(f->nb_segs, 1);
	assert_int_equal(f->data_len, L2 + tot);
	assert_int_equal(f->pkt_len, L2 + tot);
	assert_true(tot <= mtu);
	assert_int_equal(ip->version_ihl >> 4, 4);
	assert_int_equal(hlen, 20 + olen);
	if (olen != 0)
		assert_memory_equal(ip + 1, opts, olen);
	assert_true(ip4_cksum_ok(ip, hlen / 4));
	assert_int_equal(ip->type_of_service, o->type_of_service);
	assert_int_equal(ip->packet_id, o->packet_id);
	assert_int_equal(ip->time_to_live, o->time_to_live);
	assert_int_equal(ip->next_proto_id, o->next_proto_id);
	assert_int_equal(ip->src_addr, o->src_addr);
	assert_int_equal(ip->dst_addr, o->dst_addr);
	assert_false(ip->fragment_offset & rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG | 0x8000));
	return tot - hlen;
}

/*
 * Fragment m at mtu and check everything: headers, offsets in 8-byte units
 * following on from the original's, MF on all but the last (and on the last
 * as the original had it), and the payloads put back together equal to the
 * original's. Options: the first fragment has all, the others copied_opts.
 */
static void check_fragments(struct rte_mbuf *m, unsigned mtu, const uint8_t *copied_opts,
                            unsigned copied_len, unsigned expect_n)
{
	struct rte_mbuf *frags[IP4_FRAG_MAX];
	const struct rte_ipv4_hdr *o = ip_of(m);
	unsigned ohlen = (o->version_ihl & 0xf) * 4u;
	unsigned payload = rte_be_to_cpu_16(o->total_length) - ohlen, off = 0;
	uint16_t ofrag = rte_be_to_cpu_16(o->fragment_offset);
	unsigned in_use = rte_mempool_in_use_count(pool);
	int n = ip4_fragment(m, L2, (uint16_t)mtu, pool, frags, IP4_FRAG_MAX);

	assert_int_equal(n, expect_n);
	for (int i = 0; i < n; i++) {
		const struct rte_ipv4_hdr *ip = ip_of(frags[i]);
		unsigned len =
		        i == 0 ? check_frag_header(o, frags[i], mtu, (const uint8_t *)(o + 1),
		                                   ohlen - 20)
		               : check_frag_header(o, frags[i], mtu, copied_opts, copied_len);
		uint16_t field = rte_be_to_cpu_16(ip->fragment_offset);
		bool last = i == n - 1;

		assert_int_equal((field & RTE_IPV4_HDR_OFFSET_MASK) * 8u,
		                 (ofrag & RTE_IPV4_HDR_OFFSET_MASK) * 8u + off);
		if (!last)
			assert_int_equal(len % 8, 0);
		assert_int_equal(!!(field & RTE_IPV4_HDR_MF_FLAG),
		                 last ? !!(ofrag & RTE_IPV4_HDR_MF_FLAG) : 1);
		assert_true(off + len <= payload);
		assert_memory_equal((const uint8_t *)ip + (ip->version_ihl & 0xf) * 4u,
		                    (const uint8_t *)o + ohlen + off, len);
		off += len;
	}
	assert_int_equal(off, payload);
	rte_pktmbuf_free_bulk(frags, (unsigned)n);
	assert_int_equal(rte_mempool_in_use_count(pool), in_use);
	rte_pktmbuf_free(m);
}

static unsigned div_up(unsigned a, unsigned b)
{
	return (a + b - 1) / b;
}

static void test_plain(void **state)
{
	static const unsigned mtus[] = { 68, 69, 76, 100, 296, 576, 1000, 1006, 1280, 1499 };

	(void)state;
	for (unsigned i = 0; i < RTE_DIM(mtus); i++) {
		unsigned per = (mtus[i] - 20) & ~7u;
		check_fragments(make_pkt(NULL, 0, 1480, 0), mtus[i], NULL, 0, div_up(1480, per));
	}
	/* odd payload lengths: only the last fragment may be short or odd */
	for (unsigned len = 1; len < 200; len += 13)
		check_fragments(make_pkt(NULL, 0, 1000 + len, 0), 576, NULL, 0,
		                div_up(1000 + len, 552));
}

static void test_options(void **state)
{
	(void)state;
	/* 48-byte header: first fragments carry 1280-48, later ones 1280-40 */
	check_fragments(make_pkt(opts_mixed, sizeof(opts_mixed), 4000, 0), 1280, opts_mixed_copied,
	                sizeof(opts_mixed_copied), 1 + div_up(4000 - 1232, 1240 & ~7u));
	/* only uncopied options: later fragments have a bare 20-byte header */
	static const uint8_t rr[8] = { 0x07, 7, 4, 0, 0, 0, 0, 0 };
	check_fragments(make_pkt(rr, sizeof(rr), 3000, 0), 576, NULL, 0,
	                1 + div_up(3000 - 544, 552));
	/* a copied option needing padding: 7 bytes + EOL */
	static const uint8_t lsrr[8] = { 0x83, 7, 4, 1, 2, 3, 4, 0 };
	check_fragments(make_pkt(lsrr, sizeof(lsrr), 3000, 0), 576, lsrr, 8, 1 + div_up(2456, 544));
}

static void test_copied_options_parser(void **state)
{
	uint8_t out[40];

	(void)state;
	assert_int_equal(ip4_frag_copied_options(opts_mixed, sizeof(opts_mixed), out), 20);
	assert_memory_equal(out, opts_mixed_copied, 20);
	/* malformed: a zero length stops the walk, an overrun too */
	static const uint8_t zero_len[8] = { 0x83, 7, 4, 1, 2, 3, 4, 0x82 };
	assert_int_equal(ip4_frag_copied_options(zero_len, 8, out), 8);
	static const uint8_t zero[4] = { 0x82, 0, 1, 1 };
	assert_int_equal(ip4_frag_copied_options(zero, 4, out), 0);
	static const uint8_t over[4] = { 0x01, 0x83, 9, 1 };
	assert_int_equal(ip4_frag_copied_options(over, 4, out), 0);
	static const uint8_t one[4] = { 0x83, 1, 0, 0 };
	assert_int_equal(ip4_frag_copied_options(one, 4, out), 0);
	static const uint8_t eol[4] = { 0x00, 0x83, 3, 1 };
	assert_int_equal(ip4_frag_copied_options(eol, 4, out), 0);
	/* 40 bytes of copied options survive whole */
	uint8_t big[40] = { 0x83, 39 };
	assert_int_equal(ip4_frag_copied_options(big, 40, out), 40);
	assert_memory_equal(out, big, 39);
}

static void test_of_fragment(void **state)
{
	(void)state;
	/* a non-last fragment (MF, offset 100*8): every piece keeps MF */
	check_fragments(make_pkt(NULL, 0, 1480, RTE_IPV4_HDR_MF_FLAG | 100), 576, NULL, 0, 3);
	/* the last fragment (offset 100*8, MF clear): its last piece clears MF */
	check_fragments(make_pkt(NULL, 0, 1481, 100), 576, NULL, 0, 3);
}

static void test_mtu_68(void **state)
{
	uint8_t opts40[40];

	(void)state;
	/* 60-byte header: 8 bytes in the first fragment, then 40-byte copied headers */
	memset(opts40, 0x01, sizeof(opts40));
	opts40[0] = 0x83;
	opts40[1] = 40;
	check_fragments(make_pkt(opts40, 40, 100, 0), 68, opts40, 40, 1 + div_up(92, 8));
	check_fragments(make_pkt(NULL, 0, 9580, 0), 68, NULL, 0, div_up(9580, 48));
}

static void test_refused(void **state)
{
	struct rte_mbuf *frags[IP4_FRAG_MAX], *m;
	unsigned in_use;

	(void)state;
	m = make_pkt(NULL, 0, 1480, RTE_IPV4_HDR_DF_FLAG);
	in_use = rte_mempool_in_use_count(pool);
	assert_int_equal(ip4_fragment(m, L2, 576, pool, frags, IP4_FRAG_MAX), -EINVAL);
	rte_pktmbuf_free(m);
	m = make_pkt(NULL, 0, 1480, 0);
	assert_int_equal(ip4_fragment(m, L2, 67, pool, frags, IP4_FRAG_MAX), -EINVAL);
	/* total length past the frame, below the header, IHL < 5 */
	struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, L2);
	ip->total_length = rte_cpu_to_be_16(1501);
	assert_int_equal(ip4_fragment(m, L2, 576, pool, frags, IP4_FRAG_MAX), -EINVAL);
	ip->total_length = rte_cpu_to_be_16(16);
	assert_int_equal(ip4_fragment(m, L2, 576, pool, frags, IP4_FRAG_MAX), -EINVAL);
	ip->total_length = rte_cpu_to_be_16(1500);
	ip->version_ihl = 0x44;
	assert_int_equal(ip4_fragment(m, L2, 576, pool, frags, IP4_FRAG_MAX), -EINVAL);
	ip->version_ihl = 0x45;
	/* a chained mbuf */
	struct rte_mbuf *seg = rte_pktmbuf_alloc(pool);
	assert_non_null(seg);
	assert_int_equal(rte_pktmbuf_chain(m, seg), 0);
	assert_int_equal(ip4_fragment(m, L2, 576, pool, frags, IP4_FRAG_MAX), -EINVAL);
	rte_pktmbuf_free(m);
	assert_int_equal(rte_mempool_in_use_count(pool), in_use - 1);
}

/* Offsets past 65528 cannot be expressed: fragmenting such a fragment
 * would wrap the 13-bit offset into the flag bits. */
static void test_offset_overflow(void **state)
{
	struct rte_mbuf *frags[IP4_FRAG_MAX];
	struct rte_mbuf *m = make_pkt(NULL, 0, 1480, RTE_IPV4_HDR_MF_FLAG | 8100);
	unsigned in_use = rte_mempool_in_use_count(pool);

	(void)state;
	assert_int_equal(ip4_fragment(m, L2, 576, pool, frags, IP4_FRAG_MAX), -EINVAL);
	assert_int_equal(rte_mempool_in_use_count(pool), in_use);
	rte_pktmbuf_free(m);
	/* the largest that fits still works: 8000*8 + 1480 <= 65535 */
	check_fragments(make_pkt(NULL, 0, 1480, 8000), 576, NULL, 0, 3);
}

static void test_caps(void **state)
{
	struct rte_mbuf *frags[IP4_FRAG_MAX];
	struct rte_mbuf *m = make_pkt(NULL, 0, 1480, 0);
	unsigned in_use = rte_mempool_in_use_count(pool);

	(void)state;
	/* the caller's max */
	assert_int_equal(ip4_fragment(m, L2, 576, pool, frags, 2), -E2BIG);
	assert_int_equal(ip4_fragment(m, L2, 576, pool, frags, 3), 3);
	rte_pktmbuf_free_bulk(frags, 3);
	assert_int_equal(rte_mempool_in_use_count(pool), in_use);
	rte_pktmbuf_free(m);
	/* IP4_FRAG_MAX itself: 13000 bytes at MTU 68 would be 271 fragments */
	m = make_pkt(NULL, 0, 13000, 0);
	in_use = rte_mempool_in_use_count(pool);
	assert_int_equal(ip4_fragment(m, L2, 68, pool, frags, IP4_FRAG_MAX), -E2BIG);
	assert_int_equal(rte_mempool_in_use_count(pool), in_use);
	rte_pktmbuf_free(m);
}

static void test_no_mbufs(void **state)
{
	struct rte_mbuf *frags[IP4_FRAG_MAX];
	struct rte_mempool *small = test_pool("frag_small", 3, 2048);
	struct rte_mbuf *m = make_pkt(NULL, 0, 1480, 0);

	(void)state;
	assert_non_null(small);
	assert_int_equal(ip4_fragment(m, L2, 576, small, frags, IP4_FRAG_MAX), 3);
	rte_pktmbuf_free_bulk(frags, 3);
	assert_int_equal(ip4_fragment(m, L2, 296, small, frags, IP4_FRAG_MAX), -ENOMEM);
	assert_int_equal(rte_mempool_avail_count(small), 3);
	rte_pktmbuf_free(m);
	rte_mempool_free(small);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_copied_options_parser),
		cmocka_unit_test(test_of_fragment),
		cmocka_unit_test(test_mtu_68),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_offset_overflow),
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_no_mbufs),
	};
	int rc;

	if (test_eal_init("frag") < 0)
		return 1;
	pool = test_pool("frag", 2047, 16384);
	if (pool == NULL)
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	rte_mempool_free(pool);
	rte_eal_cleanup();
	return rc;
}
