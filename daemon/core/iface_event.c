/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `fwdctl monitor iface`: an interface made or deleted, and its admin
 * state after a change (of that state, its MTU or its mode), from the
 * interface hooks (core/iface.h). Ports keep their own `port` events, bonds
 * their `bond` events (a failover is one).
 */
#include <stdio.h>

#include <rte_common.h>

#include "core/event.h"
#include "core/iface.h"

static void iface_event(const struct fwd_iface *ifp, enum fwd_iface_event ev)
{
	static const char *const action[FWD_IFACE_EV_MAX] = { "add", "del", "change" };
	struct fwd_event *e;

	/* link and VRF moves have events of their own (bond, vrf) */
	if (ifp->type == FWD_IFACE_PORT || action[ev] == NULL)
		return;
	e = fwd_event_new(FWD_EVENT_IFACE,
	                  ev == FWD_IFACE_EV_CHANGE ? (ifp->admin_up ? "up" : "down") : action[ev]);
	if (e == NULL)
		return;
	snprintf(e->port, sizeof(e->port), "%s", ifp->name);
	if (ifp->type == FWD_IFACE_VLAN)
		snprintf(e->text, sizeof(e->text), "vlan %u port %s mtu %u", ifp->vlan,
		         fwd_ifaces[ifp->port].name, ifp->mtu);
	else
		snprintf(e->text, sizeof(e->text), "loopback");
}

RTE_INIT(iface_event_register)
{
	for (int ev = 0; ev < FWD_IFACE_EV_MAX; ev++)
		fwd_iface_hook_add((enum fwd_iface_event)ev, 0, iface_event);
}
