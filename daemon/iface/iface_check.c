/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The checks of interfaces[] (fwd.yaml(5)): names (unique among ports,
 * bridges and interfaces, at most 15 characters), a VLAN's port, number and
 * MTU, the keys a loopback has no use for, the mode's keys, and addresses
 * (iface_check_addr.c) by the rules of ports' (ip4/addr.h, ip6/addr6.h):
 * no address twice, no subnet on two interfaces; the VRF (vrf/).
 */
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "acl/acl_config.h"
#include "iface/iface_priv.h"
#include "vrf/vrf_config.h"

#define AT_MAX 64

/* "interfaces[i].key" (or "interfaces[i]") in buf. */
static const char *at(char buf[AT_MAX], unsigned i, const char *key)
{
	snprintf(buf, AT_MAX, "interfaces[%u]%s%s", i, key[0] ? "." : "", key);
	return buf;
}

static void check_name(struct fwd_conf_checker *c, const struct fwd_config *cfg,
                       const struct iface_conf *s, unsigned i)
{
	const struct fwd_conf_iface *f = &s->ifaces[i];
	const struct fwd_conf_port *p = fwd_config_port(cfg, f->name);
	const struct fwd_conf_bridge *b = fwd_config_bridge(cfg, f->name);
	char a[AT_MAX];

	at(a, i, "name");
	if (strlen(f->name) > FWD_IFNAME_LEN)
		fwd_conf_error(c, a,
		               "'%s' is longer than %d characters (the control plane's kernel "
		               "interface takes the same name)",
		               f->name, FWD_IFNAME_LEN);
	if (p != NULL)
		fwd_conf_error(c, a, "'%s' is already the name of a port (line %u)", f->name,
		               p->pos.line);
	if (b != NULL)
		fwd_conf_error(c, a, "'%s' is already the name of a bridge (line %u)", f->name,
		               b->pos.line);
	for (unsigned j = 0; j < i; j++)
		if (strcmp(s->ifaces[j].name, f->name) == 0)
			fwd_conf_error(c, a, "duplicate interface name '%s' (first at line %u)",
			               f->name, s->ifaces[j].pos.line);
}

/* A loopback has addresses and maybe a tap, nothing that needs a link. */
static void check_loopback(struct fwd_conf_checker *c, unsigned i)
{
	static const char *const keys[] = { "port", "vlan", "mode",   "bridge", "mtu",
		                            "ra",   "rpf",  "acl_in", "acl_out" };
	char a[AT_MAX];

	for (unsigned k = 0; k < RTE_DIM(keys); k++)
		if (fwd_conf_given(c, at(a, i, keys[k])))
			fwd_conf_error(c, a,
			               "a loopback has no '%s' (it has no port and no link: "
			               "only addresses and tap)",
			               keys[k]);
}

static void check_vlan_port(struct fwd_conf_checker *c, const struct fwd_config *cfg,
                            const struct iface_conf *s, unsigned i)
{
	const struct fwd_conf_iface *f = &s->ifaces[i];
	const struct fwd_conf_port *p = fwd_config_port(cfg, f->port);
	char a[AT_MAX];

	if (f->port[0] == '\0' || f->vlan == 0) {
		fwd_conf_error(c, at(a, i, ""),
		               "a VLAN interface needs a 'port' and a 'vlan' (1-4094); a loopback "
		               "says 'loopback: true'");
		return;
	}
	if (p == NULL) {
		fwd_conf_error(c, at(a, i, "port"), "no such port '%s'", f->port);
		return;
	}
	if (p->mode == FWD_MODE_XCONNECT)
		fwd_conf_error(c, at(a, i, "port"),
		               "port '%s' is an xconnect port: all its frames go to its peer",
		               p->name);
	for (unsigned j = 0; j < i; j++)
		if (s->ifaces[j].vlan == f->vlan && strcmp(s->ifaces[j].port, f->port) == 0)
			fwd_conf_error(c, at(a, i, "vlan"),
			               "VLAN %u of port %s is already interface '%s' (line %u)",
			               f->vlan, f->port, s->ifaces[j].name, s->ifaces[j].pos.line);
	if (f->mtu > p->mtu)
		fwd_conf_error(c, at(a, i, "mtu"),
		               "%u is above the MTU of port %s (%u), which carries it (the tag "
		               "does not count)",
		               f->mtu, p->name, p->mtu);
}

static void check_mode(struct fwd_conf_checker *c, const struct fwd_config *cfg,
                       const struct fwd_conf_iface *f, unsigned i)
{
	static const char *const l3_keys[] = { "addresses", "ra", "rpf", "acl_in", "acl_out" };
	const char *mode = fwd_port_mode_name(f->mode);
	char a[AT_MAX];

	if (f->mode == FWD_MODE_XCONNECT)
		fwd_conf_error(c, at(a, i, "mode"), "a VLAN interface is l3 or bridge");
	if (f->mode == FWD_MODE_BRIDGE && f->bridge[0] == '\0')
		fwd_conf_error(c, at(a, i, ""), "a bridge interface needs a 'bridge'");
	else if (f->mode == FWD_MODE_BRIDGE && fwd_config_bridge(cfg, f->bridge) == NULL)
		fwd_conf_error(c, at(a, i, "bridge"), "no such bridge '%s'", f->bridge);
	else if (f->mode != FWD_MODE_BRIDGE && f->bridge[0] != '\0')
		fwd_conf_error(c, at(a, i, "bridge"),
		               "only bridge interfaces join a bridge (this one's mode is %s)",
		               mode);
	for (unsigned k = 0; f->mode != FWD_MODE_L3 && k < RTE_DIM(l3_keys); k++)
		if (fwd_conf_given(c, at(a, i, l3_keys[k])))
			fwd_conf_error(c, a, "only l3 interfaces have '%s' (this one's mode is %s)",
			               l3_keys[k], mode);
}

static void check_acls(struct fwd_conf_checker *c, const struct fwd_config *cfg,
                       const struct fwd_conf_iface *f, unsigned i)
{
	char a[AT_MAX];

	if (f->acl_in[0] && fwd_config_acl(cfg, f->acl_in) == NULL)
		fwd_conf_error(c, at(a, i, "acl_in"), "no such ACL '%s'", f->acl_in);
	if (f->acl_out[0] && fwd_config_acl(cfg, f->acl_out) == NULL)
		fwd_conf_error(c, at(a, i, "acl_out"), "no such ACL '%s'", f->acl_out);
}

static void iface_config_check(struct fwd_conf_checker *c, const struct fwd_config *cfg)
{
	const struct iface_conf *s = iface_conf(cfg);
	char a[AT_MAX];

	for (unsigned i = 0; i < s->n && !fwd_conf_full(c); i++) {
		const struct fwd_conf_iface *f = &s->ifaces[i];

		check_name(c, cfg, s, i);
		if (f->loopback) {
			check_loopback(c, i);
		} else {
			check_vlan_port(c, cfg, s, i);
			check_mode(c, cfg, f, i);
		}
		check_acls(c, cfg, f, i);
		vrf_conf_check_ref(c, cfg, f->vrf, at(a, i, "vrf"),
		                   f->loopback || f->mode == FWD_MODE_L3);
	}
	iface_check_addresses(c, cfg);
}

RTE_INIT(iface_check_register)
{
	fwd_config_register_check(iface_config_check);
}
