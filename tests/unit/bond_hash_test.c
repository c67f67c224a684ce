/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A bond's transmit (bond/bond_hash.h, bond/bond_dp.c) and who carries it
 * (bond/bond.c): one flow always leaves by one member, the fragments of a
 * datagram together (l34 uses ports only when not a fragment), many flows
 * use every member; with LACP (two bonds back to back through lacp_ctl) a
 * member carries traffic once the partner is in sync, one whose link goes
 * leaves the set at once and no burst is dropped while a member
 * distributes; no member: bond_down; active-backup fails over to the next
 * member up, takes frames only on the active one, and a new set leaves the
 * old one intact for a burst still reading it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "bond/bond.h"
#include "bond/bond_hash.h"
#include "bond/lacp_ctl.h"
#include "core/daemon.h"
#include "core/worker.h"
#include "test_eal.h"

#define BOND 2 /* members p0 and p1, the bond at port index 2 */

static struct rte_mempool *pool;
static struct fwd_worker *w;
static unsigned sent_on[FWD_MAX_PORTS]; /* frames the tap saw leave each port */

/* An IPv4 frame; proto TCP with ports sport/dport; frag: MF set or an offset. */
static struct rte_mbuf *frame4(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
                               uint16_t frag)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *d = (uint8_t *)rte_pktmbuf_append(m, 14 + 20 + 20);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(d + 14);
	uint16_t *ports = (uint16_t *)(ip + 1);

	memset(d, 0, 54);
	d[5] = 1;
	d[11] = 2;
	d[12] = 0x08;
	ip->version_ihl = 0x45;
	ip->next_proto_id = IPPROTO_TCP;
	ip->src_addr = rte_cpu_to_be_32(src);
	ip->dst_addr = rte_cpu_to_be_32(dst);
	ip->fragment_offset = rte_cpu_to_be_16(frag);
	ports[0] = rte_cpu_to_be_16(sport);
	ports[1] = rte_cpu_to_be_16(dport);
	return m;
}

static uint32_t hash_of(struct rte_mbuf *m, enum bond_hash how)
{
	uint32_t h = bond_hash_frame(rte_pktmbuf_mtod(m, uint8_t *), m->data_len, how);

	rte_pktmbuf_free(m);
	return h;
}

static void test_one_flow_one_member(void **state)
{
	(void)state;
	for (unsigned f = 0; f < 64; f++) {
		uint32_t h =
		        hash_of(frame4(0x0a000001 + f, 0x0a010001, 1000 + f, 80, 0), BOND_HASH_L34);

		for (unsigned k = 0; k < 4; k++)
			assert_int_equal(
			        hash_of(frame4(0x0a000001 + f, 0x0a010001, 1000 + f, 80, 0),
			                BOND_HASH_L34),
			        h);
	}
}

static void test_fragments_together(void **state)
{
	(void)state;
	for (unsigned f = 0; f < 64; f++) {
		uint32_t src = 0x0a000001 + f;
		/* the first fragment carries the ports, the others do not: both
		 * must hash on the addresses alone */
		uint32_t first =
		        hash_of(frame4(src, 0x0a010001, 1000 + f, 80, 0x2000), BOND_HASH_L34);
		uint32_t later =
		        hash_of(frame4(src, 0x0a010001, 0xdead, 0xbeef, 185), BOND_HASH_L34);
		uint32_t whole = hash_of(frame4(src, 0x0a010001, 1000 + f, 80, 0), BOND_HASH_L34);

		assert_int_equal(first, later);
		assert_int_equal(first,
		                 hash_of(frame4(src, 0x0a010001, 0, 0, 0), BOND_HASH_L23) ^
		                         hash_of(frame4(src, 0x0a010001, 0, 0, 0), BOND_HASH_L2));
		if (f == 0)
			assert_int_not_equal(first, whole); /* ports count when whole */
	}
}

/* l34 spreads flows that differ only in their ports; l23 and l2 do not. */
static void test_spread(void **state)
{
	unsigned n[3][2] = { { 0 } };

	(void)state;
	for (unsigned f = 0; f < 256; f++)
		for (unsigned how = BOND_HASH_L2; how <= BOND_HASH_L34; how++)
			n[how][bond_pick(hash_of(frame4(0x0a000001, 0x0a010001, 1000 + f, 80, 0),
			                         (enum bond_hash)how),
			                 2)]++;
	assert_true(n[BOND_HASH_L34][0] > 64 && n[BOND_HASH_L34][1] > 64);
	assert_true(n[BOND_HASH_L23][0] == 256 || n[BOND_HASH_L23][1] == 256);
	assert_true(n[BOND_HASH_L2][0] == 256 || n[BOND_HASH_L2][1] == 256);
	for (unsigned k = 1; k <= FWD_BOND_MAX_MEMBER; k++)
		for (uint32_t h = 0; h < 1000; h += 7)
			assert_true(bond_pick(h * 2654435761u, k) < k);
}

static void tap(unsigned worker, uint8_t port, uint16_t queue, uint8_t dir,
                struct rte_mbuf *const *pkts, uint16_t n)
{
	(void)worker, (void)queue, (void)dir, (void)pkts;
	sent_on[port] += n;
}

/* The members' "devices": every frame sent (and freed). */
static uint16_t fake_tx(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	(void)q;
	rte_pktmbuf_free_bulk(pkts, n);
	return n;
}

static void *fake_txq[RTE_MAX_QUEUES_PER_PORT];

static void fake_device(uint16_t port_id)
{
	rte_eth_fp_ops[port_id].tx_pkt_burst = fake_tx;
	rte_eth_fp_ops[port_id].txq.data = fake_txq;
	fake_txq[0] = fake_txq;
}

/*
 * LACP between bond0 (p0, p1; port index 2) and a partner bond1 (p3, p4;
 * port index 5) wired back to back: what a member sends (bond_member_tx's
 * place) goes to its peer's punt handler; a clock the test moves.
 */
#define PARTNER 5
static const uint8_t peer[] = { 3, 4, 0, 0, 1, 0 }; /* p0-p3, p1-p4 */
static uint64_t clock_ns;
static struct rte_mbuf *wire[64];
static uint8_t wire_port[64];
static unsigned n_wire;

static int wire_tx(uint8_t port, struct rte_mbuf *m)
{
	assert_true(n_wire < RTE_DIM(wire));
	wire_port[n_wire] = port;
	wire[n_wire++] = m;
	return 0;
}

static uint64_t fake_now(void)
{
	return clock_ns;
}

static void run_lacp(unsigned ms)
{
	for (unsigned t = 0; t < ms; t += LACP_CTL_TICK_MS) {
		clock_ns += LACP_CTL_TICK_MS * 1000000ull;
		lacp_ctl_tick();
		for (unsigned i = 0; i < n_wire; i++) {
			struct fwd_punt_meta meta = { .reason = FWD_PUNT_LACP,
				                      .in_port = peer[wire_port[i]],
				                      .out_port = peer[wire_port[i]] };

			lacp_ctl_input(wire[i], &meta);
		}
		n_wire = 0;
	}
}

static void links(struct bond *b, bool up)
{
	for (unsigned k = 0; k < b->n_members; k++)
		bond_member_link(b, &b->m[k], up);
	bond_update(b);
}

static struct fwd_conf_bond conf(const char *name, const char *m0, const char *m1)
{
	struct fwd_conf_bond c = {
		.n_members = 2,
		.hash = BOND_HASH_L34,
		.min_links = 1,
		.lacp = true,
		.lacp_rate = BOND_RATE_FAST,
	};

	snprintf(c.name, sizeof(c.name), "%s", name);
	snprintf(c.members[0], FWD_NAME_MAX, "%s", m0);
	snprintf(c.members[1], FWD_NAME_MAX, "%s", m1);
	return c;
}

static int setup(void **state)
{
	static const struct lacp_ctl_ops ops = { .member_tx = wire_tx,
		                                 .member_changed = bond_member_changed,
		                                 .now_ns = fake_now };
	struct fwd_conf_bond c0 = conf("bond0", "p0", "p1"), c1 = conf("bond1", "p3", "p4");

	(void)state;
	bond_reset();
	lacp_ctl_reset();
	lacp_ctl_ops_set(&ops);
	clock_ns = 1000000000ull;
	memset(fwd_ports, 0, sizeof(fwd_ports));
	fwd_n_ports = 6;
	for (unsigned i = 0; i < fwd_n_ports; i++) {
		snprintf(fwd_ports[i].name, sizeof(fwd_ports[i].name), "p%u", i);
		fwd_ports[i].idx = i;
		fwd_ports[i].admin_up = 1;
		fwd_ports[i].mtu = 1500;
		fwd_ports[i].mac = (struct rte_ether_addr){ { 0x02, 0, 0, 0, 1, (uint8_t)i } };
		fwd_ports[i].port_id = (uint16_t)(RTE_MAX_ETHPORTS - 1 - i);
		fake_device(fwd_ports[i].port_id);
		fwd_tap_dirs[i] = FWD_TAP_TX;
	}
	snprintf(fwd_ports[BOND].name, sizeof(fwd_ports[BOND].name), "bond0");
	snprintf(fwd_ports[PARTNER].name, sizeof(fwd_ports[PARTNER].name), "bond1");
	fwd_ports[BOND].is_bond = fwd_ports[PARTNER].is_bond = 1;
	fwd_tap = tap;
	assert_int_equal(bond_setup(&c0, BOND), 0);
	assert_int_equal(bond_setup(&c1, PARTNER), 0);
	memset(w, 0, sizeof(*w));
	memset(sent_on, 0, sizeof(sent_on));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (unsigned i = 0; i < n_wire; i++)
		rte_pktmbuf_free(wire[i]);
	n_wire = 0;
	bond_reset();
	lacp_ctl_reset();
	return 0;
}

static void xmit_flows(unsigned n_flows)
{
	struct rte_mbuf *pkts[64];
	uint64_t bytes = 0;

	for (unsigned f = 0; f < n_flows; f++) {
		pkts[f] = frame4(0x0a000001, 0x0a010001, 1000 + f, 80, 0);
		bytes += pkts[f]->pkt_len;
	}
	bond_xmit(w, BOND, pkts, (uint16_t)n_flows, bytes);
}

static void test_member_leaves(void **state)
{
	struct bond *b = bond_get(BOND);
	const struct bond_dist *old;

	(void)state;
	assert_non_null(b);
	assert_int_equal(fwd_ports[0].member, FWD_MEMBER_IDLE); /* no link yet */
	assert_null(bond_dp[BOND].dist != NULL && bond_dp[BOND].dist->n != 0 ? "set" : NULL);
	xmit_flows(8);
	assert_int_equal(w->stats.port[BOND].drop[FWD_DROP_BOND_DOWN], 8);

	/* links up: nothing carried until LACP has the partner in sync */
	links(b, true);
	links(bond_get(PARTNER), true);
	assert_int_equal(fwd_ports[0].member, FWD_MEMBER_IDLE);
	run_lacp(3000);
	assert_int_equal(fwd_ports[0].member, FWD_MEMBER_COLLECTING);
	assert_int_equal(fwd_ports[4].member, FWD_MEMBER_COLLECTING);
	assert_true(b->up);
	assert_int_equal(fwd_ports[1].bond, BOND);
	xmit_flows(64);
	assert_true(sent_on[0] > 8 && sent_on[1] > 8);
	assert_int_equal(sent_on[0] + sent_on[1], 64);
	/* the bond counts what its members sent */
	assert_int_equal(w->stats.port[0].tx_pkts + w->stats.port[1].tx_pkts, 64);
	assert_int_equal(w->stats.port[BOND].tx_pkts, 64);
	assert_int_equal(w->stats.port[BOND].tx_bytes, 64 * 54);

	/* p1's link goes: out of the set at once, no burst dropped */
	old = bond_dp[BOND].dist;
	bond_member_link(b, &b->m[1], false);
	bond_update(b);
	assert_ptr_not_equal(bond_dp[BOND].dist, old);
	assert_int_equal(bond_dp[BOND].dist->n, 1);
	assert_int_equal(fwd_ports[1].member, FWD_MEMBER_IDLE);
	memset(sent_on, 0, sizeof(sent_on));
	xmit_flows(64);
	assert_int_equal(sent_on[0], 64);
	assert_int_equal(sent_on[1], 0);
	assert_int_equal(w->stats.port[BOND].drop[FWD_DROP_BOND_DOWN], 8);
}

static void test_active_backup(void **state)
{
	struct bond *b = bond_get(BOND);
	struct fwd_conf_bond c = conf("bond0", "p0", "p1");
	const struct bond_dist *old;

	(void)state;
	c.lacp = false;
	assert_int_equal(bond_reconfigure(b, &c), 0);
	bond_member_link(b, &b->m[0], true);
	bond_member_link(b, &b->m[1], true);
	bond_update(b);
	assert_int_equal(b->active, 0);
	assert_int_equal(fwd_ports[0].member, FWD_MEMBER_COLLECTING);
	assert_int_equal(fwd_ports[1].member, FWD_MEMBER_IDLE);
	xmit_flows(32);
	assert_int_equal(sent_on[0], 32);
	/* one publish: the set a burst may still be reading stays as it was */
	old = bond_dp[BOND].dist;
	bond_member_link(b, &b->m[0], false);
	bond_update(b);
	assert_ptr_not_equal(bond_dp[BOND].dist, old);
	assert_int_equal(old->n, 1);
	assert_int_equal(old->member[0], 0);
	assert_int_equal(bond_dp[BOND].dist->member[0], 1);
	assert_int_equal(b->active, 1);
	assert_int_equal(b->failovers, 1);
	assert_int_equal(fwd_ports[0].member, FWD_MEMBER_IDLE);
	assert_int_equal(fwd_ports[1].member, FWD_MEMBER_COLLECTING);
	bond_member_link(b, &b->m[0], true); /* no failback */
	bond_update(b);
	assert_int_equal(b->active, 1);
	/* a member taken out by a reload is a plain port again */
	c.n_members = 1;
	snprintf(c.members[0], FWD_NAME_MAX, "p1");
	assert_int_equal(bond_reconfigure(b, &c), 0);
	assert_int_equal(fwd_ports[0].member, FWD_MEMBER_NONE);
	assert_int_equal(b->n_members, 1);
	assert_int_equal(b->active, 0);
	bond_reset();
	assert_int_equal(fwd_ports[1].member, FWD_MEMBER_NONE);
	assert_null(bond_get(BOND));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_flow_one_member),
		cmocka_unit_test(test_fragments_together),
		cmocka_unit_test(test_spread),
		cmocka_unit_test_setup_teardown(test_member_leaves, setup, teardown),
		cmocka_unit_test_setup_teardown(test_active_backup, setup, teardown),
	};

	if (test_eal_init("bond_hash_test") < 0)
		return 1;
	pool = test_pool("bond_hash", 1024, 256);
	w = rte_zmalloc("w", sizeof(*w), 64);
	if (pool == NULL || w == NULL)
		return 1;
	fwd.pool = pool; /* LACPDUs */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
