/* SPDX-License-Identifier: BSD-3-Clause */
/* Neighbour life cycle: tables and the timer tick before ip4, static entries after it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/control.h"
#include "core/daemon.h"
#include "core/log.h"
#include "core/module.h"
#include "neigh/neigh_priv.h"
#include "port/port.h"

#define NEIGH_TICK_MS 100 /* timer resolution: retries and probes are 1 s apart */

static struct event *tick_ev;

static void neigh_tick_cb(void *arg)
{
	(void)arg;
	neigh_tick();
}

static int neigh_init(const struct fwd_config *cfg)
{
	int rc = neigh_module_init(cfg->dataplane.nexthops, cfg->dataplane.neigh_timeout_s);

	if (rc < 0) {
		LOG(ERR, "neighbour table of %u entries: %s", cfg->dataplane.nexthops,
		    strerror(-rc));
		return rc;
	}
	neigh_set_max(cfg->dataplane.neigh_max);
	tick_ev = fwd_timer_every(NEIGH_TICK_MS * 1000, neigh_tick_cb, NULL);
	if (tick_ev == NULL)
		return -ENOMEM;
	return 0;
}

static void neigh_fini(void)
{
	fwd_timer_free(&tick_ev);
	neigh_module_fini();
}

/* Before ip4 (300), whose config routes take neighbour references. */
static struct fwd_module neigh_module = {
	.name = "neigh",
	.prio = 290,
	.init = neigh_init,
	.fini = neigh_fini,
};
FWD_MODULE(neigh_module);

/* After ip4: static neighbours need the port addresses. */
static int neigh_config_init(const struct fwd_config *cfg)
{
	char err[256], a[FWD_IP4_STRLEN];

	for (unsigned i = 0; i < cfg->n_neighs; i++) {
		const struct fwd_conf_neigh *cn = &cfg->neighs[i];
		struct fwd_port *p = fwd_port_by_name(cn->port);
		struct rte_ether_addr mac;
		int rc = -ENODEV;

		memcpy(mac.addr_bytes, cn->mac, RTE_ETHER_ADDR_LEN);
		if (p == NULL)
			snprintf(err, sizeof(err), "no such port: %s", cn->port);
		else
			rc = neigh_add_static(cn->address, p->idx, &mac, err, sizeof(err));
		if (rc < 0) {
			LOG(ERR, "neighbour %s: %s", fwd_ip4_fmt(cn->address, a), err);
			return rc;
		}
	}
	return 0;
}

static struct fwd_module neigh_config_module = {
	.name = "neigh-config",
	.prio = 310,
	.init = neigh_config_init,
};
FWD_MODULE(neigh_config_module);
