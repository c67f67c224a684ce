/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bonds[] (fwd.yaml(5), doc/architecture.md "Bonds"): its keys, the port
 * each bond adds to the config after decoding, and the checks: members are
 * ports of the file that keep only their device and queue keys, in one
 * bond at most; a bond's name is no port's.
 */
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "bond/bond_config.h"
#include "core/config_schema.h"

typedef struct bond_conf S;
typedef struct fwd_conf_bond B;

static const char *const hash_names[] = { "l2", "l23", "l34", NULL };
static const char *const rate_names[] = { "slow", "fast", NULL };

static const struct conf_field addr_elem = { .kind = CONF_ADDR, .size = sizeof(struct fwd_prefix) };
static const struct conf_field member_elem = {
	.kind = CONF_STR, .size = FWD_NAME_MAX, .min = 1, .valid = fwd_conf_valid_name
};

static const struct conf_field bond_fields[] = {
	CONF_F("name", CONF_STR, B, name, .min = 1, .required = true, .valid = fwd_conf_valid_name),
	CONF_LIST("members", B, members, n_members, member_elem, 1, FWD_BOND_MAX_MEMBER,
	          .required = true, .hint = "a bond needs at least one member port"),
	CONF_F("lacp", CONF_BOOL, B, lacp, .def = true),
	CONF_F("lacp_rate", CONF_ENUM, B, lacp_rate, .names = rate_names, .def = BOND_RATE_SLOW),
	CONF_F("hash", CONF_ENUM, B, hash, .names = hash_names, .def = BOND_HASH_L2),
	CONF_F("min_links", CONF_UINT, B, min_links, .min = 1, .max = FWD_BOND_MAX_MEMBER,
	       .def = 1),
	CONF_F("mode", CONF_ENUM, B, mode, .names = fwd_conf_mode_names, .def = FWD_MODE_L3),
	CONF_F("bridge", CONF_STR, B, bridge, .min = 1, .valid = fwd_conf_valid_name),
	CONF_F("mac_max", CONF_UINT, B, mac_max, .min = 0, .max = UINT32_MAX, .def = 0,
	       .quiet = true),
	CONF_F("mtu", CONF_UINT, B, mtu, .min = 68, .max = 9600, .def = 1500),
	CONF_LIST("addresses", B, addresses, n_addresses, addr_elem, 0, FWD_MAX_ADDRS,
	          .quiet = true),
	CONF_F("ra", CONF_BOOL, B, ra, .def = false, .quiet = true),
	CONF_F("rpf", CONF_ENUM, B, rpf, .names = fwd_conf_rpf_names, .def = FWD_RPF_OFF,
	       .quiet = true),
	CONF_F("tap", CONF_BOOL, B, tap, .def = false, .quiet = true),
	CONF_F("acl_in", CONF_STR, B, acl_in, .min = 1, .valid = fwd_conf_valid_name),
	CONF_F("acl_out", CONF_STR, B, acl_out, .min = 1, .valid = fwd_conf_valid_name),
	CONF_F("vrf", CONF_STR, B, vrf, .min = 1, .valid = fwd_conf_valid_name),
	{ .key = NULL },
};

static const struct conf_field bond_item = CONF_ITEM(B, bond_fields);
static const struct conf_field rows[] = {
	CONF_LIST("bonds", S, bonds, n, bond_item, 0, FWD_MAX_BONDS, .quiet = true),
	{ .key = NULL },
};

/* Everything but the positions in the file. */
static bool bond_conf_equal(const B *a, const B *b)
{
	return bond_conf_same_bond(a, b) && a->mode == b->mode &&
	       strcmp(a->bridge, b->bridge) == 0 && a->mac_max == b->mac_max && a->mtu == b->mtu &&
	       a->ra == b->ra && a->rpf == b->rpf && a->tap == b->tap &&
	       strcmp(a->acl_in, b->acl_in) == 0 && strcmp(a->acl_out, b->acl_out) == 0 &&
	       strcmp(a->vrf, b->vrf) == 0 &&
	       fwd_prefixes_eq(a->addresses, a->n_addresses, b->addresses, b->n_addresses);
}

static bool sect_equal(const void *x, const void *y)
{
	const S *a = x, *b = y;

	if (a->n != b->n)
		return false;
	for (unsigned i = 0; i < a->n; i++)
		if (!bond_conf_equal(&a->bonds[i], &b->bonds[i]))
			return false;
	return true;
}

static struct fwd_conf_section section = {
	.name = "bonds",
	.size = sizeof(S),
	.rows = rows,
	.equal = sect_equal,
};

const struct bond_conf *bond_conf(const struct fwd_config *cfg)
{
	return fwd_config_section(cfg, &section);
}

const struct fwd_conf_bond *bond_conf_find(const struct fwd_config *cfg, const char *name)
{
	const S *s = bond_conf(cfg);

	for (unsigned i = 0; i < s->n; i++)
		if (strcmp(s->bonds[i].name, name) == 0)
			return &s->bonds[i];
	return NULL;
}

const struct fwd_conf_bond *bond_conf_of_member(const struct fwd_config *cfg, const char *port)
{
	const S *s = bond_conf(cfg);

	for (unsigned i = 0; i < s->n; i++)
		for (unsigned j = 0; j < s->bonds[i].n_members; j++)
			if (strcmp(s->bonds[i].members[j], port) == 0)
				return &s->bonds[i];
	return NULL;
}

bool bond_conf_same_bond(const struct fwd_conf_bond *a, const struct fwd_conf_bond *b)
{
	bool same = strcmp(a->name, b->name) == 0 && a->n_members == b->n_members &&
	            a->lacp == b->lacp && a->lacp_rate == b->lacp_rate && a->hash == b->hash &&
	            a->min_links == b->min_links;

	for (unsigned j = 0; same && j < a->n_members; j++)
		same = strcmp(a->members[j], b->members[j]) == 0;
	return same;
}

const char *bond_hash_name(enum bond_hash h)
{
	return (unsigned)h < RTE_DIM(hash_names) - 1 ? hash_names[h] : "?";
}

/* The port of bond b: its port keys, no device. */
static void bond_port(const B *b, struct fwd_conf_port *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", b->name);
	p->mode = b->mode;
	snprintf(p->bridge, sizeof(p->bridge), "%s", b->bridge);
	p->mac_max = b->mac_max;
	p->mtu = b->mtu;
	p->n_addresses = b->n_addresses;
	memcpy(p->addresses, b->addresses, sizeof(p->addresses));
	p->ra = b->ra;
	p->rpf = b->rpf;
	p->tap = b->tap;
	snprintf(p->acl_in, sizeof(p->acl_in), "%s", b->acl_in);
	snprintf(p->acl_out, sizeof(p->acl_out), "%s", b->acl_out);
	snprintf(p->vrf, sizeof(p->vrf), "%s", b->vrf);
	p->bond = true;
	p->pos = b->pos;
}

/* 1 + the bond each derived port of the last load came from (by port
 * index), for the checks' messages; 0 for the file's ports. */
static unsigned derived_from[FWD_MAX_PORTS];

static bool bond_path_alias(const char *path, char *out, size_t len)
{
	unsigned k;
	int n = 0;

	if (sscanf(path, "ports[%u]%n", &k, &n) != 1 || n == 0 || k >= FWD_MAX_PORTS ||
	    derived_from[k] == 0)
		return false;
	snprintf(out, len, "bonds[%u]%s", derived_from[k] - 1, path + n);
	return true;
}

/* Each bond's port after the file's (a name a port has is left to the
 * checks), and its members at its MTU. */
static void bond_derive(struct fwd_conf_checker *c, struct fwd_config *cfg)
{
	const S *s = bond_conf(cfg);
	char a[48];

	memset(derived_from, 0, sizeof(derived_from));

	for (unsigned i = 0; i < s->n; i++) {
		const B *b = &s->bonds[i];

		if (fwd_config_port(cfg, b->name) != NULL)
			continue;
		if (cfg->n_ports == FWD_MAX_PORTS) {
			snprintf(a, sizeof(a), "bonds[%u]", i);
			fwd_conf_error(c, a, "ports and bonds together are more than %d",
			               FWD_MAX_PORTS);
			return;
		}
		derived_from[cfg->n_ports] = i + 1;
		bond_port(b, &cfg->ports[cfg->n_ports++]);
		for (unsigned j = 0; j < b->n_members; j++) {
			int k = fwd_config_port_index(cfg, b->members[j]);

			if (k >= 0 && j == 0)
				cfg->ports[cfg->n_ports - 1].mac_port = (uint8_t)k;
			if (k >= 0 && !cfg->ports[k].bond)
				cfg->ports[k].member = true;

			snprintf(a, sizeof(a), "ports[%d].mtu", k);
			/* an MTU of the member's own is left to the checks */
			if (k >= 0 && !cfg->ports[k].bond && !fwd_conf_given(c, a))
				cfg->ports[k].mtu = b->mtu;
		}
	}
}

/* The first key of member port p set to other than its default (the
 * bond's MTU for mtu: `config show` writes every port's), or NULL. */
static const char *member_key(const B *b, const struct fwd_conf_port *p)
{
	if (p->mode != FWD_MODE_L3)
		return "mode";
	if (p->peer[0] != '\0' || p->bridge[0] != '\0' || p->mac_max != 0)
		return p->peer[0] != '\0' ? "peer" : p->bridge[0] != '\0' ? "bridge" : "mac_max";
	if (p->mtu != b->mtu)
		return "mtu";
	if (p->n_addresses != 0)
		return "addresses";
	if (p->ra || p->rpf != FWD_RPF_OFF || p->tap)
		return p->ra ? "ra" : p->tap ? "tap" : "rpf";
	if (p->acl_in[0] != '\0' || p->acl_out[0] != '\0')
		return p->acl_in[0] != '\0' ? "acl_in" : "acl_out";
	if (p->vrf[0] != '\0')
		return "vrf";
	return NULL;
}

/* A member keeps its name, device and queue keys: the rest is its bond's. */
static void check_member_keys(struct fwd_conf_checker *c, const struct fwd_config *cfg, const B *b,
                              int k)
{
	const char *key = member_key(b, &cfg->ports[k]);
	char a[48];

	if (key == NULL)
		return;
	snprintf(a, sizeof(a), "ports[%d].%s", k, key);
	fwd_conf_error(c, a,
	               "port is a member of bond %s: a member keeps only its device and queue "
	               "keys, '%s' is the bond's",
	               b->name, key);
}

static void check_member(struct fwd_conf_checker *c, const struct fwd_config *cfg, unsigned i,
                         unsigned j)
{
	const S *s = bond_conf(cfg);
	const B *b = &s->bonds[i];
	int k = fwd_config_port_index(cfg, b->members[j]);
	char a[48];

	snprintf(a, sizeof(a), "bonds[%u].members[%u]", i, j);
	if (k < 0 || cfg->ports[k].bond) {
		fwd_conf_error(c, a, "'%s' is not a port of ports[]", b->members[j]);
		return;
	}
	for (unsigned i2 = 0; i2 <= i; i2++)
		for (unsigned j2 = 0; j2 < (i2 == i ? j : s->bonds[i2].n_members); j2++)
			if (strcmp(s->bonds[i2].members[j2], b->members[j]) == 0)
				fwd_conf_error(c, a, "port '%s' is already a member of bond %s",
				               b->members[j], s->bonds[i2].name);
	check_member_keys(c, cfg, b, k);
}

static void bond_check(struct fwd_conf_checker *c, const struct fwd_config *cfg)
{
	const S *s = bond_conf(cfg);
	char a[48];

	for (unsigned i = 0; i < s->n; i++) {
		const B *b = &s->bonds[i];
		const struct fwd_conf_port *p = fwd_config_port(cfg, b->name);

		snprintf(a, sizeof(a), "bonds[%u].name", i);
		if (p != NULL && !p->bond)
			fwd_conf_error(c, a, "'%s' is already the name of a port (line %u)",
			               b->name, p->pos.line);
		for (unsigned i2 = 0; i2 < i; i2++)
			if (strcmp(s->bonds[i2].name, b->name) == 0)
				fwd_conf_error(c, a, "duplicate bond name '%s' (first at line %u)",
				               b->name, s->bonds[i2].pos.line);
		for (unsigned j = 0; j < b->n_members; j++)
			check_member(c, cfg, i, j);
		snprintf(a, sizeof(a), "bonds[%u].min_links", i);
		if (b->min_links > b->n_members)
			fwd_conf_error(c, a, "%u is more than the bond's %u members", b->min_links,
			               b->n_members);
	}
}

RTE_INIT(bond_config_register)
{
	fwd_config_register_section(&section);
	fwd_config_register_derive(bond_derive);
	fwd_config_set_path_alias(bond_path_alias);
	fwd_config_register_check(bond_check);
}
