/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The config keys VRFs own: vrfs[] (a section of this module), ports[].vrf
 * (fwd.yaml(5)). interfaces[].vrf is iface/'s row, the same VRF_CONF_ROW;
 * routes[].vrf and next_vrf are in the routes' schema (ip4/ip4_schema.c).
 * Applied by vrf_ctl.c; checked by vrf_check.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "vrf/vrf_config.h"

typedef struct vrf_conf S;
typedef struct fwd_conf_vrf V;
typedef struct fwd_conf_port P;

static const struct conf_field vrf_fields[] = {
	CONF_F("name", CONF_STR, V, name, .min = 1, .required = true, .valid = vrf_conf_valid_name),
	CONF_F("table", CONF_UINT, V, table, .min = 1, .max = UINT32_MAX, .required = true,
	       .hint = "the kernel's routing table id, as FRR's `vrf` uses it"),
	{ .key = NULL },
};

static const struct conf_field vrf_item = CONF_ITEM(V, vrf_fields);
static const struct conf_field rows[] = {
	CONF_LIST("vrfs", S, vrfs, n, vrf_item, 0, VRF_CONF_MAX, .heap = true, .quiet = true),
	{ .key = NULL },
};
static const struct conf_field port_row = VRF_CONF_ROW(P, vrf);

const char *vrf_conf_valid_name(const char *s)
{
	const char *why = fwd_conf_valid_name(s);

	if (why == NULL && strlen(s) > VRF_NAME_LEN)
		return "a VRF's name has at most 15 characters (its kernel device takes it)";
	return why;
}

static void sect_free(void *s)
{
	free(((S *)s)->vrfs);
}

static int sect_copy(void *dst, const void *src)
{
	const S *a = src;
	S *b = dst;

	if (a->n == 0)
		return 0;
	b->vrfs = malloc(a->n * sizeof(*b->vrfs));
	if (b->vrfs == NULL)
		return -ENOMEM;
	memcpy(b->vrfs, a->vrfs, a->n * sizeof(*b->vrfs));
	b->n = a->n;
	return 0;
}

static bool sect_equal(const void *x, const void *y)
{
	const S *a = x, *b = y;

	if (a->n != b->n)
		return false;
	for (unsigned i = 0; i < a->n; i++)
		if (strcmp(a->vrfs[i].name, b->vrfs[i].name) != 0 ||
		    a->vrfs[i].table != b->vrfs[i].table)
			return false;
	return true;
}

static struct fwd_conf_section section = {
	.name = "vrfs",
	.size = sizeof(S),
	.rows = rows,
	.free = sect_free,
	.copy = sect_copy,
	.equal = sect_equal,
};

const struct vrf_conf *vrf_conf(const struct fwd_config *cfg)
{
	return fwd_config_section(cfg, &section);
}

const struct fwd_conf_vrf *vrf_conf_find(const struct fwd_config *cfg, const char *name)
{
	const S *s = vrf_conf(cfg);

	for (unsigned i = 0; i < s->n; i++)
		if (strcmp(s->vrfs[i].name, name) == 0)
			return &s->vrfs[i];
	return NULL;
}

bool vrf_conf_is_default(const char *name)
{
	return name[0] == '\0' || strcmp(name, VRF_DEFAULT_NAME) == 0;
}

bool vrf_conf_known(const struct fwd_config *cfg, const char *name)
{
	return vrf_conf_is_default(name) || vrf_conf_find(cfg, name) != NULL;
}

/* The config's VRF numbering the address views use (core/config.h). */
static int vrf_index(const struct fwd_config *cfg, const char *name)
{
	const V *v;

	if (vrf_conf_is_default(name))
		return 0;
	v = vrf_conf_find(cfg, name);
	return v != NULL ? (int)(v - vrf_conf(cfg)->vrfs) + 1 : -1;
}

RTE_INIT(vrf_config_register)
{
	fwd_config_schema_add("ports", &port_row);
	fwd_config_register_section(&section);
	fwd_config_set_vrf_index_fn(vrf_index);
}
