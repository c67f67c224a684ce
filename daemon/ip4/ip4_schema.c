/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The config keys IPv4 owns: ports[].addresses, routes[] (their vrf and
 * next_vrf are checked by vrf/), neighbors[] (the
 * IPv4 static neighbours), dataplane.fib_tbl8s and dataplane.icmp_rate.
 * Their checks are ip4/ip4_check.c, their apply l3/l3_config.c (both
 * families), their part of `config show` ip4/running.c.
 */
#include <stddef.h>

#include <rte_common.h>

#include "core/config_schema.h"

typedef struct fwd_config C;
typedef struct fwd_conf_port P;
typedef struct fwd_conf_route R;
typedef struct fwd_conf_neigh N;

static const struct conf_field port_address = { .kind = CONF_ADDR,
	                                        .size = sizeof(struct fwd_prefix) };

static const struct conf_field route_via = { .kind = CONF_IP, .size = sizeof(struct fwd_ip) };

static const struct conf_field route_fields[] = {
	CONF_F("prefix", CONF_NET, R, prefix, .required = true),
	CONF_LIST("via", R, via, n_via, route_via, 1, FWD_ECMP_MAX, .one_ok = true),
	CONF_F("dev", CONF_STR, R, dev, .min = 1),
	CONF_F("blackhole", CONF_BOOL, R, blackhole, .def = false, .quiet = true),
	CONF_F("unreachable", CONF_BOOL, R, unreachable, .def = false, .quiet = true),
	CONF_F("prohibit", CONF_BOOL, R, prohibit, .def = false, .quiet = true),
	/* checked by vrf/vrf_check.c */
	CONF_F("vrf", CONF_STR, R, vrf, .min = 1, .valid = fwd_conf_valid_name),
	CONF_F("next_vrf", CONF_STR, R, next_vrf, .min = 1, .valid = fwd_conf_valid_name),
	{ .key = NULL },
};

static const struct conf_field neigh_fields[] = {
	CONF_F("address", CONF_IP, N, address, .required = true),
	CONF_F("mac", CONF_MAC, N, mac, .required = true),
	CONF_F("port", CONF_STR, N, port, .min = 1, .required = true),
	{ .key = NULL },
};

static const struct conf_field route_item = CONF_ITEM(R, route_fields);
static const struct conf_field neigh_item = CONF_ITEM(N, neigh_fields);

static const struct conf_field rows[] = {
	CONF_LIST("routes", C, routes, n_routes, route_item, 0, FWD_MAX_CONF_ROUTES, .heap = true),
	CONF_LIST("neighbors", C, neighs, n_neighs, neigh_item, 0, FWD_MAX_CONF_NEIGHS,
	          .heap = true),
};

static const struct conf_field dataplane_rows[] = {
	CONF_F("fib_tbl8s", CONF_UINT, C, dataplane.fib_tbl8s, .min = 256, .max = 1048576,
	       .def = 32768),
	CONF_F("icmp_rate", CONF_UINT, C, dataplane.icmp_rate, .min = 0, .max = 100000, .def = 100),
};

static const struct conf_field port_row =
        CONF_LIST("addresses", P, addresses, n_addresses, port_address, 0, FWD_MAX_ADDRS);

RTE_INIT(ip4_schema_register)
{
	fwd_config_schema_add("ports", &port_row);
	for (unsigned i = 0; i < RTE_DIM(dataplane_rows); i++)
		fwd_config_schema_add("dataplane", &dataplane_rows[i]);
	for (unsigned i = 0; i < RTE_DIM(rows); i++)
		fwd_config_schema_add(NULL, &rows[i]);
}
