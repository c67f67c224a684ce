/* SPDX-License-Identifier: BSD-3-Clause */
/* The views of IPv6 addresses the rules run on, and the rules (ip6/addr6.h):
 * the running view over every interface id, a config's over its ports and
 * (through the hook of the module that owns them) its other interfaces. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "ip6/addr6.h"
#include "ip6/addr6_priv.h"
#include "ip6/ip6.h"
#include "port/port.h"

bool addr6_running_stale = true;

/* ~2.4 MB of BSS, touched only for the ids in use */
static struct addr6_view_port running_ports[FWD_MAX_IFACES];
static struct addr6_view running = { .port = running_ports };

/* ------------------------------------------------------------------ views */

/* The interfaces come, go and change mode without telling addresses: what
 * the view says of them is redone on every call, the addresses only when
 * they changed. */
static void view_fill(unsigned id, const char *name, bool l3, bool lo)
{
	const struct ip6_port_addrs *pa = &ip6_addrs[id];
	struct addr6_view_port *vp = &running_ports[id];

	vp->vrf = fwd_ifaces[id].vrf;
	vp->name = name;
	vp->l3 = l3;
	vp->lo = lo;
	vp->late = false;
	if (!addr6_running_stale)
		return;
	vp->n = pa->n > 1 ? pa->n - 1 : 0;
	memcpy(vp->a, &pa->a[1], vp->n * sizeof(vp->a[0]));
}

/* The configured (global) addresses of every interface, ports by the port
 * table (what tests and port/ set), the others by the interface table; a[0],
 * the link-local (a loopback's ::1), left out. */
const struct addr6_view *addr6_running(void)
{
	const struct fwd_iface *ifp;

	running.n_ports = fwd_n_ports;
	for (unsigned i = 0; i < FWD_MAX_PORTS; i++)
		view_fill(i, i < fwd_n_ports ? fwd_ports[i].name : "",
		          i < fwd_n_ports && fwd_ports[i].mode == FWD_MODE_L3, false);
	/* VLANs and loopbacks (their ids are set; a port's may not be in tests) */
	for (ifp = fwd_iface_next(FWD_MAX_PORTS - 1); ifp != NULL; ifp = fwd_iface_next(ifp->id)) {
		for (unsigned i = running.n_ports; i < ifp->id; i++) /* free ids between */
			view_fill(i, "", false, false);
		view_fill(ifp->id, ifp->name, fwd_iface_is_l3(ifp),
		          ifp->type == FWD_IFACE_LOOPBACK);
		running.n_ports = ifp->id + 1u;
	}
	addr6_running_stale = false;
	return &running;
}

static void (*config_view_hook)(struct addr6_view *v, const struct fwd_config *cfg);

void addr6_set_config_view_hook(void (*fn)(struct addr6_view *v, const struct fwd_config *cfg))
{
	config_view_hook = fn;
}

void addr6_view_put(struct addr6_view *v, unsigned id, const struct addr6_view_port *e,
                    const struct fwd_prefix *a, unsigned n)
{
	struct addr6_view_port *vp = &v->port[id];

	for (unsigned i = v->n_ports; i < id; i++) {
		v->port[i].name = "";
		v->port[i].l3 = v->port[i].lo = v->port[i].late = false;
		v->port[i].vrf = FWD_VRF_DEFAULT;
		v->port[i].n = 0;
	}
	if (id >= v->n_ports)
		v->n_ports = id + 1;
	vp->name = e->name;
	vp->l3 = e->l3;
	vp->lo = e->lo;
	vp->late = e->late;
	vp->vrf = e->vrf;
	vp->n = 0;
	for (unsigned k = 0; k < n && vp->n < FWD_MAX_ADDRS; k++)
		if (a[k].family == AF_INET6)
			vp->a[vp->n++] = fwd_prefix_v6(&a[k]);
}

int addr6_view_index(const struct addr6_view *v, const char *name)
{
	for (unsigned i = 0; i < v->n_ports; i++)
		if (v->port[i].name != NULL && strcmp(v->port[i].name, name) == 0)
			return (int)i;
	return -1;
}

void addr6_view_config(struct addr6_view *v, const struct fwd_config *cfg)
{
	v->port = v->ports;
	v->n_ports = 0;
	for (unsigned i = 0; i < cfg->n_ports; i++) {
		const struct fwd_conf_port *p = &cfg->ports[i];
		int vrf = fwd_config_vrf_index(cfg, p->vrf); /* the file's numbering */
		struct addr6_view_port e = { .name = p->name,
			                     .l3 = p->mode == FWD_MODE_L3,
			                     .vrf = vrf > 0 ? (uint16_t)vrf : 0 };

		addr6_view_put(v, i, &e, p->addresses, p->n_addresses);
	}
	if (config_view_hook != NULL)
		config_view_hook(v, cfg);
}

/* What a rule's message calls entry id of a view. */
static const char *kind(int id)
{
	return id < FWD_MAX_PORTS ? "port" : "interface";
}

/* The interface holding address ip itself (global ones, not a late one's
 * when early; link-local ones of the running ports too), or -1. */
static int view_owner_of(const struct addr6_view *v, uint16_t vrf, const uint8_t ip[16], bool early)
{
	for (unsigned i = 0; i < v->n_ports; i++)
		for (unsigned k = 0;
		     k < v->port[i].n && !(early && v->port[i].late) && v->port[i].vrf == vrf; k++)
			if (memcmp(v->port[i].a[k].addr, ip, 16) == 0)
				return (int)i;
	if (ip6_is_linklocal(ip))
		for (unsigned i = 0; i < fwd_n_ports && i < v->n_ports; i++)
			if (ip6_addrs[i].n > 0 && memcmp(ip6_addrs[i].a[0].addr, ip, 16) == 0 &&
			    v->port[i].vrf == vrf)
				return (int)i;
	return -1;
}

static int view_owner(const struct addr6_view *v, uint16_t vrf, const uint8_t ip[16])
{
	return view_owner_of(v, vrf, ip, false);
}

/* As view_owner, but an address DAD found a duplicate of (on the running
 * view) is the other host's: a gateway or a neighbour, not ours. */
static int view_user(const struct addr6_view *v, uint16_t vrf, const uint8_t ip[16])
{
	int o = view_owner(v, vrf, ip);

	if (o >= 0 && v == &running && addr6_state((uint16_t)o, ip) == ADDR6_DUPLICATE)
		return -1;
	return o;
}

/* The interface whose longest prefix holds ip (only `only` when >= 0; a
 * loopback's address, not its prefix), or -1. */
static int view_port_of(const struct addr6_view *v, uint16_t vrf, const uint8_t ip[16], int only)
{
	int best = -1, best_len = -1;

	for (unsigned i = 0; i < v->n_ports; i++) {
		if ((only >= 0 && (unsigned)only != i) || v->port[i].vrf != vrf)
			continue;
		for (unsigned k = 0; k < v->port[i].n; k++) {
			const struct fwd_ip6_prefix *a = &v->port[i].a[k];
			if (v->port[i].lo && memcmp(a->addr, ip, 16) != 0)
				continue;
			if (fwd_ip6_in_prefix(ip, a->addr, a->len) && a->len > best_len) {
				best = (int)i;
				best_len = a->len;
			}
		}
	}
	return best;
}

/* The interface of VRF vrf with prefix s connected (not a late one when
 * early), or -1. */
static int view_prefix_port(const struct addr6_view *v, uint16_t vrf,
                            const struct fwd_ip6_prefix *s, bool early)
{
	for (unsigned i = 0; i < v->n_ports; i++)
		for (unsigned k = 0; k < v->port[i].n && !v->port[i].lo &&
		                     !(early && v->port[i].late) && v->port[i].vrf == vrf;
		     k++) {
			struct fwd_ip6_prefix o = prefix_of(&v->port[i].a[k]);
			if (same_prefix(&o, s))
				return (int)i;
		}
	return -1;
}

/* ------------------------------------------------------------------ rules */

/* Why p cannot be an interface address, or NULL. */
static const char *host_problem(const struct fwd_ip6_prefix *p)
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };
	struct fwd_ip6_prefix s = prefix_of(p);

	if (p->len == 0)
		return "is not usable on an interface (a /0)";
	if (ip6_is_multicast(p->addr) || ip6_is_unspecified(p->addr) || ip6_is_loopback(p->addr) ||
	    memcmp(p->addr, mapped, sizeof(mapped)) == 0)
		return "is not a unicast host address";
	if (ip6_is_linklocal(p->addr))
		return "is link-local (each port has its own, derived from its MAC)";
	if (p->len < 127 && memcmp(s.addr, p->addr, 16) == 0)
		return "is the subnet-router anycast address of its prefix (RFC 4291 2.6.1)";
	return NULL;
}

static int rule_l3(const struct addr6_view *v, unsigned port, char *err, size_t errlen)
{
	if (port >= v->n_ports)
		return ERR(ENODEV, "no such port");
	if (!v->port[port].l3)
		return ERR(EINVAL, "%s %s is not an l3 %s", kind((int)port), v->port[port].name,
		           kind((int)port));
	return 0;
}

int addr6_rule_add(const struct addr6_view *v, unsigned port, const struct fwd_ip6_prefix *p,
                   char *err, size_t errlen)
{
	struct fwd_ip6_prefix s = prefix_of(p);
	char buf[FWD_PREFIX_STRLEN];
	const char *why = host_problem(p);
	int rc = rule_l3(v, port, err, errlen), o;

	if (rc < 0)
		return rc;
	if (v->port[port].n >= FWD_MAX_ADDRS)
		return ERR(ENOSPC, "%s %s has %d IPv6 addresses already", kind((int)port),
		           v->port[port].name, FWD_MAX_ADDRS);
	if (why != NULL)
		return ERR(EINVAL, "%s %s", fwd_ip6_prefix_fmt(p, buf), why);
	if ((o = view_owner_of(v, v->port[port].vrf, p->addr, !v->port[port].late)) >= 0)
		return ERR(EEXIST, "address %s is already configured (on %s %s)",
		           fwd_ip6_fmt(p->addr, buf), kind(o), v->port[o].name);
	if ((o = view_prefix_port(v, v->port[port].vrf, &s, !v->port[port].late)) >= 0 &&
	    (unsigned)o != port)
		return ERR(EEXIST, "prefix %s is already connected on %s %s",
		           fwd_ip6_prefix_fmt(&s, buf), kind(o), v->port[o].name);
	return 0;
}

int addr6_rule_gateway(const struct addr6_view *v, uint16_t vrf, const uint8_t via[16], int dev,
                       unsigned *port, char *err, size_t errlen)
{
	char a[FWD_IP6_STRLEN];
	int rc, o;

	fwd_ip6_fmt(via, a);
	if (dev >= 0 && (rc = rule_l3(v, (unsigned)dev, err, errlen)) < 0)
		return rc;
	if (ip6_is_multicast(via) || ip6_is_unspecified(via) || ip6_is_loopback(via))
		return ERR(EINVAL, "gateway %s is not a unicast address", a);
	if (dev >= 0 && v->port[dev].vrf != vrf)
		return ERR(EINVAL, "%s %s is in another VRF", kind(dev), v->port[dev].name);
	if ((o = view_user(v, vrf, via)) >= 0)
		return ERR(EINVAL, "gateway %s is one of our own addresses (on %s %s)", a, kind(o),
		           v->port[o].name);
	if (ip6_is_linklocal(via)) {
		if (dev < 0)
			return ERR(EINVAL, "gateway %s is link-local: say which port (dev)", a);
		*port = (unsigned)dev;
		return 0;
	}
	o = view_port_of(v, vrf, via, dev);
	if (o < 0 && dev >= 0)
		return ERR(ENETUNREACH, "gateway %s is not on a connected prefix of %s", a,
		           v->port[dev].name);
	if (o < 0)
		return ERR(ENETUNREACH, "gateway %s is not on a connected prefix", a);
	*port = (unsigned)o;
	return 0;
}

int addr6_rule_route(const struct addr6_view *v, uint16_t vrf, const struct fwd_ip6_prefix *p,
                     char *err, size_t errlen)
{
	char buf[FWD_PREFIX_STRLEN];
	int o = view_prefix_port(v, vrf, p, false);

	if (o >= 0)
		return ERR(EEXIST,
		           "%s is the connected prefix of %s %s (change the address instead)",
		           fwd_ip6_prefix_fmt(p, buf), kind(o), v->port[o].name);
	return 0;
}

int addr6_rule_neigh(const struct addr6_view *v, unsigned port, const uint8_t ip[16],
                     const uint8_t *mac, char *err, size_t errlen)
{
	static const uint8_t zero[6];
	char a[FWD_IP6_STRLEN], m[FWD_MAC_STRLEN];
	int rc = rule_l3(v, port, err, errlen), o;

	fwd_ip6_fmt(ip, a);
	if (rc < 0)
		return rc;
	if (mac != NULL && ((mac[0] & 1) || memcmp(mac, zero, sizeof(zero)) == 0))
		return ERR(EINVAL, "%s is not a unicast MAC address", fwd_mac_fmt(mac, m));
	if (ip6_is_multicast(ip) || ip6_is_unspecified(ip) || ip6_is_loopback(ip))
		return ERR(EINVAL, "%s is not a unicast address", a);
	if ((o = view_user(v, v->port[port].vrf, ip)) >= 0)
		return ERR(EINVAL, "%s is one of our own addresses (on %s %s)", a, kind(o),
		           v->port[o].name);
	if (ip6_is_linklocal(ip) || view_port_of(v, v->port[port].vrf, ip, (int)port) >= 0)
		return 0;
	return ERR(EINVAL, "%s is not on a connected prefix of %s", a, v->port[port].name);
}

int addr6_port_of(uint16_t vrf, const uint8_t ip[16])
{
	return view_port_of(addr6_running(), vrf, ip, -1);
}

bool addr6_on_port(uint16_t port, const uint8_t ip[16])
{
	if ((port < FWD_MAX_PORTS && port >= fwd_n_ports) || port >= FWD_MAX_IFACES ||
	    ip6_addrs[port].n == 0)
		return false;
	return ip6_is_linklocal(ip) ||
	       view_port_of(addr6_running(), fwd_ifaces[port].vrf, ip, port) >= 0;
}
