/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * LACP on the control thread: bond/lacp_ctl.h. A member's LACPDUs arrive
 * punted (FWD_PUNT_LACP, in_port the member's port index, policed per port)
 * and leave by the bond layer's member_tx, never through the bond's hash.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include <rte_ether.h>

#include "bond/lacp_ctl.h"
#include "core/control.h"
#include "core/counters.h"
#include "core/daemon.h"
#include "core/log.h"
#include "core/module.h"
#include "core/ports.h"
#include "core/punt.h"

#define SLOW_FRAME_LEN (RTE_ETHER_HDR_LEN + LACP_PDU_LEN)

struct lacp_ctl_member {
	bool used;
	bool collecting, distributing; /* as the bond layer was last told */
	uint8_t bond;                  /* the bond's port index */
	struct lacp_member lm;
};

static struct lacp_ctl_member members[FWD_MAX_PORTS];
static struct lacp_ctl_ops ops;
static struct event *tick_ev;

/* 01:80:c2:00:00:02, IEEE 802.3 annex 57A */
static const struct rte_ether_addr slow_mac = { { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x02 } };

void lacp_ctl_ops_set(const struct lacp_ctl_ops *o)
{
	ops = *o;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	if (ops.now_ns != NULL)
		return ops.now_ns();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static struct lacp_ctl_member *member(uint8_t port)
{
	return port < FWD_MAX_PORTS && members[port].used ? &members[port] : NULL;
}

void lacp_ctl_member_set(uint8_t port, uint8_t bond, const uint8_t mac[6], bool fast)
{
	struct lacp_actor a = {
		.sys_prio = LACP_CTL_SYS_PRIO,
		.key = (uint16_t)(bond + 1),
		.port_no = (uint16_t)(port + 1),
		.port_prio = LACP_CTL_PORT_PRIO,
		.fast = fast,
	};
	struct lacp_ctl_member *c;
	bool link;

	if (port >= FWD_MAX_PORTS)
		return;
	c = &members[port];
	memcpy(a.sys_mac, mac, 6);
	if (c->used && c->bond == bond) {
		lacp_member_actor(&c->lm, &a);
		return;
	}
	link = c->used && c->lm.port_enabled;
	memset(c, 0, sizeof(*c));
	c->used = true;
	c->bond = bond;
	lacp_member_init(&c->lm, &a);
	if (link)
		lacp_member_link(&c->lm, true, now_ns());
}

void lacp_ctl_member_clear(uint8_t port)
{
	if (port < FWD_MAX_PORTS)
		memset(&members[port], 0, sizeof(members[port]));
}

bool lacp_ctl_collecting(uint8_t port)
{
	const struct lacp_ctl_member *c = member(port);

	return c != NULL && lacp_member_collecting(&c->lm);
}

bool lacp_ctl_distributing(uint8_t port)
{
	const struct lacp_ctl_member *c = member(port);

	return c != NULL && lacp_member_distributing(&c->lm);
}

bool lacp_ctl_info(uint8_t port, struct lacp_info *out)
{
	const struct lacp_ctl_member *c = member(port);

	if (c == NULL)
		return false;
	lacp_member_info(&c->lm, out);
	return true;
}

/* A slow-protocols frame of pdu (LACP_PDU_LEN bytes) out of member port. */
static void send_pdu(uint8_t port, const uint8_t *pdu)
{
	struct rte_mbuf *m = fwd.pool != NULL ? rte_pktmbuf_alloc(fwd.pool) : NULL;
	struct rte_ether_hdr *eh;

	if (m == NULL || ops.member_tx == NULL) {
		rte_pktmbuf_free(m);
		return;
	}
	eh = (struct rte_ether_hdr *)rte_pktmbuf_append(m, SLOW_FRAME_LEN);
	if (eh == NULL) {
		rte_pktmbuf_free(m);
		return;
	}
	fwd_control_ctrs(port)->created++; /* from here on, sent or counted as a drop */
	eh->dst_addr = slow_mac;
	eh->src_addr = fwd_ports[port].mac; /* the member's own, as 802.1AX 6.2.11 asks */
	eh->ether_type = rte_cpu_to_be_16(LACP_ETHERTYPE);
	memcpy(eh + 1, pdu, LACP_PDU_LEN);
	ops.member_tx(port, m);
}

/* Selection over bond's members, then tell the bond layer of each member
 * whose collecting or distributing changed, and send what is due. */
static void bond_run(uint8_t bond)
{
	struct lacp_member *lm[FWD_MAX_PORTS];
	uint8_t port[FWD_MAX_PORTS];
	unsigned n = 0;
	uint64_t now = now_ns();

	for (unsigned p = 0; p < FWD_MAX_PORTS; p++)
		if (members[p].used && members[p].bond == bond) {
			port[n] = (uint8_t)p;
			lm[n++] = &members[p].lm;
		}
	lacp_select(lm, n);
	for (unsigned i = 0; i < n; i++) {
		struct lacp_ctl_member *c = &members[port[i]];
		bool col = lacp_member_collecting(lm[i]), dist = lacp_member_distributing(lm[i]);
		uint8_t pdu[LACP_PDU_LEN];
		size_t len;

		if (col != c->collecting || dist != c->distributing) {
			c->collecting = col;
			c->distributing = dist;
			LOG(NOTICE, "bond member %s: LACP %s", fwd_ports[port[i]].name,
			    lacp_mux_state_name(lm[i]->mux));
			if (ops.member_changed != NULL)
				ops.member_changed(port[i]);
		}
		if (lacp_member_tx(lm[i], now, pdu, &len))
			send_pdu(port[i], pdu);
	}
}

void lacp_ctl_member_link(uint8_t port, bool up)
{
	struct lacp_ctl_member *c = member(port);

	if (c == NULL)
		return;
	lacp_member_link(&c->lm, up, now_ns());
	bond_run(c->bond);
}

void lacp_ctl_input(struct rte_mbuf *m, const struct fwd_punt_meta *meta)
{
	uint16_t in = meta->in_port;
	struct lacp_ctl_member *c = in < FWD_MAX_PORTS ? member((uint8_t)in) : NULL;
	const struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	uint8_t reply[LACP_PDU_LEN];
	size_t reply_len = 0;
	int rc;

	if (c == NULL || m->nb_segs != 1 || m->data_len < RTE_ETHER_HDR_LEN + 1 ||
	    eh->ether_type != rte_cpu_to_be_16(LACP_ETHERTYPE) ||
	    !rte_is_same_ether_addr(&eh->dst_addr, &slow_mac)) {
		fwd_control_drop(m, in, FWD_DROP_LACP_INVALID);
		return;
	}
	rc = lacp_member_rx(&c->lm, (const uint8_t *)(eh + 1), m->data_len - RTE_ETHER_HDR_LEN,
	                    now_ns(), reply, &reply_len);
	if (rc < 0) {
		fwd_control_drop(m, in, FWD_DROP_LACP_INVALID);
		return;
	}
	fwd_control_ctrs(in)->consumed++; /* what it answers, send_pdu counts as made */
	rte_pktmbuf_free(m);
	if (rc == 1)
		send_pdu((uint8_t)in, reply);
	bond_run(c->bond);
}

void lacp_ctl_tick(void)
{
	bool seen[FWD_MAX_PORTS] = { false };
	uint64_t now = now_ns();

	for (unsigned p = 0; p < FWD_MAX_PORTS; p++)
		if (members[p].used)
			lacp_member_tick(&members[p].lm, now);
	for (unsigned p = 0; p < FWD_MAX_PORTS; p++)
		if (members[p].used && !seen[members[p].bond]) {
			seen[members[p].bond] = true;
			bond_run(members[p].bond);
		}
}

void lacp_ctl_reset(void)
{
	memset(members, 0, sizeof(members));
}

static void tick_cb(void *arg)
{
	(void)arg;
	lacp_ctl_tick();
}

static int lacp_ctl_init(const struct fwd_config *cfg)
{
	(void)cfg;
	fwd_punt_register(FWD_PUNT_LACP, lacp_ctl_input);
	tick_ev = fwd_timer_every(LACP_CTL_TICK_MS * 1000, tick_cb, NULL);
	return tick_ev != NULL ? 0 : -ENOMEM;
}

static void lacp_ctl_fini(void)
{
	fwd_timer_free(&tick_ev);
	fwd_punt_register(FWD_PUNT_LACP, NULL);
	lacp_ctl_reset();
}

static struct fwd_module lacp_module = {
	.name = "lacp",
	.depends_on = "punt",
	.init = lacp_ctl_init,
	.fini = lacp_ctl_fini,
};
FWD_MODULE(lacp_module);
