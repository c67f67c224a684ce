/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A capture on a VLAN interface (capture/capture_vlan.c): of its port's
 * copies it keeps the VLAN's frames only, whether the tag is in the frame
 * (taken out: the frame as Linux shows a VLAN device's, its length on the
 * wire 4 less) or in the mbuf (a PMD's strip, a NIC's insert: flags
 * cleared so pcapng writes no tag back); a port's capture keeps everything
 * as it is. And the session's name is the interface's, deleting it ends
 * the session; the copy's TSC, kept in 32 bits, comes back whole.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <rte_mbuf_dyn.h>

#include "capture/capture_priv.h"
#include "core/iface.h"
#include "test_eal.h"

static struct rte_mempool *pool;

static const uint8_t DST[6] = { 0x02, 0, 0, 0, 0, 0xd }, SRC[6] = { 0x02, 0, 0, 0, 0, 0x5 };

/* A copy as a worker queues it: an IPv4 frame, tagged with vid in the
 * frame when vid != 0, with dir and the length on the wire. */
static struct rte_mbuf *copy(uint16_t vid, uint8_t dir)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	unsigned tag = vid != 0 ? 4 : 0, len = 14 + tag + 20;
	uint8_t *p;

	assert_non_null(m);
	p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)len);
	memset(p, 0, len);
	memcpy(p, DST, 6);
	memcpy(p + 6, SRC, 6);
	if (vid != 0) {
		p[12] = 0x81;
		p[14] = (uint8_t)(vid >> 8);
		p[15] = (uint8_t)vid;
	}
	p[12 + tag] = 0x08;
	p[14 + tag] = 0x45;
	*fwd_capture_meta(m) = (struct fwd_capture_meta){ .dir = dir, .orig_len = len };
	return m;
}

static void assert_untagged_ip(struct rte_mbuf *m)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);

	assert_int_equal(rte_pktmbuf_data_len(m), 14 + 20);
	assert_memory_equal(p, DST, 6);
	assert_memory_equal(p + 6, SRC, 6);
	assert_int_equal(p[12], 0x08);
	assert_int_equal(p[13], 0x00);
	assert_int_equal(p[14], 0x45);
}

static void test_vlan_frames_only(void **state)
{
	struct capture_session s = { .port = 0, .iface = FWD_MAX_PORTS, .vlan = 100 };
	struct rte_mbuf *m;

	(void)state;
	m = copy(100, FWD_CAPTURE_RX); /* the tag in the frame: taken out */
	assert_true(capture_vlan_take(&s, m));
	assert_untagged_ip(m);
	assert_int_equal(fwd_capture_meta(m)->orig_len, 14 + 20);
	rte_pktmbuf_free(m);

	m = copy(200, FWD_CAPTURE_TX); /* another VLAN's */
	assert_false(capture_vlan_take(&s, m));
	rte_pktmbuf_free(m);
	m = copy(0, FWD_CAPTURE_RX); /* the port's own */
	assert_false(capture_vlan_take(&s, m));
	rte_pktmbuf_free(m);

	m = copy(0, FWD_CAPTURE_RX); /* the PMD stripped VLAN 100's tag */
	m->ol_flags |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	m->vlan_tci = 0x2000 | 100; /* priority bits do not count */
	assert_true(capture_vlan_take(&s, m));
	assert_untagged_ip(m);
	assert_int_equal(m->ol_flags & (RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED), 0);
	rte_pktmbuf_free(m);

	m = copy(0, FWD_CAPTURE_TX); /* the NIC is to insert VLAN 100's */
	m->ol_flags |= RTE_MBUF_F_TX_VLAN;
	m->vlan_tci = 100;
	assert_true(capture_vlan_take(&s, m));
	assert_int_equal(m->ol_flags & RTE_MBUF_F_TX_VLAN, 0);
	rte_pktmbuf_free(m);

	m = copy(0, FWD_CAPTURE_TX);
	m->ol_flags |= RTE_MBUF_F_TX_VLAN;
	m->vlan_tci = 101;
	assert_false(capture_vlan_take(&s, m));
	rte_pktmbuf_free(m);

	m = copy(0, FWD_CAPTURE_RX); /* cut short: no tag to read */
	rte_pktmbuf_trim(m, 14 + 20 - 15);
	rte_pktmbuf_mtod(m, uint8_t *)[12] = 0x81;
	rte_pktmbuf_mtod(m, uint8_t *)[13] = 0x00;
	assert_false(capture_vlan_take(&s, m));
	rte_pktmbuf_free(m);
}

/* A port's capture shows the wire: tags stay. */
static void test_port_keeps_tags(void **state)
{
	struct capture_session s = { .port = 0, .iface = 0 };
	struct rte_mbuf *m = copy(100, FWD_CAPTURE_RX);

	(void)state;
	assert_true(capture_vlan_take(&s, m));
	assert_int_equal(rte_pktmbuf_data_len(m), 18 + 20);
	assert_int_equal(rte_pktmbuf_mtod(m, uint8_t *)[12], 0x81);
	assert_int_equal(fwd_capture_meta(m)->orig_len, 18 + 20);
	rte_pktmbuf_free(m);
}

static void test_names(void **state)
{
	struct capture_session s = { .port = 0, .iface = 0 };
	uint16_t id;

	(void)state;
	snprintf(fwd_ports[0].name, sizeof(fwd_ports[0].name), "p0");
	fwd_ports[0].mtu = 1500;
	fwd_n_ports = 1;
	fwd_iface_port_sync(0);
	assert_int_equal(fwd_iface_vlan_add("p0.100", 0, 100, 0, &id), 0);
	assert_string_equal(capture_session_name(&s), "p0");
	s.iface = id;
	s.vlan = 100;
	assert_string_equal(capture_session_name(&s), "p0.100");
	s.port = FWD_CAPTURE_DROPS;
	assert_string_equal(capture_session_name(&s), "drops");
	fwd_iface_reset();
}

/* Deleting a VLAN interface ends its capture, not another's. */
static void test_vlan_deleted(void **state)
{
	struct capture_session port = { .port = 1, .iface = 1, .dirs = FWD_CAPTURE_RX };
	struct capture_session s = { .port = 0, .dirs = FWD_CAPTURE_RX, .vlan = 100 };
	uint16_t id, other;

	(void)state;
	for (uint8_t i = 0; i < 2; i++) {
		snprintf(fwd_ports[i].name, sizeof(fwd_ports[i].name), "p%u", i);
		fwd_ports[i].idx = i;
		fwd_ports[i].mtu = 1500;
	}
	fwd_n_ports = 2;
	fwd_iface_port_sync(0);
	fwd_iface_port_sync(1);
	assert_int_equal(fwd_iface_vlan_add("p0.100", 0, 100, 0, &id), 0);
	assert_int_equal(fwd_iface_vlan_add("p1.100", 1, 100, 0, &other), 0);
	s.iface = id;
	capture_begin(&s);
	capture_begin(&port);
	assert_int_equal(fwd_iface_del(other), 0); /* p1's VLAN: p1's port capture goes on */
	assert_false(port.gone);
	assert_false(s.gone);
	assert_int_equal(fwd_iface_del(id), 0);
	assert_true(s.gone);
	capture_end(&s);
	capture_end(&port);
	fwd_iface_reset();
}

/* The 32 bits of TSC a copy keeps (to fit the mbuf's dynamic field area
 * beside net_pcap's timestamp and the punt metadata) come back whole,
 * across a wrap of the kept bits too. */
static void test_meta_tsc(void **state)
{
	const uint64_t nows[] = { UINT64_C(0x123456789abcdef0), (UINT64_C(5) << 40) + 10,
		                  UINT64_C(1) << 20 };
	struct fwd_capture_meta meta;

	(void)state;
	assert_int_equal(sizeof(meta), 12);
	for (unsigned i = 0; i < sizeof(nows) / sizeof(nows[0]); i++) {
		uint64_t then = nows[i] - 5000;

		meta.tsc = fwd_capture_tsc(then);
		assert_int_equal(capture_meta_tsc(&meta, nows[i]), then & ~UINT64_C(0xff));
		meta.tsc = fwd_capture_tsc(nows[i]);
		assert_int_equal(capture_meta_tsc(&meta, nows[i]), nows[i] & ~UINT64_C(0xff));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vlan_frames_only),
		cmocka_unit_test(test_port_keeps_tags),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_meta_tsc),
		cmocka_unit_test(test_vlan_deleted),
	};

	if (test_eal_init("capture_vlan") < 0)
		return 1;
	/* copies carry their record in the pool's private area, as
	 * fwd_capture_pool's do */
	pool = rte_pktmbuf_pool_create(
	        "capture_vlan_test", 64, 0,
	        RTE_ALIGN(sizeof(struct fwd_capture_meta), RTE_MBUF_PRIV_ALIGN),
	        256 + RTE_PKTMBUF_HEADROOM, SOCKET_ID_ANY);
	if (pool == NULL)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
