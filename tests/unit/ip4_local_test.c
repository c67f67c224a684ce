/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Local delivery (local4_input): echo replies, port and protocol
 * unreachables, TCP resets (RFC 9293 3.10.7.1, within the ICMP rate
 * limit), and every packet it does not answer counted as a drop, with
 * nothing leaked. ip4_output is replaced by a capture.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <rte_tcp.h>

#include "core/daemon.h"
#include "core/punt.h"
#include "ip4/addr.h"
#include "ip4/icmp.h"
#include "port/port.h"
#include "reasm/reasm.h"
#include "core/counters.h"
#include "test_eal.h"
#include "ip4_pkt.h"

static unsigned pool_in_use;

static uint64_t drops(uint16_t port, enum fwd_drop_reason r)
{
	return fwd_control_ctrs(port)->drop[r];
}

/* Deliver t on port 0. */
static void deliver(const struct tpkt *t)
{
	struct fwd_punt_meta meta = {
		.reason = FWD_PUNT_LOCAL, .in_port = 0, .out_port = 0, .drop = FWD_PUNT_NO_DROP
	};

	local4_input(tpkt_build(t), &meta);
}

/* Deliver t: nothing goes out, and drop reason r on port 0 moves by one. */
static void expect_drop(const struct tpkt *t, enum fwd_drop_reason r)
{
	uint64_t before = drops(0, r);

	deliver(t);
	assert_int_equal(n_sent, 0);
	assert_int_equal(drops(0, r), before + 1);
}

static uint8_t echo[64 + 8];

/* An echo request, id 0x77, seq 3, 56 bytes of data, from 10.20.1.2 to dst. */
static struct tpkt echo_to(uint32_t dst)
{
	echo[0] = 8, echo[1] = 0, echo[4] = 0, echo[5] = 0x77, echo[6] = 0, echo[7] = 3;
	for (unsigned i = 8; i < 64; i++)
		echo[i] = (uint8_t)i;
	l4_cksum_set(echo, 64, 2);
	return (struct tpkt){ .tos = 0x08,
		              .id = 9,
		              .ttl = 2,
		              .proto = 1,
		              .src = IP4(10, 20, 1, 2),
		              .dst = dst,
		              .l4 = echo,
		              .l4len = 64 };
}

static void check_echo_reply(unsigned i, uint32_t from, uint8_t tos)
{
	const uint8_t *ip = sent_ip(i);
	uint8_t req_src[4] = { 10, 20, 1, 2 }, src[4] = { from >> 24, from >> 16, from >> 8, from };

	assert_int_equal(ip[1], tos);
	assert_int_equal(ip[2] << 8 | ip[3], 20 + 64);
	assert_int_equal(ip[6] & 0x3f, 0); /* not a fragment */
	assert_int_equal(ip[9], 1);
	assert_memory_equal(ip + 12, src, 4);
	assert_memory_equal(ip + 16, req_src, 4);
	assert_int_equal(ip[20], 0); /* echo reply */
	assert_int_equal(ip[21], 0);
	assert_memory_equal(ip + 24, echo + 4, 60); /* id, seq, data */
	assert_int_equal(rte_raw_cksum(ip + 20, 64), 0xffff);
}

static void test_echo(void **state)
{
	static const uint8_t opts[8] = { 0x07, 7, 4, 0, 0, 0, 0, 0 }; /* record route */
	uint64_t replies = counter("icmp_echo_replies_sent");
	struct tpkt t = echo_to(IP4(10, 20, 1, 1));

	(void)state;
	deliver(&t);
	assert_int_equal(n_sent, 1);
	check_echo_reply(0, IP4(10, 20, 1, 1), 0x08);
	/* the other port's address answers from that address; options are not echoed */
	t = echo_to(IP4(10, 20, 2, 1));
	t.opts = opts, t.olen = sizeof(opts);
	deliver(&t);
	assert_int_equal(n_sent, 2);
	check_echo_reply(1, IP4(10, 20, 2, 1), 0x08);
	assert_int_equal(counter("icmp_echo_replies_sent"), replies + 2);
}

static void test_echo_to_groups(void **state)
{
	static const uint32_t dsts[] = { IP4(10, 20, 1, 255), IP4(10, 20, 2, 255),
		                         IP4(255, 255, 255, 255), IP4(224, 0, 0, 1) };

	(void)state;
	for (unsigned i = 0; i < RTE_DIM(dsts); i++) {
		struct tpkt t = echo_to(dsts[i]);
		t.eth_dst = mac_bcast;
		expect_drop(&t, FWD_DROP_LOCAL_PROTO);
		t.eth_dst = NULL;
		expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	}
	/* a link broadcast carrying our unicast address (RFC 1122 3.3.6) */
	struct tpkt t = echo_to(IP4(10, 20, 1, 1));
	t.eth_dst = mac_mcast;
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	/* not ours at all (a punt that should not have happened) */
	t = echo_to(IP4(10, 20, 1, 7));
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
}

static void test_bad_icmp(void **state)
{
	struct tpkt t = echo_to(IP4(10, 20, 1, 1));

	(void)state;
	echo[9] ^= 1; /* checksum */
	expect_drop(&t, FWD_DROP_ICMP_INVALID);
	t = echo_to(IP4(10, 20, 1, 1));
	t.l4len = 7; /* shorter than an ICMP header */
	expect_drop(&t, FWD_DROP_ICMP_INVALID);
	t.l4len = 0;
	expect_drop(&t, FWD_DROP_ICMP_INVALID);
	/* an echo reply or an error for us: nobody to hand it to */
	t = echo_to(IP4(10, 20, 1, 1));
	echo[0] = 0;
	l4_cksum_set(echo, 64, 2);
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	echo[0] = 3;
	l4_cksum_set(echo, 64, 2);
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
}

static void test_udp_port_unreachable(void **state)
{
	uint8_t udp[64];
	struct tpkt t = {
		.ttl = 1, .proto = 17, .src = IP4(10, 20, 1, 2), .dst = IP4(10, 20, 1, 1), .l4 = udp
	};
	uint64_t before = drops(0, FWD_DROP_LOCAL_PROTO);

	(void)state;
	/* traceroute's last hop: TTL 1 is fine for a packet to us */
	t.l4len = udp_build(udp, t.src, t.dst, "traceroute probe");
	deliver(&t);
	assert_int_equal(n_sent, 1);
	const uint8_t *ip = sent_ip(0);
	assert_memory_equal(ip + 12, "\x0a\x14\x01\x01\x0a\x14\x01\x02", 8);
	assert_memory_equal(ip + 20, "\x03\x03", 2);
	assert_int_equal(ip[2] << 8 | ip[3], 20 + 8 + 20 + t.l4len); /* all of it quoted */
	assert_int_equal(ip[20 + 8 + 8], 1); /* the quoted TTL: as received */
	assert_memory_equal(ip + 20 + 8 + 20, udp, t.l4len);
	/* no checksum (0) is valid UDP too */
	udp[6] = udp[7] = 0;
	deliver(&t);
	assert_int_equal(n_sent, 2);
	/* to the other port's address: the error comes from that address */
	t.dst = IP4(10, 20, 2, 1);
	t.l4len = udp_build(udp, t.src, t.dst, "traceroute probe");
	deliver(&t);
	assert_int_equal(n_sent, 3);
	assert_memory_equal(sent_ip(2) + 12, "\x0a\x14\x02\x01\x0a\x14\x01\x02", 8);
	assert_int_equal(drops(0, FWD_DROP_LOCAL_PROTO), before + 3);
	/* to a broadcast: silence */
	sent_clear();
	t.dst = IP4(10, 20, 1, 255);
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
}

static void test_udp_invalid(void **state)
{
	uint8_t udp[64];
	struct tpkt t = {
		.ttl = 9, .proto = 17, .src = IP4(10, 20, 1, 2), .dst = IP4(10, 20, 1, 1), .l4 = udp
	};
	uint64_t invalid = counter("local_udp_invalid");

	(void)state;
	t.l4len = udp_build(udp, t.src, t.dst, "payload");
	udp[9] ^= 0x40; /* payload no longer matches the checksum */
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	t.l4len = udp_build(udp, t.src, t.dst, "payload");
	udp[5] = 16; /* UDP length past the IP payload */
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	udp[5] = 7; /* shorter than its header */
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	t.l4len = 5;
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	assert_int_equal(counter("local_udp_invalid"), invalid + 4);
}

static void test_other_protocols(void **state)
{
	static const uint8_t tcp[20] = {
		0x9c, 0x40, 0x00, 0x16, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x02
	};
	struct tpkt t = { .ttl = 64,
		          .proto = 6,
		          .src = IP4(10, 20, 1, 2),
		          .dst = IP4(10, 20, 1, 1),
		          .l4 = tcp,
		          .l4len = sizeof(tcp) };

	(void)state;
	expect_drop(&t, FWD_DROP_LOCAL_PROTO); /* TCP with a wrong checksum: no reset */
	t.proto = 47;                          /* GRE: protocol unreachable */
	deliver(&t);
	assert_int_equal(n_sent, 1);
	assert_memory_equal(sent_ip(0) + 20, "\x03\x02", 2);
	t.proto = 2; /* IGMP to our unicast address: the same, from the address */
	t.dst = IP4(10, 20, 2, 1);
	deliver(&t);
	assert_int_equal(n_sent, 2);
	assert_memory_equal(sent_ip(1) + 12, "\x0a\x14\x02\x01\x0a\x14\x01\x02", 8);
}

static void test_refused(void **state)
{
	struct tpkt t = echo_to(IP4(10, 20, 1, 1));

	(void)state;
	t.frag = RTE_IPV4_HDR_DF_FLAG; /* DF alone is no fragment */
	deliver(&t);
	assert_int_equal(n_sent, 1);
	sent_clear();
	/* from ourselves, or from a broadcast address */
	t = echo_to(IP4(10, 20, 1, 1));
	t.src = IP4(10, 20, 2, 1);
	expect_drop(&t, FWD_DROP_BAD_ADDRESS);
	t.src = IP4(10, 20, 2, 255);
	expect_drop(&t, FWD_DROP_BAD_ADDRESS);
}

/* An echo request in two fragments, in either order, answered once whole;
 * with the second half sent twice, the duplicate is dropped alone. */
static void test_fragmented_echo(void **state)
{
	struct tpkt t = echo_to(IP4(10, 20, 1, 1)), u = t;
	uint64_t used = fwd_control_ctrs(0)->consumed;

	(void)state;
	t.frag = RTE_IPV4_HDR_MF_FLAG, t.l4len = 32;
	u.frag = 32 / 8, u.l4 = echo + 32, u.l4len = 32;
	deliver(&t);
	assert_int_equal(n_sent, 0);
	assert_int_equal(reasm_pending(), 1);
	deliver(&u);
	assert_int_equal(n_sent, 1);
	check_echo_reply(0, IP4(10, 20, 1, 1), 0x08);
	/* two fragments and the request they made */
	assert_int_equal(fwd_control_ctrs(0)->consumed, used + 3);
	sent_clear();
	t.id = u.id = 10;
	deliver(&u);
	expect_drop(&u, FWD_DROP_REASM_OVERLAP);
	deliver(&t);
	assert_int_equal(n_sent, 1);
	check_echo_reply(0, IP4(10, 20, 1, 1), 0x08);
	assert_int_equal(reasm_pending(), 0);
}

static void test_bad_header(void **state)
{
	struct fwd_punt_meta meta = { .reason = FWD_PUNT_LOCAL };
	struct tpkt t = echo_to(IP4(10, 20, 1, 1));
	uint64_t before = drops(0, FWD_DROP_BAD_HEADER);
	struct rte_mbuf *m;

	(void)state;
	m = tpkt_build(&t);
	tpkt_ip(m)->version_ihl = 0x65;
	local4_input(m, &meta);
	m = tpkt_build(&t);
	tpkt_ip(m)->total_length = rte_cpu_to_be_16(85);
	local4_input(m, &meta);
	m = tpkt_build(&t);
	rte_pktmbuf_trim(m, m->data_len - 20);
	local4_input(m, &meta);
	m = tpkt_build(&t);
	rte_pktmbuf_trim(m, m->data_len);
	local4_input(m, &meta);
	assert_int_equal(drops(0, FWD_DROP_BAD_HEADER), before + 4);
	assert_int_equal(n_sent, 0);
}

/* ports[].tap's hook (core/punt.h): what fwd does not answer goes up. */
static unsigned n_up;
static bool up_taken = true;

static bool fake_up(struct rte_mbuf *m, uint16_t port)
{
	(void)port;
	if (!up_taken)
		return false;
	n_up++;
	rte_pktmbuf_free(m);
	return true;
}

static void test_up_hook(void **state)
{
	static const uint8_t tcp[20] = {
		0x9c, 0x40, 0x00, 0x16, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x02
	};
	uint8_t reply[64];
	struct tpkt t = { .ttl = 64,
		          .proto = 6,
		          .src = IP4(10, 20, 1, 2),
		          .dst = IP4(10, 20, 1, 1),
		          .l4 = tcp,
		          .l4len = sizeof(tcp) };

	(void)state;
	fwd_punt_up = fake_up;
	n_up = 0;
	deliver(&t);  /* TCP */
	t.proto = 47; /* GRE: the kernel's protocol unreachable, not fwd's */
	deliver(&t);
	t.proto = 89; /* OSPF to 224.0.0.5 */
	t.dst = IP4(224, 0, 0, 5);
	deliver(&t);
	assert_int_equal(n_up, 3);
	t = echo_to(IP4(10, 20, 1, 1)); /* an echo reply to the kernel's ping */
	memcpy(reply, echo, sizeof(reply));
	reply[0] = 0;
	l4_cksum_set(reply, 64, 2);
	t.l4 = reply;
	deliver(&t);
	t.frag = 8; /* a fragment: held until whole (test_fragmented_echo) */
	deliver(&t);
	assert_int_equal(n_up, 4);
	assert_int_equal(reasm_pending(), 1);
	assert_int_equal(n_sent, 0);
	/* echo requests fwd answers; a wider group, a broadcast and a spoofed
	 * source stay fwd's drops */
	t = echo_to(IP4(10, 20, 1, 1));
	deliver(&t);
	assert_int_equal(n_sent, 1);
	sent_clear();
	t.proto = 17;
	t.dst = IP4(239, 1, 1, 1);
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	t.dst = IP4(10, 20, 1, 255);
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	t.dst = IP4(10, 20, 1, 1);
	t.src = IP4(10, 20, 2, 1);
	expect_drop(&t, FWD_DROP_BAD_ADDRESS);
	assert_int_equal(n_up, 4);
	/* a port without an interface: fwd's own answer (this segment's
	 * checksum is wrong: no reset, a drop) */
	up_taken = false;
	t = (struct tpkt){ .ttl = 64,
		           .proto = 6,
		           .src = IP4(10, 20, 1, 2),
		           .dst = IP4(10, 20, 1, 1),
		           .l4 = tcp,
		           .l4len = sizeof(tcp) };
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	up_taken = true;
	fwd_punt_up = NULL;
}

static uint8_t seg[64];

static void put32(uint8_t *p, uint32_t v)
{
	v = rte_cpu_to_be_32(v);
	memcpy(p, &v, 4);
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return rte_be_to_cpu_32(v);
}

/* A TCP segment from 10.20.1.2:40000 to dst:22 with flags, seq, ack and n
 * bytes of data, its checksum right. */
static struct tpkt tcp_to(uint32_t dst, uint8_t flags, uint32_t seq, uint32_t ack, unsigned n)
{
	struct {
		uint32_t src, dst;
		uint8_t zero, proto;
		uint16_t len;
	} __rte_packed ph = { rte_cpu_to_be_32(IP4(10, 20, 1, 2)), rte_cpu_to_be_32(dst), 0, 6,
		              rte_cpu_to_be_16((uint16_t)(20 + n)) };
	uint32_t sum;
	uint16_t ck;

	memset(seg, 0, sizeof(seg));
	memcpy(seg, "\x9c\x40\x00\x16", 4);
	put32(seg + 4, seq);
	put32(seg + 8, ack);
	seg[12] = 0x50;
	seg[13] = flags;
	seg[14] = seg[15] = 0xff;
	for (unsigned i = 0; i < n; i++)
		seg[20 + i] = (uint8_t)('a' + i);
	sum = (uint32_t)rte_raw_cksum(&ph, sizeof(ph)) + rte_raw_cksum(seg, 20 + n);
	ck = (uint16_t) ~((sum & 0xffff) + (sum >> 16));
	memcpy(seg + 16, &ck, 2);
	return (struct tpkt){ .ttl = 64,
		              .proto = 6,
		              .src = IP4(10, 20, 1, 2),
		              .dst = dst,
		              .l4 = seg,
		              .l4len = 20 + n };
}

/* Deliver t: one more packet goes out, and t is a local_proto drop. */
static void expect_answer(const struct tpkt *t)
{
	uint64_t before = drops(0, FWD_DROP_LOCAL_PROTO);
	unsigned n = n_sent;

	deliver(t);
	assert_int_equal(n_sent, n + 1);
	assert_int_equal(drops(0, FWD_DROP_LOCAL_PROTO), before + 1);
}

/* Captured packet i is the reset from `from`:22 to 10.20.1.2:40000. */
static void check_rst(unsigned i, uint32_t from, uint32_t seq, uint32_t ack, uint8_t flags)
{
	const uint8_t *ip = sent_ip(i), *t = ip + 20;
	uint8_t src[4] = { from >> 24, from >> 16, from >> 8, from }, dst[4] = { 10, 20, 1, 2 };

	assert_int_equal(ip[9], 6);
	assert_int_equal(ip[2] << 8 | ip[3], 40);
	assert_memory_equal(ip + 12, src, 4);
	assert_memory_equal(ip + 16, dst, 4);
	assert_memory_equal(t, "\x00\x16\x9c\x40", 4);
	assert_int_equal(get32(t + 4), seq);
	assert_int_equal(get32(t + 8), ack);
	assert_int_equal(t[12], 0x50);
	assert_int_equal(t[13], flags);
	assert_int_equal(rte_ipv4_udptcp_cksum_verify((const struct rte_ipv4_hdr *)ip, t), 0);
}

/* RFC 9293 3.10.7.1: a segment to a closed port gets a reset its sender
 * accepts; never a reset about a reset or a damaged segment. */
static void test_tcp_reset(void **state)
{
	uint64_t resets = counter("tcp_resets_sent"), invalid = counter("local_tcp_invalid");
	struct tpkt t;

	(void)state;
	/* a SYN (no ACK): SEQ=0, ACK=SEG.SEQ+SEG.LEN (the SYN counts one) */
	t = tcp_to(IP4(10, 20, 1, 1), RTE_TCP_SYN_FLAG, 1000, 0, 0);
	expect_answer(&t);
	check_rst(0, IP4(10, 20, 1, 1), 0, 1001, RTE_TCP_RST_FLAG | RTE_TCP_ACK_FLAG);
	/* with ACK: SEQ=SEG.ACK, RST alone; from the address it was sent to */
	t = tcp_to(IP4(10, 20, 2, 1), RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG, 7, 5555, 10);
	expect_answer(&t);
	check_rst(1, IP4(10, 20, 2, 1), 5555, 0, RTE_TCP_RST_FLAG);
	/* data and FIN count too */
	t = tcp_to(IP4(10, 20, 1, 1), RTE_TCP_FIN_FLAG, UINT32_MAX - 1, 0, 3);
	expect_answer(&t);
	check_rst(2, IP4(10, 20, 1, 1), 0, 2, RTE_TCP_RST_FLAG | RTE_TCP_ACK_FLAG);
	assert_int_equal(counter("tcp_resets_sent"), resets + 3);
	sent_clear();
	/* a reset gets nothing; neither does a damaged or truncated segment */
	t = tcp_to(IP4(10, 20, 1, 1), RTE_TCP_RST_FLAG, 1, 0, 0);
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	t = tcp_to(IP4(10, 20, 1, 1), RTE_TCP_SYN_FLAG, 1, 0, 0);
	seg[4] ^= 1;
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	t = tcp_to(IP4(10, 20, 1, 1), RTE_TCP_SYN_FLAG, 1, 0, 0);
	t.l4len = 19;
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	t = tcp_to(IP4(10, 20, 1, 1), RTE_TCP_SYN_FLAG, 1, 0, 4);
	seg[12] = 0x60; /* 24-byte header: within the segment, fine */
	deliver(&t);
	assert_int_equal(n_sent, 0); /* (its checksum no longer holds) */
	seg[12] = 0xf0;              /* 60 bytes: past it */
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	assert_int_equal(counter("local_tcp_invalid"), invalid + 4);
	/* nothing to a broadcast */
	t = tcp_to(IP4(10, 20, 1, 255), RTE_TCP_SYN_FLAG, 1, 0, 0);
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
}

/* Resets share the ICMP errors' bucket (RFC 1812 4.3.2.8): a SYN flood
 * spends it, and port unreachables wait as well. */
static void test_tcp_reset_ratelimit(void **state)
{
	uint64_t limited = counter("tcp_resets_ratelimited"), icmp = counter("icmp_ratelimited");
	uint8_t udp[64];
	struct tpkt t;

	(void)state;
	icmp4_ratelimit_set(1); /* a burst of ICMP4_BURST_MIN (50), then one a second */
	for (unsigned i = 0; i < 60; i++) {
		t = tcp_to(IP4(10, 20, 1, 1), RTE_TCP_SYN_FLAG, i, 0, 0);
		deliver(&t);
	}
	assert_int_equal(n_sent, 50);
	assert_int_equal(counter("tcp_resets_ratelimited"), limited + 10);
	t.l4len = udp_build(udp, t.src, t.dst, "payload");
	t.proto = 17;
	t.l4 = udp;
	deliver(&t);
	assert_int_equal(n_sent, 50);
	assert_int_equal(counter("icmp_ratelimited"), icmp + 1);
	icmp4_ratelimit_set(0);
}

static int setup(void **state)
{
	(void)state;
	pool_in_use = rte_mempool_in_use_count(pool);
	return reasm_init();
}

static int teardown(void **state)
{
	(void)state;
	reasm_fini();
	sent_clear();
	/* every packet handed in was sent or freed */
	assert_int_equal(rte_mempool_in_use_count(pool), pool_in_use);
	return 0;
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_up_hook),
		T(test_echo),
		T(test_echo_to_groups),
		T(test_bad_icmp),
		T(test_udp_port_unreachable),
		T(test_udp_invalid),
		T(test_other_protocols),
		T(test_tcp_reset),
		T(test_tcp_reset_ratelimit),
		T(test_refused),
		T(test_fragmented_echo),
		T(test_bad_header),
	};
	int rc;

	if (test_eal_init("local") < 0)
		return 1;
	pool = test_pool("local", 1023, 2048);
	if (pool == NULL)
		return 1;
	fwd.pool = pool;
	fwd_n_ports = 2;
	ip4_addrs[0] = (struct ip4_port_addrs){ 1, { { IP4(10, 20, 1, 1), 24 } } };
	ip4_addrs[1] = (struct ip4_port_addrs){ 1, { { IP4(10, 20, 2, 1), 24 } } };
	icmp4_output = capture;
	icmp4_ratelimit_set(0);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	fwd_n_ports = 0;
	rte_mempool_free(pool);
	rte_eal_cleanup();
	return rc;
}
