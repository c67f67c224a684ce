/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4 life cycle: FIB, next hops and RIB; addresses and routes from the config. */
#include <errno.h>
#include <string.h>

#include <rte_lcore.h>

#include "core/control.h"
#include "core/daemon.h"
#include "core/log.h"
#include "core/module.h"
#include "ip4/addr.h"
#include "ip4/ip4.h"
#include "ip4/nh.h"
#include "ip4/route.h"
#include "port/port.h"

#define RECLAIM_MS 100

struct fib4 *ip4_fib;
struct rib4 ip4_rib;
static struct event *reclaim_ev;

static void ip4_reclaim(void *arg)
{
	(void)arg;
	fib4_reclaim(ip4_fib);
	nh4_reclaim();
}

int ip4_config_addresses(const struct fwd_config *cfg)
{
	char err[256];

	for (unsigned i = 0; i < cfg->n_ports; i++)
		for (unsigned j = 0; j < cfg->ports[i].n_addresses; j++) {
			int rc = addr4_add((uint8_t)i, &cfg->ports[i].addresses[j], err,
			                   sizeof(err));
			if (rc < 0) {
				LOG(ERR, "port %s: address: %s", cfg->ports[i].name, err);
				return rc;
			}
		}
	return 0;
}

int ip4_config_route(const struct fwd_conf_route *cr, bool replace, char *err, size_t errlen)
{
	struct route4_req r = { .prefix = cr->prefix,
		                .blackhole = cr->blackhole,
		                .via = cr->via,
		                .dev = -1,
		                .origin = ROUTE4_ORIGIN_CONFIG,
		                .replace = replace };

	if (cr->dev[0] != '\0') {
		struct fwd_port *p = fwd_port_by_name(cr->dev);
		if (p == NULL) {
			snprintf(err, errlen, "no such port: %s", cr->dev);
			return -ENODEV;
		}
		r.dev = p->idx;
	}
	return route4_add(&r, err, errlen);
}

static int ip4_config_routes(const struct fwd_config *cfg)
{
	char err[256], buf[FWD_PREFIX4_STRLEN];

	for (unsigned i = 0; i < cfg->n_routes; i++) {
		int rc = ip4_config_route(&cfg->routes[i], false, err, sizeof(err));
		if (rc < 0) {
			LOG(ERR, "route %s: %s", fwd_ip4_prefix_fmt(&cfg->routes[i].prefix, buf),
			    err);
			return rc;
		}
	}
	return 0;
}

static int ip4_init(const struct fwd_config *cfg)
{
	int socket = (int)rte_socket_id(), rc;

	ip4_fib = fib4_create(cfg->dataplane.fib_tbl8s, fwd.rcu, socket);
	if (ip4_fib == NULL) {
		LOG(ERR, "FIB of %u tbl8 groups: out of memory (raise dpdk.memory_mb)",
		    cfg->dataplane.fib_tbl8s);
		return -ENOMEM;
	}
	rc = nh4_init(cfg->dataplane.nexthops, socket);
	if (rc < 0) {
		LOG(ERR, "next-hop table of %u entries: %s", cfg->dataplane.nexthops,
		    strerror(-rc));
		return rc;
	}
	rib4_init(&ip4_rib, ip4_fib);
	memset(ip4_addrs, 0, sizeof(ip4_addrs));
	reclaim_ev = fwd_timer_every(RECLAIM_MS * 1000, ip4_reclaim, NULL);
	if (reclaim_ev == NULL)
		return -ENOMEM;
	if ((rc = ip4_config_addresses(cfg)) < 0 || (rc = ip4_config_routes(cfg)) < 0)
		return rc;
	return 0;
}

static void ip4_fini(void)
{
	fwd_timer_free(&reclaim_ev);
	rib4_clear(&ip4_rib);
	fib4_free(ip4_fib);
	ip4_fib = NULL;
	nh4_fini();
	memset(ip4_addrs, 0, sizeof(ip4_addrs));
}

static struct fwd_module ip4_module = {
	.name = "ip4",
	.prio = 300,
	.init = ip4_init,
	.fini = ip4_fini,
};
FWD_MODULE(ip4_module);
