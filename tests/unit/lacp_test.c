/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The LACP library (bond/lacp*.c) on a simulated clock: library instances
 * wired back to back by a harness that moves PDUs between them every 100 ms
 * (as bond/lacp_ctl.c's timer does), plus crafted PDUs: aggregation comes
 * up, a silent partner is timed out within 3 s (fast), a member whose
 * partner differs from the aggregator's stays out, markers are answered,
 * malformed PDUs refused, the periodic rate follows the partner's timeout.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bond/lacp.h"

#define MS    1000000ull
#define MAX_P 6

/* A member of system `group` wired to member `peer` (-1: to nobody). */
struct port {
	struct lacp_member lm;
	int peer;
	unsigned group;
	bool mute; /* what it sends is lost */
	unsigned sent;
};

static struct port P[MAX_P];
static unsigned n_ports;
static uint64_t now;

static void actor_of(unsigned group, unsigned i, bool fast, struct lacp_actor *a)
{
	const uint8_t mac[6] = { 0x02, 0, 0, 0, 0, (uint8_t)(0x0a + group) };

	memset(a, 0, sizeof(*a));
	memcpy(a->sys_mac, mac, 6);
	a->sys_prio = 65535;
	a->key = (uint16_t)(group + 1);
	a->port_no = (uint16_t)(i + 1);
	a->port_prio = 255;
	a->fast = fast;
}

static unsigned add_port(unsigned group, bool fast)
{
	struct lacp_actor a;
	unsigned i = n_ports++;

	actor_of(group, i, fast, &a);
	memset(&P[i], 0, sizeof(P[i]));
	P[i].peer = -1;
	P[i].group = group;
	lacp_member_init(&P[i].lm, &a);
	return i;
}

static void wire(unsigned x, unsigned y)
{
	P[x].peer = (int)y;
	P[y].peer = (int)x;
	lacp_member_link(&P[x].lm, true, now);
	lacp_member_link(&P[y].lm, true, now);
}

static void select_all(void)
{
	for (unsigned g = 0; g < 4; g++) {
		struct lacp_member *m[MAX_P];
		unsigned n = 0;

		for (unsigned i = 0; i < n_ports; i++)
			if (P[i].group == g)
				m[n++] = &P[i].lm;
		lacp_select(m, n);
	}
}

static void deliver(unsigned i)
{
	uint8_t pdu[LACP_PDU_LEN];
	size_t len;

	while (lacp_member_tx(&P[i].lm, now, pdu, &len)) {
		assert_int_equal(len, LACP_PDU_LEN);
		P[i].sent++;
		if (!P[i].mute && P[i].peer >= 0)
			assert_int_equal(
			        lacp_member_rx(&P[P[i].peer].lm, pdu, len, now, NULL, NULL), 0);
	}
}

/* ms of time in the timer's 100 ms steps. */
static void run(unsigned ms)
{
	for (unsigned t = 0; t < ms; t += 100) {
		now += 100 * MS;
		for (unsigned i = 0; i < n_ports; i++)
			lacp_member_tick(&P[i].lm, now);
		select_all();
		for (unsigned i = 0; i < n_ports; i++)
			deliver(i);
		select_all();
	}
}

static bool up(unsigned i)
{
	return lacp_member_collecting(&P[i].lm) && lacp_member_distributing(&P[i].lm);
}

/* The ms until member i is up (want) or not, at most limit; ~0 if never. */
static unsigned run_until(unsigned i, bool want, unsigned limit)
{
	for (unsigned t = 0; t <= limit; t += 100) {
		if (up(i) == want)
			return t;
		run(100);
	}
	return ~0u;
}

static int setup(void **state)
{
	(void)state;
	n_ports = 0;
	now = 1000 * MS;
	return 0;
}

/* Two systems of two members each: both links aggregate, both ways. */
static void two_by_two(bool fast_a, bool fast_b)
{
	unsigned a0 = add_port(0, fast_a), a1 = add_port(0, fast_a);
	unsigned b0 = add_port(1, fast_b), b1 = add_port(1, fast_b);

	wire(a0, b0);
	wire(a1, b1);
}

static void test_aggregation_up(void **state)
{
	struct lacp_info info;

	(void)state;
	two_by_two(true, true);
	for (unsigned i = 0; i < 4; i++)
		assert_false(up(i));
	run(1000); /* wait_while (2 s) is not over */
	for (unsigned i = 0; i < 4; i++)
		assert_false(up(i));
	assert_true(run_until(0, true, 3000) <= 2000);
	run(100);
	for (unsigned i = 0; i < 4; i++) {
		assert_true(up(i));
		assert_int_equal(P[i].lm.selected, LACP_SELECTED);
		assert_int_equal(P[i].lm.rx, LACP_RX_CURRENT);
	}
	lacp_member_info(&P[0].lm, &info);
	assert_int_equal(info.mux, LACP_MUX_COLL_DIST);
	assert_int_equal(info.partner.sys[5], 0x0b); /* b's system */
	assert_int_equal(info.partner.key, 2);
	assert_int_equal(info.partner.port, 3);
	assert_int_equal(info.actor.state, LACP_ST_ACTIVITY | LACP_ST_TIMEOUT |
	                                           LACP_ST_AGGREGATION | LACP_ST_SYNC |
	                                           LACP_ST_COLLECTING | LACP_ST_DISTRIBUTING);
	assert_true(info.ctr.rx_lacpdu > 0 && info.ctr.tx_lacpdu > 0);
	assert_string_equal(lacp_mux_state_name(info.mux), "collecting_distributing");
	assert_string_equal(lacp_state_bit_name(3), "synchronization");
	assert_null(lacp_state_bit_name(8));
}

/* A partner that falls silent is out within 3 s at the fast rate; the
 * other link goes on; it expires, defaults, and comes back when it talks. */
static void test_partner_silent(void **state)
{
	unsigned t;

	(void)state;
	two_by_two(true, true);
	run(5000);
	assert_true(up(1) && up(0));
	P[3].mute = true; /* b1 says nothing to a1 any more */
	t = run_until(1, false, 5000);
	assert_true(t > 2000 && t <= 3100);
	assert_true(up(0));
	assert_int_equal(P[1].lm.rx, LACP_RX_EXPIRED);
	assert_true(P[1].lm.actor.state & LACP_ST_EXPIRED);
	run(3100);
	assert_int_equal(P[1].lm.rx, LACP_RX_DEFAULTED);
	assert_int_equal(P[1].lm.selected, LACP_UNSELECTED);
	assert_true(P[1].lm.actor.state & LACP_ST_DEFAULTED);
	assert_true(up(0));
	P[3].mute = false;
	assert_true(run_until(1, true, 5000) <= 3500);
	assert_true(up(0));
}

/* The slow rate: times out after 90 s, not 3. */
static void test_partner_silent_slow(void **state)
{
	unsigned t;

	(void)state;
	two_by_two(false, false);
	run(5000);
	assert_true(up(1));
	P[3].mute = true;
	run(60000);
	assert_true(up(1));
	t = run_until(1, false, 40000);
	assert_true(t <= 31000);
}

/* a1's partner is another system (c): a1 stays out, a0 carries on with b;
 * once every link to b is gone, the aggregator takes c's. */
static void test_partner_change(void **state)
{
	unsigned a0 = add_port(0, true), a1 = add_port(0, true);
	unsigned b0 = add_port(1, true), c0 = add_port(2, true);

	(void)state;
	wire(a0, b0);
	run(500); /* a0 owns the aggregator first */
	wire(a1, c0);
	run(6000);
	assert_true(up(a0) && up(b0));
	assert_false(up(a1));
	assert_int_equal(P[a1].lm.selected, LACP_UNSELECTED);
	assert_int_equal(P[a1].lm.mux, LACP_MUX_DETACHED);
	assert_false(P[a1].lm.actor.state & LACP_ST_SYNC); /* c sees it out of sync */
	assert_false(up(c0));
	lacp_member_link(&P[a0].lm, false, now);
	assert_false(up(a0));
	assert_true(run_until(a1, true, 4000) <= 3500);
}

/* Link down: out at once, no PDU sent on it; link up: back in. */
static void test_link(void **state)
{
	uint8_t pdu[LACP_PDU_LEN];
	size_t len;

	(void)state;
	two_by_two(true, true);
	run(5000);
	lacp_member_link(&P[1].lm, false, now);
	assert_false(up(1));
	assert_int_equal(P[1].lm.rx, LACP_RX_DISABLED);
	P[1].lm.ntt = true;
	assert_false(lacp_member_tx(&P[1].lm, now, pdu, &len));
	lacp_member_link(&P[1].lm, true, now);
	assert_true(run_until(1, true, 4000) <= 3500);
}

/* The partner's timeout bit picks the periodic rate: slow b, fast a: a
 * sends every 30 s, b every second; b turning fast is told at once. */
static void test_slow_fast(void **state)
{
	unsigned a_sent, b_sent;
	struct lacp_actor fast_b;

	(void)state;
	two_by_two(true, false);
	run(10000);
	assert_true(up(0) && up(2));
	a_sent = P[0].sent;
	b_sent = P[2].sent;
	run(60000);
	assert_true(P[0].sent - a_sent >= 2 && P[0].sent - a_sent <= 3);
	assert_true(P[2].sent - b_sent >= 59 && P[2].sent - b_sent <= 61);
	assert_int_equal(P[0].lm.periodic, LACP_PER_SLOW);
	actor_of(1, 2, true, &fast_b);
	lacp_member_actor(&P[2].lm, &fast_b);
	a_sent = P[0].sent;
	run(100);
	assert_int_equal(P[0].lm.periodic, LACP_PER_FAST);
	run(10000);
	assert_true(P[0].sent - a_sent >= 10 && P[0].sent - a_sent <= 12);
	assert_true(up(0));
}

/* At most 3 LACPDUs in any second, however often NTT is set. */
static void test_tx_limit(void **state)
{
	uint8_t pdu[LACP_PDU_LEN];
	size_t len;
	unsigned a = add_port(0, true), sent = 0;

	(void)state;
	lacp_member_link(&P[a].lm, true, now);
	for (unsigned i = 0; i < 10; i++) {
		P[a].lm.ntt = true;
		sent += lacp_member_tx(&P[a].lm, now + i * MS, pdu, &len);
	}
	assert_int_equal(sent, 3);
	assert_true(P[a].lm.ntt); /* still owed */
	assert_true(lacp_member_tx(&P[a].lm, now + 1000 * MS, pdu, &len));
}

/* The LACPDU's layout (802.1AX figure 6-7), and parse(build(x)) == x. */
static void test_pdu_codec(void **state)
{
	struct lacp_pdu p = { 0 }, q;
	uint8_t b[LACP_PDU_LEN + 20];

	(void)state;
	p.actor = (struct lacp_port_info){ 0x8000, { 2, 0, 0, 0, 0, 1 }, 7, 255, 3, 0x3d };
	p.partner = (struct lacp_port_info){ 65535, { 2, 0, 0, 0, 0, 2 }, 9, 128, 0x200, 0x0f };
	p.collector_max_delay = 5;
	memset(b, 0xee, sizeof(b));
	lacp_pdu_build(&p, b);
	assert_int_equal(b[0], 1);
	assert_int_equal(b[1], 1);
	assert_int_equal(b[2], 1);
	assert_int_equal(b[3], 20);
	assert_int_equal(b[4], 0x80);  /* system priority, big-endian */
	assert_int_equal(b[18], 0x3d); /* actor state */
	assert_int_equal(b[22], 2);
	assert_int_equal(b[36], 0x02); /* partner port 0x200 */
	assert_int_equal(b[38], 0x0f);
	assert_int_equal(b[42], 3);
	assert_int_equal(b[43], 16);
	assert_int_equal(b[58], 0);
	assert_int_equal(b[59], 0);
	assert_int_equal(b[109], 0);    /* reserved, zero */
	assert_int_equal(b[110], 0xee); /* nothing written beyond */
	assert_int_equal(lacp_pdu_parse(b, LACP_PDU_LEN, &q), 0);
	assert_memory_equal(&p.actor, &q.actor, sizeof(p.actor));
	assert_memory_equal(&p.partner, &q.partner, sizeof(p.partner));
	assert_int_equal(q.collector_max_delay, 5);
	assert_int_equal(lacp_pdu_parse(b, LACP_PDU_LEN + 20, &q), 0); /* padding ignored */
}

/* Malformed PDUs are refused and counted; the member is unmoved. */
static void test_malformed(void **state)
{
	static const struct {
		unsigned off;
		uint8_t val;
	} bad[] = {
		{ 0, 3 },   { 1, 0 },  { 2, 2 },  { 3, 19 }, { 22, 1 },
		{ 23, 21 }, { 42, 4 }, { 43, 0 }, { 58, 1 }, { 59, 2 },
	};
	struct lacp_pdu p = { 0 };
	uint8_t b[LACP_PDU_LEN], r[LACP_PDU_LEN];
	size_t rl = 0;
	unsigned a = add_port(0, true);
	struct lacp_member before;

	(void)state;
	lacp_member_link(&P[a].lm, true, now);
	p.actor.sys[5] = 0x0b;
	lacp_pdu_build(&p, b);
	before = P[a].lm;
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint8_t c[LACP_PDU_LEN];

		memcpy(c, b, sizeof(c));
		c[bad[i].off] = bad[i].val;
		assert_true(lacp_member_rx(&P[a].lm, c, sizeof(c), now, r, &rl) < 0);
	}
	assert_int_equal(lacp_member_rx(&P[a].lm, b, LACP_PDU_LEN - 1, now, r, &rl), -EINVAL);
	assert_int_equal(lacp_member_rx(&P[a].lm, b, 0, now, r, &rl), -EPROTONOSUPPORT);
	assert_int_equal(P[a].lm.ctr.rx_bad, sizeof(bad) / sizeof(bad[0]) + 2);
	assert_int_equal(P[a].lm.ctr.rx_lacpdu, 0);
	assert_int_equal(P[a].lm.rx, before.rx);
	assert_memory_equal(&P[a].lm.partner, &before.partner, sizeof(before.partner));
	assert_int_equal(rl, 0);
	/* our own PDU, looped back */
	p.actor = P[a].lm.actor;
	lacp_pdu_build(&p, b);
	assert_int_equal(lacp_member_rx(&P[a].lm, b, LACP_PDU_LEN, now, r, &rl), -ELOOP);
	/* random bytes after a LACP subtype: never taken unless well formed */
	srand(31);
	for (unsigned i = 0; i < 20000; i++) {
		size_t len = (size_t)rand() % (LACP_PDU_LEN + 8);
		uint8_t c[LACP_PDU_LEN + 8];

		for (size_t k = 0; k < sizeof(c); k++)
			c[k] = (uint8_t)rand();
		c[0] = (uint8_t)(1 + i % 2);
		(void)lacp_member_rx(&P[a].lm, c, len, now, r, &rl);
	}
	assert_int_equal(P[a].lm.ctr.rx_lacpdu + P[a].lm.ctr.rx_marker, 0);
}

/* A marker request is answered (802.1AX 6.5.4.2): the same requester
 * port, system and transaction id, as a Marker Response. */
static void test_marker(void **state)
{
	uint8_t req[LACP_PDU_LEN] = {
		2, 1, 1, 16, 0, 7, 2, 0, 0, 0, 0, 0x0b, 0xde, 0xad, 0xbe, 0xef
	};
	uint8_t r[LACP_PDU_LEN];
	size_t rl = 0;
	unsigned a = add_port(0, true);

	(void)state;
	lacp_member_link(&P[a].lm, true, now);
	req[16] = 0x55; /* pad: not echoed */
	assert_int_equal(lacp_member_rx(&P[a].lm, req, sizeof(req), now, r, &rl), 1);
	assert_int_equal(rl, LACP_PDU_LEN);
	assert_int_equal(r[0], 2);
	assert_int_equal(r[1], 1);
	assert_int_equal(r[2], 2); /* Marker Response Information */
	assert_int_equal(r[3], 16);
	assert_memory_equal(r + 4, req + 4, 12);
	assert_int_equal(r[16], 0);
	assert_int_equal(r[18], 0);
	assert_int_equal(r[19], 0);
	assert_int_equal(P[a].lm.ctr.rx_marker, 1);
	/* a response is taken without a reply; a broken marker is refused */
	rl = 0;
	assert_int_equal(lacp_member_rx(&P[a].lm, r, sizeof(r), now, r, &rl), 0);
	assert_int_equal(rl, 0);
	req[3] = 17;
	assert_int_equal(lacp_member_rx(&P[a].lm, req, sizeof(req), now, r, &rl), -EINVAL);
	req[3] = 16;
	req[2] = 3;
	assert_int_equal(lacp_member_rx(&P[a].lm, req, sizeof(req), now, r, &rl), -EINVAL);
	assert_int_equal(P[a].lm.ctr.rx_bad, 2);
	assert_int_equal(P[a].lm.ctr.rx_marker, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_aggregation_up, setup),
		cmocka_unit_test_setup(test_partner_silent, setup),
		cmocka_unit_test_setup(test_partner_silent_slow, setup),
		cmocka_unit_test_setup(test_partner_change, setup),
		cmocka_unit_test_setup(test_link, setup),
		cmocka_unit_test_setup(test_slow_fast, setup),
		cmocka_unit_test_setup(test_tx_limit, setup),
		cmocka_unit_test_setup(test_pdu_codec, setup),
		cmocka_unit_test_setup(test_malformed, setup),
		cmocka_unit_test_setup(test_marker, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
