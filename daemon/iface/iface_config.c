/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The interfaces[] section: its struct lives here, not in core/config.h;
 * registered as a config section (core/config_section.c), so the loader,
 * `config show`, copies and frees handle it through the callbacks below.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "core/config_schema.h"
#include "iface/iface_config.h"
#include "vrf/vrf_config.h"

typedef struct iface_conf S;
typedef struct fwd_conf_iface I;

static const struct conf_field addr_elem = { .kind = CONF_ADDR, .size = sizeof(struct fwd_prefix) };

/* Every key but name is optional and left out of `config show` at its default. */
static const struct conf_field iface_fields[] = {
	CONF_F("name", CONF_STR, I, name, .min = 1, .required = true, .valid = fwd_conf_valid_name),
	CONF_F("loopback", CONF_BOOL, I, loopback, .def = false, .quiet = true),
	CONF_F("port", CONF_STR, I, port, .min = 1, .valid = fwd_conf_valid_name),
	CONF_F("vlan", CONF_UINT, I, vlan, .min = 1, .max = 4094, .def = 0, .quiet = true),
	CONF_F("mode", CONF_ENUM, I, mode, .names = fwd_conf_mode_names, .def = FWD_MODE_L3,
	       .quiet = true),
	CONF_F("bridge", CONF_STR, I, bridge, .min = 1, .valid = fwd_conf_valid_name),
	CONF_F("mtu", CONF_UINT, I, mtu, .min = 68, .max = 9600, .def = 0, .quiet = true),
	CONF_LIST("addresses", I, addresses, n_addresses, addr_elem, 0, FWD_MAX_ADDRS,
	          .quiet = true),
	CONF_F("tap", CONF_BOOL, I, tap, .def = false, .quiet = true),
	CONF_F("ra", CONF_BOOL, I, ra, .def = false, .quiet = true),
	CONF_F("rpf", CONF_ENUM, I, rpf, .names = fwd_conf_rpf_names, .def = FWD_RPF_OFF,
	       .quiet = true),
	CONF_F("acl_in", CONF_STR, I, acl_in, .min = 1, .valid = fwd_conf_valid_name),
	CONF_F("acl_out", CONF_STR, I, acl_out, .min = 1, .valid = fwd_conf_valid_name),
	VRF_CONF_ROW(I, vrf),
	{ .key = NULL },
};

static const struct conf_field iface_item = CONF_ITEM(I, iface_fields);
static const struct conf_field rows[] = {
	CONF_LIST("interfaces", S, ifaces, n, iface_item, 0, FWD_MAX_CONF_IFACES, .heap = true,
	          .quiet = true),
	{ .key = NULL },
};

static void sect_free(void *s)
{
	free(((S *)s)->ifaces);
}

static int sect_copy(void *dst, const void *src)
{
	const S *a = src;
	S *b = dst;

	if (a->n == 0)
		return 0;
	b->ifaces = malloc(a->n * sizeof(*b->ifaces));
	if (b->ifaces == NULL)
		return -ENOMEM;
	memcpy(b->ifaces, a->ifaces, a->n * sizeof(*b->ifaces));
	b->n = a->n;
	return 0;
}

bool iface_conf_equal(const struct fwd_conf_iface *a, const struct fwd_conf_iface *b)
{
	return strcmp(a->name, b->name) == 0 && a->loopback == b->loopback &&
	       strcmp(a->port, b->port) == 0 && a->vlan == b->vlan && a->mode == b->mode &&
	       strcmp(a->bridge, b->bridge) == 0 && a->mtu == b->mtu && a->tap == b->tap &&
	       a->ra == b->ra && a->rpf == b->rpf && strcmp(a->acl_in, b->acl_in) == 0 &&
	       strcmp(a->acl_out, b->acl_out) == 0 && strcmp(a->vrf, b->vrf) == 0 &&
	       fwd_prefixes_eq(a->addresses, a->n_addresses, b->addresses, b->n_addresses);
}

static bool sect_equal(const void *x, const void *y)
{
	const S *a = x, *b = y;

	if (a->n != b->n)
		return false;
	for (unsigned i = 0; i < a->n; i++)
		if (!iface_conf_equal(&a->ifaces[i], &b->ifaces[i]))
			return false;
	return true;
}

static struct fwd_conf_section section = {
	.name = "interfaces",
	.size = sizeof(S),
	.rows = rows,
	.free = sect_free,
	.copy = sect_copy,
	.equal = sect_equal,
};

const struct iface_conf *iface_conf(const struct fwd_config *cfg)
{
	return fwd_config_section(cfg, &section);
}

struct iface_conf *iface_conf_mut(struct fwd_config *cfg)
{
	return fwd_config_section(cfg, &section);
}

const struct fwd_conf_iface *iface_conf_find(const struct fwd_config *cfg, const char *name)
{
	const struct iface_conf *s = iface_conf(cfg);

	for (unsigned i = 0; i < s->n; i++)
		if (strcmp(s->ifaces[i].name, name) == 0)
			return &s->ifaces[i];
	return NULL;
}

uint16_t iface_conf_mtu(const struct fwd_config *cfg, const struct fwd_conf_iface *f)
{
	const struct fwd_conf_port *p = fwd_config_port(cfg, f->port);

	if (f->mtu != 0)
		return f->mtu;
	return p != NULL ? p->mtu : 1500;
}

RTE_INIT(iface_config_register)
{
	fwd_config_register_section(&section);
}
