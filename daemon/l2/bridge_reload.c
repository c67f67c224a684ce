/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Bridges across `config reload`. Live: mac_aging_s (the next aging pass
 * uses it), fdb_max (a larger one grows the table behind RCU; a smaller one
 * evicts the least recently seen entries beyond it, so the busiest hosts
 * stay), and bridges no port uses come and go. Membership is fixed while
 * workers run (their flood lists are read without synchronisation), so a
 * port joining, leaving or changing bridge is refused: it needs a restart.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/iface.h"
#include "core/reload.h"
#include "l2/bridge.h"
#include "port/port.h"

static int refuse(char *err, size_t errlen, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));

static int refuse(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -ENOTSUP;
}

static int check_port(const struct fwd_config *cur, const struct fwd_conf_port *pn, char *err,
                      size_t errlen)
{
	const struct fwd_conf_port *pc = fwd_config_port(cur, pn->name);
	bool was = pc != NULL && pc->mode == FWD_MODE_BRIDGE, is = pn->mode == FWD_MODE_BRIDGE;

	if (!was && !is)
		return 0;
	if (pc == NULL)
		return refuse(err, errlen, "port %s: adding a bridge port needs a restart",
		              pn->name);
	if (!is)
		return refuse(err, errlen, "port %s: leaving bridge %s needs a restart", pn->name,
		              pc->bridge);
	if (!was)
		return refuse(err, errlen, "port %s: joining bridge %s needs a restart", pn->name,
		              pn->bridge);
	if (strcmp(pc->bridge, pn->bridge) != 0)
		return refuse(err, errlen, "port %s: moving to bridge %s needs a restart", pn->name,
		              pn->bridge);
	return 0;
}

int bridge_reload_check(const struct fwd_config *cur, const struct fwd_config *next, char *err,
                        size_t errlen)
{
	int rc;

	for (unsigned i = 0; i < next->n_ports; i++)
		if ((rc = check_port(cur, &next->ports[i], err, errlen)) < 0)
			return rc;
	for (unsigned i = 0; i < cur->n_ports; i++)
		if (cur->ports[i].mode == FWD_MODE_BRIDGE &&
		    fwd_config_port(next, cur->ports[i].name) == NULL)
			return refuse(err, errlen,
			              "port %s: removing a bridge port needs a restart",
			              cur->ports[i].name);
	return 0;
}

static int bridge_update(struct bridge *b, const struct fwd_conf_bridge *cb,
                         struct fwd_reload_log *log)
{
	struct fdb *f = &b->fdb;
	uint32_t old = f->max;
	unsigned evicted;
	int rc;

	if (f->aging_s != cb->mac_aging_s) {
		fwd_reload_note(log, "bridge %s: mac_aging_s %u -> %u", b->name, f->aging_s,
		                cb->mac_aging_s);
		f->aging_s = cb->mac_aging_s;
	}
	if (f->max == cb->fdb_max)
		return 0;
	rc = fdb_set_max(f, cb->fdb_max, &evicted);
	if (rc < 0) {
		fwd_reload_fail(log, "bridge %s: fdb_max %u -> %u: out of memory, keeping %u",
		                b->name, f->max, cb->fdb_max, f->max);
		return rc;
	}
	if (evicted > 0)
		fwd_reload_note(
		        log, "bridge %s: fdb_max %u -> %u (%u least recently seen entries evicted)",
		        b->name, old, cb->fdb_max, evicted);
	else
		fwd_reload_note(log, "bridge %s: fdb_max %u -> %u", b->name, old, cb->fdb_max);
	return 0;
}

static int bridge_add(const struct fwd_conf_bridge *cb, struct fwd_reload_log *log)
{
	struct bridge *b = NULL;
	int rc;

	for (unsigned i = 0; i < FWD_MAX_BRIDGES && b == NULL; i++)
		if (!bridge_table[i].used)
			b = &bridge_table[i];
	if (b == NULL) { /* cannot happen: removed bridges freed their slots first */
		fwd_reload_fail(log, "bridge %s: no free bridge slot", cb->name);
		return -ENOSPC;
	}
	if ((rc = bridge_create(b, cb)) < 0) {
		fwd_reload_fail(log, "bridge %s: FDB of %u entries: out of memory", cb->name,
		                cb->fdb_max);
		return rc;
	}
	fwd_reload_note(log, "bridge %s added (mac_aging_s %u, fdb_max %u)", cb->name,
	                cb->mac_aging_s, cb->fdb_max);
	return 0;
}

static int remove_gone(const struct fwd_config *next, struct fwd_reload_log *log)
{
	int ret = 0;

	for (unsigned i = 0; i < FWD_MAX_BRIDGES; i++) {
		struct bridge *b = &bridge_table[i];
		if (!b->used || fwd_config_bridge(next, b->name) != NULL)
			continue;
		if (b->n_members != 0) { /* reload_check refused this */
			fwd_reload_fail(log, "bridge %s: has members, not removed", b->name);
			ret = -EBUSY;
			continue;
		}
		fwd_reload_note(log, "bridge %s removed", b->name);
		bridge_destroy(b);
	}
	return ret;
}

/* A member's ports[].mac_max, live: entries beyond a lower one stay until
 * they age out, but no new MAC is learned on the port meanwhile. */
static void port_mac_max(struct fdb *f, unsigned p, const struct fwd_conf_port *cp,
                         struct fwd_reload_log *log)
{
	if (cp == NULL || f->port_max[p] == cp->mac_max)
		return;
	fwd_reload_note(log, "port %s: mac_max %u -> %u", cp->name, f->port_max[p], cp->mac_max);
	f->port_max[p] = cp->mac_max;
}

int bridge_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                        struct fwd_reload_log *log)
{
	int ret = remove_gone(next, log), rc;

	(void)cur; /* the running bridges are the reference: they are what exists */
	for (unsigned i = 0; i < next->n_bridges; i++) {
		const struct fwd_conf_bridge *cb = &next->bridges[i];
		struct bridge *b = bridge_by_name(cb->name);
		rc = b != NULL ? bridge_update(b, cb, log) : bridge_add(cb, log);
		if (rc < 0)
			ret = rc;
	}
	/* the port table names its bridge by index in the config about to run */
	for (unsigned p = 0; p < fwd_n_ports; p++) {
		const struct fwd_conf_bridge *cb;
		if (bridge_of_port[p] == NULL)
			continue;
		cb = fwd_config_bridge(next, bridge_of_port[p]->name);
		if (cb != NULL)
			fwd_ifaces[p].bridge = fwd_ports[p].bridge = (uint8_t)(cb - next->bridges);
		port_mac_max(&bridge_of_port[p]->fdb, p, fwd_config_port(next, fwd_ports[p].name),
		             log);
	}
	return ret;
}
