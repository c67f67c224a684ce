/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bond/lacp_ctl.c, LACP on the control thread, with the bond layer faked
 * (its hooks: member_tx queues the frame, member_changed records the port,
 * a clock the test moves): two bonds of two members wired back to back
 * through the punt handler aggregate, frames are whole slow-protocol
 * frames from the member's MAC, markers are answered on their member, a
 * link down takes a member out at once, and frames that are no member's or
 * malformed are dropped as lacp_invalid.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <rte_ether.h>

#include "bond/lacp_ctl.h"
#include "core/counters.h"
#include "core/daemon.h"
#include "core/ports.h"
#include "core/punt.h"
#include "test_eal.h"

#define MS      1000000ull
#define QLEN    64
#define BOND_A  10
#define BOND_B  11
#define N_PORTS 4

static uint64_t clock_ns;
static struct rte_mbuf *queue[QLEN];
static uint8_t queue_port[QLEN];
static unsigned n_queued, changed[N_PORTS];
static const int peer[N_PORTS] = { 2, 3, 0, 1 }; /* a0-b0, a1-b1 */

static int fake_tx(uint8_t port, struct rte_mbuf *m)
{
	assert_true(n_queued < QLEN);
	queue_port[n_queued] = port;
	queue[n_queued++] = m;
	return 0;
}

static void fake_changed(uint8_t port)
{
	assert_true(port < N_PORTS);
	changed[port]++;
}

static uint64_t fake_now(void)
{
	return clock_ns;
}

static void input(struct rte_mbuf *m, uint16_t in)
{
	struct fwd_punt_meta meta = { .reason = FWD_PUNT_LACP, .in_port = in, .out_port = in };

	lacp_ctl_input(m, &meta);
}

/* Every queued frame to its member's peer; the wire checks each. */
static void deliver(void)
{
	while (n_queued > 0) {
		struct rte_mbuf *m = queue[0];
		uint8_t port = queue_port[0];
		const struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);

		memmove(queue, queue + 1, --n_queued * sizeof(queue[0]));
		memmove(queue_port, queue_port + 1, n_queued);
		assert_int_equal(rte_pktmbuf_pkt_len(m), RTE_ETHER_HDR_LEN + LACP_PDU_LEN);
		assert_int_equal(eh->ether_type, rte_cpu_to_be_16(LACP_ETHERTYPE));
		assert_int_equal(eh->dst_addr.addr_bytes[0], 0x01);
		assert_int_equal(eh->dst_addr.addr_bytes[5], 0x02);
		assert_true(rte_is_same_ether_addr(&eh->src_addr, &fwd_ports[port].mac));
		input(m, (uint16_t)peer[port]);
	}
}

static void run(unsigned ms)
{
	for (unsigned t = 0; t < ms; t += LACP_CTL_TICK_MS) {
		clock_ns += LACP_CTL_TICK_MS * MS;
		lacp_ctl_tick();
		deliver();
	}
}

static uint64_t invalid(uint16_t port)
{
	return fwd_control_ctrs(port)->drop[FWD_DROP_LACP_INVALID];
}

static int setup(void **state)
{
	static const struct lacp_ctl_ops ops = { .member_tx = fake_tx,
		                                 .member_changed = fake_changed,
		                                 .now_ns = fake_now };

	(void)state;
	lacp_ctl_reset();
	lacp_ctl_ops_set(&ops);
	memset(changed, 0, sizeof(changed));
	clock_ns = 1000 * MS;
	for (unsigned i = 0; i < N_PORTS; i++) {
		snprintf(fwd_ports[i].name, sizeof(fwd_ports[i].name), "m%u", i);
		fwd_ports[i].mac = (struct rte_ether_addr){ { 0x02, 0, 0, 0, 1, (uint8_t)i } };
	}
	/* ports 0 and 1 are bond A, 2 and 3 bond B (its system: its first
	 * member's MAC); first all in A, then B's moved: they start afresh,
	 * their link kept */
	for (unsigned i = 0; i < N_PORTS; i++)
		lacp_ctl_member_set((uint8_t)i, BOND_A, fwd_ports[0].mac.addr_bytes, true);
	for (unsigned i = 0; i < N_PORTS; i++)
		lacp_ctl_member_link((uint8_t)i, true);
	for (unsigned i = 2; i < N_PORTS; i++)
		lacp_ctl_member_set((uint8_t)i, BOND_B, fwd_ports[2].mac.addr_bytes, true);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	deliver();
	lacp_ctl_reset();
	return 0;
}

static void test_up(void **state)
{
	struct lacp_info info;

	(void)state;
	run(4000);
	for (unsigned i = 0; i < N_PORTS; i++) {
		assert_true(lacp_ctl_collecting((uint8_t)i));
		assert_true(lacp_ctl_distributing((uint8_t)i));
		assert_int_equal(changed[i], 1);
	}
	assert_true(lacp_ctl_info(0, &info));
	assert_int_equal(info.actor.key, BOND_A + 1);
	assert_int_equal(info.actor.port, 1);
	assert_int_equal(info.partner.key, BOND_B + 1);
	assert_int_equal(info.partner.port, 3);
	assert_memory_equal(info.partner.sys, fwd_ports[2].mac.addr_bytes, 6);
	assert_false(lacp_ctl_info(N_PORTS, &info));
	/* a link down: out at once, the bond layer told */
	lacp_ctl_member_link(1, false);
	assert_false(lacp_ctl_collecting(1));
	assert_int_equal(changed[1], 2);
	assert_true(lacp_ctl_collecting(0));
	lacp_ctl_member_clear(0);
	assert_false(lacp_ctl_collecting(0));
}

/* A marker request comes back on its member as a response. */
static void test_marker(void **state)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(fwd.pool);
	struct rte_ether_hdr *eh;
	uint8_t *pdu;

	(void)state;
	deliver();
	assert_non_null(m);
	eh = (struct rte_ether_hdr *)rte_pktmbuf_append(m, RTE_ETHER_HDR_LEN + LACP_PDU_LEN);
	memset(eh, 0, RTE_ETHER_HDR_LEN + LACP_PDU_LEN);
	eh->dst_addr = (struct rte_ether_addr){ { 0x01, 0x80, 0xc2, 0, 0, 0x02 } };
	eh->ether_type = rte_cpu_to_be_16(LACP_ETHERTYPE);
	pdu = (uint8_t *)(eh + 1);
	pdu[0] = LACP_SUBTYPE_MRK;
	pdu[1] = 1;
	pdu[2] = 1;
	pdu[3] = 16;
	pdu[15] = 0x42; /* transaction id */
	input(m, 1);
	assert_int_equal(n_queued, 1);
	assert_int_equal(queue_port[0], 1);
	pdu = rte_pktmbuf_mtod_offset(queue[0], uint8_t *, RTE_ETHER_HDR_LEN);
	assert_int_equal(pdu[2], 2);
	assert_int_equal(pdu[15], 0x42);
	rte_pktmbuf_free(queue[0]);
	n_queued = 0;
}

/* Refused: a port no LACP member, a short or foreign frame, a bad PDU. */
static void test_invalid(void **state)
{
	static const struct {
		uint16_t port;
		unsigned len;
		unsigned off;
		uint8_t val;
	} cases[] = {
		{ N_PORTS, 124, 0, 0x01 }, /* not a member */
		{ 300, 124, 0, 0x01 },     /* not even a port */
		{ 0, 14, 0, 0x01 },        /* no PDU */
		{ 0, 124, 0, 0x03 },       /* not the slow protocols' address */
		{ 0, 124, 12, 0x08 },      /* another ethertype */
		{ 0, 124, 14, 0x09 },      /* another subtype */
		{ 0, 124, 17, 0x13 },      /* the actor TLV's length */
		{ 0, 100, 0, 0x01 },       /* short */
	};

	(void)state;
	deliver();
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(fwd.pool);
		uint8_t *b;
		uint16_t counted = cases[i].port < FWD_MAX_IFACES ? cases[i].port : 0;
		uint64_t was = invalid(counted);

		assert_non_null(m);
		b = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)cases[i].len);
		memset(b, 0, cases[i].len);
		memcpy(b, (const uint8_t[]){ 0x01, 0x80, 0xc2, 0, 0, 0x02 }, 6);
		b[12] = 0x88;
		b[13] = 0x09;
		if (cases[i].len >= 124) { /* a well-formed LACPDU, then the change */
			const uint8_t tlv[] = { 1, 1, 1, 20 };

			memcpy(b + 14, tlv, 4);
			b[14 + 22] = 2;
			b[14 + 23] = 20;
			b[14 + 42] = 3;
			b[14 + 43] = 16;
		}
		b[cases[i].off] = cases[i].val;
		input(m, cases[i].port);
		assert_int_equal(invalid(counted), was + 1);
	}
	assert_int_equal(n_queued, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_up, setup, teardown),
		cmocka_unit_test_setup_teardown(test_marker, setup, teardown),
		cmocka_unit_test_setup_teardown(test_invalid, setup, teardown),
	};

	if (test_eal_init("lacp_ctl") < 0)
		return 1;
	fwd.pool = test_pool("lacp_ctl_test", 1024, 256);
	if (fwd.pool == NULL)
		return 1;
	fwd_n_ports = N_PORTS;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
