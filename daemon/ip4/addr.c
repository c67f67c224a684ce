/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "ip4/addr.h"
#include "ip4/ip4.h"
#include "ip4/route.h"
#include "neigh/neigh.h"
#include "port/port.h"

#define ERR(code, ...) (snprintf(err, errlen, __VA_ARGS__), -(code))

struct ip4_port_addrs ip4_addrs[FWD_MAX_PORTS];

static struct fwd_ip4_prefix subnet_of(const struct fwd_ip4_prefix *p)
{
	return (struct fwd_ip4_prefix){ p->addr & fwd_ip4_mask(p->len), p->len };
}

/* Directed broadcast of p's subnet, or 0 for /31 and /32 (RFC 3021). */
static uint32_t bcast_of(const struct fwd_ip4_prefix *p)
{
	return p->len >= 31 ? 0 : p->addr | ~fwd_ip4_mask(p->len);
}

bool addr4_is_local(uint32_t ip)
{
	for (unsigned port = 0; port < fwd_n_ports; port++)
		for (unsigned i = 0; i < ip4_addrs[port].n; i++)
			if (ip4_addrs[port].a[i].addr == ip)
				return true;
	return false;
}

bool addr4_on_port(uint8_t port, uint32_t ip)
{
	const struct ip4_port_addrs *pa = &ip4_addrs[port];

	for (unsigned i = 0; i < pa->n; i++)
		if (fwd_ip4_in_prefix(ip, &pa->a[i]))
			return true;
	return false;
}

int addr4_port_of(uint32_t ip)
{
	int best = -1, best_len = -1;

	for (unsigned port = 0; port < fwd_n_ports; port++)
		for (unsigned i = 0; i < ip4_addrs[port].n; i++) {
			const struct fwd_ip4_prefix *a = &ip4_addrs[port].a[i];
			if (fwd_ip4_in_prefix(ip, a) && a->len > best_len) {
				best = (int)port;
				best_len = a->len;
			}
		}
	return best;
}

uint32_t addr4_source(uint8_t port, uint32_t dst)
{
	const struct ip4_port_addrs *pa = &ip4_addrs[port];

	for (unsigned i = 0; i < pa->n; i++)
		if (fwd_ip4_in_prefix(dst, &pa->a[i]))
			return pa->a[i].addr;
	return pa->n > 0 ? pa->a[0].addr : 0;
}

/* Does any address (other than skip) still need subnet s or broadcast b? */
static bool subnet_in_use(const struct fwd_ip4_prefix *s, uint32_t *bcast)
{
	bool used = false;

	for (unsigned port = 0; port < fwd_n_ports; port++)
		for (unsigned i = 0; i < ip4_addrs[port].n; i++) {
			struct fwd_ip4_prefix o = subnet_of(&ip4_addrs[port].a[i]);
			if (o.addr == s->addr && o.len == s->len)
				used = true;
			if (*bcast != 0 && bcast_of(&ip4_addrs[port].a[i]) == *bcast)
				*bcast = 0; /* still someone's broadcast: keep it */
		}
	return used;
}

static int addr4_check_new(uint8_t port, const struct fwd_ip4_prefix *p, char *err, size_t errlen)
{
	struct fwd_ip4_prefix s = subnet_of(p);
	char buf[FWD_PREFIX4_STRLEN];

	if (fwd_ports[port].mode != FWD_MODE_L3)
		return ERR(EINVAL, "port %s is not an l3 port", fwd_ports[port].name);
	if (ip4_addrs[port].n == FWD_MAX_ADDRS)
		return ERR(ENOSPC, "port %s has %d addresses already", fwd_ports[port].name,
		           FWD_MAX_ADDRS);
	if (p->len == 0 || (p->addr == s.addr && p->len < 31) || p->addr == bcast_of(p) ||
	    ip4_dst_class[p->addr >> 24] != IP4_UNICAST)
		return ERR(EINVAL, "%s is not a usable host address", fwd_ip4_prefix_fmt(p, buf));
	if (addr4_is_local(p->addr))
		return ERR(EEXIST, "address %s is already configured", fwd_ip4_fmt(p->addr, buf));
	for (unsigned o = 0; o < fwd_n_ports; o++) {
		if (o == port)
			continue;
		for (unsigned i = 0; i < ip4_addrs[o].n; i++) {
			struct fwd_ip4_prefix os = subnet_of(&ip4_addrs[o].a[i]);
			if (os.addr == s.addr && os.len == s.len)
				return ERR(EEXIST, "subnet %s is already connected on port %s",
				           fwd_ip4_prefix_fmt(&s, buf), fwd_ports[o].name);
		}
	}
	return 0;
}

int addr4_add(uint8_t port, const struct fwd_ip4_prefix *p, char *err, size_t errlen)
{
	struct fwd_ip4_prefix s = subnet_of(p);
	uint32_t bcast = bcast_of(p);
	int rc = addr4_check_new(port, p, err, errlen);

	if (rc < 0)
		return rc;
	if ((rc = rib4_set_local(&ip4_rib, p->addr)) < 0 ||
	    (bcast != 0 && (rc = rib4_set_local(&ip4_rib, bcast)) < 0) ||
	    (rc = route4_connected_add(&s, port)) < 0) {
		/* leave no half-added address behind */
		ip4_addrs[port].a[ip4_addrs[port].n++] = *p;
		addr4_del(port, p, NULL, 0);
		return ERR(-rc, "FIB: %s", strerror(-rc));
	}
	ip4_addrs[port].a[ip4_addrs[port].n++] = *p;
	return 0;
}

int addr4_del(uint8_t port, const struct fwd_ip4_prefix *p, char *err, size_t errlen)
{
	struct ip4_port_addrs *pa = &ip4_addrs[port];
	struct fwd_ip4_prefix s = subnet_of(p);
	uint32_t bcast = bcast_of(p);
	char buf[FWD_PREFIX4_STRLEN];
	unsigned i;

	for (i = 0; i < pa->n; i++)
		if (pa->a[i].addr == p->addr && pa->a[i].len == p->len)
			break;
	if (i == pa->n)
		return err == NULL ? -ESRCH
		                   : ERR(ESRCH, "no address %s on %s", fwd_ip4_prefix_fmt(p, buf),
		                         fwd_ports[port].name);
	memmove(&pa->a[i], &pa->a[i + 1], (pa->n - i - 1) * sizeof(pa->a[0]));
	pa->n--;
	rib4_clear_local(&ip4_rib, p->addr);
	if (!subnet_in_use(&s, &bcast))
		route4_connected_del(&s);
	if (bcast != 0)
		rib4_clear_local(&ip4_rib, bcast);
	route4_prune_unreachable();
	neigh_port_changed(port);
	return 0;
}
