/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ip6_fragment (RFC 8200 4.5, the router as a source): each fragment's
 * header, Fragment header and share of the payload checked, the pieces put
 * back together; a packet with an unfragmentable part beyond its header,
 * too many pieces or an empty pool refused with nothing leaked.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <netinet/in.h>

#include "ip6/frag6.h"
#include "test_eal.h"

#define L2 14u

static struct rte_mempool *pool;

/* A frame: 14 bytes of Ethernet, an IPv6 header naming nh, plen bytes of a pattern. */
static struct rte_mbuf *frame(unsigned plen, uint8_t nh)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(L2 + 40 + plen));

	memset(p, 0xaa, L2);
	memset(p + L2, 0, 40);
	p[L2] = 0x60;
	p[L2 + 4] = (uint8_t)(plen >> 8), p[L2 + 5] = (uint8_t)plen;
	p[L2 + 6] = nh;
	p[L2 + 7] = 64;
	p[L2 + 8] = 0x20, p[L2 + 23] = 1;
	p[L2 + 24] = 0x20, p[L2 + 39] = 2;
	for (unsigned i = 0; i < plen; i++)
		p[L2 + 40 + i] = (uint8_t)(i * 13 + i / 251);
	return m;
}

static void test_split(void **state)
{
	struct rte_mbuf *m = frame(3000, IPPROTO_UDP), *out[IP6_FRAG_MAX];
	const uint8_t *orig = rte_pktmbuf_mtod(m, const uint8_t *);
	unsigned in_use = rte_mempool_in_use_count(pool), off = 0;
	int n;

	(void)state;
	n = ip6_fragment(m, L2, 1280, 0x01020304, pool, out, IP6_FRAG_MAX);
	assert_int_equal(n, 3); /* 1232 + 1232 + 536 */
	for (int i = 0; i < n; i++) {
		const uint8_t *f = rte_pktmbuf_mtod(out[i], const uint8_t *), *ip = f + L2;
		unsigned plen = (unsigned)(ip[4] << 8 | ip[5]), offlg = ip[42] << 8 | ip[43];

		assert_true(rte_pktmbuf_data_len(out[i]) - L2 <= 1280);
		assert_int_equal(rte_pktmbuf_data_len(out[i]), L2 + 40 + plen);
		assert_memory_equal(f, orig, L2 + 4); /* link header, version, flow label */
		assert_int_equal(ip[6], IPPROTO_FRAGMENT);
		assert_memory_equal(ip + 7, orig + L2 + 7, 33); /* hop limit, addresses */
		assert_int_equal(ip[40], IPPROTO_UDP);
		assert_int_equal(ip[41], 0);
		assert_int_equal(offlg & 0xfff8, off);
		assert_int_equal(offlg & 1, i < n - 1);
		assert_memory_equal(ip + 44, "\x01\x02\x03\x04", 4);
		assert_true(i == n - 1 || (plen - 8) % 8 == 0);
		assert_memory_equal(ip + 48, orig + L2 + 40 + off, plen - 8);
		off += plen - 8;
	}
	assert_int_equal(off, 3000);
	rte_pktmbuf_free_bulk(out, (unsigned)n);
	rte_pktmbuf_free(m);
	assert_int_equal(rte_mempool_in_use_count(pool), in_use - 1);
}

static void test_refused(void **state)
{
	struct rte_mbuf *out[IP6_FRAG_MAX];
	static const uint8_t cannot[] = { IPPROTO_HOPOPTS, IPPROTO_ROUTING, IPPROTO_FRAGMENT };
	unsigned in_use = rte_mempool_in_use_count(pool);

	(void)state;
	for (unsigned i = 0; i < sizeof(cannot); i++) {
		struct rte_mbuf *m = frame(3000, cannot[i]);

		assert_int_equal(ip6_fragment(m, L2, 1280, 1, pool, out, IP6_FRAG_MAX), -EINVAL);
		rte_pktmbuf_free(m);
	}
	struct rte_mbuf *m = frame(3000, IPPROTO_UDP);

	assert_int_equal(ip6_fragment(m, L2, 1280, 1, pool, out, 2), -E2BIG);
	assert_int_equal(ip6_fragment(m, L2, 48, 1, pool, out, IP6_FRAG_MAX), -EINVAL);
	rte_pktmbuf_trim(m, 1); /* the payload length says more than the frame */
	assert_int_equal(ip6_fragment(m, L2, 1280, 1, pool, out, IP6_FRAG_MAX), -EINVAL);
	rte_pktmbuf_free(m);
	assert_int_equal(rte_mempool_in_use_count(pool), in_use);
}

static void test_no_mbufs(void **state)
{
	struct rte_mbuf *m = frame(3000, IPPROTO_UDP), *out[IP6_FRAG_MAX];
	struct rte_mbuf *hog[4096];
	unsigned n = 0, in_use;

	(void)state;
	while (n < 4096 && (hog[n] = rte_pktmbuf_alloc(pool)) != NULL)
		n++;
	rte_pktmbuf_free(hog[--n]); /* room for one fragment of three */
	in_use = rte_mempool_in_use_count(pool);
	assert_int_equal(ip6_fragment(m, L2, 1280, 1, pool, out, IP6_FRAG_MAX), -ENOMEM);
	assert_int_equal(rte_mempool_in_use_count(pool), in_use);
	rte_pktmbuf_free_bulk(hog, n);
	rte_pktmbuf_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_no_mbufs),
	};
	int rc;

	if (test_eal_init("frag6") < 0)
		return 1;
	pool = test_pool("frag6", 1023, 4096);
	if (pool == NULL)
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	rte_mempool_free(pool);
	rte_eal_cleanup();
	return rc;
}
