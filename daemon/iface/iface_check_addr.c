/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * interfaces[].addresses against every other address of the router, by the
 * rule ports follow (ip4/addr.c, ip6/addr6.c): an address is configured
 * once, and a subnet is connected on one interface only.
 */
#include <stdio.h>
#include <string.h>

#include "iface/iface_priv.h"

#define AT_MAX 64

static bool same_addr(const struct fwd_prefix *a, const struct fwd_prefix *b)
{
	if (a->family != b->family)
		return false;
	return a->family == AF_INET ? a->v4 == b->v4 : memcmp(a->v6, b->v6, 16) == 0;
}

static bool same_subnet(const struct fwd_prefix *a, const struct fwd_prefix *b)
{
	if (a->family != b->family || a->len != b->len)
		return false;
	if (a->family == AF_INET)
		return ((a->v4 ^ b->v4) & fwd_ip4_mask(a->len)) == 0;
	return fwd_ip6_in_prefix(a->v6, b->v6, a->len);
}

enum clash { NONE, SAME_ADDR, SAME_SUBNET };

/* Does a clash with p (of another interface when other)? */
static enum clash clash(const struct fwd_prefix *a, const struct fwd_prefix *p, bool other)
{
	if (same_addr(a, p))
		return SAME_ADDR;
	if (other && same_subnet(a, p))
		return SAME_SUBNET;
	return NONE;
}

static void report(struct fwd_conf_checker *c, const char *at, enum clash why,
                   const struct fwd_prefix *a, const char *kind, const char *name)
{
	char buf[FWD_PREFIX_STRLEN];

	fwd_prefix_fmt(a, buf);
	if (why == SAME_ADDR)
		fwd_conf_error(c, at, "address %s is already configured (on %s %s)", buf, kind,
		               name);
	else
		fwd_conf_error(c, at, "the subnet of %s is already connected on %s %s", buf, kind,
		               name);
}

/* The first clash of a with the ports' addresses and interfaces[0..i]'s
 * (interface i's own up to address k); reported, and true, when found. */
static bool clash_ports(struct fwd_conf_checker *c, const struct fwd_config *cfg,
                        const struct fwd_prefix *a, const char *at)
{
	for (unsigned p = 0; p < cfg->n_ports; p++)
		for (unsigned k = 0; k < cfg->ports[p].n_addresses; k++) {
			enum clash why = clash(a, &cfg->ports[p].addresses[k], true);

			if (why == NONE)
				continue;
			report(c, at, why, a, "port", cfg->ports[p].name);
			return true;
		}
	return false;
}

void iface_check_addresses(struct fwd_conf_checker *c, const struct fwd_config *cfg,
                           const struct iface_conf *s, unsigned i)
{
	const struct fwd_conf_iface *f = &s->ifaces[i];
	char at[AT_MAX], buf[FWD_PREFIX_STRLEN];

	for (unsigned k = 0; k < f->n_addresses; k++) {
		const struct fwd_prefix *a = &f->addresses[k];
		enum clash why = NONE;
		unsigned j = 0, m = 0;

		snprintf(at, sizeof(at), "interfaces[%u].addresses[%u]", i, k);
		if (a->len == 0) {
			fwd_conf_error(c, at, "%s is not usable on an interface (a /0)",
			               fwd_prefix_fmt(a, buf));
			continue;
		}
		if (clash_ports(c, cfg, a, at))
			continue;
		for (j = 0; j <= i && why == NONE; j++)
			for (m = 0; m < (j == i ? k : s->ifaces[j].n_addresses) && why == NONE; m++)
				why = clash(a, &s->ifaces[j].addresses[m], j != i);
		if (why != NONE)
			report(c, at, why, a, "interface", s->ifaces[j - 1].name);
	}
}
