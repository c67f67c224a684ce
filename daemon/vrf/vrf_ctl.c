/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vrfs[] and ports[].vrf applied to the VRF registry (core/vrf.h) and the
 * ports' interfaces, at start-up and on every reload, before the modules
 * that put interfaces (iface/) and addresses and routes (l3/) in them:
 *
 *   1. a VRF gone from the file, or whose table changed, goes: what is
 *      still in it (an interface fwdctl moved there) goes back to default
 *      first, as Linux's slaves do when their VRF device is deleted;
 *   2. a VRF new in the file is made (its tables by ip4/ and ip6/ hooks);
 *   3. a port whose vrf changed moves (fwd_iface_set_vrf: its addresses,
 *      the routes through it and its neighbours leave the old VRF; l3's
 *      reconcile then puts the file's addresses back, in the new one).
 *
 * A later module's failure undoes 2 and 3 (the ports go back, the new VRFs
 * go); a VRF deleted by 1 is made again, empty of the routes it had.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/event.h"
#include "core/iface.h"
#include "core/log.h"
#include "core/module.h"
#include "core/reload.h"
#include "core/vrf.h"
#include "vrf/vrf.h"

static struct {
	unsigned n_added, n_moved, n_deleted;
	uint16_t added[FWD_MAX_VRFS];
	struct {
		uint16_t id, from;
	} moved[FWD_MAX_PORTS];
	struct fwd_vrf deleted[FWD_MAX_VRFS];
} undo;

int vrf_id_of(const char *name)
{
	return fwd_vrf_by_name(vrf_conf_is_default(name) ? VRF_DEFAULT_NAME : name);
}

void vrf_event(const char *action, uint16_t vrf, const char *iface)
{
	struct fwd_event *e = fwd_event_new(FWD_EVENT_VRF, action);

	if (e == NULL)
		return;
	snprintf(e->vrf, sizeof(e->vrf), "%s", fwd_vrf_name(vrf));
	snprintf(e->port, sizeof(e->port), "%s", iface != NULL ? iface : "");
	snprintf(e->text, sizeof(e->text), "table %u", fwd_vrfs[vrf].table);
}

int vrf_move(uint16_t id, uint16_t vrf)
{
	int rc = fwd_iface_set_vrf(id, vrf);

	if (rc == 0)
		vrf_event("moved", vrf, fwd_iface_name(id));
	return rc;
}

/* 1: VRF v goes; its interfaces go to default first. undo: made again by
 * vrf_undo (not when vrf_undo itself removes one it made). */
static int vrf_remove(uint16_t v, struct fwd_reload_log *log, bool undo_it)
{
	const struct fwd_iface *ifp;
	int rc;

	FWD_IFACE_FOREACH(ifp)
	{
		if (ifp->vrf == v)
			vrf_move(ifp->id, FWD_VRF_DEFAULT);
	}
	vrf_event("del", v, NULL);
	if (log != NULL)
		fwd_reload_note(log, "vrf %s deleted", fwd_vrf_name(v));
	if (undo_it)
		undo.deleted[undo.n_deleted++] = fwd_vrfs[v];
	rc = fwd_vrf_del(v);
	if (rc < 0)
		LOG(ERR, "vrf %s: %s", fwd_vrf_name(v), strerror(-rc));
	return rc;
}

static void remove_gone(const struct fwd_config *next, struct fwd_reload_log *log)
{
	FWD_VRF_FOREACH(v)
	{
		const struct fwd_conf_vrf *c = vrf_conf_find(next, fwd_vrfs[v].name);

		if (v != FWD_VRF_DEFAULT && (c == NULL || c->table != fwd_vrfs[v].table))
			vrf_remove((uint16_t)v, log, true);
	}
}

/* 2: the file's VRFs that are not there yet. */
static int add_new(const struct fwd_config *next, struct fwd_reload_log *log)
{
	const struct vrf_conf *s = vrf_conf(next);

	for (unsigned i = 0; i < s->n; i++) {
		uint16_t id;
		int rc;

		if (fwd_vrf_by_name(s->vrfs[i].name) >= 0)
			continue;
		rc = fwd_vrf_add(s->vrfs[i].name, s->vrfs[i].table, &id);
		if (rc < 0) {
			fwd_reload_fail(log, "vrf %s (table %u): %s", s->vrfs[i].name,
			                s->vrfs[i].table, strerror(-rc));
			return rc;
		}
		undo.added[undo.n_added++] = id;
		vrf_event("add", id, NULL);
		fwd_reload_note(log, "vrf %s added (table %u)", s->vrfs[i].name, s->vrfs[i].table);
	}
	return 0;
}

/* 3: each port into the file's VRF. */
static int move_ports(const struct fwd_config *next, struct fwd_reload_log *log)
{
	for (unsigned i = 0; i < next->n_ports; i++) {
		int v = vrf_id_of(next->ports[i].vrf);
		uint16_t from = fwd_ifaces[i].vrf;
		int rc;

		if (v < 0 || from == v)
			continue;
		rc = vrf_move((uint16_t)i, (uint16_t)v);
		if (rc < 0) {
			fwd_reload_fail(log, "port %s: vrf %s: %s", next->ports[i].name,
			                next->ports[i].vrf, strerror(-rc));
			return rc;
		}
		undo.moved[undo.n_moved].id = (uint16_t)i;
		undo.moved[undo.n_moved++].from = from;
		fwd_reload_note(log, "port %s: vrf %s", next->ports[i].name,
		                fwd_vrf_name((unsigned)v));
	}
	return 0;
}

static void vrf_undo(void)
{
	for (unsigned i = undo.n_moved; i-- > 0;)
		if (fwd_vrf_used(undo.moved[i].from))
			vrf_move(undo.moved[i].id, undo.moved[i].from);
	for (unsigned i = undo.n_added; i-- > 0;)
		vrf_remove(undo.added[i], NULL, false);
	for (unsigned i = 0; i < undo.n_deleted; i++) {
		uint16_t id;

		if (fwd_vrf_add(undo.deleted[i].name, undo.deleted[i].table, &id) == 0)
			vrf_event("add", id, NULL);
	}
	memset(&undo, 0, sizeof(undo));
}

static void vrf_commit(void)
{
	memset(&undo, 0, sizeof(undo));
}

static int vrf_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                            struct fwd_reload_log *log)
{
	int rc;

	(void)cur; /* what runs is the reference: fwdctl may have moved interfaces */
	memset(&undo, 0, sizeof(undo));
	remove_gone(next, log);
	rc = add_new(next, log);
	if (rc == 0)
		rc = move_ports(next, log);
	if (rc < 0)
		vrf_undo();
	return rc;
}

static int vrf_init(const struct fwd_config *cfg)
{
	struct fwd_reload_log log = { 0 };
	int rc = vrf_reload_apply(NULL, cfg, &log);

	if (rc < 0)
		LOG(ERR, "%s", log.errors > 0 ? log.lines[log.last_error] : strerror(-rc));
	fwd_reload_log_free(&log);
	vrf_commit();
	return rc;
}

static void vrf_fini(void)
{
	fwd_vrf_reset();
}

/* config show: the VRFs that run (they change by reload only), and each
 * port's. */
static int vrf_running(struct fwd_config *run, uint64_t *omitted)
{
	(void)omitted;
	for (unsigned i = 0; i < run->n_ports; i++)
		snprintf(run->ports[i].vrf, sizeof(run->ports[i].vrf), "%s",
		         fwd_ifaces[i].vrf == FWD_VRF_DEFAULT ? ""
		                                              : fwd_vrf_name(fwd_ifaces[i].vrf));
	return 0;
}

static struct fwd_module vrf_module = {
	.name = "vrf",
	.depends_on = "ip4 ip6",
	.init = vrf_init,
	.fini = vrf_fini,
	.reload_apply = vrf_reload_apply,
	.undo = vrf_undo,
	.commit = vrf_commit,
	.running = vrf_running,
};
FWD_MODULE(vrf_module);
