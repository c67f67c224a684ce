/* SPDX-License-Identifier: BSD-3-Clause */
/* ports[].tap and control.vrf_backend: the config keys and their check
 * (cp/tap.c has the interfaces, cp/tap_vrf.c the VRFs' kernel side). */
#include <stdio.h>
#include <string.h>

#include <net/if.h>

#include <rte_common.h>

#include "core/config_schema.h"
#include "core/daemon.h"

static const struct conf_field port_row =
        CONF_F("tap", CONF_BOOL, struct fwd_conf_port, tap, .def = false);
static const char *const backend_names[] = { "vrf", "netns", NULL };
static const struct conf_field backend_row =
        CONF_F("vrf_backend", CONF_ENUM, struct fwd_config, control.vrf_backend,
               .names = backend_names, .def = 0);

static void tap_config_check(struct fwd_conf_checker *c, const struct fwd_config *cfg)
{
	char at[48];

	for (unsigned i = 0; i < cfg->n_ports; i++) {
		const struct fwd_conf_port *p = &cfg->ports[i];

		if (!p->tap)
			continue;
		snprintf(at, sizeof(at), "ports[%u].tap", i);
		if (p->mode != FWD_MODE_L3)
			fwd_conf_error(c, at, "only l3 ports have a kernel interface");
		else if (strlen(p->name) >= IFNAMSIZ || strchr(p->name, '/') != NULL ||
		         strcmp(p->name, ".") == 0 || strcmp(p->name, "..") == 0)
			fwd_conf_error(c, at,
			               "port name %s is not a kernel interface name (at most %d "
			               "characters, no '/')",
			               p->name, IFNAMSIZ - 1);
	}
}

RTE_INIT(tap_schema_register)
{
	fwd_config_schema_add("ports", &port_row);
	fwd_config_schema_add("control", &backend_row);
	fwd_config_register_check(tap_config_check);
}
