/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Local delivery of IPv6 (local6_input): echo replies (to our addresses
 * and to the groups we listen to), NDP handed over, MLD counted, errors
 * about what we do not serve, TCP resets (RFC 9293 3.10.7.1, in the ICMPv6
 * errors' bucket), the extension headers read on the way, and
 * every packet not answered counted as one drop, with nothing leaked; the
 * same on a VLAN interface (p0.10), whose replies leave on it and whose
 * TAP takes what fwd does not serve. ip6_output and ndp_input are replaced
 * by captures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <rte_tcp.h>

#include "core/daemon.h"
#include "core/iface.h"
#include "core/punt.h"
#include "ip6/addr6.h"
#include "ip6/icmp6.h"
#include "ip6/icmp6_priv.h"
#include "port/port.h"
#include "reasm/reasm.h"
#include "core/counters.h"
#include "test_eal.h"
#include "ip6_pkt.h"

#define ASKER "2001:db8:1::2"
#define OURS  "2001:db8:1::1"

static unsigned pool_in_use;
static struct rte_mbuf *ndp_got[8];
static unsigned n_ndp;
static uint16_t in_iface; /* what packets arrive on: p0 (0), or a VLAN */
static uint16_t vlan;     /* p0.10 */

static void ndp_capture(struct rte_mbuf *m, uint16_t port)
{
	assert_int_equal(port, in_iface);
	assert_true(n_ndp < RTE_DIM(ndp_got));
	ndp_got[n_ndp++] = m;
}

static uint64_t drops(enum fwd_drop_reason r)
{
	return fwd_control_ctrs(in_iface)->drop[r];
}

static uint64_t consumed(void)
{
	return fwd_control_ctrs(in_iface)->consumed;
}

/* Deliver t as received on interface in_iface. */
static void deliver(const struct t6 *t)
{
	struct fwd_punt_meta meta = { .reason = FWD_PUNT_LOCAL6,
		                      .in_port = in_iface,
		                      .out_port = in_iface,
		                      .drop = FWD_PUNT_NO_DROP };

	local6_input(t6_build(t), &meta);
}

/* Deliver t: nothing goes out, and drop reason r moves by one. */
static void expect_drop(const struct t6 *t, enum fwd_drop_reason r)
{
	uint64_t before = drops(r), sent_before = n_sent;

	deliver(t);
	assert_int_equal(n_sent, sent_before);
	assert_int_equal(drops(r), before + 1);
}

/* Deliver t: one error of type/code (param) goes out, and r moves by one. */
static void expect_error(const struct t6 *t, uint8_t type, uint8_t code, uint32_t param,
                         enum fwd_drop_reason r)
{
	uint64_t before = drops(r);
	unsigned i = n_sent;
	const uint8_t *icmp;
	uint8_t want[8] = { type, code, 0, 0, param >> 24, param >> 16, param >> 8, param };

	deliver(t);
	assert_int_equal(n_sent, i + 1);
	assert_int_equal(drops(r), before + 1);
	icmp = sent_ip6(i) + 40;
	assert_memory_equal(icmp, want, 2);
	assert_memory_equal(icmp + 4, want + 4, 4);
}

static uint8_t msg[64];

/* An echo request, id 0x77, seq 3, 56 bytes of data, from src to dst. */
static struct t6 echo(const char *src, const char *dst)
{
	msg[0] = 128, msg[1] = 0, msg[4] = 0, msg[5] = 0x77, msg[6] = 0, msg[7] = 3;
	for (unsigned i = 8; i < sizeof(msg); i++)
		msg[i] = (uint8_t)i;
	l4_cksum_set(src, dst, 58, msg, sizeof(msg), 2);
	return (struct t6){
		.tc = 0x28, .hlim = 9, .nh = 58, .src = src, .dst = dst, .l4 = msg, .l4len = 64
	};
}

/* Captured packet i is the reply to echo(to, from). */
static void check_reply(unsigned i, const char *from, const char *to)
{
	const uint8_t *ip = sent_ip6(i);

	assert_int_equal((ip[0] & 0xf) << 4 | ip[1] >> 4, 0x28); /* traffic class, as asked */
	assert_int_equal(ip[4] << 8 | ip[5], 64);
	assert_memory_equal(ip + 8, a6(from), 16);
	assert_memory_equal(ip + 24, a6(to), 16);
	assert_int_equal(ip[40], 129);
	assert_int_equal(ip[41], 0);
	assert_memory_equal(ip + 44, msg + 4, 60); /* id, seq, data */
	assert_int_equal(sent_port[i], in_iface);
}

static void test_echo(void **state)
{
	uint64_t replies = counter("icmp6_echo_replies_sent"), used = consumed();
	struct t6 t = echo(ASKER, OURS);

	(void)state;
	deliver(&t);
	assert_int_equal(n_sent, 1);
	check_reply(0, OURS, ASKER);
	/* the other port's global address: ours too */
	t = echo(ASKER, "2001:db8:2::1");
	deliver(&t);
	check_reply(1, "2001:db8:2::1", ASKER);
	/* our link-local address, from a link-local asker */
	t = echo("fe80::99", "fe80::1");
	deliver(&t);
	check_reply(2, "fe80::1", "fe80::99");
	assert_int_equal(counter("icmp6_echo_replies_sent"), replies + 3);
	assert_int_equal(consumed(), used + 3);
	/* the other port's link-local address is not ours on this link */
	t = echo("fe80::99", "fe80::2");
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	/* nor an address of nobody's */
	t = echo(ASKER, "2001:db8:1::7");
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
}

static void test_echo_to_groups(void **state)
{
	struct t6 t = echo(ASKER, "ff02::1");

	(void)state;
	t.eth_dst = mac_group;
	deliver(&t); /* from the address the port would use towards the asker */
	assert_int_equal(n_sent, 1);
	check_reply(0, OURS, ASKER);
	t = echo("fe80::99", "ff02::2");
	deliver(&t);
	check_reply(1, "fe80::1", "fe80::99");
	t = echo(ASKER, "ff02::1:ff00:1"); /* solicited-node of our addresses */
	deliver(&t);
	check_reply(2, OURS, ASKER);
	t = echo(ASKER, "ff02::99"); /* a group we do not listen to */
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
}

static void test_echo_refused(void **state)
{
	struct t6 t;

	(void)state;
	t = echo(ASKER, OURS);
	msg[9] ^= 1; /* checksum */
	expect_drop(&t, FWD_DROP_ICMP_INVALID);
	t = echo(ASKER, OURS);
	t.l4len = 3; /* shorter than an ICMPv6 header */
	expect_drop(&t, FWD_DROP_ICMP_INVALID);
	t = echo(ASKER, OURS);
	t.l4len = 6; /* an echo request without its identifier and sequence */
	l4_cksum_set(ASKER, OURS, 58, msg, 6, 2);
	expect_drop(&t, FWD_DROP_ICMP_INVALID);
	/* replies and errors for us: nobody to hand them to */
	t = echo(ASKER, OURS);
	msg[0] = 129;
	l4_cksum_set(ASKER, OURS, 58, msg, 64, 2);
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	msg[0] = 1;
	l4_cksum_set(ASKER, OURS, 58, msg, 64, 2);
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	/* from nobody in particular, or from ourselves */
	t = echo("::", OURS);
	expect_drop(&t, FWD_DROP_BAD_ADDRESS);
	t = echo("2001:db8:2::1", OURS);
	expect_drop(&t, FWD_DROP_BAD_ADDRESS);
}

static void test_echo_behind_headers(void **state)
{
	static const uint8_t dstopts[8] = { 58, 0, 1, 4, 0, 0, 0, 0 };
	static const uint8_t rt0_done[8] = { 58, 0, 0, 0, 0, 0, 0, 0 }; /* segments left 0 */
	static const uint8_t atomic_frag[8] = { 58, 0, 0, 0, 0, 0, 0, 9 };
	struct t6 t = echo(ASKER, OURS);

	(void)state;
	t.nh = 60;
	t.ext = dstopts;
	t.extlen = sizeof(dstopts);
	deliver(&t);
	t.nh = 43;
	t.ext = rt0_done;
	deliver(&t);
	t.nh = 44;
	t.ext = atomic_frag;
	deliver(&t);
	assert_int_equal(n_sent, 3);
	for (unsigned i = 0; i < 3; i++)
		check_reply(i, OURS, ASKER); /* a bare header */
}

static void test_mld(void **state)
{
	/* hop-by-hop with Router Alert (MLD), then the message */
	static const uint8_t hbh_ra[8] = { 58, 0, 5, 2, 0, 0, 1, 0 };
	uint64_t ignored = counter("mld_ignored"), used = consumed();
	uint8_t q[24] = { 130 }, r[28] = { 143 };
	struct t6 t = { .eth_dst = mac_group,
		        .hlim = 1,
		        .nh = 0,
		        .src = "fe80::99",
		        .dst = "ff02::1",
		        .ext = hbh_ra,
		        .extlen = sizeof(hbh_ra),
		        .l4 = q,
		        .l4len = sizeof(q) };

	(void)state;
	l4_cksum_set(t.src, t.dst, 58, q, sizeof(q), 2);
	deliver(&t);
	t.dst = "ff02::16"; /* MLDv2 reports: not a group we listen to, still MLD */
	t.l4 = r;
	t.l4len = sizeof(r);
	l4_cksum_set(t.src, t.dst, 58, r, sizeof(r), 2);
	deliver(&t);
	assert_int_equal(counter("mld_ignored"), ignored + 2);
	assert_int_equal(consumed(), used + 2);
	assert_int_equal(n_sent, 0);
}

static void test_ndp(void **state)
{
	static const uint8_t dstopts[8] = { 58, 0, 1, 4, 0, 0, 0, 0 };
	uint8_t ns[24] = { 135 };
	struct t6 t = { .eth_dst = mac_group,
		        .hlim = 255,
		        .nh = 58,
		        .src = "::",
		        .dst = "ff02::1:ff00:3", /* solicited-node of a tentative address */
		        .l4 = ns,
		        .l4len = sizeof(ns) };

	(void)state;
	memcpy(ns + 8, a6("2001:db8:1::3"), 16);
	l4_cksum_set(t.src, t.dst, 58, ns, sizeof(ns), 2);
	deliver(&t);
	assert_int_equal(n_ndp, 1);
	/* to a solicited-node group not ours */
	t.dst = "ff02::1:ff00:77";
	l4_cksum_set(t.src, t.dst, 58, ns, sizeof(ns), 2);
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	/* behind an extension header */
	t.dst = "ff02::1:ff00:3";
	t.nh = 60;
	t.ext = dstopts;
	t.extlen = sizeof(dstopts);
	l4_cksum_set(t.src, t.dst, 58, ns, sizeof(ns), 2);
	expect_drop(&t, FWD_DROP_NDP_INVALID);
	assert_int_equal(n_ndp, 1);
}

/* A UDP datagram src:40000 -> dst:33434 with 8 bytes, checksummed. */
static struct t6 udp(uint8_t *u, const char *src, const char *dst)
{
	memset(u, 0, 16);
	u[0] = 0x9c, u[1] = 0x40, u[2] = 0x82, u[3] = 0x9a, u[5] = 16;
	memcpy(u + 8, "tracert!", 8);
	l4_cksum_set(src, dst, 17, u, 16, 6);
	return (struct t6){ .hlim = 1, .nh = 17, .src = src, .dst = dst, .l4 = u, .l4len = 16 };
}

static void test_udp(void **state)
{
	uint64_t invalid = counter("local6_udp_invalid");
	uint8_t u[16];
	struct t6 t = udp(u, ASKER, "2001:db8:2::1");

	(void)state;
	/* traceroute's last hop: from the address it was sent to */
	expect_error(&t, ICMP6_DST_UNREACH, ICMP6_DST_UNREACH_NOPORT, 0, FWD_DROP_LOCAL_PROTO);
	assert_memory_equal(sent_ip6(0) + 8, a6("2001:db8:2::1"), 16);
	assert_memory_equal(sent_ip6(0) + 56, a6(ASKER), 16); /* the quoted header's source */
	/* no checksum is no UDP in IPv6; a wrong one, a bad length */
	u[6] = u[7] = 0;
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	t = udp(u, ASKER, OURS);
	u[9] ^= 1;
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	t = udp(u, ASKER, OURS);
	u[5] = 17;
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	assert_int_equal(counter("local6_udp_invalid"), invalid + 3);
	/* to a group: silence */
	t = udp(u, ASKER, "ff02::1");
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	assert_int_equal(n_sent, 1);
}

static void test_other_protocols(void **state)
{
	static const uint8_t tcp[20] = {
		0x9c, 0x40, 0x00, 0x16, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x02
	};
	static const uint8_t dstopts[8] = { 253, 0, 1, 4, 0, 0, 0, 0 };
	struct t6 t = {
		.hlim = 64, .nh = 6, .src = ASKER, .dst = OURS, .l4 = tcp, .l4len = sizeof(tcp)
	};

	(void)state;
	expect_drop(&t, FWD_DROP_LOCAL_PROTO); /* TCP with a wrong checksum: no reset */
	t.nh = 59;                             /* no next header */
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	t.nh = 253; /* unknown: Parameter Problem at the next header field naming it */
	expect_error(&t, ICMP6_PARAM_PROB, ICMP6_PARAMPROB_NEXTHEADER, 6, FWD_DROP_LOCAL_PROTO);
	t.nh = 60;
	t.ext = dstopts;
	t.extlen = sizeof(dstopts);
	expect_error(&t, ICMP6_PARAM_PROB, ICMP6_PARAMPROB_NEXTHEADER, 40, FWD_DROP_LOCAL_PROTO);
	assert_memory_equal(sent_ip6(1) + 8, a6(OURS), 16);
}

static void test_options(void **state)
{
	static const uint8_t opt80[8] = { 58, 0, 0x80, 4, 0, 0, 0, 0 }; /* discard, tell */
	static const uint8_t opt40[8] = { 58, 0, 0x40, 4, 0, 0, 0, 0 }; /* discard */
	static const uint8_t opt00[8] = { 58, 0, 0x1e, 4, 0, 0, 0, 0 }; /* skip */
	static const uint8_t padn_dirty[8] = { 58, 0, 1, 4, 0, 1, 0, 0 };
	static const uint8_t too_long[8] = { 58, 0, 0x1e, 9, 0, 0, 0, 0 };
	static const uint8_t ra_bad[8] = { 58, 0, 5, 3, 0, 0, 0, 0 };
	static const uint8_t hbh_late[16] = { 0, 0, 1, 4, 0, 0, 0, 0, 58, 0, 1, 4, 0, 0, 0, 0 };
	struct t6 t = echo(ASKER, OURS);

	(void)state;
	t.nh = 0;
	t.ext = opt80;
	t.extlen = 8;
	expect_error(&t, ICMP6_PARAM_PROB, ICMP6_PARAMPROB_OPTION, 42, FWD_DROP_BAD_HEADER);
	t.nh = 60; /* the same in destination options */
	expect_error(&t, ICMP6_PARAM_PROB, ICMP6_PARAMPROB_OPTION, 42, FWD_DROP_BAD_HEADER);
	t.ext = opt40;
	expect_drop(&t, FWD_DROP_BAD_HEADER);
	t.ext = padn_dirty;
	expect_drop(&t, FWD_DROP_BAD_HEADER);
	t.ext = too_long;
	expect_drop(&t, FWD_DROP_BAD_HEADER);
	t.nh = 0;
	t.ext = ra_bad;
	expect_drop(&t, FWD_DROP_BAD_HEADER);
	/* a hop-by-hop header after another one */
	t.nh = 60;
	t.ext = hbh_late;
	t.extlen = sizeof(hbh_late);
	expect_error(&t, ICMP6_PARAM_PROB, ICMP6_PARAMPROB_NEXTHEADER, 40, FWD_DROP_BAD_HEADER);
	/* an unknown option that may be skipped is */
	sent_clear();
	t.ext = opt00;
	t.extlen = 8;
	deliver(&t);
	assert_int_equal(n_sent, 1);
	check_reply(0, OURS, ASKER);
}

static void test_routing_and_fragments(void **state)
{
	static const uint8_t rh_left[8] = { 58, 0, 4, 1, 0, 0, 0, 0 };
	static const uint8_t frag_first[8] = { 58, 0, 0, 1, 0, 0, 0, 9 };  /* more to come */
	static const uint8_t frag_later[8] = { 58, 0, 0, 32, 0, 0, 0, 9 }; /* at 32, the last */
	static const uint8_t frag_over[8] = { 58, 0, 0, 24, 0, 0, 0, 9 };  /* at 24, the last */
	static const uint8_t atomic[8] = { 58, 0, 0, 0, 0, 0, 0, 7 };      /* RFC 6946 */
	struct t6 t = echo(ASKER, OURS), u;
	uint64_t overlaps;

	(void)state;
	t.nh = 43;
	t.ext = rh_left;
	t.extlen = 8;
	expect_error(&t, ICMP6_PARAM_PROB, ICMP6_PARAMPROB_HEADER, 42, FWD_DROP_BAD_HEADER);
	sent_clear();
	/* an echo request in two fragments, the last first: answered once whole */
	t.nh = 44;
	u = t;
	t.ext = frag_first, t.l4len = 32;
	u.ext = frag_later, u.l4 = msg + 32, u.l4len = 32;
	deliver(&u);
	deliver(&t);
	assert_int_equal(n_sent, 1);
	check_reply(0, OURS, ASKER);
	/* RFC 5722: an overlap ends the datagram, and the fragment after it starts anew */
	u.ext = frag_over, u.l4 = msg + 24, u.l4len = 40;
	overlaps = drops(FWD_DROP_REASM_OVERLAP);
	deliver(&t);
	deliver(&u);
	assert_int_equal(n_sent, 1);
	assert_int_equal(drops(FWD_DROP_REASM_OVERLAP), overlaps + 2); /* both fragments */
	assert_int_equal(reasm_pending(), 0);
	/* an atomic fragment is whole as it is */
	t.ext = atomic, t.l4len = 64;
	deliver(&t);
	assert_int_equal(n_sent, 2);
	check_reply(1, OURS, ASKER);
}

static void test_bad_header(void **state)
{
	struct fwd_punt_meta meta = { .reason = FWD_PUNT_LOCAL6 };
	uint64_t before = drops(FWD_DROP_BAD_HEADER);
	struct t6 t = echo(ASKER, OURS);
	static const uint8_t ext_cut[4] = { 58, 1, 0, 0 };
	struct rte_mbuf *m;

	(void)state;
	m = t6_build(&t);
	rte_pktmbuf_mtod(m, uint8_t *)[L2] = 0x40; /* version 4 */
	local6_input(m, &meta);
	t.plen_adjust = -1;
	local6_input(t6_build(&t), &meta);
	t.plen_adjust = 0;
	m = t6_build(&t);
	rte_pktmbuf_trim(m, m->data_len - 30);
	local6_input(m, &meta);
	/* an extension header longer than the packet */
	t.nh = 60;
	t.ext = ext_cut;
	t.extlen = sizeof(ext_cut);
	t.l4len = 0;
	local6_input(t6_build(&t), &meta);
	assert_int_equal(drops(FWD_DROP_BAD_HEADER), before + 4);
	assert_int_equal(n_sent, 0);
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
	in_iface = 0;
	fwd_punt_up = NULL;
	reasm_fini();
	sent_clear();
	rte_pktmbuf_free_bulk(ndp_got, n_ndp);
	n_ndp = 0;
	/* every packet handed in was sent, handed over or freed */
	assert_int_equal(rte_mempool_in_use_count(pool), pool_in_use);
	return 0;
}

static void port_addrs(uint16_t port, const char *ll, const char *global, const char *tentative)
{
	struct ip6_port_addrs *pa = &ip6_addrs[port];

	memset(pa, 0, sizeof(*pa));
	memcpy(pa->a[0].addr, a6(ll), 16);
	pa->a[0].len = 64;
	memcpy(pa->a[1].addr, a6(global), 16);
	pa->a[1].len = 64;
	pa->state[0] = pa->state[1] = ADDR6_PREFERRED;
	pa->n = 2;
	if (tentative != NULL) {
		memcpy(pa->a[2].addr, a6(tentative), 16);
		pa->a[2].len = 64;
		pa->state[2] = ADDR6_TENTATIVE;
		pa->n = 3;
	}
}

static uint8_t seg[64];

/* A TCP segment from src:40000 to dst:22 with flags, seq, ack and n bytes
 * of data, its checksum right. */
static struct t6 tcp6_to(const char *src, const char *dst, uint8_t flags, uint32_t seq,
                         uint32_t ack, unsigned n)
{
	uint32_t be;

	memset(seg, 0, sizeof(seg));
	memcpy(seg, "\x9c\x40\x00\x16", 4);
	be = rte_cpu_to_be_32(seq);
	memcpy(seg + 4, &be, 4);
	be = rte_cpu_to_be_32(ack);
	memcpy(seg + 8, &be, 4);
	seg[12] = 0x50;
	seg[13] = flags;
	for (unsigned i = 0; i < n; i++)
		seg[20 + i] = (uint8_t)('a' + i);
	l4_cksum_set(src, dst, 6, seg, 20 + n, 16);
	return (struct t6){
		.hlim = 64, .nh = 6, .src = src, .dst = dst, .l4 = seg, .l4len = 20 + n
	};
}

/* Captured packet i is the reset from `from`:22 to ASKER:40000. */
static void check_rst(unsigned i, const char *from, uint32_t seq, uint32_t ack, uint8_t flags)
{
	const uint8_t *ip = rte_pktmbuf_mtod_offset(sent[i], const uint8_t *, L2), *t = ip + 40;
	uint32_t be_seq = rte_cpu_to_be_32(seq), be_ack = rte_cpu_to_be_32(ack);

	assert_int_equal(rte_pktmbuf_data_len(sent[i]), L2 + 40 + 20);
	assert_int_equal(ip[0] >> 4, 6);
	assert_int_equal(ip[4] << 8 | ip[5], 20);
	assert_int_equal(ip[6], 6);
	assert_int_equal(ip[7], 64);
	assert_memory_equal(ip + 8, a6(from), 16);
	assert_memory_equal(ip + 24, a6(ASKER), 16);
	assert_memory_equal(t, "\x00\x16\x9c\x40", 4);
	assert_memory_equal(t + 4, &be_seq, 4);
	assert_memory_equal(t + 8, &be_ack, 4);
	assert_int_equal(t[12], 0x50);
	assert_int_equal(t[13], flags);
	assert_int_equal(l4_sum(from, ASKER, 6, t, 20), 0xffff);
}

/* RFC 9293 3.10.7.1, as for IPv4: a reset the sender accepts, from the
 * address it asked; never about a reset, a damaged segment, nor to a
 * group; within the ICMPv6 errors' bucket. */
static void test_tcp_reset(void **state)
{
	static const uint8_t dstopts[8] = { 6, 0, 1, 4, 0, 0, 0, 0 };
	uint64_t resets = counter("tcp6_resets_sent"), invalid = counter("local6_tcp_invalid");
	uint64_t limited = counter("tcp6_resets_ratelimited");
	struct t6 t;

	(void)state;
	t = tcp6_to(ASKER, OURS, RTE_TCP_SYN_FLAG, 1000, 0, 0);
	deliver(&t);
	assert_int_equal(n_sent, 1);
	check_rst(0, OURS, 0, 1001, RTE_TCP_RST_FLAG | RTE_TCP_ACK_FLAG);
	t = tcp6_to(ASKER, OURS, RTE_TCP_ACK_FLAG, 7, 5555, 10);
	t.ext = dstopts; /* behind a destination options header */
	t.extlen = sizeof(dstopts);
	t.nh = 60;
	deliver(&t);
	assert_int_equal(n_sent, 2);
	check_rst(1, OURS, 5555, 0, RTE_TCP_RST_FLAG);
	assert_int_equal(counter("tcp6_resets_sent"), resets + 2);
	sent_clear();
	t = tcp6_to(ASKER, OURS, RTE_TCP_RST_FLAG, 1, 0, 0);
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	t = tcp6_to(ASKER, OURS, RTE_TCP_SYN_FLAG, 1, 0, 0);
	seg[4] ^= 1;
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	t = tcp6_to(ASKER, OURS, RTE_TCP_SYN_FLAG, 1, 0, 0);
	t.l4len = 12;
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	assert_int_equal(counter("local6_tcp_invalid"), invalid + 2);
	t = tcp6_to(ASKER, "ff02::1", RTE_TCP_SYN_FLAG, 1, 0, 0);
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	/* a burst of ICMP6_BURST_MIN (50) then one a second, shared with errors */
	icmp6_ratelimit_set(1);
	for (unsigned i = 0; i < 60; i++) {
		t = tcp6_to(ASKER, OURS, RTE_TCP_SYN_FLAG, i, 0, 0);
		deliver(&t);
	}
	assert_int_equal(n_sent, 50);
	assert_int_equal(counter("tcp6_resets_ratelimited"), limited + 10);
	icmp6_ratelimit_set(0);
}

static unsigned n_up;
static uint16_t up_port;

/* The VLAN's TAP (`tap: true`): it takes what is handed up on the VLAN. */
static bool vlan_tap(struct rte_mbuf *m, uint16_t port)
{
	if (port != vlan)
		return false;
	n_up++;
	up_port = port;
	rte_pktmbuf_free(m);
	return true;
}

/* A packet that came in on a VLAN is the VLAN's: to its addresses (its
 * link-local one is its port's too: the same MAC), answered from them on
 * it; another interface's link-local address is not ours there; errors
 * from its address; NDP handed over with its id; fragments put together
 * and answered on it; what fwd does not serve goes up its TAP. */
static void test_vlan(void **state)
{
	static const uint8_t frag_first[8] = { 58, 0, 0, 1, 0, 0, 0, 9 };
	static const uint8_t frag_later[8] = { 58, 0, 0, 32, 0, 0, 0, 9 };
	uint8_t u[16], ns[24] = { 135 };
	struct t6 t, f;

	(void)state;
	in_iface = vlan;
	t = echo("2001:db8:10::2", "2001:db8:10::1");
	deliver(&t);
	check_reply(0, "2001:db8:10::1", "2001:db8:10::2");
	t = echo("fe80::99", "fe80::1");
	deliver(&t);
	check_reply(1, "fe80::1", "fe80::99");
	t = echo("2001:db8:10::2", "ff02::1");
	t.eth_dst = mac_group;
	deliver(&t); /* from the VLAN's address towards the asker */
	check_reply(2, "2001:db8:10::1", "2001:db8:10::2");
	assert_int_equal(consumed(), 3);
	t = echo("fe80::99", "fe80::2"); /* p1's */
	expect_drop(&t, FWD_DROP_LOCAL_PROTO);
	t = udp(u, "2001:db8:10::2", "2001:db8:10::1");
	expect_error(&t, ICMP6_DST_UNREACH, ICMP6_DST_UNREACH_NOPORT, 0, FWD_DROP_LOCAL_PROTO);
	assert_memory_equal(sent_ip6(3) + 8, a6("2001:db8:10::1"), 16);
	assert_int_equal(sent_port[3], vlan);
	/* NDP for the VLAN's solicited-node group */
	t = (struct t6){ .eth_dst = mac_group,
		         .hlim = 255,
		         .nh = 58,
		         .src = "fe80::99",
		         .dst = "ff02::1:ff00:1",
		         .l4 = ns,
		         .l4len = sizeof(ns) };
	memcpy(ns + 8, a6("2001:db8:10::1"), 16);
	l4_cksum_set(t.src, t.dst, 58, ns, sizeof(ns), 2);
	deliver(&t);
	assert_int_equal(n_ndp, 1);
	/* an echo request in two fragments */
	t = echo("2001:db8:10::2", "2001:db8:10::1");
	t.nh = 44;
	f = t;
	t.ext = frag_first, t.extlen = 8, t.l4len = 32;
	f.ext = frag_later, f.extlen = 8, f.l4 = msg + 32, f.l4len = 32;
	deliver(&f);
	deliver(&t);
	assert_int_equal(n_sent, 5);
	check_reply(4, "2001:db8:10::1", "2001:db8:10::2");
	/* the VLAN's TAP: what fwd does not answer itself */
	fwd_punt_up = vlan_tap;
	t = udp(u, "2001:db8:10::2", "2001:db8:10::1");
	deliver(&t);
	assert_int_equal(n_up, 1);
	assert_int_equal(up_port, vlan);
	assert_int_equal(n_sent, 5);
	/* TCP no TAP took: the reset from the VLAN's address, on it */
	fwd_punt_up = NULL;
	t = tcp6_to(ASKER, "2001:db8:10::1", RTE_TCP_SYN_FLAG, 1000, 0, 0);
	deliver(&t);
	assert_int_equal(n_sent, 6);
	check_rst(5, "2001:db8:10::1", 0, 1001, RTE_TCP_RST_FLAG | RTE_TCP_ACK_FLAG);
	assert_int_equal(sent_port[5], vlan);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_echo),
		T(test_echo_to_groups),
		T(test_echo_refused),
		T(test_echo_behind_headers),
		T(test_mld),
		T(test_ndp),
		T(test_udp),
		T(test_other_protocols),
		T(test_tcp_reset),
		T(test_options),
		T(test_routing_and_fragments),
		T(test_bad_header),
		T(test_vlan),
	};
	int rc;

	if (test_eal_init("local6") < 0)
		return 1;
	pool = test_pool("local6", 511, 2048);
	if (pool == NULL)
		return 1;
	fwd.pool = pool;
	fwd_n_ports = 2;
	port_addrs(0, "fe80::1", OURS, "2001:db8:1::3");
	port_addrs(1, "fe80::2", "2001:db8:2::1", NULL);
	fwd_ports[0].mtu = fwd_ports[1].mtu = 1500;
	fwd_iface_port_sync(0);
	fwd_iface_port_sync(1);
	if (fwd_iface_vlan_add("p0.10", 0, 10, 0, &vlan) < 0)
		return 1;
	port_addrs(vlan, "fe80::1", "2001:db8:10::1", NULL);
	icmp6_output = capture;
	local6_ndp = ndp_capture;
	icmp6_ratelimit_set(0);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	fwd_iface_reset();
	fwd_n_ports = 0;
	rte_mempool_free(pool);
	rte_eal_cleanup();
	return rc;
}
