/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How the config checks of routes and neighbours (ip4/ip4_check.c,
 * ip6/ip6_check.c) find an interfaces[] entry by name: its position, which
 * core turns into an index beside the ports' (fwd_config_iface_index).
 */
#include <rte_common.h>

#include "iface/iface_config.h"

static int iface_index(const struct fwd_config *cfg, const char *name)
{
	const struct fwd_conf_iface *f = iface_conf_find(cfg, name);

	return f != NULL ? (int)(f - iface_conf(cfg)->ifaces) : -1;
}

RTE_INIT(iface_index_register)
{
	fwd_config_set_iface_index_fn(iface_index);
}
