/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a kernel interface (cp/tap.c) follows: the fwd interface of its id
 * (core/iface.h), seen through one small view (name, MAC, MTU, admin
 * state, carrier, whether it has a link), so the rest of the module does
 * not care whether the interface is a port, a VLAN interface or a
 * loopback. A VLAN interface's carrier is its port's link while the port
 * is up; a loopback has no link, no MAC (its TAP keeps the kernel's) and
 * is always up.
 */
#include <string.h>

#include <rte_common.h>

#include "core/iface.h"
#include "core/ports.h"
#include "cp/tap_priv.h"

#define TAP_MTU_MAX (FRAME_MAX - 18) /* what a read takes whole */

bool tap_if_wanted(uint16_t id)
{
	const struct fwd_iface *ifp = fwd_iface_get(id);

	/* ports: ports[].tap, read by tap.c from the config being applied; a
	 * bridge member has no addresses of its own for a kernel to serve */
	return ifp != NULL && ifp->type != FWD_IFACE_PORT && ifp->tap &&
	       (ifp->type == FWD_IFACE_LOOPBACK || ifp->mode == FWD_MODE_L3);
}

bool tap_if_view(uint16_t id, struct tap_view *v)
{
	const struct fwd_iface *ifp = fwd_iface_get(id);
	bool loopback;

	if (ifp == NULL)
		return false;
	loopback = ifp->type == FWD_IFACE_LOOPBACK;
	memset(v, 0, sizeof(*v));
	v->name = ifp->name;
	v->mac = loopback ? NULL : &ifp->mac;
	v->mtu = RTE_MIN(ifp->mtu, (uint16_t)TAP_MTU_MAX);
	v->has_link = !loopback;
	v->up = loopback || ifp->admin_up != 0;
	v->carrier = loopback || (ifp->port < fwd_n_ports && fwd_ports[ifp->port].link_up);
	if (ifp->type == FWD_IFACE_PORT) { /* the port's own, as port/ has them */
		v->up = fwd_ports[id].admin_up != 0;
		v->mtu = fwd_ports[id].mtu;
	} else if (!loopback && !fwd_ports[ifp->port].admin_up) {
		v->carrier = false; /* as Linux: a VLAN over a lower device that is down */
	}
	return true;
}

const char *tap_if_name(uint16_t id)
{
	const struct fwd_iface *ifp = fwd_iface_get(id);

	return ifp != NULL ? ifp->name : "?";
}

bool tap_if_addrs(uint16_t id, const struct ip4_port_addrs **a4, const struct ip6_port_addrs **a6)
{
	if (id >= FWD_MAX_IFACES)
		return false;
	*a4 = &ip4_addrs[id];
	*a6 = &ip6_addrs[id];
	return true;
}

/* An interface deleted (fwdctl iface del, a reload) takes its TAP along. */
static void on_del(const struct fwd_iface *ifp, enum fwd_iface_event ev)
{
	(void)ev;
	tap_close(ifp->id);
}

RTE_INIT(tap_if_hooks)
{
	fwd_iface_hook_add(FWD_IFACE_EV_DEL, 40, on_del);
}
