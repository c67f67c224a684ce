/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The interface table (core/iface.h): ids, names, the ports' VLAN maps and
 * the hooks run around an interface's life. Control thread only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_rcu_qsbr.h>

#include "core/daemon.h"
#include "core/iface.h"
#include "core/log.h"
#include "core/vrf.h"

#define MAX_HOOKS 16

struct fwd_iface fwd_ifaces[FWD_MAX_IFACES];

static unsigned n_logical; /* VLANs and loopbacks in use */

static struct {
	int order;
	fwd_iface_hook_fn fn;
} hooks[FWD_IFACE_EV_MAX][MAX_HOOKS];
static unsigned n_hooks[FWD_IFACE_EV_MAX];

struct fwd_iface *fwd_iface_get(unsigned id)
{
	if (id >= FWD_MAX_IFACES)
		return NULL;
	if (id < FWD_MAX_PORTS)
		return id < fwd_n_ports ? &fwd_ifaces[id] : NULL;
	return fwd_ifaces[id].type != FWD_IFACE_FREE ? &fwd_ifaces[id] : NULL;
}

struct fwd_iface *fwd_iface_next(int id)
{
	for (unsigned i = (unsigned)(id + 1); i < FWD_MAX_IFACES; i++) {
		struct fwd_iface *ifp;

		if (i >= FWD_MAX_PORTS && n_logical == 0)
			break; /* no VLAN or loopback: the common walk stops at the ports */
		ifp = fwd_iface_get(i);
		if (ifp != NULL)
			return ifp;
		if (i < FWD_MAX_PORTS && i >= fwd_n_ports)
			i = FWD_MAX_PORTS - 1;
	}
	return NULL;
}

struct fwd_iface *fwd_iface_by_name(const char *name)
{
	struct fwd_iface *ifp;

	FWD_IFACE_FOREACH(ifp)
	if (strcmp(ifp->name, name) == 0)
		return ifp;
	return NULL;
}

struct fwd_iface *fwd_iface_by_vlan(uint8_t port, uint16_t vid)
{
	const uint16_t *map;

	if (port >= fwd_n_ports || vid == 0 || vid >= FWD_VLAN_IDS)
		return NULL;
	map = fwd_ports[port].vlan_map;
	if (map == NULL || map[vid] == FWD_IFACE_NONE)
		return NULL;
	return &fwd_ifaces[map[vid]];
}

unsigned fwd_iface_count(void)
{
	return fwd_n_ports + n_logical;
}

int fwd_iface_hook_add(enum fwd_iface_event ev, int order, fwd_iface_hook_fn fn)
{
	unsigned i;

	if ((unsigned)ev >= FWD_IFACE_EV_MAX || n_hooks[ev] == MAX_HOOKS)
		return -ENOSPC;
	/* kept sorted by order, ties in registration order */
	for (i = n_hooks[ev]; i > 0 && hooks[ev][i - 1].order > order; i--)
		hooks[ev][i] = hooks[ev][i - 1];
	hooks[ev][i].order = order;
	hooks[ev][i].fn = fn;
	n_hooks[ev]++;
	return 0;
}

static void run_hooks(const struct fwd_iface *ifp, enum fwd_iface_event ev)
{
	for (unsigned i = 0; i < n_hooks[ev]; i++)
		hooks[ev][i].fn(ifp, ev);
}

/* Wait until no worker can still hold what was unpublished. */
static void grace_period(void)
{
	if (fwd.rcu != NULL && fwd.n_workers != 0)
		rte_rcu_qsbr_synchronize(fwd.rcu, RTE_QSBR_THRID_INVALID);
}

static int check_name(const char *name)
{
	size_t len = strnlen(name, FWD_IFNAME_MAX);

	if (len == 0 || len == FWD_IFNAME_MAX)
		return -EINVAL;
	return fwd_iface_by_name(name) != NULL ? -EEXIST : 0;
}

static struct fwd_iface *alloc_id(void)
{
	for (unsigned i = FWD_MAX_PORTS; i < FWD_MAX_IFACES; i++)
		if (fwd_ifaces[i].type == FWD_IFACE_FREE)
			return &fwd_ifaces[i];
	return NULL;
}

/* The port's VLAN map, made (all slots without an interface) on first use. */
static uint16_t *vlan_map(struct fwd_port *p)
{
	uint16_t *map = (uint16_t *)(uintptr_t)p->vlan_map;

	if (map != NULL)
		return map;
	map = malloc(FWD_VLAN_IDS * sizeof(*map));
	if (map == NULL)
		return NULL;
	for (unsigned v = 0; v < FWD_VLAN_IDS; v++)
		map[v] = FWD_IFACE_NONE;
	map[0] = p->idx; /* priority-tagged: the port's own */
	__atomic_store_n(&p->vlan_map, map, __ATOMIC_RELEASE);
	return map;
}

static void new_iface(struct fwd_iface *ifp, const char *name, enum fwd_iface_type type)
{
	uint16_t id = (uint16_t)(ifp - fwd_ifaces);

	memset(ifp, 0, sizeof(*ifp));
	ifp->id = id;
	ifp->mode = FWD_MODE_L3;
	ifp->port = FWD_IFACE_NO_PORT;
	ifp->admin_up = 1;
	snprintf(ifp->name, sizeof(ifp->name), "%s", name);
	__atomic_store_n(&ifp->type, (uint8_t)type, __ATOMIC_RELEASE);
	n_logical++;
}

int fwd_iface_vlan_add(const char *name, uint8_t port, uint16_t vid, uint16_t mtu, uint16_t *id)
{
	struct fwd_port *p;
	struct fwd_iface *ifp;
	uint16_t *map;
	int rc = check_name(name);

	if (rc < 0)
		return rc;
	if (vid == 0 || vid >= FWD_VLAN_IDS - 1)
		return -EINVAL;
	if (port >= fwd_n_ports)
		return -ENODEV;
	p = &fwd_ports[port];
	if (mtu > p->mtu)
		return -ERANGE;
	if (fwd_iface_by_vlan(port, vid) != NULL)
		return -EEXIST;
	ifp = alloc_id();
	if (ifp == NULL)
		return -ENOSPC;
	map = vlan_map(p);
	if (map == NULL)
		return -ENOMEM;
	new_iface(ifp, name, FWD_IFACE_VLAN);
	ifp->port = port;
	ifp->vlan = vid;
	ifp->mtu = mtu != 0 ? mtu : p->mtu;
	ifp->mac = p->mac;
	ifp->mac48 = p->mac48;
	ifp->tx_vlan_hw = fwd_ifaces[port].tx_vlan_hw;
	ifp->rx_ip4_cksum = p->rx_ip4_cksum;
	/* the entry is whole before a worker can map a frame to it */
	__atomic_store_n(&map[vid], ifp->id, __ATOMIC_RELEASE);
	if (id != NULL)
		*id = ifp->id;
	LOG(INFO, "interface %s: VLAN %u on port %s", name, vid, p->name);
	run_hooks(ifp, FWD_IFACE_EV_ADD);
	return 0;
}

int fwd_iface_loopback_add(const char *name, uint16_t *id)
{
	struct fwd_iface *ifp;
	int rc = check_name(name);

	if (rc < 0)
		return rc;
	ifp = alloc_id();
	if (ifp == NULL)
		return -ENOSPC;
	new_iface(ifp, name, FWD_IFACE_LOOPBACK);
	ifp->mtu = UINT16_MAX;
	if (id != NULL)
		*id = ifp->id;
	LOG(INFO, "interface %s: loopback", name);
	run_hooks(ifp, FWD_IFACE_EV_ADD);
	return 0;
}

/* Take a VLAN out of its port's map; the map goes with its last VLAN. */
static void vlan_unmap(struct fwd_iface *ifp)
{
	struct fwd_port *p = &fwd_ports[ifp->port];
	uint16_t *map = (uint16_t *)(uintptr_t)p->vlan_map;

	if (map == NULL)
		return;
	__atomic_store_n(&map[ifp->vlan], FWD_IFACE_NONE, __ATOMIC_RELEASE);
	if (fwd_ifaces[ifp->port].rx_vlan_strip)
		return; /* kept: the PMD strips tags */
	for (unsigned v = 1; v < FWD_VLAN_IDS; v++)
		if (map[v] != FWD_IFACE_NONE)
			return;
	__atomic_store_n(&p->vlan_map, NULL, __ATOMIC_RELEASE);
	grace_period();
	free(map);
}

int fwd_iface_del(uint16_t id)
{
	struct fwd_iface *ifp = fwd_iface_get(id);

	if (ifp == NULL)
		return -ENODEV;
	if (ifp->type == FWD_IFACE_PORT)
		return -EPERM;
	/* what names it goes first (addresses, routes, neighbours), then no
	 * frame can reach it; its id is free once no worker holds it */
	run_hooks(ifp, FWD_IFACE_EV_DEL);
	ifp->admin_up = 0;
	if (ifp->type == FWD_IFACE_VLAN)
		vlan_unmap(ifp);
	grace_period();
	LOG(INFO, "interface %s: deleted", ifp->name);
	__atomic_store_n(&ifp->type, (uint8_t)FWD_IFACE_FREE, __ATOMIC_RELEASE);
	n_logical--;
	return 0;
}

int fwd_iface_set_admin(uint16_t id, bool up)
{
	struct fwd_iface *ifp = fwd_iface_get(id);

	if (ifp == NULL)
		return -ENODEV;
	if (ifp->type == FWD_IFACE_LOOPBACK && !up)
		return -EPERM; /* always up */
	ifp->admin_up = up;
	run_hooks(ifp, FWD_IFACE_EV_CHANGE);
	return 0;
}

int fwd_iface_set_mtu(uint16_t id, uint16_t mtu)
{
	struct fwd_iface *ifp = fwd_iface_get(id);

	if (ifp == NULL)
		return -ENODEV;
	if (mtu == 0)
		return -EINVAL;
	if (ifp->type != FWD_IFACE_VLAN)
		return -EPERM; /* a port's MTU is the port's (port/) */
	if (mtu > fwd_ports[ifp->port].mtu)
		return -ERANGE;
	ifp->mtu = mtu;
	run_hooks(ifp, FWD_IFACE_EV_CHANGE);
	return 0;
}

int fwd_iface_set_mode(uint16_t id, enum fwd_port_mode mode, uint8_t bridge)
{
	struct fwd_iface *ifp = fwd_iface_get(id);

	if (ifp == NULL)
		return -ENODEV;
	if (ifp->type == FWD_IFACE_LOOPBACK || mode == FWD_MODE_XCONNECT)
		return -EPERM;
	ifp->bridge = bridge;
	__atomic_store_n(&ifp->mode, (uint8_t)mode, __ATOMIC_RELEASE);
	run_hooks(ifp, FWD_IFACE_EV_CHANGE); /* a bridge takes or lets go of it */
	return 0;
}

void fwd_iface_port_sync(uint8_t port)
{
	const struct fwd_port *p = &fwd_ports[port];
	struct fwd_iface *ifp = &fwd_ifaces[port];

	ifp->id = port;
	ifp->port = port;
	ifp->mode = p->mode;
	ifp->bridge = p->bridge;
	ifp->peer = p->peer;
	ifp->mtu = p->mtu;
	ifp->mac = p->mac;
	ifp->mac48 = p->mac48;
	ifp->rx_ip4_cksum = p->rx_ip4_cksum;
	ifp->admin_up = p->admin_up;
	ifp->rpf = p->rpf;
	ifp->filter = p->filter;
	snprintf(ifp->name, sizeof(ifp->name), "%s", p->name);
	ifp->type = FWD_IFACE_PORT;
	for (unsigned i = FWD_MAX_PORTS; i < FWD_MAX_IFACES; i++) {
		struct fwd_iface *v = &fwd_ifaces[i];
		if (v->type == FWD_IFACE_VLAN && v->port == port) {
			v->rx_ip4_cksum = p->rx_ip4_cksum;
			v->mac = p->mac;
			v->mac48 = p->mac48;
		}
	}
}

int fwd_iface_port_vlan_offload(uint8_t port, bool rx_strip, bool tx_insert)
{
	fwd_ifaces[port].rx_vlan_strip = rx_strip;
	if (rx_strip && vlan_map(&fwd_ports[port]) == NULL)
		return -ENOMEM;
	fwd_ifaces[port].tx_vlan_hw = tx_insert;
	for (unsigned i = FWD_MAX_PORTS; i < FWD_MAX_IFACES; i++)
		if (fwd_ifaces[i].type == FWD_IFACE_VLAN && fwd_ifaces[i].port == port)
			fwd_ifaces[i].tx_vlan_hw = tx_insert;
	return 0;
}

void fwd_iface_reset(void)
{
	for (unsigned i = 0; i < FWD_MAX_PORTS; i++) {
		free((void *)(uintptr_t)fwd_ports[i].vlan_map);
		fwd_ports[i].vlan_map = NULL;
	}
	memset(&fwd_ifaces[FWD_MAX_PORTS], 0, sizeof(fwd_ifaces[0]) * FWD_MAX_LOGICAL);
	n_logical = 0;
}

int fwd_iface_set_vrf(uint16_t id, uint16_t vrf)
{
	struct fwd_iface *ifp = fwd_iface_get(id);

	if (ifp == NULL || !fwd_vrf_used(vrf))
		return -ENODEV;
	if (ifp->vrf == vrf)
		return 0;
	run_hooks(ifp, FWD_IFACE_EV_VRF_LEAVE);
	/* a burst that read the old id routes in the old VRF: harmless, its
	 * tables stay until the VRF is deleted, after a grace period */
	__atomic_store_n(&ifp->vrf, vrf, __ATOMIC_RELEASE);
	LOG(INFO, "interface %s: now in vrf %s", fwd_iface_name(id), fwd_vrf_name(vrf));
	run_hooks(ifp, FWD_IFACE_EV_VRF_ENTER);
	return 0;
}
