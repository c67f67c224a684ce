/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "core/event.h"
#include "core/log.h"
#include "ip4/addr.h"
#include "ip4/arp.h"
#include "ip4/ip4.h"
#include "nexthop/neigh.h"
#include "port/port.h"

struct ip4_port_addrs ip4_addrs[FWD_MAX_IFACES];

static struct addr4_view_port running_ports[FWD_MAX_IFACES];
static struct addr4_view running = { .port = running_ports };
static unsigned batch_depth;

static struct fwd_ip4_prefix subnet_of(const struct fwd_ip4_prefix *p)
{
	return (struct fwd_ip4_prefix){ p->addr & fwd_ip4_mask(p->len), p->len };
}

/* Directed broadcast of p's subnet, or 0 for /31 and /32 (RFC 3021). */
static uint32_t bcast_of(const struct fwd_ip4_prefix *p)
{
	return p->len >= 31 ? 0 : p->addr | ~fwd_ip4_mask(p->len);
}

/* The directed broadcast of interface id's address i: a loopback has none. */
static uint32_t bcast_at(unsigned id, unsigned i)
{
	return fwd_iface_is_loopback(id) ? 0 : bcast_of(&ip4_addrs[id].a[i]);
}

/* What a rule's message calls entry id of a view. */
static const char *kind(int id)
{
	return id < FWD_MAX_PORTS ? "port" : "interface";
}

static bool same_prefix(const struct fwd_ip4_prefix *a, const struct fwd_ip4_prefix *b)
{
	return a->addr == b->addr && a->len == b->len;
}

/* ------------------------------------------------------------------ views */

/* Ports by the port table (what tests and port/ set), the others by the
 * interface table; up to the last id in use. */
const struct addr4_view *addr4_running(void)
{
	const struct fwd_iface *ifp;

	running.n_ports = fwd_n_ports;
	for (unsigned i = 0; i < fwd_n_ports; i++)
		running_ports[i] = (struct addr4_view_port){ .name = fwd_ports[i].name,
			                                     .l3 = fwd_ports[i].mode == FWD_MODE_L3,
			                                     .vrf = fwd_ifaces[i].vrf,
			                                     .n = ip4_addrs[i].n,
			                                     .a = ip4_addrs[i].a };
	for (unsigned i = fwd_n_ports; i < FWD_MAX_PORTS; i++)
		running_ports[i] = (struct addr4_view_port){ .name = "", .a = ip4_addrs[i].a };
	/* VLANs and loopbacks (their ids are set; a port's may not be in tests) */
	for (ifp = fwd_iface_next(FWD_MAX_PORTS - 1); ifp != NULL; ifp = fwd_iface_next(ifp->id)) {
		for (unsigned i = running.n_ports; i < ifp->id; i++) /* free ids between */
			running_ports[i] = (struct addr4_view_port){ .name = "" };
		running_ports[ifp->id] =
		        (struct addr4_view_port){ .name = ifp->name,
			                          .l3 = fwd_iface_is_l3(ifp),
			                          .lo = ifp->type == FWD_IFACE_LOOPBACK,
			                          .vrf = ifp->vrf,
			                          .n = ip4_addrs[ifp->id].n,
			                          .a = ip4_addrs[ifp->id].a };
		running.n_ports = ifp->id + 1u;
	}
	return &running;
}

static void (*config_view_hook)(struct addr4_view *v, const struct fwd_config *cfg);

void addr4_set_config_view_hook(void (*fn)(struct addr4_view *v, const struct fwd_config *cfg))
{
	config_view_hook = fn;
}

void addr4_view_put(struct addr4_view *v, unsigned id, const struct addr4_view_port *e,
                    const struct fwd_prefix *a, unsigned n)
{
	struct addr4_view_port *vp = &v->port[id];
	unsigned k = 0;

	for (unsigned i = v->n_ports; i < id; i++)
		v->port[i] = (struct addr4_view_port){ .name = "" };
	if (id >= v->n_ports)
		v->n_ports = id + 1;
	*vp = *e;
	for (unsigned i = 0; i < n && k < FWD_MAX_ADDRS; i++)
		if (a[i].family == AF_INET) {
			v->store[id][k] = fwd_prefix_v4(&a[i]);
			v->index[id][k++] = (uint8_t)i;
		}
	vp->n = k;
	vp->a = v->store[id];
}

int addr4_view_index(const struct addr4_view *v, const char *name)
{
	for (unsigned i = 0; i < v->n_ports; i++)
		if (v->port[i].name != NULL && strcmp(v->port[i].name, name) == 0)
			return (int)i;
	return -1;
}

void addr4_view_config(struct addr4_view *v, const struct fwd_config *cfg)
{
	v->port = v->ports;
	v->n_ports = 0;
	for (unsigned i = 0; i < cfg->n_ports; i++) {
		const struct fwd_conf_port *p = &cfg->ports[i];
		int vrf = fwd_config_vrf_index(cfg, p->vrf); /* the file's numbering */
		struct addr4_view_port e = { .name = p->name,
			                     .l3 = p->mode == FWD_MODE_L3,
			                     .vrf = vrf > 0 ? (uint16_t)vrf : 0 };

		addr4_view_put(v, i, &e, p->addresses, p->n_addresses);
	}
	if (config_view_hook != NULL)
		config_view_hook(v, cfg);
}

/* The interface of VRF vrf holding address ip itself (not a late one when
 * early), or -1. */
static int view_owner_of(const struct addr4_view *v, uint16_t vrf, uint32_t ip, bool early)
{
	for (unsigned i = 0; i < v->n_ports; i++)
		for (unsigned k = 0; k < v->port[i].n && v->port[i].vrf == vrf; k++)
			if (v->port[i].a[k].addr == ip && !(early && v->port[i].late))
				return (int)i;
	return -1;
}

static int view_owner(const struct addr4_view *v, uint16_t vrf, uint32_t ip)
{
	return view_owner_of(v, vrf, ip, false);
}

/* The interface whose longest subnet holds ip (only `only` when >= 0; a
 * loopback's address, not its subnet), or -1. */
static int view_port_of(const struct addr4_view *v, uint16_t vrf, uint32_t ip, int only)
{
	int best = -1, best_len = -1;

	for (unsigned i = 0; i < v->n_ports; i++) {
		if ((only >= 0 && (unsigned)only != i) || v->port[i].vrf != vrf)
			continue;
		for (unsigned k = 0; k < v->port[i].n; k++) {
			const struct fwd_ip4_prefix *a = &v->port[i].a[k];
			if (v->port[i].lo && a->addr != ip)
				continue;
			if (fwd_ip4_in_prefix(ip, a) && a->len > best_len) {
				best = (int)i;
				best_len = a->len;
			}
		}
	}
	return best;
}

/* The interface of VRF vrf with subnet s connected (not a late one when
 * early), or -1. */
static int view_subnet_port(const struct addr4_view *v, uint16_t vrf,
                            const struct fwd_ip4_prefix *s, bool early)
{
	for (unsigned i = 0; i < v->n_ports; i++)
		for (unsigned k = 0; k < v->port[i].n && !v->port[i].lo &&
		                     !(early && v->port[i].late) && v->port[i].vrf == vrf;
		     k++) {
			struct fwd_ip4_prefix o = subnet_of(&v->port[i].a[k]);
			if (same_prefix(&o, s))
				return (int)i;
		}
	return -1;
}

/* ------------------------------------------------------------------ rules */

/* Why p cannot be an interface address, or NULL. */
static const char *host_problem(const struct fwd_ip4_prefix *p)
{
	uint32_t host = p->addr & ~fwd_ip4_mask(p->len);

	if (p->len == 0)
		return "is not usable on an interface (a /0)";
	if (ip4_dst_class[p->addr >> 24] != IP4_UNICAST)
		return "is not a unicast host address";
	if (p->len <= 30 && host == 0)
		return "is the network address of its subnet";
	if (p->len <= 30 && host == ~fwd_ip4_mask(p->len))
		return "is the broadcast address of its subnet";
	return NULL;
}

int addr4_rule_l3(const struct addr4_view *v, unsigned port, char *err, size_t errlen)
{
	if (port >= v->n_ports)
		return ERR(ENODEV, "no such port");
	if (!v->port[port].l3)
		return ERR(EINVAL, "%s %s is not an l3 %s", kind((int)port), v->port[port].name,
		           kind((int)port));
	return 0;
}

int addr4_rule_add(const struct addr4_view *v, unsigned port, const struct fwd_ip4_prefix *p,
                   char *err, size_t errlen)
{
	struct fwd_ip4_prefix s = subnet_of(p);
	char buf[FWD_PREFIX4_STRLEN];
	const char *why = host_problem(p);
	int rc = addr4_rule_l3(v, port, err, errlen), o;

	if (rc < 0)
		return rc;
	if (v->port[port].n >= FWD_MAX_ADDRS)
		return ERR(ENOSPC, "%s %s has %d addresses already", kind((int)port),
		           v->port[port].name, FWD_MAX_ADDRS);
	if (why != NULL)
		return ERR(EINVAL, "%s %s", fwd_ip4_prefix_fmt(p, buf), why);
	if ((o = view_owner_of(v, v->port[port].vrf, p->addr, !v->port[port].late)) >= 0)
		return ERR(EEXIST, "address %s is already configured (on %s %s)",
		           fwd_ip4_fmt(p->addr, buf), kind(o), v->port[o].name);
	if ((o = view_subnet_port(v, v->port[port].vrf, &s, !v->port[port].late)) >= 0 &&
	    (unsigned)o != port)
		return ERR(EEXIST, "subnet %s is already connected on %s %s",
		           fwd_ip4_prefix_fmt(&s, buf), kind(o), v->port[o].name);
	return 0;
}

int addr4_rule_gateway(const struct addr4_view *v, uint16_t vrf, uint32_t via, int dev,
                       unsigned *port, char *err, size_t errlen)
{
	char a[FWD_IP4_STRLEN];
	int rc, o;

	fwd_ip4_fmt(via, a);
	if (dev >= 0 && (rc = addr4_rule_l3(v, (unsigned)dev, err, errlen)) < 0)
		return rc;
	if (dev >= 0 && v->port[dev].vrf != vrf)
		return ERR(EINVAL, "%s %s is in another VRF", kind(dev), v->port[dev].name);
	if ((o = view_owner(v, vrf, via)) >= 0)
		return ERR(EINVAL, "gateway %s is one of our own addresses (on %s %s)", a, kind(o),
		           v->port[o].name);
	o = view_port_of(v, vrf, via, dev);
	if (o < 0 && dev >= 0)
		return ERR(ENETUNREACH, "gateway %s is not on a connected subnet of %s", a,
		           v->port[dev].name);
	if (o < 0)
		return ERR(ENETUNREACH, "gateway %s is not on a connected subnet", a);
	if (!v->port[o].l3)
		return ERR(EINVAL, "%s %s is not an l3 %s", kind(o), v->port[o].name, kind(o));
	*port = (unsigned)o;
	return 0;
}

int addr4_rule_route(const struct addr4_view *v, uint16_t vrf, const struct fwd_ip4_prefix *p,
                     char *err, size_t errlen)
{
	char buf[FWD_PREFIX4_STRLEN];
	int o = view_subnet_port(v, vrf, p, false);

	if (o >= 0)
		return ERR(EEXIST,
		           "%s is the connected subnet of %s %s (change the address "
		           "instead)",
		           fwd_ip4_prefix_fmt(p, buf), kind(o), v->port[o].name);
	return 0;
}

int addr4_rule_mac(const uint8_t mac[6], char *err, size_t errlen)
{
	static const uint8_t zero[6];
	char m[FWD_MAC_STRLEN];

	if ((mac[0] & 1) || memcmp(mac, zero, sizeof(zero)) == 0)
		return ERR(EINVAL, "%s is not a unicast MAC address", fwd_mac_fmt(mac, m));
	return 0;
}

int addr4_rule_neigh(const struct addr4_view *v, unsigned port, uint32_t ip, const uint8_t *mac,
                     char *err, size_t errlen)
{
	char a[FWD_IP4_STRLEN];
	int rc = addr4_rule_l3(v, port, err, errlen), o;

	fwd_ip4_fmt(ip, a);
	if (rc == 0 && mac != NULL)
		rc = addr4_rule_mac(mac, err, errlen);
	if (rc < 0)
		return rc;
	if ((o = view_owner(v, v->port[port].vrf, ip)) >= 0)
		return ERR(EINVAL, "%s is one of our own addresses (on %s %s)", a, kind(o),
		           v->port[o].name);
	for (unsigned k = 0; k < v->port[port].n; k++) {
		struct fwd_ip4_prefix h = { ip, v->port[port].a[k].len };
		if (fwd_ip4_in_prefix(ip, &v->port[port].a[k]))
			return host_problem(&h) == NULL
			               ? 0
			               : ERR(EINVAL, "%s is not a host address on %s", a,
			                     v->port[port].name);
	}
	return ERR(EINVAL, "%s is not on a connected subnet of %s", a, v->port[port].name);
}

/* --------------------------------------------------------- running state */

bool addr4_is_local(uint16_t vrf, uint32_t ip)
{
	return view_owner(addr4_running(), vrf, ip) >= 0;
}

bool addr4_is_bcast(uint16_t vrf, uint32_t ip)
{
	if (ip == 0) /* bcast_of's "none" */
		return false;
	for (int port = fwd_iface_next_id(-1); port >= 0; port = fwd_iface_next_id(port))
		for (unsigned i = 0; i < ip4_addrs[port].n && fwd_ifaces[port].vrf == vrf; i++)
			if (bcast_at(port, i) == ip)
				return true;
	return false;
}

bool addr4_on_port(uint16_t port, uint32_t ip)
{
	return view_port_of(addr4_running(), fwd_ifaces[port].vrf, ip, port) >= 0;
}

int addr4_port_of(uint16_t vrf, uint32_t ip)
{
	return view_port_of(addr4_running(), vrf, ip, -1);
}

uint32_t addr4_source(uint16_t port, uint32_t dst)
{
	const struct ip4_port_addrs *pa = &ip4_addrs[port];

	for (unsigned i = 0; i < pa->n; i++)
		if (fwd_ip4_in_prefix(dst, &pa->a[i]))
			return pa->a[i].addr;
	return pa->n > 0 ? pa->a[0].addr : 0;
}

/* Does any address of VRF vrf still need subnet s? Clears *bcast if it is
 * still someone's there. */
static bool subnet_in_use(uint16_t vrf, const struct fwd_ip4_prefix *s, uint32_t *bcast)
{
	bool used = false;

	for (int port = fwd_iface_next_id(-1); port >= 0; port = fwd_iface_next_id(port))
		for (unsigned i = 0; i < ip4_addrs[port].n && fwd_ifaces[port].vrf == vrf; i++) {
			struct fwd_ip4_prefix o = subnet_of(&ip4_addrs[port].a[i]);
			if (same_prefix(&o, s) && !fwd_iface_is_loopback(port))
				used = true;
			if (*bcast != 0 && bcast_at(port, i) == *bcast)
				*bcast = 0; /* still someone's broadcast: keep it */
		}
	return used;
}

void ip4_src_watch_sync(void)
{
	static uint64_t want[(1u << 16) / 64];

	memset(want, 0, sizeof(want));
	for (int port = fwd_iface_next_id(-1); port >= 0; port = fwd_iface_next_id(port))
		for (unsigned i = 0; i < ip4_addrs[port].n; i++) {
			uint32_t own[2] = { ip4_addrs[port].a[i].addr, bcast_at(port, i) };
			for (unsigned k = 0; k < 2; k++) {
				unsigned x = ip4_src_watch_idx(rte_cpu_to_be_32(own[k]));
				if (own[k] != 0)
					want[x / 64] |= UINT64_C(1) << (x % 64);
			}
		}
	/* single byte stores: a worker sees the old mark or the new one */
	for (unsigned x = 0; x < (1u << 16); x++) {
		uint8_t v = ip4_src_watch[x] & ~IP4_WATCH_OWN;
		if (want[x / 64] >> (x % 64) & 1)
			v |= IP4_WATCH_OWN;
		if (v != ip4_src_watch[x])
			__atomic_store_n(&ip4_src_watch[x], v, __ATOMIC_RELAXED);
	}
}

static const struct addr4_route_hooks *route_hooks;

void addr4_set_route_hooks(const struct addr4_route_hooks *h)
{
	route_hooks = h;
}

/* Take address i off port's list and out of the FIB. */
static void addr_remove(uint16_t port, unsigned i)
{
	struct ip4_port_addrs *pa = &ip4_addrs[port];
	struct fwd_ip4_prefix p = pa->a[i], s = subnet_of(&p);
	uint32_t bcast = bcast_at(port, i);
	bool lo = fwd_iface_is_loopback(port);
	uint16_t vrf = fwd_ifaces[port].vrf;

	memmove(&pa->a[i], &pa->a[i + 1], (pa->n - i - 1) * sizeof(pa->a[0]));
	memmove(&pa->origin[i], &pa->origin[i + 1], (pa->n - i - 1) * sizeof(pa->origin[0]));
	pa->n--;
	rib4_clear_local(&ip4_ribs[vrf], p.addr);
	if (!subnet_in_use(vrf, &s, &bcast) && !lo && route_hooks != NULL)
		route_hooks->connected_del(&s, port);
	if (bcast != 0)
		rib4_clear_local(&ip4_ribs[vrf], bcast);
	ip4_src_watch_sync();
}

int addr4_add(uint16_t port, const struct fwd_ip4_prefix *p, uint8_t origin, char *err,
              size_t errlen)
{
	struct ip4_port_addrs *pa = &ip4_addrs[port];
	struct fwd_ip4_prefix s = subnet_of(p);
	bool lo = fwd_iface_is_loopback(port);
	uint32_t bcast = lo ? 0 : bcast_of(p);
	int rc = addr4_rule_add(addr4_running(), port, p, err, errlen);

	if (rc < 0)
		return rc;
	pa->a[pa->n] = *p;
	pa->origin[pa->n++] = origin;
	if ((rc = rib4_set_local(&ip4_ribs[fwd_ifaces[port].vrf], p->addr)) < 0 ||
	    (bcast != 0 && (rc = rib4_set_local(&ip4_ribs[fwd_ifaces[port].vrf], bcast)) < 0) ||
	    (!lo && route_hooks != NULL && (rc = route_hooks->connected_add(&s, port)) < 0)) {
		addr_remove(port, pa->n - 1); /* leave no half-added address behind */
		return ERR(-rc, "FIB: %s", strerror(-rc));
	}
	ip4_src_watch_sync();
	if (!lo)
		(void)arp_announce(port, p->addr); /* one gratuitous ARP; nothing while down */
	if (fwd_event_wanted(FWD_EVENT_ADDR)) {
		char buf[FWD_PREFIX4_STRLEN];
		fwd_event_addr("add", fwd_iface_name(port), fwd_ip4_prefix_fmt(p, buf), origin);
	}
	return 0;
}

static void cascade(void)
{
	if (route_hooks != NULL)
		route_hooks->prune();
	neigh_addresses_changed();
}

int addr4_del(uint16_t port, const struct fwd_ip4_prefix *p, char *err, size_t errlen)
{
	struct ip4_port_addrs *pa = &ip4_addrs[port];
	char buf[FWD_PREFIX4_STRLEN];
	unsigned i;

	for (i = 0; i < pa->n; i++)
		if (same_prefix(&pa->a[i], p))
			break;
	if (i == pa->n)
		return ERR(ESRCH, "no address %s on %s", fwd_ip4_prefix_fmt(p, buf),
		           fwd_iface_name(port));
	if (fwd_event_wanted(FWD_EVENT_ADDR))
		fwd_event_addr("del", fwd_iface_name(port), fwd_ip4_prefix_fmt(p, buf),
		               pa->origin[i]);
	addr_remove(port, i);
	if (batch_depth == 0)
		cascade();
	return 0;
}

void addr4_reorder(uint16_t port, const struct fwd_ip4_prefix *want, const uint8_t *origin,
                   unsigned n)
{
	struct ip4_port_addrs *pa = &ip4_addrs[port];

	if (n != pa->n)
		return; /* not the same set: nothing to reorder */
	for (unsigned i = 0; i < n; i++) {
		unsigned k = 0;
		while (k < n && !same_prefix(&pa->a[k], &want[i]))
			k++;
		if (k == n)
			return;
	}
	for (unsigned i = 0; i < n; i++) {
		pa->a[i] = want[i];
		pa->origin[i] = origin[i];
	}
}

void addr4_batch_begin(void)
{
	batch_depth++;
}

void addr4_batch_end(void)
{
	if (batch_depth > 0 && --batch_depth == 0)
		cascade();
}

/* An interface goes (core/iface.h hook order 10), or a VLAN leaves l3 for a
 * bridge: its addresses with it, as Linux takes them with the device. */
static void iface_gone(const struct fwd_iface *ifp, enum fwd_iface_event ev)
{
	struct ip4_port_addrs *pa = &ip4_addrs[ifp->id];

	if (pa->n == 0 ||
	    (ev == FWD_IFACE_EV_CHANGE && (ifp->type != FWD_IFACE_VLAN || fwd_iface_is_l3(ifp))))
		return;
	while (pa->n > 0)
		addr_remove(ifp->id, pa->n - 1);
	if (batch_depth == 0)
		cascade();
}

RTE_INIT(addr4_hooks)
{
	fwd_iface_hook_add(FWD_IFACE_EV_DEL, 10, iface_gone);
	fwd_iface_hook_add(FWD_IFACE_EV_CHANGE, 10, iface_gone);
	fwd_iface_hook_add(FWD_IFACE_EV_VRF_LEAVE, 10, iface_gone);
}
