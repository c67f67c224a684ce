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

/* A state with one ACL, "deny-all" (no rules, default deny). */
static struct acl_state *deny_all_state(void)
{
	struct fwd_conf_acl c = { .name = "deny-all", .def = FWD_ACL_DENY };
	struct acl_state *st = calloc(1, sizeof(*st));
	char err[128];

	assert_non_null(st);
	st->sets[0] = acl_set_build(&c, err, sizeof(err));
	assert_non_null(st->sets[0]);
	st->n_sets = 1;
	return st;
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

	acl_state = NULL;
	acl_set_free(st->sets[0]);
	free(st);
	fwd_worker_set_vlan_input(FWD_MODE_L3, NULL);
	rte_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_acl_per_vlan),
	};

	if (test_eal_init("acl_iface_test") < 0)
		return 1;
	pool = test_pool("acl_iface_test", 256, 256);
	if (pool == NULL)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
