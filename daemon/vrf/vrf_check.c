/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The checks of the VRF keys (fwd.yaml(5)): vrfs[] names and tables, the
 * `vrf:` of ports, and routes' `vrf` and `next_vrf`. interfaces[].vrf is
 * checked by iface/ with vrf_conf_check_ref; addresses overlapping inside a
 * VRF by the address rules of each family.
 */
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "vrf/vrf_config.h"

#define AT_MAX 48

void vrf_conf_check_ref(struct fwd_conf_checker *c, const struct fwd_config *cfg, const char *name,
                        const char *at, bool l3)
{
	if (name[0] == '\0')
		return;
	if (!vrf_conf_known(cfg, name))
		fwd_conf_error(c, at, "no such VRF '%s'", name);
	else if (!l3 && !vrf_conf_is_default(name))
		fwd_conf_error(c, at,
		               "only l3 interfaces are in a VRF (a bridge member or "
		               "cross-connect is not routed)");
}

static void check_vrf(struct fwd_conf_checker *c, const struct vrf_conf *s, unsigned i)
{
	const struct fwd_conf_vrf *v = &s->vrfs[i];
	char at[AT_MAX];

	snprintf(at, sizeof(at), "vrfs[%u].name", i);
	if (strcmp(v->name, VRF_DEFAULT_NAME) == 0)
		fwd_conf_error(c, at,
		               "'default' is the VRF every interface is in unless told "
		               "otherwise (table 254): it is always there");
	for (unsigned j = 0; j < i; j++)
		if (strcmp(s->vrfs[j].name, v->name) == 0)
			fwd_conf_error(c, at, "duplicate VRF name '%s' (first at line %u)", v->name,
			               s->vrfs[j].pos.line);
	snprintf(at, sizeof(at), "vrfs[%u].table", i);
	if (v->table == VRF_DEFAULT_TABLE || v->table == 255)
		fwd_conf_error(c, at,
		               "table %u is reserved (254: the default VRF's, 255: the "
		               "kernel's local table)",
		               v->table);
	for (unsigned j = 0; j < i; j++)
		if (s->vrfs[j].table == v->table)
			fwd_conf_error(c, at, "table %u is VRF '%s''s already (line %u)", v->table,
			               s->vrfs[j].name, s->vrfs[j].pos.line);
}

/* The same VRF, written either way ("" and "default" are one)? */
static bool same_vrf(const char *a, const char *b)
{
	return (vrf_conf_is_default(a) && vrf_conf_is_default(b)) || strcmp(a, b) == 0;
}

static void check_route(struct fwd_conf_checker *c, const struct fwd_config *cfg, unsigned i)
{
	const struct fwd_conf_route *r = &cfg->routes[i];
	char at[AT_MAX];

	snprintf(at, sizeof(at), "routes[%u].vrf", i);
	vrf_conf_check_ref(c, cfg, r->vrf, at, true);
	if (r->next_vrf[0] == '\0')
		return;
	snprintf(at, sizeof(at), "routes[%u].next_vrf", i);
	if (!vrf_conf_known(cfg, r->next_vrf))
		fwd_conf_error(c, at, "no such VRF '%s'", r->next_vrf);
	else if (same_vrf(r->vrf, r->next_vrf))
		fwd_conf_error(c, at, "a route's next_vrf must be another VRF than its own");
	else if (r->n_via > 0 || r->dev[0] || r->blackhole || r->unreachable || r->prohibit)
		fwd_conf_error(c, at,
		               "a next_vrf route has no via, dev, blackhole, unreachable "
		               "or prohibit: the VRF it names decides");
}

static void vrf_config_check(struct fwd_conf_checker *c, const struct fwd_config *cfg)
{
	const struct vrf_conf *s = vrf_conf(cfg);
	char at[AT_MAX];

	for (unsigned i = 0; i < s->n; i++)
		check_vrf(c, s, i);
	for (unsigned i = 0; i < cfg->n_ports; i++) {
		snprintf(at, sizeof(at), "ports[%u].vrf", i);
		vrf_conf_check_ref(c, cfg, cfg->ports[i].vrf, at,
		                   cfg->ports[i].mode == FWD_MODE_L3);
	}
	for (unsigned i = 0; i < cfg->n_routes && !fwd_conf_full(c); i++)
		check_route(c, cfg, i);
}

RTE_INIT(vrf_check_register)
{
	fwd_config_register_check(vrf_config_check);
}
