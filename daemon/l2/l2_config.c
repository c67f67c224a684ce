/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The config keys layer 2 owns, and their checks: bridges[], ports[].peer
 * (cross-connects) and ports[].bridge (bridge members). Applied at start-up
 * (l2/bridge_ctl.c) and on reload (l2/bridge_reload.c).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "core/config_schema.h"

#define CONF_PATH_MAX 48

typedef struct fwd_config C;
typedef struct fwd_conf_port P;
typedef struct fwd_conf_bridge B;

static const struct conf_field bridge_fields[] = {
	CONF_F("name", CONF_STR, B, name, .min = 1, .required = true, .valid = fwd_conf_valid_name),
	CONF_F("mac_aging_s", CONF_UINT, B, mac_aging_s, .min = 1, .max = 86400, .def = 300),
	CONF_F("fdb_max", CONF_UINT, B, fdb_max, .min = 16, .max = 1048576, .def = 16384),
	{ .key = NULL },
};

static const struct conf_field bridge_item = CONF_ITEM(B, bridge_fields);
static const struct conf_field bridges_row =
        CONF_LIST("bridges", C, bridges, n_bridges, bridge_item, 0, FWD_MAX_BRIDGES);
static const struct conf_field port_rows[] = {
	CONF_F("peer", CONF_STR, P, peer, .min = 1),
	CONF_F("bridge", CONF_STR, P, bridge, .min = 1),
	CONF_F("mac_max", CONF_UINT, P, mac_max, .min = 0, .max = 1048576, .def = 0),
};

/* "ports[i].key" (or "ports[i]") in buf. */
static const char *port_path(char buf[CONF_PATH_MAX], unsigned i, const char *key)
{
	snprintf(buf, CONF_PATH_MAX, "ports[%u]%s%s", i, key[0] ? "." : "", key);
	return buf;
}

static void check_xconnect(struct fwd_conf_checker *c, const struct fwd_config *cfg, unsigned i)
{
	const struct fwd_conf_port *p = &cfg->ports[i], *q;
	char at[CONF_PATH_MAX];
	int j;

	if (p->mode != FWD_MODE_XCONNECT) {
		if (p->peer[0])
			fwd_conf_error(c, port_path(at, i, "peer"),
			               "only xconnect ports have a peer (this port's mode is %s)",
			               fwd_port_mode_name(p->mode));
		return;
	}
	if (p->peer[0] == '\0') {
		fwd_conf_error(c, port_path(at, i, ""), "an xconnect port needs a 'peer'");
		return;
	}
	j = fwd_config_port_index(cfg, p->peer);
	port_path(at, i, "peer");
	q = j < 0 ? NULL : &cfg->ports[j];
	if (q == NULL)
		fwd_conf_error(c, at, "no such port '%s'", p->peer);
	else if (q == p)
		fwd_conf_error(c, at, "a port cannot be its own peer");
	else if (q->mode != FWD_MODE_XCONNECT)
		fwd_conf_error(c, at, "port '%s' is not an xconnect port", q->name);
	else if (strcmp(q->peer, p->name) != 0)
		fwd_conf_error(c, at, "cross-connects must be mutual, but the peer of '%s' is '%s'",
		               q->name, q->peer[0] ? q->peer : "(none)");
}

static void check_bridge_member(struct fwd_conf_checker *c, const struct fwd_config *cfg,
                                unsigned i)
{
	const struct fwd_conf_port *p = &cfg->ports[i];
	char at[CONF_PATH_MAX];

	if (p->mode != FWD_MODE_BRIDGE) {
		if (p->bridge[0])
			fwd_conf_error(c, port_path(at, i, "bridge"),
			               "only bridge ports join a bridge (this port's mode is %s)",
			               fwd_port_mode_name(p->mode));
		if (p->mac_max != 0)
			fwd_conf_error(c, port_path(at, i, "mac_max"),
			               "only bridge ports learn MACs (this port's mode is %s)",
			               fwd_port_mode_name(p->mode));
		return;
	}
	if (p->bridge[0] == '\0')
		fwd_conf_error(c, port_path(at, i, ""), "a bridge port needs a 'bridge'");
	else if (fwd_config_bridge(cfg, p->bridge) == NULL)
		fwd_conf_error(c, port_path(at, i, "bridge"), "no such bridge '%s'", p->bridge);
}

static void l2_config_check(struct fwd_conf_checker *c, const struct fwd_config *cfg)
{
	for (unsigned i = 0; i < cfg->n_ports; i++) {
		check_xconnect(c, cfg, i);
		check_bridge_member(c, cfg, i);
	}
	char at[CONF_PATH_MAX];

	for (unsigned i = 0; i < cfg->n_bridges; i++)
		for (unsigned j = 0; j < i; j++)
			if (strcmp(cfg->bridges[j].name, cfg->bridges[i].name) == 0) {
				snprintf(at, sizeof(at), "bridges[%u].name", i);
				fwd_conf_error(c, at,
				               "duplicate bridge name '%s' (first at line %u)",
				               cfg->bridges[i].name, cfg->bridges[j].pos.line);
			}
}

RTE_INIT(l2_config_register)
{
	for (unsigned i = 0; i < RTE_DIM(port_rows); i++)
		fwd_config_schema_add("ports", &port_rows[i]);
	fwd_config_schema_add(NULL, &bridges_row);
	fwd_config_register_check(l2_config_check);
}
