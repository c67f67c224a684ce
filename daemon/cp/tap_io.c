/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Frames through a port's kernel interface (cp/tap.c). Up: what local
 * delivery does not answer, written to the TAP. Down: what the kernel
 * writes, classified by tap_down_class (tap_class.c) and routed, sent out
 * of the port as it is, or dropped and counted.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_ether.h>

#include "core/control.h"
#include "core/counters.h"
#include "core/daemon.h"
#include "core/vrf.h"
#include "core/ports.h"
#include "core/punt.h"
#include "core/worker.h"
#include "cp/tap.h"
#include "cp/tap_priv.h"
#include "ip4/output.h"
#include "ip6/output.h"

static FWD_COUNTER(up_frames, "tap_up_frames");
static FWD_COUNTER(up_dropped, "tap_up_dropped");
static FWD_COUNTER(down_frames, "tap_down_frames");
static FWD_COUNTER(down_no_mbuf, "tap_down_no_mbuf");
static FWD_COUNTER(down_no_route, "tap_down_no_route");
static FWD_COUNTER(down_arp, "tap_down_arp");
static FWD_COUNTER(down_ndp, "tap_down_ndp");
static FWD_COUNTER(down_too_big, "tap_down_too_big");
static FWD_COUNTER(down_invalid, "tap_down_invalid");
static FWD_COUNTER(down_not_ours, "tap_down_not_ours");
static FWD_COUNTER(down_no_link, "tap_down_no_link");
FWD_COUNTER(tap_sync_errors, "tap_sync_errors");

/* ---- down: what the kernel sends ---- */

/* Ours in the VRF of the interface the kernel wrote on. */
static bool local4(uint16_t iface, uint32_t ip)
{
	return addr4_is_local(fwd_ifaces[iface].vrf, ip);
}

static bool local6(uint16_t iface, const uint8_t ip[16])
{
	bool ll = ip[0] == 0xfe && (ip[1] & 0xc0) == 0x80;

	return addr6_is_local(fwd_ifaces[iface].vrf, ll ? iface : FWD_IFACE_NONE, ip);
}

/* The owners of a frame going up, among the interfaces of the VRF it
 * arrived in (up_vrf, set by tap_up: a loopback takes what is for its
 * addresses from any interface of its VRF). */
static uint16_t up_vrf;

static int owner4(uint32_t ip)
{
	return addr4_port_of(up_vrf, ip);
}

static int owner6(const uint8_t ip[16])
{
	return addr6_port_of(up_vrf, ip);
}

/* Where a frame the kernel wrote on t goes (tap_down_class). */
static enum tap_down down_class(const struct tap *t, const struct tap_view *v, const uint8_t *frame,
                                unsigned len, bool *bcast)
{
	enum tap_down c = tap_down_class(frame, len, v->mtu, local4, local6, t->id);

	if (t->no_link)
		return tap_down_nolink(c, frame, len);
	/* the directed broadcast of the interface's subnet: the kernel
	 * addressed it to the link's broadcast MAC, as on any NOARP interface */
	if (c == TAP_DOWN_ROUTE4) {
		uint32_t dst = (uint32_t)frame[30] << 24 | (uint32_t)frame[31] << 16 |
		               (uint32_t)frame[32] << 8 | frame[33];

		if (addr4_is_bcast(fwd_ifaces[t->id].vrf, dst) &&
		    addr4_port_of(fwd_ifaces[t->id].vrf, dst) == (int)t->id) {
			c = TAP_DOWN_LINK;
			*bcast = true;
		}
	}
	return c;
}

static void down_one(struct tap *t, const uint8_t *frame, unsigned len)
{
	struct tap_view v;
	enum tap_down c;
	struct rte_mbuf *m;
	bool bcast = false;
	char *d;

	if (!tap_if_view(t->id, &v))
		return;
	c = down_class(t, &v, frame, len, &bcast);
	if (c != TAP_DOWN_ROUTE4 && c != TAP_DOWN_ROUTE6 && c != TAP_DOWN_LINK)
		t->n_down_dropped++;
	switch (c) {
	case TAP_DOWN_ARP:
		down_arp.value++;
		return;
	case TAP_DOWN_NDP:
		down_ndp.value++;
		return;
	case TAP_DOWN_TOO_BIG:
		down_too_big.value++;
		return;
	case TAP_DOWN_INVALID:
		down_invalid.value++;
		return;
	case TAP_DOWN_NOT_OURS:
		down_not_ours.value++;
		return;
	case TAP_DOWN_NO_LINK:
		down_no_link.value++;
		return;
	default:
		break;
	}
	m = rte_pktmbuf_alloc(fwd.pool);
	if (m == NULL || (d = rte_pktmbuf_append(m, (uint16_t)len)) == NULL) {
		rte_pktmbuf_free(m);
		down_no_mbuf.value++;
		t->n_down_dropped++;
		return;
	}
	memcpy(d, frame, len);
	down_frames.value++;
	t->n_down++;
	switch (c) {
	case TAP_DOWN_ROUTE4:
		if (ip4_output_in(m, fwd_ifaces[t->id].vrf) < 0)
			down_no_route.value++;
		return;
	case TAP_DOWN_ROUTE6:
		if (ip6_output(m, t->id) < 0)
			down_no_route.value++;
		return;
	default: /* TAP_DOWN_LINK: the kernel's frame, from the interface's MAC */
		memcpy(d + 6, v.mac, 6);
		if (bcast)
			memset(d, 0xff, 6);
		fwd_control_ctrs(t->id)->created++;
		fwd_control_tx(m, t->id);
		return;
	}
}

void tap_on_read(evutil_socket_t fd, short what, void *arg)
{
	static uint8_t frame[FRAME_MAX];
	struct tap *t = arg;

	(void)what;
	for (unsigned i = 0; i < TAP_BURST; i++) {
		ssize_t n = read(fd, frame, sizeof(frame));

		if (n <= 0)
			return; /* EAGAIN: all read */
		down_one(t, frame, (unsigned)n);
	}
}

/* ---- up: what fwd does not answer ---- */

/* The TAP of the loopback that owns m's destination, if it has one: the
 * kernel takes what is for a loopback's address on that loopback's
 * interface (services bound to it, bgpd's update-source). */
static struct tap *loopback_tap(struct rte_mbuf *m)
{
	int owner = tap_up_owner(rte_pktmbuf_mtod(m, const uint8_t *), rte_pktmbuf_data_len(m),
	                         owner4, owner6);
	struct tap *t = owner >= 0 ? tap_of((unsigned)owner) : NULL;

	return t != NULL && t->no_link ? t : NULL;
}

bool tap_up(struct rte_mbuf *m, uint16_t iface)
{
	up_vrf = iface < FWD_MAX_IFACES ? fwd_ifaces[iface].vrf : FWD_VRF_DEFAULT;
	struct tap *t = m->nb_segs == 1 ? loopback_tap(m) : NULL;

	if (t != NULL) /* the kernel drops what is not for the interface's MAC */
		rte_pktmbuf_mtod(m, struct rte_ether_hdr *)->dst_addr = t->kmac;
	else
		t = tap_of(iface);
	if (t == NULL)
		return false;
	if (m->nb_segs != 1 ||
	    write(t->fd, rte_pktmbuf_mtod(m, void *), rte_pktmbuf_data_len(m)) < 0) {
		up_dropped.value++; /* EAGAIN: the kernel's queue is full */
		t->n_up_dropped++;
		fwd_control_drop(m, iface, FWD_DROP_PUNT_FULL);
		return true;
	}
	up_frames.value++;
	t->n_up++;
	fwd_control_ctrs(iface)->consumed++;
	rte_pktmbuf_free(m);
	return true;
}

/* `port show`: the interface and its counters. */
void tap_fill(struct fwd_rpc_call *call, const struct fwd_port *p, Fwd__PortInfo *pi)
{
	const struct tap *t = tap_of(p->idx);
	Fwd__PortTap *pt;

	if (t == NULL || (pt = fwd_rpc_alloc(call, sizeof(*pt))) == NULL)
		return;
	fwd__port_tap__init(pt);
	pt->name = fwd_rpc_strdup(call, p->name);
	pt->ifindex = t->ifindex;
	pt->up = t->n_up;
	pt->down = t->n_down;
	pt->up_dropped = t->n_up_dropped;
	pt->down_dropped = t->n_down_dropped;
	pi->tap = pt;
}
