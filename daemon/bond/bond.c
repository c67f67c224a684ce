/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Bonds' members and who carries the traffic (control thread;
 * doc/architecture.md "Bonds"). A member joins idle; bond_update decides
 * from the members' links (and, with LACP, their state machines) which
 * collect (their frames are the bond's: fwd_ports[].member) and which
 * distribute (the set bond_dp[].dist the workers hash over, published with
 * a release store and reused only after an RCU grace period). Active-backup
 * keeps one active member and fails over to the next one that is up; the
 * bond's interface then gets FWD_IFACE_EV_LINK (ip4 and ip6 announce its
 * addresses on the new member).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_rcu_qsbr.h>

#include "bond/bond.h"
#include "bond/lacp_ctl.h"
#include "core/daemon.h"
#include "core/event.h"
#include "core/iface.h"
#include "core/log.h"
#include "core/ports.h"
#include "core/worker.h"

static struct bond bonds[FWD_MAX_PORTS]; /* by the bond's port index */

struct bond *bond_get(uint8_t port)
{
	return port < FWD_MAX_PORTS && bonds[port].used ? &bonds[port] : NULL;
}

struct bond *bond_by_name(const char *name)
{
	for (unsigned i = 0; i < FWD_MAX_PORTS; i++)
		if (bonds[i].used && strcmp(fwd_ports[i].name, name) == 0)
			return &bonds[i];
	return NULL;
}

struct bond *bond_of_member(uint8_t port, struct bond_member **mp)
{
	for (unsigned i = 0; i < FWD_MAX_PORTS; i++)
		for (unsigned k = 0; bonds[i].used && k < bonds[i].n_members; k++)
			if (bonds[i].m[k].port == port) {
				if (mp != NULL)
					*mp = &bonds[i].m[k];
				return &bonds[i];
			}
	return NULL;
}

static void grace_period(void)
{
	if (fwd.rcu != NULL && fwd.n_workers != 0)
		rte_rcu_qsbr_synchronize(fwd.rcu, RTE_QSBR_THRID_INVALID);
}

/* `fwdctl monitor bond`. */
static void bond_event(const struct bond *b, const char *action, const struct bond_member *m)
{
	struct fwd_event *e = fwd_event_new(FWD_EVENT_BOND, action);

	if (e == NULL)
		return;
	snprintf(e->port, sizeof(e->port), "%s", fwd_ports[b->port].name);
	if (m != NULL)
		snprintf(e->text, sizeof(e->text), "member %s", fwd_ports[m->port].name);
}

/* Publish the distributing members (none while min_links is not met). */
static void dist_publish(struct bond *b)
{
	struct bond_dist *d = &b->dist[b->cur ^ 1];
	const struct bond_dist *old = &b->dist[b->cur];

	d->n = 0;
	for (unsigned k = 0; b->up && k < b->n_members; k++)
		if (b->m[k].distributing)
			d->member[d->n++] = b->m[k].port;
	if (bond_dp[b->port].dist == old && old->n == d->n &&
	    memcmp(old->member, d->member, d->n) == 0)
		return;
	__atomic_store_n(&bond_dp[b->port].dist, d, __ATOMIC_RELEASE);
	b->cur ^= 1;
	grace_period(); /* the old set is free to be rewritten */
}

/* The member's frames to the bond (or not), as it collects. */
static void member_rx_state(const struct bond_member *m)
{
	__atomic_store_n(&fwd_ports[m->port].member,
	                 (uint8_t)(m->collecting ? FWD_MEMBER_COLLECTING : FWD_MEMBER_IDLE),
	                 __ATOMIC_RELEASE);
}

/* Active-backup: the active member while it is up, else the next one up
 * after it; -1 if none is. */
static int ab_pick(const struct bond *b)
{
	unsigned n = b->n_members;
	int from = b->active >= 0 ? b->active : (int)n - 1;

	if (b->active >= 0 && b->m[b->active].link)
		return b->active;
	for (unsigned i = 1; i <= n; i++) {
		unsigned k = ((unsigned)from + i) % n;

		if (b->m[k].link)
			return (int)k;
	}
	return -1;
}

/* Active-backup's decision; true on a failover to another member. */
static bool ab_decide(struct bond *b)
{
	int was = b->active, now = ab_pick(b);

	b->active = now;
	for (unsigned k = 0; k < b->n_members; k++)
		b->m[k].collecting = b->m[k].distributing = (int)k == now;
	if (now == was || now < 0)
		return false;
	b->failovers += was >= 0;
	LOG(NOTICE, "bond %s: %s active member %s", fwd_ports[b->port].name,
	    was >= 0 ? "failover: new" : "the", fwd_ports[b->m[now].port].name);
	bond_event(b, was >= 0 ? "failover" : "active", &b->m[now]);
	return true;
}

/* LACP's decision: the state machines' (bond/lacp_ctl.c), on a member
 * whose link is up. */
static void lacp_decide(struct bond *b)
{
	for (unsigned k = 0; k < b->n_members; k++) {
		struct bond_member *m = &b->m[k];

		m->collecting = m->link && lacp_ctl_collecting(m->port);
		m->distributing = m->link && lacp_ctl_distributing(m->port);
	}
}

static void bond_link_state(struct bond *b, bool up)
{
	struct fwd_port *p = &fwd_ports[b->port];

	if (up == b->up)
		return;
	b->up = up;
	p->link_up = up;
	p->link_changes++;
	LOG(NOTICE, "bond %s: %s", p->name, up ? "up" : "down (fewer members than min_links)");
	bond_event(b, up ? "up" : "down", NULL);
}

void bond_update(struct bond *b)
{
	bool moved = false;
	unsigned n_dist = 0;

	if (b->lacp)
		lacp_decide(b);
	else
		moved = ab_decide(b);
	for (unsigned k = 0; k < b->n_members; k++) {
		n_dist += b->m[k].distributing;
		if (b->m[k].collecting)
			member_rx_state(&b->m[k]);
	}
	bond_link_state(b, n_dist >= b->min_links);
	dist_publish(b);
	/* those that stopped collecting once no set sends to them */
	for (unsigned k = 0; k < b->n_members; k++)
		if (!b->m[k].collecting)
			member_rx_state(&b->m[k]);
	if (moved)
		fwd_iface_link_moved(b->port);
}

void bond_member_link(struct bond *b, struct bond_member *m, bool up)
{
	if (m->link == up)
		return;
	m->link = up;
	m->link_changes++;
	LOG(NOTICE, "bond %s: member %s link %s", fwd_ports[b->port].name, fwd_ports[m->port].name,
	    up ? "up" : "down");
	bond_event(b, up ? "link-up" : "link-down", m);
	if (b->lacp)
		lacp_ctl_member_link(m->port, up); /* may call bond_member_changed */
}

int bond_member_tx(uint8_t port, struct rte_mbuf *m)
{
	return fwd_control_tx(m, port); /* which frees m when it cannot send it */
}

void bond_member_changed(uint8_t port)
{
	struct bond *b = bond_of_member(port, NULL);

	if (b != NULL)
		bond_update(b);
}

/* Tell LACP who the members are: the actor's system is the bond's MAC. */
static void lacp_members(const struct bond *b)
{
	for (unsigned k = 0; k < b->n_members; k++) {
		uint8_t port = b->m[k].port;

		if (!b->lacp) {
			lacp_ctl_member_clear(port);
			continue;
		}
		lacp_ctl_member_set(port, b->port, fwd_ports[b->port].mac.addr_bytes, b->lacp_fast);
		lacp_ctl_member_link(port, b->m[k].link);
	}
}

/* port joins b, idle. */
static void member_join(struct bond *b, uint8_t port)
{
	struct bond_member *m = &b->m[b->n_members++];

	memset(m, 0, sizeof(*m));
	m->port = port;
	fwd_ports[port].bond = b->port;
	__atomic_store_n(&fwd_ports[port].member, (uint8_t)FWD_MEMBER_IDLE, __ATOMIC_RELEASE);
	bond_event(b, "join", m);
}

/* Member k leaves b (it is out of the set already): a plain port again. */
static void member_leave(struct bond *b, unsigned k)
{
	struct bond_member *m = &b->m[k];

	bond_event(b, "leave", m);
	lacp_ctl_member_clear(m->port);
	__atomic_store_n(&fwd_ports[m->port].member, (uint8_t)FWD_MEMBER_NONE, __ATOMIC_RELEASE);
	if (b->active == (int)k)
		b->active = -1;
	else if (b->active > (int)k)
		b->active--;
	memmove(m, m + 1, (b->n_members - k - 1) * sizeof(*m));
	b->n_members--;
}

/* The bond's MAC is its first member's. */
static void bond_mac(struct bond *b)
{
	struct fwd_port *p = &fwd_ports[b->port];

	if (b->n_members == 0 || memcmp(&p->mac, &fwd_ports[b->m[0].port].mac, 6) == 0)
		return;
	p->mac = fwd_ports[b->m[0].port].mac;
	memcpy(&p->mac48, &p->mac, sizeof(p->mac));
	fwd_iface_port_sync(b->port);
}

static bool conf_has(const struct fwd_conf_bond *c, const char *name)
{
	for (unsigned j = 0; j < c->n_members; j++)
		if (strcmp(c->members[j], name) == 0)
			return true;
	return false;
}

int bond_reconfigure(struct bond *b, const struct fwd_conf_bond *c)
{
	b->lacp = c->lacp;
	b->lacp_fast = c->lacp_rate == BOND_RATE_FAST;
	b->hash = (uint8_t)c->hash;
	b->min_links = c->min_links;
	bond_dp[b->port].hash = b->hash;
	/* leavers first out of the set, then out of the bond */
	for (unsigned k = 0; k < b->n_members; k++)
		if (!conf_has(c, fwd_ports[b->m[k].port].name))
			b->m[k].collecting = b->m[k].distributing = b->m[k].link = false;
	bond_update(b);
	for (unsigned k = b->n_members; k-- > 0;)
		if (!conf_has(c, fwd_ports[b->m[k].port].name))
			member_leave(b, k);
	for (unsigned j = 0; j < c->n_members; j++) {
		struct fwd_port *p = fwd_port_by_name(c->members[j]);
		struct bond_member *m;

		if (p == NULL || p->is_bond)
			return -ENODEV;
		if (bond_of_member(p->idx, &m) == NULL)
			member_join(b, p->idx);
	}
	bond_mac(b);
	lacp_members(b);
	bond_update(b);
	return 0;
}

int bond_setup(const struct fwd_conf_bond *c, uint8_t port)
{
	struct bond *b = &bonds[port];

	if (port >= FWD_MAX_PORTS || !fwd_ports[port].is_bond)
		return -EINVAL;
	memset(b, 0, sizeof(*b));
	b->used = true;
	b->port = port;
	b->active = -1;
	b->up = true; /* so that the first update says down if it is */
	LOG(INFO, "bond %s: %u members, %s", c->name, c->n_members,
	    c->lacp ? "LACP" : "active-backup");
	return bond_reconfigure(b, c);
}

void bond_teardown(struct bond *b)
{
	for (unsigned k = 0; k < b->n_members; k++)
		b->m[k].collecting = b->m[k].distributing = b->m[k].link = false;
	bond_update(b);
	while (b->n_members > 0)
		member_leave(b, b->n_members - 1);
	__atomic_store_n(&bond_dp[b->port].dist, NULL, __ATOMIC_RELEASE);
	grace_period();
	b->used = false;
}

void bond_reset(void)
{
	for (unsigned i = 0; i < FWD_MAX_PORTS; i++)
		if (bonds[i].used)
			bond_teardown(&bonds[i]);
}
