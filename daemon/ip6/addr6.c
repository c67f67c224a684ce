/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "core/event.h"
#include "core/log.h"
#include "ip6/addr6.h"
#include "ip6/addr6_priv.h"
#include "ip6/ip6.h"
#include "nexthop/neigh.h"
#include "port/port.h"

struct ip6_port_addrs ip6_addrs[FWD_MAX_IFACES];

static unsigned batch_depth;

static const char *const state_names[] = {
	[ADDR6_TENTATIVE] = "tentative",
	[ADDR6_PREFERRED] = "preferred",
	[ADDR6_DUPLICATE] = "duplicate",
};

const char *addr6_state_name(enum addr6_state s)
{
	return (unsigned)s < 3 ? state_names[s] : "?";
}

/* --------------------------------------------------------- running state */

static int find(uint16_t port, const uint8_t a[16])
{
	const struct ip6_port_addrs *pa = &ip6_addrs[port];

	for (unsigned i = 0; i < pa->n; i++)
		if (memcmp(pa->a[i].addr, a, 16) == 0)
			return (int)i;
	return -1;
}

int addr6_state(uint16_t port, const uint8_t a[16])
{
	int i = port < FWD_MAX_IFACES ? find(port, a) : -1;

	return i < 0 ? -1 : ip6_addrs[port].state[i];
}

bool addr6_is_local(uint16_t vrf, uint16_t port, const uint8_t ip[16])
{
	for (int p = fwd_iface_next_id(-1); p >= 0; p = fwd_iface_next_id(p))
		if ((port == FWD_IFACE_NONE && fwd_ifaces[p].vrf == vrf) || p == port) {
			int i = find((uint16_t)p, ip);

			if (i >= 0 && ip6_addrs[p].state[i] == ADDR6_PREFERRED)
				return true;
		}
	return false;
}

bool addr6_source(uint16_t port, const uint8_t dst[16], uint8_t out[16])
{
	const struct ip6_port_addrs *pa = port < FWD_MAX_IFACES ? &ip6_addrs[port] : NULL;
	bool link_scope = ip6_is_linklocal(dst) || (ip6_is_multicast(dst) && (dst[1] & 0xf) <= 2);
	int first = -1;

	if (pa == NULL || pa->n == 0)
		return false;
	for (unsigned i = 1; i < pa->n && !link_scope; i++) {
		if (pa->state[i] != ADDR6_PREFERRED)
			continue;
		if (fwd_ip6_in_prefix(dst, pa->a[i].addr, pa->a[i].len)) {
			memcpy(out, pa->a[i].addr, 16);
			return true;
		}
		if (first < 0)
			first = (int)i;
	}
	if (first < 0 && pa->state[0] == ADDR6_PREFERRED)
		first = 0;
	if (first < 0)
		return false;
	memcpy(out, pa->a[first].addr, 16);
	return true;
}

/* Does any global address of VRF vrf still need prefix s? */
static bool prefix_in_use(uint16_t vrf, const struct fwd_ip6_prefix *s)
{
	for (int port = fwd_iface_next_id(-1); port >= 0; port = fwd_iface_next_id(port))
		for (unsigned i = 1; i < ip6_addrs[port].n && fwd_ifaces[port].vrf == vrf; i++) {
			struct fwd_ip6_prefix o = prefix_of(&ip6_addrs[port].a[i]);
			if (same_prefix(&o, s) && !fwd_iface_is_loopback(port))
				return true;
		}
	return false;
}

static const struct addr6_route_hooks *route_hooks;
static const struct addr6_ndp_hooks *ndp_hooks;

void addr6_set_route_hooks(const struct addr6_route_hooks *h)
{
	route_hooks = h;
}

void addr6_set_ndp_hooks(const struct addr6_ndp_hooks *h)
{
	ndp_hooks = h;
}

static void ndp_tell_changed(uint16_t port, bool ra)
{
	if (ndp_hooks != NULL && !fwd_iface_is_loopback(port)) /* a loopback has no link */
		ndp_hooks->port_changed(port, ra);
}

/* Take address i off port's list and out of the FIB. */
static void addr_remove(uint16_t port, unsigned i)
{
	bool lo = fwd_iface_is_loopback(port);
	struct ip6_port_addrs *pa = &ip6_addrs[port];
	struct fwd_ip6_prefix p = pa->a[i], s = prefix_of(&p);
	unsigned rest = pa->n - i - 1;

	if (pa->state[i] == ADDR6_PREFERRED && !(lo && i == 0))
		rib6_clear_local(&ip6_ribs[fwd_ifaces[port].vrf], p.addr);
	else if (pa->state[i] == ADDR6_TENTATIVE && ndp_hooks != NULL)
		ndp_hooks->dad_stop(port, p.addr);
	memmove(&pa->a[i], &pa->a[i + 1], rest * sizeof(pa->a[0]));
	memmove(&pa->origin[i], &pa->origin[i + 1], rest);
	memmove(&pa->state[i], &pa->state[i + 1], rest);
	pa->n--;
	addr6_running_stale = true;
	ip6_src_watch_sync();
	if (i > 0 && !lo && !prefix_in_use(fwd_ifaces[port].vrf, &s) && route_hooks != NULL)
		route_hooks->connected_del(&s, port);
	if (pa->n > 0)
		ndp_tell_changed(port, ip6_addrs[port].ra);
}

void ip6_src_watch_sync(void)
{
	static uint64_t want[(1u << 16) / 64];

	memset(want, 0, sizeof(want));
	for (int port = fwd_iface_next_id(-1); port >= 0; port = fwd_iface_next_id(port))
		for (unsigned i = 0; i < ip6_addrs[port].n; i++) {
			unsigned x = ip6_src_watch_idx(ip6_addrs[port].a[i].addr);
			want[x / 64] |= UINT64_C(1) << (x % 64);
		}
	/* single byte stores: a worker sees the old mark or the new one */
	for (unsigned x = 0; x < (1u << 16); x++) {
		uint8_t v = (uint8_t)(want[x / 64] >> (x % 64) & 1);
		if (v != ip6_src_watch[x])
			__atomic_store_n(&ip6_src_watch[x], v, __ATOMIC_RELAXED);
	}
}

/* Put an address on port's list, tentative, and start DAD for it; on a
 * loopback (no link, no DAD) in use at once. */
static int addr_append(uint16_t port, const struct fwd_ip6_prefix *p, uint8_t origin)
{
	struct ip6_port_addrs *pa = &ip6_addrs[port];
	bool lo = fwd_iface_is_loopback(port);
	int rc;

	if (lo && pa->n > 0 && (rc = rib6_set_local(&ip6_ribs[fwd_ifaces[port].vrf], p->addr)) < 0)
		return rc;
	pa->a[pa->n] = *p;
	pa->origin[pa->n] = origin;
	pa->state[pa->n++] = lo ? ADDR6_PREFERRED : ADDR6_TENTATIVE;
	addr6_running_stale = true;
	ip6_src_watch_sync();
	if (ndp_hooks != NULL && !lo)
		ndp_hooks->dad_start(port, p->addr);
	return 0;
}

int addr6_port_up(uint16_t port)
{
	struct fwd_ip6_prefix ll = { .len = 64 };
	const struct rte_ether_addr *mac;

	if (port >= FWD_MAX_IFACES)
		return -ENODEV;
	if (ip6_addrs[port].n > 0)
		return 0;
	/* a port's MAC from the port table (set before its interface entry);
	 * a VLAN's is its port's */
	mac = &fwd_ifaces[port].mac;
	if (port < FWD_MAX_PORTS)
		mac = &fwd_ports[port].mac;
	ip6_linklocal_of(mac, ll.addr);
	return addr_append(port, &ll, FWD_ORIGIN_ADDRESS);
}

/* The first address of an interface: a port's or VLAN's link-local, a
 * loopback's ::1. */
static int first_addr(uint16_t port)
{
	struct fwd_ip6_prefix one = { .addr = { [15] = 1 }, .len = 128 };

	if (ip6_addrs[port].n > 0)
		return 0;
	if (fwd_iface_is_loopback(port))
		return addr_append(port, &one, FWD_ORIGIN_ADDRESS);
	return addr6_port_up((uint16_t)port);
}

void addr6_port_down(uint16_t port)
{
	while (ip6_addrs[port].n > 0)
		addr_remove(port, ip6_addrs[port].n - 1);
}

int addr6_add(uint16_t port, const struct fwd_ip6_prefix *p, uint8_t origin, char *err,
              size_t errlen)
{
	struct fwd_ip6_prefix s = prefix_of(p);
	int rc = addr6_rule_add(addr6_running(), port, p, err, errlen);

	if (rc < 0)
		return rc;
	if ((rc = first_addr(port)) < 0)
		return ERR(-rc, "link-local address: %s", strerror(-rc));
	if (!fwd_iface_is_loopback(port) && route_hooks != NULL &&
	    (rc = route_hooks->connected_add(&s, port)) < 0)
		return ERR(-rc, "FIB: %s",
		           rc == -ENOSPC ? "full (raise dataplane.fib6_tbl8s)" : strerror(-rc));
	if ((rc = addr_append(port, p, origin)) < 0)
		return ERR(-rc, "FIB: %s", strerror(-rc));
	if (fwd_event_wanted(FWD_EVENT_ADDR)) {
		char buf[FWD_PREFIX_STRLEN];
		fwd_event_addr("add", fwd_iface_name(port), fwd_ip6_prefix_fmt(p, buf), origin);
	}
	return 0;
}

static void cascade(void)
{
	if (route_hooks != NULL)
		route_hooks->prune();
	neigh_addresses_changed();
}

int addr6_del(uint16_t port, const struct fwd_ip6_prefix *p, char *err, size_t errlen)
{
	struct ip6_port_addrs *pa = &ip6_addrs[port];
	char buf[FWD_PREFIX_STRLEN];
	unsigned i;

	for (i = 1; i < pa->n; i++)
		if (same_prefix(&pa->a[i], p))
			break;
	if (i >= pa->n) {
		if (pa->n > 0 && same_prefix(&pa->a[0], p))
			return ERR(EINVAL, "%s is the link-local address of %s (it stays)",
			           fwd_ip6_prefix_fmt(p, buf), fwd_iface_name(port));
		return ERR(ESRCH, "no address %s on %s", fwd_ip6_prefix_fmt(p, buf),
		           fwd_iface_name(port));
	}
	if (fwd_event_wanted(FWD_EVENT_ADDR))
		fwd_event_addr("del", fwd_iface_name(port), fwd_ip6_prefix_fmt(p, buf),
		               pa->origin[i]);
	addr_remove(port, i);
	if (batch_depth == 0)
		cascade();
	return 0;
}

void addr6_dad_done(uint16_t port, const uint8_t a[16], bool duplicate)
{
	struct ip6_port_addrs *pa = &ip6_addrs[port];
	char buf[FWD_IP6_STRLEN];
	int i = find(port, a), rc;

	if (i < 0 || pa->state[i] != ADDR6_TENTATIVE)
		return;
	fwd_ip6_fmt(a, buf);
	if (duplicate) {
		pa->state[i] = ADDR6_DUPLICATE;
		LOG(WARNING,
		    "%s: address %s is used by another host (duplicate address detection); "
		    "it is not used",
		    fwd_iface_name(port), buf);
		return;
	}
	if ((rc = rib6_set_local(&ip6_ribs[fwd_ifaces[port].vrf], a)) < 0) {
		LOG(ERR, "%s: address %s: FIB: %s", fwd_iface_name(port), buf, strerror(-rc));
		return;
	}
	pa->state[i] = ADDR6_PREFERRED;
	LOG(INFO, "%s: address %s in use", fwd_iface_name(port), buf);
	ndp_tell_changed(port, ip6_addrs[port].ra);
}

void addr6_batch_begin(void)
{
	batch_depth++;
}

void addr6_batch_end(void)
{
	if (batch_depth > 0 && --batch_depth == 0)
		cascade();
}

/* An interface goes (core/iface.h hook order 10), or a VLAN leaves l3 for a
 * bridge: its addresses with it, its link-local one too, as Linux takes
 * them with the device. */
static void iface_gone(const struct fwd_iface *ifp, enum fwd_iface_event ev)
{
	struct ip6_port_addrs *pa = &ip6_addrs[ifp->id];

	if (pa->n == 0 ||
	    (ev == FWD_IFACE_EV_CHANGE && (ifp->type != FWD_IFACE_VLAN || fwd_iface_is_l3(ifp))))
		return;
	if (pa->ra) { /* the last RA says: not a router any more (RFC 4861 6.2.5) */
		pa->ra = false;
		ndp_tell_changed(ifp->id, false);
	}
	while (pa->n > 0)
		addr_remove(ifp->id, pa->n - 1);
	if (batch_depth == 0)
		cascade();
}

/* A VLAN interface made in l3 mode, or back to it: its link-local address. */
static void iface_l3(const struct fwd_iface *ifp, enum fwd_iface_event ev)
{
	int rc;

	/* a port's link-local address is made with the port, and again when
	 * it enters another VRF */
	if ((ifp->type != FWD_IFACE_VLAN && ev != FWD_IFACE_EV_VRF_ENTER) ||
	    !fwd_iface_is_l3(ifp) || ip6_addrs[ifp->id].n > 0)
		return;
	if ((rc = addr6_port_up(ifp->id)) < 0)
		LOG(ERR, "%s: link-local address: %s", ifp->name, strerror(-rc));
}

RTE_INIT(addr6_hooks)
{
	fwd_iface_hook_add(FWD_IFACE_EV_DEL, 10, iface_gone);
	fwd_iface_hook_add(FWD_IFACE_EV_CHANGE, 10, iface_gone);
	fwd_iface_hook_add(FWD_IFACE_EV_ADD, 10, iface_l3);
	fwd_iface_hook_add(FWD_IFACE_EV_CHANGE, 11, iface_l3);
	fwd_iface_hook_add(FWD_IFACE_EV_VRF_LEAVE, 10, iface_gone);
	fwd_iface_hook_add(FWD_IFACE_EV_VRF_ENTER, 10, iface_l3);
}
