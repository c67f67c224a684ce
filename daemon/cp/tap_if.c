/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a kernel interface (cp/tap.c) follows: the fwd interface of its id,
 * seen through one small view (name, MAC, MTU, admin state, carrier,
 * whether it has a link), so the rest of the module does not care whether
 * the interface is a port, a VLAN interface or a loopback.
 */
#include <string.h>

#include "core/ports.h"
#include "cp/tap_priv.h"

unsigned tap_if_end(void)
{
	return fwd_n_ports;
}

bool tap_if_wanted(uint16_t id)
{
	(void)id; /* ports: ports[].tap, read by tap.c from the config applied */
	return false;
}

bool tap_if_view(uint16_t id, struct tap_view *v)
{
	const struct fwd_port *p;

	if (id >= fwd_n_ports)
		return false;
	p = &fwd_ports[id];
	memset(v, 0, sizeof(*v));
	v->name = p->name;
	v->mac = &p->mac;
	v->mtu = p->mtu;
	v->up = p->admin_up != 0;
	v->carrier = p->link_up;
	v->has_link = true;
	return true;
}

const char *tap_if_name(uint16_t id)
{
	struct tap_view v;

	return tap_if_view(id, &v) ? v.name : "?";
}
