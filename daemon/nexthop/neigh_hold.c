/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packets for a neighbour whose link address the workers do not have:
 * punted by workers (resolve, glean) or built by the control thread
 * (neigh_output). Sent at once when the entry is resolved, else held in a
 * bounded FIFO per neighbour (and a global cap, so a scan of a /16 cannot
 * pin the mbuf pool) until it resolves or fails. Every packet that does not
 * go out is counted under one drop reason.
 */
#include <errno.h>

#include <rte_ether.h>

#include "core/counters.h"
#include "core/daemon.h"
#include "nexthop/nexthop.h"
#include "nexthop/neigh_priv.h"

FWD_COUNTER(neigh_stale_punts, "neigh_stale_punts");

static unsigned held_total;

unsigned neigh_held_total(void)
{
	return held_total;
}

unsigned neigh_hold_cap(void)
{
	/* the router's own share of the pool: not what af_xdp keeps in its rings */
	unsigned own = fwd.cfg != NULL    ? fwd.cfg->dataplane.mbufs
	               : fwd.pool != NULL ? fwd.pool->size
	                                  : 4u * NEIGH_HOLD_GLOBAL_MAX;

	return RTE_MIN((unsigned)NEIGH_HOLD_GLOBAL_MAX, own / 4);
}

/* Write the link header from the (resolved) next hop, a VLAN's tag
 * included, and hand m to a worker for the physical port. */
static void neigh_xmit(struct rte_mbuf *m, uint32_t nhi)
{
	const struct nexthop *nh = &nh_table[nhi];
	uint16_t type = rte_cpu_to_be_16(nh_addr(nhi)->family == AF_INET6 ? RTE_ETHER_TYPE_IPV6
	                                                                  : RTE_ETHER_TYPE_IPV4);
	int rc = nh_l2_write(nh, m, type);

	if (rc < 0) {
		fwd_control_drop(m, nh->iface,
		                 rc == -ENOBUFS ? FWD_DROP_NO_MBUF : FWD_DROP_BAD_HEADER);
		return;
	}
	neigh_hooks.tx(m, nh->port); /* tagged already; a full ring is counted there */
}

static void neigh_unreachable(const struct neigh *n, struct rte_mbuf *m, uint16_t port, bool local)
{
	const struct neigh_resolver *r = neigh_resolver(n->addr.family);

	if (!local && r != NULL)
		r->unreachable(m, port);
	fwd_control_drop(m, port, FWD_DROP_NO_NEIGHBOUR);
}

static void neigh_hold(struct neigh *n, struct rte_mbuf *m, uint16_t port, bool local)
{
	struct neigh_held *h;

	if (n->n_held == NEIGH_HOLD_MAX || held_total >= neigh_hold_cap()) {
		fwd_control_drop(m, port, FWD_DROP_HOLD_FULL);
		return;
	}
	h = &n->held[(n->held_head + n->n_held) % NEIGH_HOLD_MAX];
	h->m = m;
	h->port = port;
	h->local = local;
	n->n_held++;
	held_total++;
}

/* The oldest held packet, taken off the queue; false when empty. */
static bool neigh_unhold(struct neigh *n, struct neigh_held *out)
{
	if (n->n_held == 0)
		return false;
	*out = n->held[n->held_head];
	n->held_head = (n->held_head + 1) % NEIGH_HOLD_MAX;
	n->n_held--;
	held_total--;
	return true;
}

void neigh_hold_release(struct neigh *n)
{
	struct neigh_held h;

	if (nh_l2_waiting(n->nh))
		return; /* its new MAC is not published yet: neigh_l2_published sends them */
	while (neigh_unhold(n, &h))
		neigh_xmit(h.m, n->nh);
}

void neigh_l2_published(uint32_t nh)
{
	struct neigh *n = neigh_by_nh(nh);

	if (n != NULL)
		neigh_hold_release(n);
}

void neigh_hold_fail(struct neigh *n)
{
	struct neigh_held h;

	while (neigh_unhold(n, &h))
		neigh_unreachable(n, h.m, h.port, h.local);
}

void neigh_hold_free(struct neigh *n)
{
	struct neigh_held h;

	while (neigh_unhold(n, &h))
		rte_pktmbuf_free(h.m);
}

void neigh_send(struct neigh *n, struct rte_mbuf *m, uint16_t port, bool local)
{
	neigh_lru_touch(n); /* in use: the last an unused entry to be evicted */
	switch (n->state) {
	case NEIGH_REACHABLE:
	case NEIGH_STALE:
	case NEIGH_PERMANENT:
		if (nh_l2_waiting(n->nh))
			nh_l2_poll(neigh_l2_published);
		if (nh_l2_waiting(n->nh))
			neigh_hold(n, m, port,
			           local); /* the old MAC is gone, the new not yet out */
		else
			neigh_xmit(m, n->nh);
		return;
	case NEIGH_INCOMPLETE:
		neigh_hold(n, m, port, local);
		return;
	default:
		if (n->heap == NEIGH_NO_TIMER) {
			/* failed a while ago and still used by routes: try again */
			neigh_resolve_start(n);
			neigh_hold(n, m, port, local);
		} else {
			neigh_unreachable(n, m, port, local);
		}
		return;
	}
}

/* The neighbour for a packet to host a on a connected subnet of port. */
static struct neigh *neigh_gleaned(uint16_t port, struct fwd_ip a)
{
	struct neigh *n = neigh_lookup(a, port);

	if (n != NULL || !neigh_addr_ok(port, &a))
		return n;
	return neigh_new_resolving(a, port);
}

void neigh_punt_resolve(struct rte_mbuf *m, const struct fwd_punt_meta *meta)
{
	struct neigh *n = neigh_by_nh(nh_punt_idx(meta->aux));

	/* gone, or gone and its index taken by another neighbour, since the
	 * worker routed the packet: it must not leave with another's MAC */
	if (n == NULL || !nh_punt_current(meta->aux, nh_table[n->nh].gen)) {
		neigh_stale_punts.value++;
		fwd_control_drop(m, meta->in_port, FWD_DROP_NO_NEIGHBOUR);
	} else {
		neigh_send(n, m, meta->in_port, false);
	}
}

void neigh_glean(struct rte_mbuf *m, uint16_t in_port, uint16_t port, struct fwd_ip a)
{
	struct neigh *n = neigh_gleaned(port, a);

	if (n == NULL)
		fwd_control_drop(m, in_port, FWD_DROP_NO_NEIGHBOUR);
	else
		neigh_send(n, m, in_port, false);
}

void neigh_output(struct rte_mbuf *m, uint32_t nh)
{
	struct neigh *n = neigh_by_nh(nh);

	if (n == NULL)
		fwd_control_drop(m,
		                 nh < nh_count && nh_table[nh].iface < FWD_MAX_IFACES
		                         ? nh_table[nh].iface
		                         : 0,
		                 FWD_DROP_NO_NEIGHBOUR);
	else
		neigh_send(n, m, n->port, true);
}

void neigh_output_glean(struct rte_mbuf *m, uint16_t port, struct fwd_ip a)
{
	struct neigh *n = neigh_gleaned(port, a);

	if (n == NULL)
		fwd_control_drop(m, port, FWD_DROP_NO_NEIGHBOUR);
	else
		neigh_send(n, m, port, true);
}
