/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The config keys IPv6 owns: ports[].ra, dataplane.fib6_tbl8s and
 * dataplane.fib6_neigh_tbl8s (IPv6
 * addresses, routes and neighbours share the lists of ip4/ip4_schema.c:
 * each value says its family). Their checks are ip6_check.c.
 */
#include <stddef.h>

#include <rte_common.h>

#include "core/config_schema.h"

static const struct conf_field port_row =
        CONF_F("ra", CONF_BOOL, struct fwd_conf_port, ra, .def = false);

/* 1 KiB a group: the default is 64 MiB, about a 100,000-prefix table; and
 * 16 MiB for neighbours' /128s apart (a random one in a /64 takes about
 * six groups: some 2,700 of them; 0: they share the routes' groups) */
static const struct conf_field dataplane_rows[] = {
	CONF_F("fib6_tbl8s", CONF_UINT, struct fwd_config, dataplane.fib6_tbl8s, .min = 256,
	       .max = 4194304, .def = 65536),
	CONF_F("fib6_neigh_tbl8s", CONF_UINT, struct fwd_config, dataplane.fib6_neigh_tbl8s,
	       .min = 0, .max = 4194304, .def = 16384),
};

RTE_INIT(ip6_schema_register)
{
	fwd_config_schema_add("ports", &port_row);
	for (unsigned i = 0; i < RTE_DIM(dataplane_rows); i++)
		fwd_config_schema_add("dataplane", &dataplane_rows[i]);
}
