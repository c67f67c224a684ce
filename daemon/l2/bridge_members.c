/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which interfaces a bridge floods to. Ports join at start (bridge_ctl.c)
 * and stay; VLAN interfaces in `mode: bridge` join and leave whenever the
 * interface table says so (interfaces[] at start and on reload, `fwdctl
 * iface`), told by the interface hooks (core/iface.h).
 *
 * Workers read members[] without a lock: the list is rewritten in place,
 * then n_members stored with release. A worker mid-burst may see an
 * interface that just left, or miss one that just joined, for that burst;
 * bridge.c drops a frame for a VLAN no longer in its bridge
 * (bridge_of_iface), and the entries learnt on it go at once.
 */
#include <string.h>

#include "core/daemon.h"
#include "core/iface.h"
#include "core/log.h"
#include "l2/bridge.h"

/* The bridge a VLAN interface names: its index in the running config. */
static struct bridge *vlan_bridge(const struct fwd_iface *ifp)
{
	const struct fwd_config *cfg = bridge_cfg;

	if (ifp->type != FWD_IFACE_VLAN || ifp->mode != FWD_MODE_BRIDGE || cfg == NULL ||
	    ifp->bridge >= cfg->n_bridges)
		return NULL;
	return bridge_by_name(cfg->bridges[ifp->bridge].name);
}

/* b's members: its ports (fixed), then its VLANs (bridge_of_iface, set first). */
static void members_of(const struct bridge *b, uint16_t *ids, unsigned *n)
{
	*n = 0;
	for (unsigned p = 0; p < FWD_MAX_PORTS; p++)
		if (bridge_of_iface[p] == b)
			ids[(*n)++] = (uint16_t)p;
	for (unsigned id = FWD_MAX_PORTS; id < FWD_MAX_IFACES; id++)
		if (bridge_of_iface[id] == b)
			ids[(*n)++] = (uint16_t)id;
}

static void publish(struct bridge *b, const uint16_t *ids, unsigned n)
{
	unsigned old = b->n_members;

	if (n < old) /* shrink first: no worker reads past the new end */
		__atomic_store_n(&b->n_members, (uint16_t)n, __ATOMIC_RELEASE);
	for (unsigned i = 0; i < n; i++)
		__atomic_store_n(&b->members[i], ids[i], __ATOMIC_RELAXED);
	__atomic_store_n(&b->n_members, (uint16_t)n, __ATOMIC_RELEASE);
}

void bridge_members_sync(uint16_t except)
{
	static uint16_t ids[FWD_MAX_IFACES];
	unsigned n;

	for (unsigned id = FWD_MAX_PORTS; id < FWD_MAX_IFACES; id++) {
		struct bridge *b = NULL;
		const struct fwd_iface *ifp = fwd_iface_get(id);
		if (ifp != NULL && id != except)
			b = vlan_bridge(ifp);
		if (bridge_of_iface[id] != b)
			__atomic_store_n(&bridge_of_iface[id], b, __ATOMIC_RELEASE);
	}
	for (unsigned i = 0; i < FWD_MAX_BRIDGES; i++) {
		struct bridge *b = &bridge_table[i];
		if (!b->used)
			continue;
		members_of(b, ids, &n);
		if (n != b->n_members || memcmp(ids, b->members, n * sizeof(ids[0])) != 0) {
			publish(b, ids, n);
			bridge_forget_left(b);
			if (n != 0 && bridge_tick_start() < 0)
				LOG(ERR, "bridge %s: no timer: nothing is learnt", b->name);
		}
	}
}

static void on_iface(const struct fwd_iface *ifp, enum fwd_iface_event ev)
{
	if (ifp->type == FWD_IFACE_VLAN)
		bridge_members_sync(ev == FWD_IFACE_EV_DEL ? ifp->id : FWD_IFACE_NONE);
}

RTE_INIT(bridge_members_register)
{
	/* before the layers above forget its addresses and neighbours (10 and up) */
	fwd_iface_hook_add(FWD_IFACE_EV_DEL, 5, on_iface);
	fwd_iface_hook_add(FWD_IFACE_EV_ADD, 5, on_iface);
	fwd_iface_hook_add(FWD_IFACE_EV_CHANGE, 5, on_iface);
}
