/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * icmp6_send_error: the exact bytes of an error (against scapy's), how much
 * it quotes (1280 bytes in all at most), the cases RFC 4443 2.4 (e) keeps
 * it silent about, its source address and the token bucket (2.4 f), and
 * errors about packets that came in on a VLAN interface (from its address,
 * back on it).
 * ip6_output is replaced by a capture and the limiter's clock by a
 * hand-driven one; checksums are checked by the test's own sum.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/daemon.h"
#include "core/iface.h"
#include "ip6/addr6.h"
#include "ip6/icmp6.h"
#include "ip6/icmp6_priv.h"
#include "port/port.h"
#include "test_eal.h"
#include "ip6_pkt.h"

#define MS 1000000ull

static uint64_t now_ns = 1000 * MS;
static uint16_t vlan10, vlan20; /* p0.10 (addresses), p0.20 (none) */
static unsigned pool_in_use;

static uint64_t fake_clock(void)
{
	return now_ns;
}

/* UDP 40000 -> 33434 with 16 bytes, checksum as scapy made it */
static const uint8_t udp16[24] = "\x9c\x40\x82\x9a\x00\x18\x42\x1a"
                                 "abcdefghijklmnop";

/* 2001:db8:1::2 -> 2001:db8:2::7, UDP, hop limit 1: what most tests send an error about. */
static struct t6 base(void)
{
	return (struct t6){ .tc = 0x10,
		            .flow = 0x12345,
		            .hlim = 1,
		            .nh = 17,
		            .src = "2001:db8:1::2",
		            .dst = "2001:db8:2::7",
		            .l4 = udp16,
		            .l4len = sizeof(udp16) };
}

/* Send an error about t as received on port; returns how many came out. */
static unsigned error_about(const struct t6 *t, uint8_t type, uint8_t code, uint32_t param,
                            uint16_t port)
{
	struct rte_mbuf *m = t6_build(t);
	unsigned before = n_sent;

	icmp6_send_error(m, type, code, param, port);
	rte_pktmbuf_free(m);
	return n_sent - before;
}

static void test_time_exceeded_bytes(void **state)
{
	/* scapy: IPv6(hlim=64,src=2001:db8:1::1,dst=2001:db8:1::2)/ICMPv6TimeExceeded()/orig */
	static const uint8_t want[112] =
	        "\x60\x00\x00\x00\x00\x48\x3a\x40\x20\x01\x0d\xb8\x00\x01\x00\x00"
	        "\x00\x00\x00\x00\x00\x00\x00\x01\x20\x01\x0d\xb8\x00\x01\x00\x00"
	        "\x00\x00\x00\x00\x00\x00\x00\x02\x03\x00\x0b\xd0\x00\x00\x00\x00"
	        "\x61\x01\x23\x45\x00\x18\x11\x01\x20\x01\x0d\xb8\x00\x01\x00\x00"
	        "\x00\x00\x00\x00\x00\x00\x00\x02\x20\x01\x0d\xb8\x00\x02\x00\x00"
	        "\x00\x00\x00\x00\x00\x00\x00\x07\x9c\x40\x82\x9a\x00\x18\x42\x1a"
	        "\x61\x62\x63\x64\x65\x66\x67\x68\x69\x6a\x6b\x6c\x6d\x6e\x6f\x70";
	struct t6 t = base();
	uint64_t before = counter("icmp6_time_exceeded_sent");

	(void)state;
	assert_int_equal(error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, 0), 1);
	assert_int_equal(rte_pktmbuf_data_len(sent[0]), L2 + sizeof(want));
	assert_memory_equal(rte_pktmbuf_mtod_offset(sent[0], uint8_t *, L2), want, sizeof(want));
	sent_ip6(0);
	assert_int_equal(sent_port[0], 0);
	assert_int_equal(counter("icmp6_time_exceeded_sent"), before + 1);
}

/* The ICMPv6 part of captured packet i; returns its length. */
static unsigned sent_icmp(unsigned i, const uint8_t **icmp)
{
	const uint8_t *ip = sent_ip6(i);

	*icmp = ip + 40;
	return (unsigned)(ip[4] << 8 | ip[5]);
}

static void test_quote(void **state)
{
	static uint8_t big[1400];
	struct t6 t = base();
	const uint8_t *icmp;

	(void)state;
	/* a small packet whole */
	assert_int_equal(error_about(&t, ICMP6_DST_UNREACH, ICMP6_DST_UNREACH_NOROUTE, 0, 0), 1);
	assert_int_equal(sent_icmp(0, &icmp), 8 + 40 + sizeof(udp16));
	assert_memory_equal(icmp, "\x01\x00", 2);
	assert_memory_equal(icmp + 4, "\0\0\0\0", 4);
	/* a large one up to 1280 bytes in all: 1232 of it */
	for (unsigned i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)i;
	t.l4 = big;
	t.l4len = sizeof(big);
	struct rte_mbuf *m = t6_build(&t);
	icmp6_send_error(m, ICMP6_PACKET_TOO_BIG, 0, 1280, 0);
	assert_int_equal(n_sent, 2);
	assert_int_equal(rte_pktmbuf_data_len(sent[1]), L2 + 1280);
	assert_int_equal(sent_icmp(1, &icmp), 1240);
	assert_memory_equal(icmp, "\x02\x00", 2);
	assert_memory_equal(icmp + 4, "\x00\x00\x05\x00", 4); /* the MTU */
	assert_memory_equal(icmp + 8, rte_pktmbuf_mtod_offset(m, uint8_t *, L2), 1232);
	rte_pktmbuf_free(m);
}

static void test_param_problem(void **state)
{
	struct t6 t = base();
	const uint8_t *icmp;

	(void)state;
	assert_int_equal(error_about(&t, ICMP6_PARAM_PROB, ICMP6_PARAMPROB_NEXTHEADER, 6, 0), 1);
	sent_icmp(0, &icmp);
	assert_memory_equal(icmp, "\x04\x01", 2);
	assert_memory_equal(icmp + 4, "\x00\x00\x00\x06", 4);
}

static void test_unreachable(void **state)
{
	struct t6 t = base();
	struct rte_mbuf *m = t6_build(&t);
	uint64_t before = counter("icmp6_addr_unreachable_sent");
	const uint8_t *icmp;

	(void)state;
	icmp6_unreachable(m, 0);
	rte_pktmbuf_free(m);
	assert_int_equal(n_sent, 1);
	sent_icmp(0, &icmp);
	assert_memory_equal(icmp, "\x01\x03", 2);
	assert_int_equal(counter("icmp6_addr_unreachable_sent"), before + 1);
}

/* t with the ICMPv6 message type/code (and 4 bytes of zeros) as payload. */
static struct t6 icmp_packet(uint8_t *msg, uint8_t type)
{
	struct t6 t = base();

	memset(msg, 0, 8);
	msg[0] = type;
	t.nh = 58;
	t.l4 = msg;
	t.l4len = 8;
	l4_cksum_set(t.src, t.dst, 58, msg, 8, 2);
	return t;
}

static void test_not_about_errors(void **state)
{
	static const uint8_t dstopts[8] = { 58, 0, 1, 4, 0, 0, 0, 0 };
	static const uint8_t later_frag[8] = { 58, 0, 0x00, 0x08, 0, 0, 0, 1 };
	uint8_t msg[8];
	uint64_t before = counter("icmp6_suppressed_about_error");
	struct t6 t;

	(void)state;
	for (uint8_t type = 1; type <= 4; type++) {
		t = icmp_packet(msg, type);
		assert_int_equal(error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, 0), 0);
	}
	t = icmp_packet(msg, ND_REDIRECT);
	assert_int_equal(error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, 0), 0);
	/* behind an extension header too */
	t = icmp_packet(msg, ICMP6_DST_UNREACH);
	t.nh = 60;
	t.ext = dstopts;
	t.extlen = sizeof(dstopts);
	assert_int_equal(error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, 0), 0);
	/* next header ICMPv6 and no message: too short to tell */
	t = base();
	t.nh = 58;
	t.l4len = 0;
	assert_int_equal(error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, 0), 0);
	assert_int_equal(counter("icmp6_suppressed_about_error"), before + 7);
	/* informational messages are fine, and a later fragment is no message */
	t = icmp_packet(msg, ICMP6_ECHO_REQUEST);
	assert_int_equal(error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, 0), 1);
	t = icmp_packet(msg, ICMP6_DST_UNREACH);
	t.nh = 44;
	t.ext = later_frag;
	t.extlen = sizeof(later_frag);
	assert_int_equal(error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, 0), 1);
	assert_int_equal(counter("icmp6_suppressed_about_error"), before + 7);
}

static void test_multicast(void **state)
{
	/* hop-by-hop: an option of type 0x80 (discard and tell, even a group),
	 * one of 0xc0 (discard, and tell only a unicast destination) */
	static const uint8_t hbh80[8] = { 17, 0, 0x80, 4, 0, 0, 0, 0 };
	static const uint8_t hbhc0[8] = { 17, 0, 0xc0, 4, 0, 0, 0, 0 };
	uint64_t before = counter("icmp6_suppressed_multicast");
	struct t6 t = base();

	(void)state;
	t.dst = "ff0e::1";
	assert_int_equal(error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, 0), 0);
	assert_int_equal(error_about(&t, ICMP6_DST_UNREACH, 0, 0, 0), 0);
	/* but Packet Too Big is sent about a group */
	assert_int_equal(error_about(&t, ICMP6_PACKET_TOO_BIG, 0, 1280, 0), 1);
	t.nh = 0;
	t.ext = hbh80;
	t.extlen = sizeof(hbh80);
	assert_int_equal(error_about(&t, ICMP6_PARAM_PROB, ICMP6_PARAMPROB_OPTION, 42, 0), 1);
	t.ext = hbhc0;
	assert_int_equal(error_about(&t, ICMP6_PARAM_PROB, ICMP6_PARAMPROB_OPTION, 42, 0), 0);
	/* a unicast packet in a link-layer group frame */
	t = base();
	t.eth_dst = mac_group;
	assert_int_equal(error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, 0), 0);
	assert_int_equal(error_about(&t, ICMP6_PACKET_TOO_BIG, 0, 1280, 0), 1);
	assert_int_equal(counter("icmp6_suppressed_multicast"), before + 4);
}

static void test_sources(void **state)
{
	static const char *const bad[] = {
		"::", "ff02::1", "::1", "::ffff:10.0.0.1", "2001:db8:2::1", "fe80::2"
	};
	uint64_t before = counter("icmp6_suppressed_source");
	struct t6 t = base();

	(void)state;
	for (unsigned i = 0; i < RTE_DIM(bad); i++) {
		t.src = bad[i];
		assert_int_equal(error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, 0), 0);
	}
	assert_int_equal(counter("icmp6_suppressed_source"), before + RTE_DIM(bad));
}

static void test_source_address(void **state)
{
	struct t6 t = base();

	(void)state;
	/* from the ingress port: its global address (none on the asker's prefix) */
	assert_int_equal(error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, 1), 1);
	assert_memory_equal(sent_ip6(0) + 8, a6("2001:db8:2::1"), 16);
	assert_int_equal(sent_port[0], 1);
	/* to a link-local asker: from the port's link-local address, out of that port */
	t.src = "fe80::99";
	assert_int_equal(error_about(&t, ICMP6_DST_UNREACH, ICMP6_DST_UNREACH_BEYONDSCOPE, 0, 0),
	                 1);
	assert_memory_equal(sent_ip6(1) + 8, a6("fe80::1"), 16);
	assert_memory_equal(sent_ip6(1) + 24, a6("fe80::99"), 16);
	assert_int_equal(sent_port[1], 0);
	/* a port with no address sends nothing */
	uint64_t before = counter("icmp6_suppressed_no_address");
	t = base();
	assert_int_equal(error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, 2), 0);
	assert_int_equal(counter("icmp6_suppressed_no_address"), before + 1);
}

static void test_malformed(void **state)
{
	uint64_t before = counter("icmp6_suppressed_malformed");
	struct t6 t = base();
	struct rte_mbuf *m;

	(void)state;
	t.plen_adjust = 1; /* past the frame */
	assert_int_equal(error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, 0), 0);
	t = base();
	m = t6_build(&t);
	rte_pktmbuf_trim(m, m->data_len - 50);
	icmp6_send_error(m, ICMP6_TIME_EXCEEDED, 0, 0, 0);
	rte_pktmbuf_free(m);
	assert_int_equal(counter("icmp6_suppressed_malformed"), before + 2);
	assert_int_equal(n_sent, 0);
}

static void test_ratelimit(void **state)
{
	struct t6 t = base();
	uint64_t limited = counter("icmp6_ratelimited");
	unsigned sent_now = 0;

	(void)state;
	icmp6_ratelimit_set(100); /* burst: 50 */
	for (unsigned i = 0; i < 60; i++)
		sent_now += error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, 0);
	assert_int_equal(sent_now, 50);
	assert_int_equal(counter("icmp6_ratelimited"), limited + 10);
	now_ns += 10 * MS; /* one token */
	assert_int_equal(error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, 0), 1);
	assert_int_equal(error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, 0), 0);
	now_ns += 2000 * 1000 * MS; /* a long quiet spell: full again, no more */
	sent_now = 0;
	for (unsigned i = 0; i < 60; i++)
		sent_now += error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, 0);
	assert_int_equal(sent_now, 50);
	icmp6_ratelimit_set(0);
}

static int setup(void **state)
{
	(void)state;
	pool_in_use = rte_mempool_in_use_count(pool);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sent_clear();
	assert_int_equal(rte_mempool_in_use_count(pool), pool_in_use);
	return 0;
}

static void port_addrs(uint16_t port, const char *ll, const char *global)
{
	struct ip6_port_addrs *pa = &ip6_addrs[port];

	memset(pa, 0, sizeof(*pa));
	memcpy(pa->a[0].addr, a6(ll), 16);
	pa->a[0].len = 64;
	memcpy(pa->a[1].addr, a6(global), 16);
	pa->a[1].len = 64;
	pa->state[0] = pa->state[1] = ADDR6_PREFERRED;
	pa->n = 2;
}

/* An error about a packet that came in on a VLAN: from the VLAN's address
 * on the sender's prefix (its link-local one for a link-local sender), sent
 * back on the VLAN; a VLAN without addresses has none to send it from. */
static void test_vlan(void **state)
{
	struct t6 t = base();
	uint64_t no_address = counter("icmp6_suppressed_no_address");

	(void)state;
	t.src = "2001:db8:10::2";
	assert_int_equal(error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, vlan10), 1);
	assert_memory_equal(sent_ip6(0) + 8, a6("2001:db8:10::1"), 16);
	assert_memory_equal(sent_ip6(0) + 24, a6("2001:db8:10::2"), 16);
	assert_int_equal(sent_port[0], vlan10);
	t.src = "fe80::99";
	assert_int_equal(error_about(&t, ICMP6_DST_UNREACH, ICMP6_DST_UNREACH_NOROUTE, 0, vlan10),
	                 1);
	assert_memory_equal(sent_ip6(1) + 8, a6("fe80::1"), 16);
	assert_int_equal(sent_port[1], vlan10);
	assert_int_equal(error_about(&t, ICMP6_TIME_EXCEEDED, 0, 0, vlan20), 0);
	assert_int_equal(counter("icmp6_suppressed_no_address"), no_address + 1);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_time_exceeded_bytes),
		T(test_quote),
		T(test_param_problem),
		T(test_unreachable),
		T(test_not_about_errors),
		T(test_multicast),
		T(test_sources),
		T(test_source_address),
		T(test_malformed),
		T(test_ratelimit),
		T(test_vlan),
	};
	int rc;

	if (test_eal_init("icmp6") < 0)
		return 1;
	pool = test_pool("icmp6", 511, 2048);
	if (pool == NULL)
		return 1;
	fwd.pool = pool;
	fwd_n_ports = 3; /* p2 has no address */
	port_addrs(0, "fe80::1", "2001:db8:1::1");
	port_addrs(1, "fe80::2", "2001:db8:2::1");
	fwd_ports[0].mtu = 1500;
	for (uint8_t i = 0; i < 3; i++)
		fwd_iface_port_sync(i);
	if (fwd_iface_vlan_add("p0.10", 0, 10, 0, &vlan10) < 0 ||
	    fwd_iface_vlan_add("p0.20", 0, 20, 0, &vlan20) < 0)
		return 1;
	port_addrs(vlan10, "fe80::1", "2001:db8:10::1");
	icmp6_output = capture;
	icmp6_clock_ns = fake_clock;
	icmp6_ratelimit_set(0);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	fwd_iface_reset();
	fwd_n_ports = 0;
	rte_mempool_free(pool);
	rte_eal_cleanup();
	return rc;
}
