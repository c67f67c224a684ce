/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * interfaces[].addresses, checked by the rules ports follow (ip4/addr.h,
 * ip6/addr6.h) over the config's views, which this file extends with the
 * config's interfaces: interfaces[i] is entry FWD_MAX_PORTS + i, after the
 * ports ("late"), as start-up adds their addresses after the ports'. So an
 * address is configured once and a subnet connected on one interface only,
 * whether it is a port's, a VLAN's or a loopback's, and a route's gateway
 * or a neighbour on a VLAN's subnet is checked as on a port's.
 */
#include <stdio.h>
#include <stdlib.h>

#include <rte_common.h>

#include "iface/iface_priv.h"
#include "ip4/addr.h"
#include "ip6/addr6.h"

#define AT_MAX  64
#define WHY_MAX 200

static bool conf_l3(const struct fwd_conf_iface *f)
{
	return f->loopback || f->mode == FWD_MODE_L3;
}

/* f's VRF in the file's numbering (fwd_config_vrf_index; an unknown one is
 * vrf/'s to report) */
static uint16_t conf_vrf(const struct fwd_config *cfg, const struct fwd_conf_iface *f)
{
	int v = fwd_config_vrf_index(cfg, f->vrf);

	return v > 0 ? (uint16_t)v : 0;
}

static void view4_ifaces(struct addr4_view *v, const struct fwd_config *cfg)
{
	const struct iface_conf *s = iface_conf(cfg);

	for (unsigned i = 0; i < s->n && FWD_MAX_PORTS + i < FWD_MAX_IFACES; i++) {
		const struct fwd_conf_iface *f = &s->ifaces[i];
		struct addr4_view_port e = { .name = f->name,
			                     .l3 = conf_l3(f),
			                     .lo = f->loopback,
			                     .late = true,
			                     .vrf = conf_vrf(cfg, f) };

		addr4_view_put(v, FWD_MAX_PORTS + i, &e, f->addresses, f->n_addresses);
	}
}

static void view6_ifaces(struct addr6_view *v, const struct fwd_config *cfg)
{
	const struct iface_conf *s = iface_conf(cfg);

	for (unsigned i = 0; i < s->n && FWD_MAX_PORTS + i < FWD_MAX_IFACES; i++) {
		const struct fwd_conf_iface *f = &s->ifaces[i];
		struct addr6_view_port e = { .name = f->name,
			                     .l3 = conf_l3(f),
			                     .lo = f->loopback,
			                     .late = true,
			                     .vrf = conf_vrf(cfg, f) };

		addr6_view_put(v, FWD_MAX_PORTS + i, &e, f->addresses, f->n_addresses);
	}
}

/* Interface i's addresses, each against the ports', the interfaces' before
 * it and its own before it; then all of i's are seen by the next ones. */
static void check_one(struct fwd_conf_checker *c, const struct fwd_conf_iface *f, unsigned i,
                      struct addr4_view *v4, struct addr6_view *v6)
{
	unsigned id = FWD_MAX_PORTS + i, n4 = v4->port[id].n, n6 = v6->port[id].n;
	char at[AT_MAX], why[WHY_MAX];

	v4->port[id].n = v6->port[id].n = 0;
	for (unsigned k = 0; k < f->n_addresses; k++) {
		const struct fwd_prefix *a = &f->addresses[k];
		int rc;

		if (a->family == AF_INET) {
			rc = addr4_rule_add(v4, id, &v4->store[id][v4->port[id].n], why,
			                    sizeof(why));
			v4->port[id].n++;
		} else {
			rc = addr6_rule_add(v6, id, &v6->port[id].a[v6->port[id].n], why,
			                    sizeof(why));
			v6->port[id].n++;
		}
		if (rc < 0) {
			snprintf(at, sizeof(at), "interfaces[%u].addresses[%u]", i, k);
			fwd_conf_error(c, at, "%s", why);
		}
	}
	v4->port[id].n = n4;
	v6->port[id].n = n6;
}

void iface_check_addresses(struct fwd_conf_checker *c, const struct fwd_config *cfg)
{
	const struct iface_conf *s = iface_conf(cfg);
	struct addr4_view *v4 = malloc(sizeof(*v4));
	struct addr6_view *v6 = malloc(sizeof(*v6));
	unsigned n = RTE_MIN(s->n, (unsigned)(FWD_MAX_IFACES - FWD_MAX_PORTS));

	if (v4 == NULL || v6 == NULL) {
		fwd_conf_error(c, "", "out of memory");
		goto out;
	}
	addr4_view_config(v4, cfg);
	addr6_view_config(v6, cfg);
	/* as start-up adds them: the later interfaces not there yet */
	for (unsigned i = 0; i < n && !fwd_conf_full(c); i++) {
		v4->n_ports = v6->n_ports = FWD_MAX_PORTS + i + 1;
		if (conf_l3(&s->ifaces[i])) /* else check_mode says so */
			check_one(c, &s->ifaces[i], i, v4, v6);
	}
out:
	free(v4);
	free(v6);
}

RTE_INIT(iface_views_register)
{
	addr4_set_config_view_hook(view4_ifaces);
	addr6_set_config_view_hook(view6_ifaces);
}
