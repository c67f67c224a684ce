/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A bond's transmit (bond/bond_hash.h, bond/bond_dp.c) and who carries it
 * (bond/bond.c): one flow always leaves by one member, the fragments of a
 * datagram together (l34 uses ports only when not a fragment), many flows
 * use every member; a member leaving publishes a new set while the old one
 * stays intact for a burst still reading it, and no burst is dropped while
 * a member distributes; no member: bond_down; active-backup fails over to
 * the next member up and takes frames only on the active one.
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

static int setup(void **state)
{
	struct fwd_conf_bond c = {
		.name = "bond0", .n_members = 2, .hash = BOND_HASH_L34, .min_links = 1, .lacp = true
	};

	(void)state;
	bond_reset();
	memset(fwd_ports, 0, sizeof(fwd_ports));
	fwd_n_ports = 3;
	for (unsigned i = 0; i < 3; i++) {
		snprintf(fwd_ports[i].name, sizeof(fwd_ports[i].name), i < 2 ? "p%u" : "bond0", i);
		fwd_ports[i].idx = i;
		fwd_ports[i].admin_up = 1;
		fwd_ports[i].mtu = 1500;
		fwd_ports[i].port_id = (uint16_t)(RTE_MAX_ETHPORTS - 1 - i);
		fake_device(fwd_ports[i].port_id);
		fwd_tap_dirs[i] = FWD_TAP_TX;
	}
	fwd_ports[BOND].is_bond = 1;
	fwd_tap = tap;
	snprintf(c.members[0], FWD_NAME_MAX, "p0");
	snprintf(c.members[1], FWD_NAME_MAX, "p1");
	assert_int_equal(bond_setup(&c, BOND), 0);
	memset(w, 0, sizeof(*w));
	memset(sent_on, 0, sizeof(sent_on));
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

	bond_member_link(b, &b->m[0], true);
	bond_member_link(b, &b->m[1], true);
	bond_update(b);
	assert_int_equal(fwd_ports[0].member, FWD_MEMBER_COLLECTING);
	assert_int_equal(fwd_ports[1].bond, BOND);
	xmit_flows(64);
	assert_true(sent_on[0] > 8 && sent_on[1] > 8);
	assert_int_equal(sent_on[0] + sent_on[1], 64);
	/* the bond counts what its members sent */
	assert_int_equal(w->stats.port[0].tx_pkts + w->stats.port[1].tx_pkts, 64);
	assert_int_equal(w->stats.port[BOND].tx_pkts, 64);
	assert_int_equal(w->stats.port[BOND].tx_bytes, 64 * 54);

	/* p1 leaves: the set a burst may still be reading stays as it was */
	old = bond_dp[BOND].dist;
	bond_member_link(b, &b->m[1], false);
	bond_update(b);
	assert_ptr_not_equal(bond_dp[BOND].dist, old);
	assert_int_equal(old->n, 2);
	assert_int_equal(old->member[1], 1);
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
	struct fwd_conf_bond c = { .name = "bond0", .n_members = 2, .min_links = 1 };

	(void)state;
	snprintf(c.members[0], FWD_NAME_MAX, "p0");
	snprintf(c.members[1], FWD_NAME_MAX, "p1");
	assert_int_equal(bond_reconfigure(b, &c), 0);
	bond_member_link(b, &b->m[0], true);
	bond_member_link(b, &b->m[1], true);
	bond_update(b);
	assert_int_equal(b->active, 0);
	assert_int_equal(fwd_ports[0].member, FWD_MEMBER_COLLECTING);
	assert_int_equal(fwd_ports[1].member, FWD_MEMBER_IDLE);
	xmit_flows(32);
	assert_int_equal(sent_on[0], 32);
	bond_member_link(b, &b->m[0], false);
	bond_update(b);
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
		cmocka_unit_test_setup(test_member_leaves, setup),
		cmocka_unit_test_setup(test_active_backup, setup),
	};

	if (test_eal_init("bond_hash_test") < 0)
		return 1;
	pool = test_pool("bond_hash", 1024, 256);
	w = rte_zmalloc("w", sizeof(*w), 64);
	if (pool == NULL || w == NULL)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
