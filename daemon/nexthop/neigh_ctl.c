/* SPDX-License-Identifier: BSD-3-Clause */
/* The next-hop layer's life cycle: the next-hop and neighbour tables, the
 * neighbour timers, RCU reclamation of released next hops; the neighbour
 * timeout and cap on reload. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_lcore.h>

#include "core/control.h"
#include "core/daemon.h"
#include "core/log.h"
#include "core/module.h"
#include "core/config_schema.h"
#include "core/reload.h"
#include "nexthop/neigh_priv.h"
#include "nexthop/nexthop.h"
#include "port/port.h"

#define NEIGH_TICK_MS 100 /* timer resolution: retries and probes are 1 s apart */

static struct event *tick_ev;

/* Neighbour timers, and released next hops whose grace period has ended. */
static void neigh_tick_cb(void *arg)
{
	(void)arg;
	neigh_tick();
	nh_reclaim();
}

static int neigh_init(const struct fwd_config *cfg)
{
	int rc = nh_init(cfg->dataplane.nexthops, (int)rte_socket_id());

	if (rc == 0)
		rc = neigh_module_init(cfg->dataplane.nexthops, cfg->dataplane.neigh_timeout_s);
	if (rc < 0) {
		LOG(ERR, "next-hop and neighbour tables of %u entries: %s", cfg->dataplane.nexthops,
		    strerror(-rc));
		nh_fini();
		return rc;
	}
	neigh_set_max(cfg->dataplane.neigh_max);
	neigh_unresolved_max = cfg->dataplane.neigh_unresolved_max;
	tick_ev = fwd_timer_every(NEIGH_TICK_MS * 1000, neigh_tick_cb, NULL);
	if (tick_ev == NULL)
		return -ENOMEM;
	return 0;
}

static void neigh_fini(void)
{
	fwd_timer_free(&tick_ev);
	neigh_module_fini();
	nh_fini();
}

static int neigh_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                              struct fwd_reload_log *log)
{
	(void)cur; /* the running values are the reference */
	if (neigh_reachable_ms != (uint64_t)next->dataplane.neigh_timeout_s * 1000) {
		fwd_reload_note(log, "neigh_timeout_s %u -> %u",
		                (unsigned)(neigh_reachable_ms / 1000),
		                next->dataplane.neigh_timeout_s);
		neigh_set_timeout(next->dataplane.neigh_timeout_s);
	}
	if (neigh_max != next->dataplane.neigh_max) {
		fwd_reload_note(log, "neigh_max %u -> %u", neigh_max, next->dataplane.neigh_max);
		neigh_set_max(next->dataplane.neigh_max);
	}
	if (neigh_unresolved_max != next->dataplane.neigh_unresolved_max) {
		fwd_reload_note(log, "neigh_unresolved_max %u -> %u", neigh_unresolved_max,
		                next->dataplane.neigh_unresolved_max);
		neigh_unresolved_max = next->dataplane.neigh_unresolved_max; /* new entries only */
	}
	return 0;
}

/* The static neighbours of both families as they run, for `config show`. */
static int neigh_running(struct fwd_config *run, uint64_t *omitted)
{
	struct neigh_static ns;
	uint32_t pos = 0;

	(void)omitted;
	while (neigh_static_next(&pos, &ns)) {
		struct fwd_conf_neigh *cn = fwd_config_add_neigh(run);

		if (cn == NULL)
			return -ENOMEM;
		cn->address = ns.addr;
		memcpy(cn->mac, ns.mac.addr_bytes, sizeof(cn->mac));
		snprintf(cn->port, sizeof(cn->port), "%s", fwd_iface_name(ns.port));
	}
	return 0;
}

/* Static neighbours come with the addresses they need (l3/l3_config.c). */
static struct fwd_module neigh_module = {
	.name = "nexthop",
	.depends_on = "punt",
	.init = neigh_init,
	.fini = neigh_fini,
	.reload_apply = neigh_reload_apply,
	.running = neigh_running,
};
FWD_MODULE(neigh_module);

/* The config keys the next-hop layer owns. */
static const struct conf_field dataplane_rows[] = {
	CONF_F("nexthops", CONF_UINT, struct fwd_config, dataplane.nexthops, .min = 1024,
	       .max = 4194304, .def = 65536),
	CONF_F("neigh_timeout_s", CONF_UINT, struct fwd_config, dataplane.neigh_timeout_s, .min = 1,
	       .max = 86400, .def = 300),
	/* unless written, at most half of nexthops (the loader derives it) */
	CONF_F("neigh_max", CONF_UINT, struct fwd_config, dataplane.neigh_max, .min = 1,
	       .max = 4194303, .def = 16384),
	CONF_F("neigh_unresolved_max", CONF_UINT, struct fwd_config, dataplane.neigh_unresolved_max,
	       .min = 2, .max = 1048576, .def = 1024),
};

RTE_INIT(nexthop_schema_register)
{
	for (unsigned i = 0; i < RTE_DIM(dataplane_rows); i++)
		fwd_config_schema_add("dataplane", &dataplane_rows[i]);
}
