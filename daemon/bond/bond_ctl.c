/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The bond module (control thread): bonds made at start-up from bonds[]
 * (their ports are in place: port/ made them from the config's derived
 * entries), the members' link polled every BOND_POLL_MS (a member whose
 * link goes down leaves within a second), and reload: bonds added after
 * the others, members joining and leaving, hash, LACP and min_links
 * changed. Removing or renaming a bond, or changing its mode or MTU,
 * needs a restart (as a port's).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>

#include "bond/bond.h"
#include "bond/lacp_ctl.h"
#include "core/control.h"
#include "core/daemon.h"
#include "core/err.h"
#include "core/log.h"
#include "core/module.h"
#include "core/ports.h"
#include "core/reload.h"
#include "port/port.h"

#define BOND_POLL_MS 100

static struct event *poll_ev;

/* The link of member port p: its kernel interface's carrier (af_packet,
 * af_xdp: the PMD's own link is always up), else the PMD's; down while
 * the port is administratively down. */
static bool member_link(const struct fwd_port *p)
{
	struct rte_eth_link link;
	char path[64], c = '0';
	FILE *f;

	if (!p->admin_up || !p->started)
		return false;
	if (p->kif[0] == '\0' || strchr(p->kif, '/') != NULL)
		return rte_eth_link_get_nowait(p->port_id, &link) == 0 &&
		       link.link_status == RTE_ETH_LINK_UP;
	snprintf(path, sizeof(path), "/sys/class/net/%s/carrier", p->kif);
	f = fopen(path, "r");
	if (f == NULL)
		return false;
	if (fread(&c, 1, 1, f) != 1)
		c = '0'; /* an interface down has no carrier to read */
	fclose(f);
	return c == '1';
}

static void bond_poll(void *arg)
{
	(void)arg;
	for (unsigned i = 0; i < fwd_n_ports; i++) {
		struct bond *b = bond_get((uint8_t)i);

		if (b == NULL)
			continue;
		for (unsigned k = 0; k < b->n_members; k++)
			bond_member_link(b, &b->m[k], member_link(&fwd_ports[b->m[k].port]));
		bond_update(b);
	}
}

static int setup_all(const struct fwd_config *cfg)
{
	for (unsigned i = 0; i < cfg->n_ports; i++) {
		const struct fwd_conf_port *cp = &cfg->ports[i];
		int rc;

		if (!cp->bond || bond_get((uint8_t)i) != NULL)
			continue;
		if (!fwd_ports[i].is_bond && (rc = fwd_port_bond_add(cfg, i)) < 0)
			return rc;
		rc = bond_setup(bond_conf_find(cfg, cp->name), (uint8_t)i);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int bond_module_init(const struct fwd_config *cfg)
{
	static const struct lacp_ctl_ops ops = {
		.member_tx = bond_member_tx,
		.member_changed = bond_member_changed,
	};
	int rc;

	lacp_ctl_ops_set(&ops);
	rc = setup_all(cfg);

	if (rc < 0)
		return rc;
	poll_ev = fwd_timer_every(BOND_POLL_MS * 1000, bond_poll, NULL);
	return poll_ev != NULL ? 0 : -ENOMEM;
}

static void bond_module_fini(void)
{
	fwd_timer_free(&poll_ev);
	bond_reset();
}

/* A bond of cur at port index i stays at i in next, a port of the same
 * mode and MTU. */
static int check_kept(const struct fwd_conf_port *c, const struct fwd_conf_port *n, char *err,
                      size_t errlen)
{
	if (n == NULL || !n->bond || strcmp(c->name, n->name) != 0)
		return ERR(EBUSY, "bond %s: removing or reordering bonds needs a restart", c->name);
	if (c->mode != n->mode || strcmp(c->peer, n->peer) != 0)
		return ERR(EBUSY, "bond %s: changing its mode needs a restart", c->name);
	if (c->mtu != n->mtu)
		return ERR(EBUSY, "bond %s: changing its mtu needs a restart", c->name);
	return 0;
}

static int bond_reload_check(const struct fwd_config *cur, const struct fwd_config *next, char *err,
                             size_t errlen)
{
	for (unsigned i = 0; i < cur->n_ports; i++) {
		int rc;

		if (!cur->ports[i].bond)
			continue;
		rc = check_kept(&cur->ports[i], i < next->n_ports ? &next->ports[i] : NULL, err,
		                errlen);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static const struct fwd_config *undo_cfg; /* the config before the last apply */

/* next's bonds: those cur has not made, the others reconfigured where
 * they changed (cur NULL: all of them). */
static int apply(const struct fwd_config *cur, const struct fwd_config *next,
                 struct fwd_reload_log *log)
{
	int rc = setup_all(next);

	for (unsigned i = 0; rc == 0 && i < next->n_ports; i++) {
		const char *name = next->ports[i].name;
		const struct fwd_conf_bond *c = bond_conf_find(next, name);
		const struct fwd_conf_bond *was = cur != NULL ? bond_conf_find(cur, name) : NULL;
		struct bond *b = bond_get((uint8_t)i);

		if (!next->ports[i].bond || b == NULL || c == NULL ||
		    (was != NULL && bond_conf_same_bond(was, c)))
			continue;
		rc = bond_reconfigure(b, c);
		if (rc == 0 && log != NULL)
			fwd_reload_note(log, "bond %s: %u members, %s, hash %s", c->name,
			                c->n_members, c->lacp ? "LACP" : "active-backup",
			                bond_hash_name(c->hash));
	}
	return rc;
}

static int bond_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                             struct fwd_reload_log *log)
{
	int rc;

	undo_cfg = cur;
	rc = apply(cur, next, log);
	if (rc < 0)
		fwd_reload_fail(log, "bonds: %s", strerror(-rc));
	return rc;
}

/* Back to cur's members; a bond the reload added stays, without members. */
static void bond_undo(void)
{
	if (undo_cfg == NULL)
		return;
	(void)apply(NULL, undo_cfg, NULL);
	for (unsigned i = undo_cfg->n_ports; i < fwd_n_ports; i++) {
		struct bond *b = bond_get((uint8_t)i);

		if (b != NULL)
			bond_teardown(b);
	}
	undo_cfg = NULL;
}

static void bond_commit(void)
{
	undo_cfg = NULL;
}

static struct fwd_module bond_module = {
	.name = "bond",
	.depends_on = "port lacp",
	.init = bond_module_init,
	.fini = bond_module_fini,
	.reload_check = bond_reload_check,
	.reload_apply = bond_reload_apply,
	.undo = bond_undo,
	.commit = bond_commit,
};
FWD_MODULE(bond_module);
