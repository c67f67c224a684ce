/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * icmp4_send_error: the exact bytes of an error, how much it quotes, the
 * RFC 1812 4.3.2.7 cases it must stay silent about, its source address,
 * and the token bucket (4.3.2.8). ip4_output is replaced by a capture and
 * the limiter's clock by a hand-driven one.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/daemon.h"
#include "ip4/addr.h"
#include "ip4/icmp.h"
#include "port/port.h"
#include "test_eal.h"
#include "ip4_pkt.h"

#define MS 1000000ull

static uint64_t now_ns = 1000 * MS;

static uint64_t fake_clock(void)
{
	return now_ns;
}

static const uint8_t udp16[24] = "\x9c\x40\x82\x9a\x00\x18\x86\x6c"
                                 "abcdefghijklmnop";

/* 10.20.1.2 -> 10.20.2.2, UDP, TTL 1: the packet most tests send an error about. */
static struct tpkt base(void)
{
	return (struct tpkt){ .tos = 0x10,
		              .id = 0x1234,
		              .ttl = 1,
		              .proto = 17,
		              .src = IP4(10, 20, 1, 2),
		              .dst = IP4(10, 20, 2, 2),
		              .l4 = udp16,
		              .l4len = sizeof(udp16) };
}

/* Send an error about t from port 0; returns how many came out (0 or 1). */
static unsigned error_about(const struct tpkt *t, uint8_t type, uint8_t code)
{
	struct rte_mbuf *m = tpkt_build(t);
	unsigned before = n_sent;

	icmp4_send_error(m, type, code, 0, 0);
	rte_pktmbuf_free(m);
	return n_sent - before;
}

static void test_time_exceeded_bytes(void **state)
{
	/* built with scapy: IP(tos=0xd0,id=0x4242,src=10.20.1.1,dst=10.20.1.2)/ICMP(type=11)/orig,
	 * the whole 44-byte original quoted (RFC 1812 4.3.2.3) */
	static const uint8_t expect[72] = {
		0x45, 0xd0, 0x00, 0x48, 0x42, 0x42, 0x00, 0x00, 0x40, 0x01, 0x21, 0x79,
		0x0a, 0x14, 0x01, 0x01, 0x0a, 0x14, 0x01, 0x02, 0x0b, 0x00, 0x0c, 0x55,
		0x00, 0x00, 0x00, 0x00, 0x45, 0x10, 0x00, 0x2c, 0x12, 0x34, 0x00, 0x00,
		0x01, 0x11, 0x90, 0x52, 0x0a, 0x14, 0x01, 0x02, 0x0a, 0x14, 0x02, 0x02,
		0x9c, 0x40, 0x82, 0x9a, 0x00, 0x18, 0x86, 0x6c, 0x61, 0x62, 0x63, 0x64,
		0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x6d, 0x6e, 0x6f, 0x70,
	};
	struct tpkt t = base();
	struct rte_mbuf *m = tpkt_build(&t);
	uint8_t copy[64];
	uint64_t before = counter("icmp_time_exceeded_sent");

	(void)state;
	memcpy(copy, rte_pktmbuf_mtod(m, void *), m->data_len);
	while (icmp4_next_id() != 0x4241)
		; /* the id is a counter: line it up with the expected bytes */
	icmp4_send_error(m, ICMP4_TIME_EXCEEDED, 0, 0, 0);
	assert_int_equal(n_sent, 1);
	assert_int_equal(rte_pktmbuf_data_len(sent[0]), L2 + sizeof(expect));
	assert_memory_equal(sent_ip(0), expect, sizeof(expect));
	assert_int_equal(counter("icmp_time_exceeded_sent"), before + 1);
	/* the original is left alone: the caller frees it */
	assert_int_equal(m->data_len, L2 + 44);
	assert_memory_equal(rte_pktmbuf_mtod(m, void *), copy, m->data_len);
	rte_pktmbuf_free(m);
}

/* The ICMP part of captured packet i: checksum valid; returns its length. */
static unsigned sent_icmp(unsigned i, const uint8_t **icmp)
{
	const uint8_t *ip = sent_ip(i);
	unsigned len = (unsigned)(ip[2] << 8 | ip[3]) - 20;

	assert_int_equal(ip[9], 1);
	*icmp = ip + 20;
	assert_int_equal(rte_raw_cksum(*icmp, len), 0xffff);
	return len;
}

static void test_quote_length(void **state)
{
	static const uint8_t opts[40] = { 0x01, 0x01, 0x01, 0x01, 0x83, 7, 4, 1, 2, 3, 4 };
	uint8_t l4[64];

	(void)state;
	for (unsigned i = 0; i < sizeof(l4); i++)
		l4[i] = (uint8_t)(0xa0 + i);
	for (unsigned olen = 0; olen <= 40; olen += 4)
		for (unsigned plen = 0; plen <= 20; plen++) {
			struct tpkt t = base();
			const uint8_t *icmp;

			t.opts = opts, t.olen = olen, t.l4 = l4, t.l4len = plen;
			struct rte_mbuf *m = tpkt_build(&t);
			icmp4_send_error(m, ICMP4_DEST_UNREACH, ICMP4_NET_UNREACH, 0, 0);
			assert_int_equal(n_sent, 1);
			unsigned quote = 20 + olen + plen; /* short: all of it */
			assert_int_equal(sent_icmp(0, &icmp), 8 + quote);
			assert_memory_equal(icmp, "\x03\x00", 2);
			assert_memory_equal(icmp + 4, "\0\0\0\0", 4);
			assert_memory_equal(icmp + 8, tpkt_ip(m), quote);
			rte_pktmbuf_free(m);
			sent_clear();
		}
}

static void test_quote_ignores_padding(void **state)
{
	struct tpkt t = base();
	const uint8_t *icmp;

	(void)state;
	t.l4len = 4; /* a 24-byte packet in a 60-byte frame: the padding is not quoted */
	struct rte_mbuf *m = tpkt_build(&t);
	memset(rte_pktmbuf_append(m, 22), 0x55, 22);
	icmp4_send_error(m, ICMP4_TIME_EXCEEDED, 0, 0, 0);
	assert_int_equal(sent_icmp(0, &icmp), 8 + 24);
	rte_pktmbuf_free(m);
}

/* A UDP datagram of size bytes (base()'s addresses), its payload counting up. */
static struct rte_mbuf *datagram(unsigned size)
{
	static uint8_t l4[1500];
	struct tpkt t = base();

	memcpy(l4, "\x9c\x40\x82\x9a\x00\x00\x00\x00", 8);
	l4[4] = (uint8_t)((size - 20) >> 8);
	l4[5] = (uint8_t)(size - 20);
	for (unsigned i = 8; i < sizeof(l4); i++)
		l4[i] = (uint8_t)(i - 8);
	t.l4 = l4, t.l4len = size - 20;
	return tpkt_build(&t);
}

/* RFC 1812 4.3.2.3, as Linux: as much of the original as fits in a
 * 576-byte error; the whole of a shorter one. Headers built with scapy:
 * IP(tos=0xd0,id=0x4242,src=10.20.1.1,dst=10.20.1.2)/ICMP(type=11)/quote */
static void test_quote_up_to_576(void **state)
{
	static const uint8_t hdr1000[28] = {
		0x45, 0xd0, 0x02, 0x40, 0x42, 0x42, 0x00, 0x00, 0x40, 0x01, 0x1f, 0x81, 0x0a, 0x14,
		0x01, 0x01, 0x0a, 0x14, 0x01, 0x02, 0x0b, 0x00, 0x45, 0xc1, 0x00, 0x00, 0x00, 0x00,
	};
	static const uint8_t hdr100[28] = {
		0x45, 0xd0, 0x00, 0x80, 0x42, 0x42, 0x00, 0x00, 0x40, 0x01, 0x21, 0x41, 0x0a, 0x14,
		0x01, 0x01, 0x0a, 0x14, 0x01, 0x02, 0x0b, 0x00, 0xe4, 0xbf, 0x00, 0x00, 0x00, 0x00,
	};
	static const struct {
		unsigned size, err, quote;
		const uint8_t *hdr;
	} cases[] = { { 1000, 576, 548, hdr1000 }, { 100, 128, 100, hdr100 } };

	(void)state;
	for (unsigned i = 0; i < RTE_DIM(cases); i++) {
		struct rte_mbuf *m = datagram(cases[i].size);

		while (icmp4_next_id() != 0x4241)
			;
		icmp4_send_error(m, ICMP4_TIME_EXCEEDED, 0, 0, 0);
		assert_int_equal(n_sent, 1);
		assert_int_equal(rte_pktmbuf_data_len(sent[0]), L2 + cases[i].err);
		assert_memory_equal(sent_ip(0), cases[i].hdr, 28);
		assert_memory_equal(sent_ip(0) + 28, tpkt_ip(m), cases[i].quote);
		rte_pktmbuf_free(m);
		sent_clear();
	}
}

static void test_kinds_and_mtu(void **state)
{
	static const struct {
		uint8_t type, code;
		const char *counter;
	} kinds[] = {
		{ 3, 0, "icmp_net_unreachable_sent" },   { 3, 1, "icmp_host_unreachable_sent" },
		{ 3, 2, "icmp_proto_unreachable_sent" }, { 3, 3, "icmp_port_unreachable_sent" },
		{ 3, 4, "icmp_frag_needed_sent" },       { 11, 0, "icmp_time_exceeded_sent" },
		{ 12, 0, "icmp_other_errors_sent" },     { 3, 13, "icmp_other_errors_sent" },
	};
	struct tpkt t = base();

	(void)state;
	for (unsigned i = 0; i < RTE_DIM(kinds); i++) {
		uint64_t before = counter(kinds[i].counter);
		struct rte_mbuf *m = tpkt_build(&t);
		const uint8_t *icmp;

		icmp4_send_error(m, kinds[i].type, kinds[i].code, 1280, 0);
		rte_pktmbuf_free(m);
		assert_int_equal(n_sent, 1);
		sent_icmp(0, &icmp);
		assert_int_equal(icmp[0], kinds[i].type);
		assert_int_equal(icmp[1], kinds[i].code);
		/* RFC 1191: next-hop MTU in bytes 6-7, for "fragmentation needed" only */
		if (kinds[i].type == 3 && kinds[i].code == 4)
			assert_memory_equal(icmp + 4, "\x00\x00\x05\x00", 4);
		else
			assert_memory_equal(icmp + 4, "\0\0\0\0", 4);
		assert_int_equal(counter(kinds[i].counter), before + 1);
		sent_clear();
	}
}

/* Each case: no packet out, and the named counter moved by one. */
static void expect_suppressed(const struct tpkt *t, const char *why)
{
	uint64_t before = counter(why);

	assert_int_equal(error_about(t, ICMP4_TIME_EXCEEDED, 0), 0);
	assert_int_equal(counter(why), before + 1);
}

static void test_never_about_icmp_errors(void **state)
{
	static const uint8_t errors[] = { 3, 4, 5, 11, 12 }, others[] = { 0, 8, 13, 14, 42 };
	uint8_t icmp[16] = { 0 };
	struct tpkt t = base();

	(void)state;
	t.proto = 1, t.l4 = icmp, t.l4len = sizeof(icmp);
	for (unsigned i = 0; i < sizeof(errors); i++) {
		icmp[0] = errors[i];
		expect_suppressed(&t, "icmp_suppressed_about_error");
	}
	for (unsigned i = 0; i < sizeof(others); i++) {
		icmp[0] = others[i];
		assert_int_equal(error_about(&t, ICMP4_TIME_EXCEEDED, 0), 1);
	}
	t.l4len = 0; /* ICMP with no type at all */
	expect_suppressed(&t, "icmp_suppressed_about_error");
}

static void test_never_about_broadcasts(void **state)
{
	static const uint32_t dsts[] = {
		IP4(255, 255, 255, 255), IP4(10, 20, 1, 255),     IP4(10, 20, 2, 255),
		IP4(224, 0, 0, 5),       IP4(239, 255, 255, 250), IP4(255, 1, 2, 3),
	};
	struct tpkt t = base();

	(void)state;
	for (unsigned i = 0; i < RTE_DIM(dsts); i++) {
		t.dst = dsts[i];
		expect_suppressed(&t, "icmp_suppressed_broadcast");
	}
	t = base();
	t.eth_dst = mac_bcast;
	expect_suppressed(&t, "icmp_suppressed_broadcast");
	t.eth_dst = mac_mcast;
	expect_suppressed(&t, "icmp_suppressed_broadcast");
	/* the subnet's other addresses are fine */
	t = base();
	t.dst = IP4(10, 20, 2, 254);
	assert_int_equal(error_about(&t, ICMP4_TIME_EXCEEDED, 0), 1);
}

static void test_never_about_fragments(void **state)
{
	struct tpkt t = base();

	(void)state;
	t.frag = 1;
	expect_suppressed(&t, "icmp_suppressed_fragment");
	t.frag = RTE_IPV4_HDR_MF_FLAG | 185;
	expect_suppressed(&t, "icmp_suppressed_fragment");
	t.frag = RTE_IPV4_HDR_MF_FLAG; /* the first fragment is answered */
	assert_int_equal(error_about(&t, ICMP4_TIME_EXCEEDED, 0), 1);
	t.frag = RTE_IPV4_HDR_DF_FLAG;
	assert_int_equal(error_about(&t, ICMP4_TIME_EXCEEDED, 0), 1);
}

static void test_never_about_bad_sources(void **state)
{
	static const uint32_t srcs[] = {
		0,
		IP4(0, 1, 2, 3),
		IP4(127, 0, 0, 1),
		IP4(224, 0, 0, 1),
		IP4(239, 1, 1, 1),
		IP4(240, 0, 0, 1),
		IP4(255, 255, 255, 255),
		IP4(10, 20, 1, 1),
		IP4(10, 20, 2, 1),
		IP4(10, 20, 1, 255),
		IP4(10, 20, 2, 255),
	};
	struct tpkt t = base();

	(void)state;
	for (unsigned i = 0; i < RTE_DIM(srcs); i++) {
		t.src = srcs[i];
		expect_suppressed(&t, "icmp_suppressed_source");
	}
}

static void test_source_address(void **state)
{
	struct fwd_ip4_prefix extra = { IP4(192, 0, 2, 1), 24 };
	struct tpkt t = base();
	struct rte_mbuf *m;

	(void)state;
	ip4_addrs[0].a[ip4_addrs[0].n++] = extra;
	/* from a host on the port's second subnet: that subnet's address */
	t.src = IP4(192, 0, 2, 9);
	assert_int_equal(error_about(&t, ICMP4_TIME_EXCEEDED, 0), 1);
	assert_memory_equal(sent_ip(0) + 12, "\xc0\x00\x02\x01\xc0\x00\x02\x09", 8);
	/* from elsewhere: the ingress port's primary address, never the egress's */
	t.src = IP4(198, 51, 100, 7);
	assert_int_equal(error_about(&t, ICMP4_TIME_EXCEEDED, 0), 1);
	assert_memory_equal(sent_ip(1) + 12, "\x0a\x14\x01\x01\xc6\x33\x64\x07", 8);
	ip4_addrs[0].n--;
	/* ingress port without an address, or out of range */
	m = tpkt_build(&t);
	uint64_t before = counter("icmp_suppressed_no_address");
	icmp4_send_error(m, ICMP4_TIME_EXCEEDED, 0, 0, 2);
	icmp4_send_error(m, ICMP4_TIME_EXCEEDED, 0, 0, 200);
	assert_int_equal(counter("icmp_suppressed_no_address"), before + 2);
	assert_int_equal(n_sent, 2);
	rte_pktmbuf_free(m);
}

static void test_malformed(void **state)
{
	struct tpkt t = base();
	struct rte_mbuf *m = tpkt_build(&t);
	struct rte_ipv4_hdr *ip = tpkt_ip(m);
	uint64_t before = counter("icmp_suppressed_malformed");

	(void)state;
	ip->version_ihl = 0x65;
	icmp4_send_error(m, ICMP4_TIME_EXCEEDED, 0, 0, 0);
	ip->version_ihl = 0x44;
	icmp4_send_error(m, ICMP4_TIME_EXCEEDED, 0, 0, 0);
	ip->version_ihl = 0x4f; /* 60-byte header in a 44-byte packet */
	icmp4_send_error(m, ICMP4_TIME_EXCEEDED, 0, 0, 0);
	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16(19);
	icmp4_send_error(m, ICMP4_TIME_EXCEEDED, 0, 0, 0);
	ip->total_length = rte_cpu_to_be_16(45); /* past the frame */
	icmp4_send_error(m, ICMP4_TIME_EXCEEDED, 0, 0, 0);
	ip->total_length = rte_cpu_to_be_16(44);
	rte_pktmbuf_trim(m, 44 - 19); /* 33 bytes: no room for an IP header */
	icmp4_send_error(m, ICMP4_TIME_EXCEEDED, 0, 0, 0);
	rte_pktmbuf_trim(m, m->data_len);
	icmp4_send_error(m, ICMP4_TIME_EXCEEDED, 0, 0, 0);
	assert_int_equal(counter("icmp_suppressed_malformed"), before + 7);
	assert_int_equal(n_sent, 0);
	rte_pktmbuf_free(m);
}

static unsigned burst_of(unsigned n)
{
	struct tpkt t = base();
	struct rte_mbuf *m = tpkt_build(&t);
	unsigned before = n_sent;

	for (unsigned i = 0; i < n; i++)
		icmp4_send_error(m, ICMP4_TIME_EXCEEDED, 0, 0, 0);
	rte_pktmbuf_free(m);
	unsigned got = n_sent - before;
	sent_clear();
	return got;
}

static void test_rate_limit(void **state)
{
	uint64_t limited = counter("icmp_ratelimited");

	(void)state;
	icmp4_ratelimit_set(100); /* the default: 100/s, bursts of 50 */
	assert_int_equal(burst_of(500), 50);
	assert_int_equal(counter("icmp_ratelimited"), limited + 450);
	now_ns += 10 * MS; /* one token */
	assert_int_equal(burst_of(10), 1);
	now_ns += 5 * MS; /* half a token is not enough... */
	assert_int_equal(burst_of(10), 0);
	now_ns += 5 * MS; /* ...but it is kept */
	assert_int_equal(burst_of(10), 1);
	now_ns += 3600000 * MS; /* a long idle spell fills the bucket, no more */
	assert_int_equal(burst_of(500), 50);
	now_ns -= 1000 * MS; /* a clock going back adds nothing */
	assert_int_equal(burst_of(5), 0);
	now_ns += 2000 * MS;

	icmp4_ratelimit_set(100000); /* bursts grow with the rate: 50 ms worth */
	assert_int_equal(burst_of(5500), 5000);
	now_ns += 1 * MS;
	assert_int_equal(burst_of(500), 100);

	icmp4_ratelimit_set(1);
	assert_int_equal(burst_of(100), 50);
	now_ns += 999 * MS;
	assert_int_equal(burst_of(5), 0);
	now_ns += 1 * MS;
	assert_int_equal(burst_of(5), 1);

	icmp4_ratelimit_set(0); /* unlimited */
	limited = counter("icmp_ratelimited");
	assert_int_equal(burst_of(3000), 3000);
	assert_int_equal(counter("icmp_ratelimited"), limited);
}

static void test_resources(void **state)
{
	struct tpkt t = base();
	uint64_t no_mbuf = counter("icmp_no_mbuf"),
	         sent_before = counter("icmp_time_exceeded_sent");
	unsigned in_use = rte_mempool_in_use_count(pool);

	(void)state;
	fwd.pool = NULL;
	assert_int_equal(error_about(&t, ICMP4_TIME_EXCEEDED, 0), 0);
	assert_int_equal(counter("icmp_no_mbuf"), no_mbuf + 1);
	fwd.pool = pool;
	/* no route back: ip4_output counts and frees it, nothing counts as sent */
	output_rc = -EHOSTUNREACH;
	assert_int_equal(error_about(&t, ICMP4_TIME_EXCEEDED, 0), 0);
	output_rc = 0;
	assert_int_equal(counter("icmp_time_exceeded_sent"), sent_before);
	assert_int_equal(rte_mempool_in_use_count(pool), in_use);
}

static int setup(void **state)
{
	(void)state;
	icmp4_ratelimit_set(0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sent_clear();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_time_exceeded_bytes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quote_length, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quote_ignores_padding, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quote_up_to_576, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kinds_and_mtu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_never_about_icmp_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_never_about_broadcasts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_never_about_fragments, setup, teardown),
		cmocka_unit_test_setup_teardown(test_never_about_bad_sources, setup, teardown),
		cmocka_unit_test_setup_teardown(test_source_address, setup, teardown),
		cmocka_unit_test_setup_teardown(test_malformed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rate_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resources, setup, teardown),
	};
	int rc;

	if (test_eal_init("icmp") < 0)
		return 1;
	pool = test_pool("icmp", 8191, 2048);
	if (pool == NULL)
		return 1;
	fwd.pool = pool;
	fwd_n_ports = 3; /* p0 10.20.1.1/24, p1 10.20.2.1/24, p2 without an address */
	ip4_addrs[0] = (struct ip4_port_addrs){ 1, { { IP4(10, 20, 1, 1), 24 } } };
	ip4_addrs[1] = (struct ip4_port_addrs){ 1, { { IP4(10, 20, 2, 1), 24 } } };
	icmp4_output = capture;
	icmp4_clock_ns = fake_clock;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	fwd_n_ports = 0;
	rte_mempool_free(pool);
	rte_eal_cleanup();
	return rc;
}
