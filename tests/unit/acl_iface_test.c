/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ACLs per interface (acl/acl_ctl.c, core/worker.c): on a port with VLANs
 * the filter runs after the demux, each interface with its own acl_in
 * (interfaces[] bound through acl_iface_bind), so a VLAN's ACL sees its
 * frames untagged and the port's ACL no longer sees the VLANs'; an
 * interface without an ACL passes everything; a deleted VLAN's id loses
 * its ACL.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <rte_malloc.h>

#include "acl/acl.h"
#include "core/daemon.h"
#include "core/drop.h"
#include "core/iface.h"
#include "core/ports.h"
#include "core/worker.h"
#include "ip4/icmp.h"
#include "iface_test_util.h"
#include "test_eal.h"

static struct rte_mempool *pool;
static unsigned n_in;
static uint16_t last_if;

static void count_input(struct fwd_worker *w, const struct fwd_iface *in, struct rte_mbuf **pkts,
                        uint16_t n)
{
	(void)w;
	last_if = in->id;
	n_in += n;
	rte_pktmbuf_free_bulk(pkts, n);
}

/* A UDP/IPv4 frame, tagged with vid (0: untagged). */
static struct rte_mbuf *udp_frame(uint16_t vid)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, 64);
	uint8_t *ip;

	memset(p, 0, 64);
	p[0] = 0x02;
	p[6] = 0x02;
	if (vid != 0) {
		p[12] = 0x81;
		p[14] = (uint8_t)(vid >> 8);
		p[15] = (uint8_t)vid;
		p += 4;
	}
	p[12] = 0x08;
	ip = p + 14;
	ip[0] = 0x45;
	ip[3] = 28; /* total length: IP + UDP */
	ip[8] = 64;
	ip[9] = 17;
	ip[12] = 10;
	ip[15] = 1;
	ip[16] = 10;
	ip[19] = 2;
	ip[21] = 7; /* sport 7, dport 9 */
	ip[23] = 9;
	ip[25] = 8;
	return m;
}

/* A state with ACL "deny-all" (no rules, default deny), and
 * "reject-all" (one rule: reject everything). */
static struct acl_state *deny_all_state(void)
{
	struct fwd_conf_acl c = { .name = "deny-all", .def = FWD_ACL_DENY };
	struct fwd_conf_acl_rule rej = { .action = FWD_ACL_REJECT };
	struct acl_state *st = calloc(1, sizeof(*st));
	char err[128];

	assert_non_null(st);
	st->sets[0] = acl_set_build(&c, err, sizeof(err));
	assert_non_null(st->sets[0]);
	c = (struct fwd_conf_acl){
		.name = "reject-all", .def = FWD_ACL_PERMIT, .n_rules = 1, .rules = &rej
	};
	st->sets[1] = acl_set_build(&c, err, sizeof(err));
	assert_non_null(st->sets[1]);
	st->n_sets = 2;
	return st;
}

static void state_free(struct acl_state *st)
{
	acl_state = NULL;
	acl_set_free(st->sets[0]);
	acl_set_free(st->sets[1]);
	free(st);
}

static void burst(struct fwd_worker *w, uint16_t vid, unsigned n)
{
	struct rte_mbuf *pkts[8];

	for (unsigned i = 0; i < n; i++)
		pkts[i] = udp_frame(vid);
	n_in = 0;
	fwd_vlan_rx(w, &fwd_ports[0], pkts, (uint16_t)n);
}

static void test_acl_per_vlan(void **state)
{
	struct fwd_worker *w = rte_zmalloc("w", sizeof(*w), RTE_CACHE_LINE_SIZE);
	struct acl_state *st;
	uint16_t a, b;

	(void)state;
	assert_non_null(w);
	fwd.n_workers = 1;
	two_ports();
	assert_int_equal(fwd_iface_vlan_add("p0.10", 0, 10, 0, &a), 0);
	assert_int_equal(fwd_iface_vlan_add("p0.20", 0, 20, 0, &b), 0);
	fwd_worker_set_input(FWD_MODE_L3, count_input);
	fwd_worker_set_vlan_input(FWD_MODE_L3, count_input);
	st = deny_all_state();
	acl_state = st;

	/* interfaces[p0.10].acl_in: deny-all; p0.20 and the port: none */
	acl_iface_bind_begin();
	acl_iface_bind(a, "deny-all", NULL);
	acl_iface_bind(b, "", NULL);
	acl_iface_bind_end();
	assert_int_equal(fwd_ifaces[a].filter, FWD_FILTER_IN);
	assert_int_equal(fwd_ifaces[b].filter, 0);
	burst(w, 10, 4);
	assert_int_equal(n_in, 0);
	assert_int_equal(w->stats.port[a].drop[FWD_DROP_ACL], 4);
	assert_int_equal(w->stats.port[a].rx_pkts, 4);
	assert_int_equal(w->stats.port[0].rx_pkts, 0);
	burst(w, 20, 3);
	assert_int_equal(n_in, 3);
	assert_int_equal(last_if, b);
	burst(w, 0, 2);
	assert_int_equal(n_in, 2);

	/* the port's acl_in sees its untagged frames, not its VLANs' */
	st->in[0] = st->sets[0];
	acl_iface_bind_end();
	assert_int_equal(fwd_ports[0].filter, FWD_FILTER_IN);
	burst(w, 0, 2);
	assert_int_equal(n_in, 0);
	assert_int_equal(w->stats.port[0].drop[FWD_DROP_ACL], 2);
	burst(w, 20, 2);
	assert_int_equal(n_in, 2);

	/* a VLAN deleted: its id, handed out again, has no ACL */
	assert_int_equal(fwd_iface_del(a), 0);
	assert_null(st->in[a]);
	assert_int_equal(fwd_ifaces[a].filter, 0);
	/* a round unbinds what it did not name, at its end only */
	acl_iface_bind(b, "deny-all", NULL);
	acl_iface_bind_begin();
	assert_non_null(st->in[b]);
	acl_iface_bind_end();
	assert_null(st->in[b]);
	assert_int_equal(fwd_ifaces[b].filter, 0);

	state_free(st);
	fwd_worker_set_vlan_input(FWD_MODE_L3, NULL);
	rte_free(w);
}

/* The tx burst of port 0 (what core/worker.c's tx_burst hands the
 * filter): frames of VLANs 10 and 20 (tagged) and of the port, mixed. */
static uint16_t tx_filter(struct fwd_worker *w, struct rte_mbuf **pkts, const uint16_t *vids,
                          unsigned n, uint64_t *bytes)
{
	*bytes = 0;
	for (unsigned i = 0; i < n; i++) {
		pkts[i] = udp_frame(vids[i]);
		*bytes += pkts[i]->pkt_len;
	}
	return acl_filter(w, 0, FWD_FILTER_OUT, pkts, (uint16_t)n, bytes);
}

static void test_acl_out_vlan(void **state)
{
	static const uint16_t vids[] = { 10, 10, 0, 20, 10, 0, 20, 10 };
	struct fwd_worker *w = rte_zmalloc("w", sizeof(*w), RTE_CACHE_LINE_SIZE);
	struct rte_mbuf *pkts[8];
	struct acl_state *st;
	uint64_t bytes;
	uint16_t a, b, k;

	(void)state;
	assert_non_null(w);
	fwd.n_workers = 1;
	two_ports();
	assert_int_equal(fwd_iface_vlan_add("p0.10", 0, 10, 0, &a), 0);
	assert_int_equal(fwd_iface_vlan_add("p0.20", 0, 20, 0, &b), 0);
	st = deny_all_state();
	acl_state = st;

	/* interfaces[p0.10].acl_out: deny-all; the port's filter bit says so */
	acl_iface_bind_begin();
	acl_iface_bind(a, NULL, "deny-all");
	acl_iface_bind_end();
	assert_int_equal(fwd_ifaces[a].filter, FWD_FILTER_OUT);
	assert_int_equal(fwd_ports[0].filter, FWD_FILTER_OUT);
	assert_int_equal(fwd_ports[1].filter, 0);
	k = tx_filter(w, pkts, vids, RTE_DIM(vids), &bytes);
	assert_int_equal(k, 4); /* p0.20's and the port's, in their order */
	assert_int_equal(bytes, 4 * 64);
	for (unsigned i = 0, j = 0; i < RTE_DIM(vids); i++) {
		const uint8_t *p;

		if (vids[i] == 10)
			continue;
		p = rte_pktmbuf_mtod(pkts[j], const uint8_t *);
		j++;
		assert_int_equal(vids[i] == 0 ? p[12] : p[15], vids[i] == 0 ? 0x08 : vids[i]);
	}
	rte_pktmbuf_free_bulk(pkts, k);
	assert_int_equal(w->stats.port[a].drop[FWD_DROP_ACL], 4);
	assert_int_equal(w->stats.port[0].drop[FWD_DROP_ACL], 0);
	assert_int_equal(st->sets[0]->hits[0][0].pkts, 4);

	/* the port's acl_out too: its untagged frames, not its VLANs' */
	st->out[0] = st->sets[0];
	acl_iface_bind_end();
	k = tx_filter(w, pkts, vids, RTE_DIM(vids), &bytes);
	assert_int_equal(k, 2);
	rte_pktmbuf_free_bulk(pkts, k);
	assert_int_equal(w->stats.port[0].drop[FWD_DROP_ACL], 2);
	st->out[0] = NULL;

	/* unbound: the port's tx bursts are no longer offered */
	acl_iface_bind_begin();
	acl_iface_bind_end();
	assert_int_equal(fwd_ports[0].filter, 0);
	assert_int_equal(st->vlan_out[0], 0);
	state_free(st);
	assert_int_equal(fwd_iface_del(a), 0);
	assert_int_equal(fwd_iface_del(b), 0);
	rte_free(w);
}

/* A VLAN's reject: on ingress the punt names the VLAN; on egress the
 * frame reaches the control thread untagged. */
static void test_reject_vlan(void **state)
{
	static const uint16_t vids[] = { 10 };
	struct fwd_worker *w = rte_zmalloc("w", sizeof(*w), RTE_CACHE_LINE_SIZE);
	struct rte_mbuf *pkts[1];
	const struct fwd_punt_meta *meta;
	struct acl_state *st;
	uint64_t bytes;
	uint16_t a;

	(void)state;
	assert_non_null(w);
	fwd.n_workers = 1;
	two_ports();
	assert_int_equal(fwd_iface_vlan_add("p0.10", 0, 10, 0, &a), 0);
	fwd_worker_set_input(FWD_MODE_L3, count_input);
	fwd_worker_set_vlan_input(FWD_MODE_L3, count_input);
	st = deny_all_state();
	acl_state = st;
	acl_iface_bind_begin();
	acl_iface_bind(a, "reject-all", "reject-all");
	acl_iface_bind_end();

	burst(w, 10, 1);
	assert_int_equal(n_in, 0);
	assert_int_equal(w->n_punt, 1);
	meta = fwd_punt_meta(w->punt[0]);
	assert_int_equal(meta->in_port, a);
	assert_int_equal(meta->reason, FWD_PUNT_NO_ROUTE);
	assert_int_equal(meta->aux, ICMP4_ADMIN_PROHIBITED);
	assert_int_equal(meta->drop, FWD_DROP_ACL);
	rte_pktmbuf_free(w->punt[0]);
	w->n_punt = 0;

	assert_int_equal(tx_filter(w, pkts, vids, 1, &bytes), 0);
	assert_int_equal(bytes, 0);
	assert_int_equal(w->n_punt, 1);
	meta = fwd_punt_meta(w->punt[0]);
	assert_int_equal(meta->reason, FWD_PUNT_NO_ROUTE);
	assert_int_equal(meta->in_port, 0); /* the port it arrived on */
	assert_int_equal(rte_pktmbuf_mtod(w->punt[0], const uint8_t *)[12], 0x08);
	assert_int_equal(w->punt[0]->pkt_len, 60); /* 64 with the tag */
	rte_pktmbuf_free(w->punt[0]);
	w->n_punt = 0;

	state_free(st);
	assert_int_equal(fwd_iface_del(a), 0);
	fwd_worker_set_vlan_input(FWD_MODE_L3, NULL);
	rte_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_acl_per_vlan),
		cmocka_unit_test(test_acl_out_vlan),
		cmocka_unit_test(test_reject_vlan),
	};
	static const struct rte_mbuf_dynfield punt_field = {
		.name = "fwd_punt_meta",
		.size = sizeof(struct fwd_punt_meta),
		.align = __alignof__(struct fwd_punt_meta),
	};

	if (test_eal_init("acl_iface_test") < 0)
		return 1;
	fwd_punt_meta_offset = rte_mbuf_dynfield_register(&punt_field);
	if (fwd_punt_meta_offset < 0)
		return 1;
	pool = test_pool("acl_iface_test", 256, 256);
	if (pool == NULL)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
