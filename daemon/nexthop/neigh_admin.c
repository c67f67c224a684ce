/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What operators do to the neighbour table (config `neighbors:`, `fwdctl
 * neigh`): static entries, delete, flush, and what `neigh list` and
 * `config show` read back. Control thread only.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "nexthop/nexthop.h"
#include "nexthop/neigh_priv.h"
#include "port/port.h"

int neigh_add_static(struct fwd_ip a, uint16_t port, const struct rte_ether_addr *mac,
                     uint8_t origin, char *err, size_t errlen)
{
	const struct neigh_resolver *r = neigh_resolver(a.family);
	char buf[FWD_IP_STRLEN];
	struct neigh *n;
	int rc = r != NULL ? r->check(port, &a, mac->addr_bytes, err, errlen)
	                   : ERR(EAFNOSUPPORT, "address family not supported");

	if (rc < 0)
		return rc;
	n = neigh_lookup(a, port);
	if (n == NULL && (n = neigh_create(a, port, false)) == NULL)
		return ERR(ENOSPC, "no room for %s in the next-hop table", fwd_ip_fmt(&a, buf));
	neigh_timer_cancel(n);
	rte_ether_addr_copy(mac, &n->mac); /* before the state: its event shows the MAC */
	neigh_set_state(n, NEIGH_PERMANENT, neigh_hooks.now_ms());
	n->origin = origin;
	n->probes = 0;
	nh_set_l2(n->nh, mac);
	neigh_hold_release(n);
	return 0;
}

/* `neigh del`, flush: gone, or back to resolving while routes use it. */
static void neigh_remove(struct neigh *n)
{
	if (n->refs == 0)
		neigh_destroy(n);
	else
		neigh_resolve_start(n);
}

int neigh_del(struct fwd_ip a, uint16_t port)
{
	struct neigh *n = neigh_lookup(a, port);

	if (n == NULL)
		return -ENOENT;
	neigh_remove(n);
	return 0;
}

unsigned neigh_flush(uint16_t port, bool with_static)
{
	unsigned count = 0;
	uint32_t pos = 0;
	struct neigh *n;

	while ((n = neigh_iter(&pos)) != NULL) {
		if ((port != NEIGH_ALL && n->port != port) ||
		    (n->state == NEIGH_PERMANENT && !with_static))
			continue;
		neigh_remove(n);
		count++;
	}
	return count;
}

uint64_t neigh_count(void)
{
	return neigh_table_count();
}

int neigh_describe(uint32_t nh, enum neigh_state *state, struct rte_ether_addr *mac)
{
	const struct neigh *n = neigh_by_nh(nh);

	if (n == NULL)
		return -ENOENT;
	*state = n->state;
	rte_ether_addr_copy(&n->mac, mac);
	return 0;
}

bool neigh_static_get(struct fwd_ip a, uint16_t port, struct neigh_static *out)
{
	const struct neigh *e = neigh_lookup(a, port);

	if (e == NULL || e->state != NEIGH_PERMANENT)
		return false;
	*out = (struct neigh_static){ e->addr, e->port, e->origin, e->mac };
	return true;
}

bool neigh_static_next(uint32_t *pos, struct neigh_static *out)
{
	for (struct neigh *e = neigh_iter(pos); e != NULL; e = neigh_iter(pos)) {
		if (e->state != NEIGH_PERMANENT)
			continue;
		*out = (struct neigh_static){ e->addr, e->port, e->origin, e->mac };
		return true;
	}
	return false;
}

bool neigh_iface_ok(uint16_t id)
{
	if (id < FWD_MAX_PORTS)
		return id < fwd_n_ports;
	return id < FWD_MAX_IFACES && fwd_ifaces[id].type == FWD_IFACE_VLAN;
}

/* An interface goes: its neighbours with it (static ones too), after the
 * addresses and routes through it (core/iface.h). */
static void neigh_iface_gone(const struct fwd_iface *ifp, enum fwd_iface_event ev)
{
	(void)ev;
	if (neigh_table_count() != 0)
		neigh_flush(ifp->id, true);
}

RTE_INIT(neigh_iface_hooks)
{
	fwd_iface_hook_add(FWD_IFACE_EV_DEL, 30, neigh_iface_gone);
	fwd_iface_hook_add(FWD_IFACE_EV_VRF_LEAVE, 30, neigh_iface_gone);
}
